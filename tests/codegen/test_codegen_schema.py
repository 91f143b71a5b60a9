"""Schema checks: each class of bad input names file, line and field path, and says what is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest
from specedit import edit, find_issue, issues, line_of

MALLOC_HOST_NAME = "  - name: aclrtMallocHost\n"
ALIGN_SEVERITY = (
    "    check: alloc_alignment\n    severity: mandatory\n    needs: [HM-PAIR-MALLOC-FREE]\n"
    "    interfaces: [aclrtMallocHost, aclrtFreeHost]\n"
)


def test_the_committed_spec_is_valid() -> None:
    from specedit import ROOT

    assert issues(ROOT / "spec") == []


def test_unknown_key(spec_dir: Path) -> None:
    edit(
        spec_dir,
        "interfaces.yaml",
        "    implicit_sync: device\n",
        "    implicit_sync: device\n    implict_sync: none\n",
    )
    line = line_of(spec_dir, "interfaces.yaml", "implict_sync")
    find_issue(
        issues(spec_dir),
        f"spec/interfaces.yaml:{line}: interfaces[3].implict_sync: unknown key 'implict_sync'",
        "allowed:",
        "implicit_sync",
    )


def test_wrong_type(spec_dir: Path) -> None:
    edit(
        spec_dir, "types.yaml", "{name: ACL_ERROR_BAD_ALLOC, value: 200000,", "{name: ACL_ERROR_BAD_ALLOC, value: lots,"
    )
    line = line_of(spec_dir, "types.yaml", "ACL_ERROR_BAD_ALLOC")
    find_issue(issues(spec_dir), f"spec/types.yaml:{line}: errors[5].value: expected integer, got str 'lots'")


def test_wrong_type_of_a_list(spec_dir: Path) -> None:
    edit(
        spec_dir,
        "rules.yaml",
        "    interfaces: [aclrtMallocHost, aclrtFreeHost]\n    applies: {run_mode: host",
        "    interfaces: aclrtMallocHost\n    applies: {run_mode: host",
    )
    line = line_of(spec_dir, "rules.yaml", "interfaces: aclrtMallocHost")
    find_issue(issues(spec_dir), f"spec/rules.yaml:{line}: rules[0].interfaces: expected array, got str")


def test_missing_field(spec_dir: Path) -> None:
    edit(
        spec_dir,
        "rules.yaml",
        "    severity: mandatory\n    needs: [HM-PAIR-MALLOC-FREE]\n    interfaces: [aclrtMallocHost, aclrtFreeHost]\n"
        "    applies: {run_mode: host",
        "    needs: [HM-PAIR-MALLOC-FREE]\n    interfaces: [aclrtMallocHost, aclrtFreeHost]\n"
        "    applies: {run_mode: host",
    )
    line = line_of(spec_dir, "rules.yaml", "id: HM-ALIGN-MALLOC")
    find_issue(issues(spec_dir), f"spec/rules.yaml:{line}: rules[0].severity: missing required field 'severity'")


@pytest.mark.parametrize("bad", ["1bad", "foo-bar", "foo bar", "a" * 65, '"x\\n"', '"x\\ny"'])
def test_interface_name_must_be_a_c_identifier(spec_dir: Path, bad: str) -> None:
    edit(spec_dir, "interfaces.yaml", MALLOC_HOST_NAME, f"  - name: {bad}\n")
    line = line_of(spec_dir, "interfaces.yaml", "group: host_memory") - 1
    found = find_issue(issues(spec_dir), f"spec/interfaces.yaml:{line}: interfaces[0].name: ")
    assert "does not match the required form" in found or "is too long" in found


def test_reserved_words_are_not_names(spec_dir: Path) -> None:
    edit(spec_dir, "interfaces.yaml", "{name: hostPtr, type: void **", "{name: class, type: void **")
    line = line_of(spec_dir, "interfaces.yaml", "{name: class,")
    find_issue(
        issues(spec_dir), f"spec/interfaces.yaml:{line}: interfaces[0].params[0].name: 'class' is a reserved word"
    )


def test_bad_enum_value(spec_dir: Path) -> None:
    edit(spec_dir, "rules.yaml", ALIGN_SEVERITY, ALIGN_SEVERITY.replace("mandatory", "mandatry"))
    line = line_of(spec_dir, "rules.yaml", "severity: mandatry")
    find_issue(
        issues(spec_dir),
        f"spec/rules.yaml:{line}: rules[0].severity: 'mandatry' is not one of: "
        "mandatory, recommended, advisory, informational",
    )


@pytest.mark.parametrize("page", ["host_memory.md", "11-02_host_memory_management.html", "../11-02.md", "11 02.md"])
def test_bad_doc_page(spec_dir: Path, page: str) -> None:
    edit(
        spec_dir,
        "interfaces.yaml",
        "doc: {page: 11-02_host_memory_management.md, anchor: aclrtMallocHost}",
        f"doc: {{page: '{page}', anchor: aclrtMallocHost}}",
    )
    line = line_of(spec_dir, "interfaces.yaml", f"page: '{page}'")
    find_issue(
        issues(spec_dir), f"spec/interfaces.yaml:{line}: interfaces[0].doc.page: ", "does not match the required form"
    )


def test_bad_rule_id(spec_dir: Path) -> None:
    edit(spec_dir, "rules.yaml", "  - id: HM-ALIGN-LIVE\n", "  - id: hm-align-live\n")
    line = line_of(spec_dir, "rules.yaml", "id: hm-align-live")
    find_issue(issues(spec_dir), f"spec/rules.yaml:{line}: rules[2].id: 'hm-align-live' does not match")


def test_bad_c_type(spec_dir: Path) -> None:
    edit(
        spec_dir,
        "interfaces.yaml",
        "{name: size, type: size_t, direction: in, nullable: false, constraints: "
        "[{non_zero: true}], sample: {value: 4096}}",
        "{name: size, type: 'size_t; int x', direction: in, nullable: false}",
    )
    line = line_of(spec_dir, "interfaces.yaml", "size_t; int x")
    find_issue(issues(spec_dir), f"spec/interfaces.yaml:{line}: interfaces[0].params[1].type: ", "does not match")


def test_prose_with_a_newline_is_rejected(spec_dir: Path) -> None:
    edit(spec_dir, "types.yaml", "meaning: The call succeeded.}", 'meaning: "The call\\nsucceeded."}')
    line = line_of(spec_dir, "types.yaml", "ACL_SUCCESS")
    find_issue(issues(spec_dir), f"spec/types.yaml:{line}: errors[0].meaning: ", "U+000A", "control character")


def test_several_problems_are_all_reported_in_file_order(spec_dir: Path) -> None:
    edit(spec_dir, "rules.yaml", ALIGN_SEVERITY, ALIGN_SEVERITY.replace("mandatory", "mandatry"))
    edit(spec_dir, "interfaces.yaml", MALLOC_HOST_NAME, "  - name: 1bad\n")
    found = issues(spec_dir)
    assert [i.split(":")[0] for i in found] == sorted(i.split(":")[0] for i in found)
    find_issue(found, "spec/rules.yaml:")
    find_issue(found, "spec/interfaces.yaml:")


# ---- the driver generation, the host page and the allocator ----------------------------------


def test_a_product_names_a_known_driver_generation(spec_dir: Path) -> None:
    edit(spec_dir, "products.yaml", "    device_run_mode: false\n    driver: v3\n",
         "    device_run_mode: false\n    driver: v4\n")
    line = line_of(spec_dir, "products.yaml", "driver: v4")
    find_issue(issues(spec_dir), f"spec/products.yaml:{line}: families[0].driver: 'v4' is not one of: v2, v3, none")


def test_a_product_without_its_driver_generation(spec_dir: Path) -> None:
    edit(spec_dir, "products.yaml", "    device_run_mode: false\n    driver: v3\n", "    device_run_mode: false\n")
    find_issue(issues(spec_dir), "spec/products.yaml:", "families[0].driver: missing required field 'driver'")


@pytest.mark.parametrize("old, new, path, says", [
    ('applies: {kernel: {above: "5.10"}, driver: [v2], reason: "Only the svm v2 driver checks',
     'applies: {kernel: {above: "5.10"}, driver: [v2, v5], reason: "Only the svm v2 driver checks',
     "applies.driver[1]", "'v5' is not one of: v2, v3, none"),
    ('applies: {kernel: {above: "5.10"}, driver: [v2], reason: "Only the svm v2 driver checks',
     'applies: {kernel: {above: "5.10"}, driver: [], reason: "Only the svm v2 driver checks',
     "applies.driver", "[] needs at least 1 item(s)"),
    ("applies: {host_page: {at_most: 4096}, reason:", "applies: {host_page: {at_most: 2048}, reason:",
     "applies.host_page.at_most", "2048 is less than the minimum of 4096"),
    ("applies: {host_page: {at_most: 4096}, reason:", "applies: {host_page: {at_most: 4096, above: 4096}, reason:",
     "applies.host_page", "{'at_most': 4096, 'above': 4096} has too many properties"),
    ("applies: {run_mode: host, host_alloc: svm, reason: \"In RC", "applies: {run_mode: host, host_alloc: mmap, "
     "reason: \"In RC", "applies.host_alloc", "'mmap' is not one of: svm, malloc_fallback"),
], ids=["unknown-driver", "no-driver", "page-below-4k", "page-both-bounds", "unknown-allocator"])
def test_applies_driver_host_page_and_host_alloc(spec_dir: Path, old: str, new: str, path: str, says: str) -> None:
    text = (spec_dir / "rules.yaml").read_text(encoding="utf-8")
    (spec_dir / "rules.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")  # the first rule using it
    line = line_of(spec_dir, "rules.yaml", new)
    find_issue(issues(spec_dir), f"spec/rules.yaml:{line}: rules[", f"].{path}: {says}")
