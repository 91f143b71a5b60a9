"""Cross-reference checks: every name is defined once, and every reference resolves."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from specedit import edit, find_issue, issues, line_of


def test_duplicate_rule_id(spec_dir: Path) -> None:
    edit(spec_dir, "rules.yaml", "  - id: HM-ALIGN-LIVE\n", "  - id: HM-ALIGN-MALLOC\n")
    line = line_of(spec_dir, "rules.yaml", "id: HM-ALIGN-MALLOC", 3)  # HM-ALIGN-MALLOC, -MALLOC-CFG, the copy
    find_issue(issues(spec_dir), f"spec/rules.yaml:{line}: rules[2].id: duplicate rule id 'HM-ALIGN-MALLOC'")


def test_duplicate_name_between_an_error_and_an_enum_member(spec_dir: Path) -> None:
    edit(spec_dir, "types.yaml", "{name: ACL_RT_HAC_TYPE_CCU, value: 9,", "{name: ACL_ERROR_BAD_ALLOC, value: 9,")
    line = line_of(spec_dir, "types.yaml", "{name: ACL_ERROR_BAD_ALLOC, value: 9,")
    first = line_of(spec_dir, "types.yaml", "ACL_ERROR_BAD_ALLOC")
    find_issue(
        issues(spec_dir),
        f"spec/types.yaml:{line}: enums[2].members[9].name: duplicate name 'ACL_ERROR_BAD_ALLOC'",
        f"first defined at spec/types.yaml:{first}: errors[5].name",
    )


def test_duplicate_name_between_a_macro_and_an_interface(spec_dir: Path) -> None:
    edit(spec_dir, "types.yaml", "{name: ACL_PKG_VERSION_MAX_SIZE, value: 128,", "{name: aclrtFree, value: 128,")
    edit(spec_dir, "interfaces.yaml", "buffer: ACL_PKG_VERSION_MAX_SIZE", "buffer: aclrtFree")
    text = (spec_dir / "interfaces.yaml").read_text(encoding="utf-8")
    line = text[: text.index("  - name: aclrtFree\n")].count("\n") + 1
    find_issue(
        issues(spec_dir),
        f"spec/interfaces.yaml:{line}: interfaces[",
        "duplicate name 'aclrtFree'",
        "first defined at spec/types.yaml:",
    )


def test_duplicate_fault_name(spec_dir: Path) -> None:
    edit(spec_dir, "faults.yaml", "  - name: align_cfg_off8\n", "  - name: align_malloc_off16\n")
    line = line_of(spec_dir, "faults.yaml", "name: align_malloc_off16", 2)
    find_issue(issues(spec_dir), f"spec/faults.yaml:{line}: faults[1].name: duplicate fault 'align_malloc_off16'")


def test_duplicate_parameter(spec_dir: Path) -> None:
    edit(spec_dir, "interfaces.yaml", "{name: pDevice, type: void **", "{name: pHost, type: void **")
    line = line_of(spec_dir, "interfaces.yaml", "{name: pHost, type: void **")
    find_issue(
        issues(spec_dir), f"spec/interfaces.yaml:{line}: interfaces[6].params[1].name: duplicate parameter 'pHost'"
    )


def test_rule_names_unknown_interface(spec_dir: Path) -> None:
    edit(
        spec_dir,
        "rules.yaml",
        "    interfaces: [aclrtMallocHost, aclrtFreeHost]\n    applies: {run_mode: host",
        "    interfaces: [aclrtMallocHost, aclrtFreeHostt]\n    applies: {run_mode: host",
    )
    line = line_of(spec_dir, "rules.yaml", "aclrtFreeHostt")
    find_issue(
        issues(spec_dir),
        f"spec/rules.yaml:{line}: rules[0].interfaces[1]: rule names unknown interface 'aclrtFreeHostt'",
    )


def test_rule_expects_unknown_error_code(spec_dir: Path) -> None:
    text = (spec_dir / "rules.yaml").read_text(encoding="utf-8")
    code = "name: ACL_ERROR_HOST_MEMORY_NOT_REGISTERED"
    assert code in text
    edit(spec_dir, "rules.yaml", code, "name: ACL_ERROR_HOST_MEMORY_NOT_REGISTRED", count=text.count(code))
    line = line_of(spec_dir, "rules.yaml", "ACL_ERROR_HOST_MEMORY_NOT_REGISTRED")
    find_issue(
        issues(spec_dir), f"spec/rules.yaml:{line}: rules[", "unknown error code 'ACL_ERROR_HOST_MEMORY_NOT_REGISTRED'"
    )


def test_invalid_argument_error_names_unknown_code(spec_dir: Path) -> None:
    text = (spec_dir / "rules.yaml").read_text(encoding="utf-8")
    start = text.index("  - id: HM-INVAL-MALLOC-HOST\n")
    needle = "code: {name: ACL_ERROR_INVALID_PARAM,"
    at = text.index(needle, start)
    (spec_dir / "rules.yaml").write_text(
        text[:at] + "code: {name: ACL_ERROR_NO_SUCH," + text[at + len(needle) :], encoding="utf-8"
    )
    line = line_of(spec_dir, "rules.yaml", "ACL_ERROR_NO_SUCH")
    find_issue(
        issues(spec_dir), f"spec/rules.yaml:{line}: rules[",
        ".errors[0].code.name: unknown error code 'ACL_ERROR_NO_SUCH'",
    )


def test_pairs_with_unknown_function(spec_dir: Path) -> None:
    edit(spec_dir, "interfaces.yaml", "pairs_with: [aclrtHostUnregister]", "pairs_with: [aclrtHostUnregistr]", count=2)
    line = line_of(spec_dir, "interfaces.yaml", "aclrtHostUnregistr]")
    find_issue(
        issues(spec_dir),
        f"spec/interfaces.yaml:{line}: interfaces[4].pairs_with[0]: pairs with unknown function 'aclrtHostUnregistr'",
    )


def test_fault_violates_unknown_rule(spec_dir: Path) -> None:
    edit(spec_dir, "faults.yaml", "violates: [HM-ALIGN-MALLOC-CFG]", "violates: [HM-ALIGN-MALLOC-CONFIG]")
    line = line_of(spec_dir, "faults.yaml", "HM-ALIGN-MALLOC-CONFIG")
    find_issue(
        issues(spec_dir),
        f"spec/faults.yaml:{line}: faults[1].violates[0]: fault names unknown rule 'HM-ALIGN-MALLOC-CONFIG'",
    )


def test_matrix_ref_to_unknown_matrix(spec_dir: Path) -> None:
    edit(spec_dir, "rules.yaml", 'size: ["@sizes_small", "@sizes_large", sampled]',
         'size: ["@sizes_small", "@sizes_huge", sampled]')
    line = line_of(spec_dir, "rules.yaml", "@sizes_huge")
    find_issue(
        issues(spec_dir), f"spec/rules.yaml:{line}: rules[0].matrix.size: matrix names unknown matrix 'sizes_huge'"
    )


def test_matrix_ref_to_unknown_enum(spec_dir: Path) -> None:
    edit(spec_dir, "rules.yaml", 'cfg: "@cfg_variants"', 'cfg: "@enum:aclrtNoSuchEnum"')
    line = line_of(spec_dir, "rules.yaml", "@enum:aclrtNoSuchEnum")
    find_issue(
        issues(spec_dir), f"spec/rules.yaml:{line}: rules[1].matrix.cfg: matrix names unknown enum 'aclrtNoSuchEnum'"
    )


def test_invalid_argument_condition_names_missing_parameter(spec_dir: Path) -> None:
    text = (spec_dir / "rules.yaml").read_text(encoding="utf-8")
    start = text.index("  - id: HM-INVAL-MALLOC-HOST\n")
    needle = "when: {param: size, equals: 0}"
    at = text.index(needle, start)
    (spec_dir / "rules.yaml").write_text(
        text[:at] + "when: {param: sz, equals: 0}" + text[at + len(needle) :], encoding="utf-8"
    )
    line = line_of(spec_dir, "rules.yaml", "param: sz,")
    find_issue(
        issues(spec_dir),
        f"spec/rules.yaml:{line}: rules[",
        "].errors[1].when.param: aclrtMallocHost has no parameter 'sz'",
    )


def test_support_matrix_missing_a_family(spec_dir: Path) -> None:
    edit(
        spec_dir,
        "interfaces.yaml",
        "    support: *all_but_ipv350\n    pairs_with: [aclrtFreeHost, aclrtFreeHostWithDevSync]\n"
        "    implicit_sync: none\n    params:\n      - {name: hostPtr",
        "    support: {ascend_950: true, atlas_a3: true}\n    pairs_with: [aclrtFreeHost, aclrtFreeHostWithDevSync]\n"
        "    implicit_sync: none\n    params:\n      - {name: hostPtr",
    )
    line = line_of(spec_dir, "interfaces.yaml", "support: {ascend_950: true, atlas_a3: true}")
    find_issue(issues(spec_dir), f"spec/interfaces.yaml:{line}: interfaces[0].support: no support entry for atlas_a2,")


def test_support_matrix_naming_unknown_family(spec_dir: Path) -> None:
    edit(
        spec_dir,
        "interfaces.yaml",
        "  all_but_ipv350: &all_but_ipv350\n    ascend_950: true\n",
        "  all_but_ipv350: &all_but_ipv350\n    ascend_950: true\n    ascend_999: true\n",
    )
    found = issues(spec_dir)
    line = line_of(spec_dir, "interfaces.yaml", "ascend_999")
    find_issue(
        found, f"spec/interfaces.yaml:{line}: interfaces[0].support.ascend_999: unknown product family 'ascend_999'"
    )


def test_interface_under_test_without_support_matrix(spec_dir: Path) -> None:
    edit(
        spec_dir,
        "interfaces.yaml",
        "    support: *registration\n    implicit_sync: none\n    params:\n      - {name: pHost",
        "    implicit_sync: none\n    params:\n      - {name: pHost",
    )
    find_issue(
        issues(spec_dir),
        "spec/interfaces.yaml:",
        "interfaces[6].support: an interface under test needs a support matrix",
    )


def test_struct_member_offset_outside_the_struct(spec_dir: Path) -> None:
    edit(
        spec_dir,
        "types.yaml",
        "{name: numAttrs, type: size_t, offset: 8,",
        "{name: numAttrs, type: size_t, offset: 16,",
    )
    line = line_of(spec_dir, "types.yaml", "{name: numAttrs")
    find_issue(
        issues(spec_dir),
        f"spec/types.yaml:{line}: structs[2].members[1].offset: offset 16 lies outside the 16-byte aclrtMallocConfig",
    )


def test_union_member_not_at_zero(spec_dir: Path) -> None:
    edit(
        spec_dir, "types.yaml", "{name: vaFlag, type: uint32_t, offset: 0,", "{name: vaFlag, type: uint32_t, offset: 4,"
    )
    line = line_of(spec_dir, "types.yaml", "{name: vaFlag")
    find_issue(
        issues(spec_dir), f"spec/types.yaml:{line}: structs[0].members[2].offset: union members start at offset 0"
    )


def test_unknown_type(spec_dir: Path) -> None:
    edit(spec_dir, "interfaces.yaml", "{name: cfg, type: aclrtMallocConfig *,", "{name: cfg, type: aclrtMallocCfg *,")
    line = line_of(spec_dir, "interfaces.yaml", "aclrtMallocCfg *")
    find_issue(
        issues(spec_dir), f"spec/interfaces.yaml:{line}: interfaces[1].params[2].type: unknown type 'aclrtMallocCfg'"
    )


def test_enum_value_repeats(spec_dir: Path) -> None:
    edit(spec_dir, "types.yaml", "{name: ACL_RT_HAC_TYPE_CCU, value: 9,", "{name: ACL_RT_HAC_TYPE_CCU, value: 8,")
    line = line_of(spec_dir, "types.yaml", "ACL_RT_HAC_TYPE_CCU")
    find_issue(
        issues(spec_dir), f"spec/types.yaml:{line}: enums[2].members[9].value: value 8 repeats ACL_RT_HAC_TYPE_UDMA"
    )


def test_flag_constraint_names_unknown_macro(spec_dir: Path) -> None:
    edit(spec_dir, "interfaces.yaml", "allowed: [ACL_HOST_REG_MAPPED,", "allowed: [ACL_HOST_REG_MAPED,")
    line = line_of(spec_dir, "interfaces.yaml", "ACL_HOST_REG_MAPED")
    find_issue(
        issues(spec_dir),
        f"spec/interfaces.yaml:{line}: interfaces[5].params[2].constraints[0].flags.allowed[0]: "
        "unknown flag macro 'ACL_HOST_REG_MAPED'",
    )


def test_every_issue_is_reported_at_once(spec_dir: Path) -> None:
    edit(spec_dir, "faults.yaml", "violates: [HM-ALIGN-MALLOC-CFG]", "violates: [HM-NOPE]")
    edit(spec_dir, "rules.yaml", 'size: ["@sizes_small", "@sizes_large", sampled]',
         'size: ["@sizes_small", "@nope", sampled]')
    edit(
        spec_dir,
        "types.yaml",
        "{name: numAttrs, type: size_t, offset: 8,",
        "{name: numAttrs, type: size_t, offset: 99,",
    )
    found = issues(spec_dir)
    find_issue(found, "spec/faults.yaml:", "HM-NOPE")
    find_issue(found, "spec/rules.yaml:", "'nope'")
    find_issue(found, "spec/types.yaml:", "offset 99")


@pytest.mark.parametrize("name", ["raw", "self", "ffi", "_ptr"])
def test_parameter_names_that_break_the_python_wrappers(spec_dir: Path, name: str) -> None:
    edit(spec_dir, "interfaces.yaml", "{name: configPath,", f"{{name: {name},")
    line = line_of(spec_dir, "interfaces.yaml", f"{{name: {name},")
    find_issue(issues(spec_dir), f"spec/interfaces.yaml:{line}: interfaces[9].params[0].name: '{name}' would clash")


def test_parameter_name_clashing_with_a_wrapper_local(spec_dir: Path) -> None:
    edit(
        spec_dir,
        "interfaces.yaml",
        "{name: args, type: void *, direction: in, nullable: true}",
        "{name: c_fn, type: void *, direction: in, nullable: true}",
    )
    line = line_of(spec_dir, "interfaces.yaml", "{name: c_fn,")
    find_issue(
        issues(spec_dir), f"spec/interfaces.yaml:{line}: interfaces[", "'c_fn' would clash with the wrapper's local"
    )


@pytest.mark.parametrize(
    ("file", "old", "new", "path"),
    [
        ("types.yaml", "{name: ACL_ERROR_BAD_ALLOC,", "{name: AclError,", "errors[5].name"),
        ("types.yaml", "{name: ACL_RT_HAC_TYPE_CCU,", "{name: load,", "enums[2].members[9].name"),
        ("types.yaml", "{name: ACL_PKG_VERSION_MAX_SIZE, value: 128,", "{name: OUT, value: 128,", "macros[4].name"),
        ("interfaces.yaml", "  - name: aclFinalize\n", "  - name: trace\n", "interfaces[10].name"),
    ],
)
def test_names_that_would_shadow_the_bindings(spec_dir: Path, file: str, old: str, new: str, path: str) -> None:
    edit(spec_dir, file, old, new)
    if "OUT" in new:
        edit(spec_dir, "interfaces.yaml", "buffer: ACL_PKG_VERSION_MAX_SIZE", "buffer: OUT")
    found = issues(spec_dir)
    find_issue(found, f"spec/{file}:", f"{path}: ", "would clash with a name of the generated Python bindings")


def test_reserved_binding_names_cover_the_generated_module() -> None:
    from specedit import ROOT

    from codegen.load import load_spec
    from codegen.validate import BINDINGS_LIBRARY_MEMBERS, BINDINGS_MODULE_NAMES

    spec = load_spec(ROOT / "spec")
    tree = ast.parse((ROOT / "acl_hostmem_generated" / "acl_bindings.py").read_text(encoding="utf-8"))
    defined: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            defined |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.Assign):
            defined |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            defined.add(node.target.id)
    constants = {name for name, _ in spec.constants}
    assert {n for n in defined - constants if not n.startswith("_")} <= BINDINGS_MODULE_NAMES
    # The library's own members are set by the base class of the shipped, hand-written half.
    runtime = ast.parse((ROOT / "acl_hostmem_generated" / "acl_runtime.py").read_text(encoding="utf-8"))
    library = next(n for n in runtime.body if isinstance(n, ast.ClassDef) and n.name == "LibraryBase")
    init = next(n for n in library.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    members = {
        t.attr for n in ast.walk(init) if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Attribute)
    }
    assert members <= BINDINGS_LIBRARY_MEMBERS


# ---- needs and also ---------------------------------------------------------------------------


def _needs_of(spec_dir: Path, rule_id: str, old: str, new: str) -> int:
    """Replace the `needs:` line ``old`` of ``rule_id`` with ``new``; returns the line it is on."""
    text = (spec_dir / "rules.yaml").read_text(encoding="utf-8")
    start = text.index(f"  - id: {rule_id}\n")
    at = text.index(f"    needs: {old}\n", start)
    assert at < text.index("\n\n", start), f"{rule_id} has no needs {old}"
    (spec_dir / "rules.yaml").write_text(text[:at] + f"    needs: {new}\n" + text[at + len(f"    needs: {old}\n"):],
                                         encoding="utf-8")
    return text[:at].count("\n") + 1


def test_needs_naming_an_unknown_rule(spec_dir: Path) -> None:
    line = _needs_of(spec_dir, "HM-ALIGN-MALLOC", "[HM-PAIR-MALLOC-FREE]", "[HM-PAIR-MALLOC-FREE, HM-PAIR-MALLOC-FRE]")
    find_issue(issues(spec_dir), f"spec/rules.yaml:{line}: rules[0].needs[1]: needs unknown rule 'HM-PAIR-MALLOC-FRE'")


def test_a_rule_cannot_need_itself(spec_dir: Path) -> None:
    line = _needs_of(spec_dir, "HM-ALIGN-MALLOC", "[HM-PAIR-MALLOC-FREE]", "[HM-PAIR-MALLOC-FREE, HM-ALIGN-MALLOC]")
    found = issues(spec_dir)
    find_issue(found, f"spec/rules.yaml:{line}: rules[0].needs[1]: a rule cannot need its own promise")
    assert not any("cycle" in i for i in found), found  # needing itself is reported once, not as a cycle too


def test_needs_that_form_a_cycle(spec_dir: Path) -> None:
    # HM-ALIGN-LIVE needs HM-ALIGN-MALLOC; HM-ALIGN-MALLOC needing HM-ALIGN-LIVE closes a cycle
    _needs_of(spec_dir, "HM-ALIGN-MALLOC", "[HM-PAIR-MALLOC-FREE]", "[HM-PAIR-MALLOC-FREE, HM-ALIGN-LIVE]")
    found = find_issue(issues(spec_dir), "spec/rules.yaml:", ".needs: needs form a cycle: ")
    assert "HM-ALIGN-MALLOC" in found and "HM-ALIGN-LIVE" in found


def test_a_longer_cycle_is_named_with_every_rule_on_it(spec_dir: Path) -> None:
    # HM-CFG-MULTI-ATTR needs HM-ALIGN-MALLOC-CFG, which needs HM-PAIR-MALLOC-FREE (which needs
    # nothing); HM-PAIR-MALLOC-FREE needing HM-CFG-MULTI-ATTR closes a cycle of three
    text = (spec_dir / "rules.yaml").read_text(encoding="utf-8")
    start = text.index("  - id: HM-PAIR-MALLOC-FREE\n")
    assert "    needs:" not in text[start:text.index("\n\n", start)]
    at = text.index("    interfaces: ", start)
    (spec_dir / "rules.yaml").write_text(text[:at] + "    needs: [HM-CFG-MULTI-ATTR]\n" + text[at:], encoding="utf-8")
    found = find_issue(issues(spec_dir), "spec/rules.yaml:", ".needs: needs form a cycle: ")
    cycle = found.split("needs form a cycle: ", 1)[1].split(" -> ")
    assert cycle[0] == cycle[-1] and len(cycle) == 4, found
    assert set(cycle) == {"HM-PAIR-MALLOC-FREE", "HM-CFG-MULTI-ATTR", "HM-ALIGN-MALLOC-CFG"}, found


def test_an_extra_combination_must_name_exactly_the_matrix_keys(spec_dir: Path) -> None:
    edit(spec_dir, "rules.yaml", "    also: [{size: 4096, hold: window}]\n", "    also: [{size: 4096}]\n")
    line = line_of(spec_dir, "rules.yaml", "also: [{size: 4096}]")
    find_issue(issues(spec_dir), f"spec/rules.yaml:{line}: rules[", ".also[0]: an extra combination must name exactly "
               "the matrix keys (hold, size)")


def test_an_extra_combination_with_a_key_the_matrix_lacks(spec_dir: Path) -> None:
    edit(spec_dir, "rules.yaml", "    also: [{size: 4096, hold: window}]\n",
         "    also: [{size: 4096, hold: window, api: v1}]\n")
    find_issue(issues(spec_dir), "spec/rules.yaml:", ".also[0]: an extra combination must name exactly the matrix keys "
               "(hold, size)")


@pytest.mark.parametrize("codes, problem", [
    ("[ACL_ERROR_NO_SUCH_CODE]", "setup_promises.memory.codes[0]: unknown error code 'ACL_ERROR_NO_SUCH_CODE'"),
    ("[ACL_ERROR_RT_FEATURE_NOT_SUPPORT]",
     "setup_promises.memory.codes[0]: ACL_ERROR_RT_FEATURE_NOT_SUPPORT is already the code of set-up step 'supported'"),
], ids=["unknown", "twice"])
def test_a_set_up_promise_code_must_be_known_and_belong_to_one_step(spec_dir: Path, codes: str, problem: str) -> None:
    text = (spec_dir / "rules.yaml").read_text(encoding="utf-8")
    old = "  memory: {rule: HM-PAIR-EXHAUSTION, codes: [ACL_ERROR_RT_MEMORY_ALLOCATION]}\n"
    assert old in text
    (spec_dir / "rules.yaml").write_text(text.replace(old, f"  memory: {{rule: HM-PAIR-EXHAUSTION, codes: {codes}}}\n"),
                                         encoding="utf-8")
    find_issue(issues(spec_dir), "spec/rules.yaml:", problem)
