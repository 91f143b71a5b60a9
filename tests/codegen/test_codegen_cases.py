"""Cases and traceability: every rule has cases, case IDs are unique, and the reports list every rule."""

from __future__ import annotations

import ast
import json
from collections import Counter
from pathlib import Path

import pytest
from specedit import ROOT, append, edit, find_issue, issues, run_main

import codegen.writer
from codegen.cases import all_cases, duplicate_case_ids, matrix_cases
from codegen.load import load_spec
from codegen.model import Spec

GENERATED = ROOT / "acl_hostmem_generated"


@pytest.fixture(scope="module")
def spec() -> Spec:
    return load_spec(ROOT / "spec")


def test_every_rule_yields_a_case(spec: Spec) -> None:
    cases = all_cases(spec)
    assert list(cases) == [r.id for r in spec.rules]
    empty = [rule for rule, found in cases.items() if not found]
    assert empty == []


def test_case_ids_are_unique(spec: Spec) -> None:
    ids = Counter(c.case_id for found in all_cases(spec).values() for c in found)
    assert [i for i, n in ids.items() if n > 1] == []
    assert duplicate_case_ids(spec) == []


def test_matrix_is_the_cartesian_product_in_key_order(spec: Spec) -> None:
    rule = spec.rule("HM-PAIR-MALLOC-FREE")
    assert [c.param_id for c in matrix_cases(rule)] == [
        "alloc=malloc,free=free",
        "alloc=malloc,free=free_devsync",
        "alloc=malloc_cfg,free=free",
        "alloc=malloc_cfg,free=free_devsync",
    ]
    sizes = [c.kwargs["size"] for c in matrix_cases(spec.rule("HM-ALIGN-MALLOC"))]
    assert sizes[:7] == [1, 63, 64, 65, 4095, 4096, 4097] and 67108864 in sizes


def test_invalid_argument_cases_are_one_per_condition(spec: Spec) -> None:
    cases = all_cases(spec)["HM-INVAL-MALLOC-HOST"]
    assert [c.case_id for c in cases] == ["HM-INVAL-MALLOC-HOST[hostPtr=NULL]", "HM-INVAL-MALLOC-HOST[size=0]"]
    assert cases[0].kwargs == {
        "interface": "aclrtMallocHost",
        "param": "hostPtr",
        "condition": "is_null",
        "value": True,
    }
    assert cases[0].expect is not None and cases[0].expect.code == "ACL_ERROR_INVALID_PARAM"


def test_generated_modules_hold_every_case(spec: Spec) -> None:
    cases = all_cases(spec)
    for family in spec.rule_families:
        source = (GENERATED / "cases" / f"test_{family}.py").read_text(encoding="utf-8")
        tree = ast.parse(source)
        functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        for rule in (r for r in spec.rules if r.family == family):
            assert rule.python_name in functions
            for case in cases[rule.id]:
                if case.param_id:
                    assert f"id={case.param_id!r}" in source, case.case_id


def test_traceability_lists_every_rule_and_case(spec: Spec) -> None:
    text = (GENERATED / "traceability.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| HM-")]
    assert [row.split()[1] for row in rows] == [r.id for r in spec.rules]
    cases = all_cases(spec)
    for rule, row in zip(spec.rules, rows):
        assert f"| {len(cases[rule.id])}: " in row
        assert rule.doc.url in row
        for case in cases[rule.id]:
            assert f"`{case.case_id}`" in row
    for interface in spec.host_memory_interfaces:
        assert f"| `{interface.name}` |" in text


def test_catalog_lists_every_rule_with_its_cases(spec: Spec) -> None:
    catalog = json.loads((GENERATED / "catalog.json").read_text(encoding="utf-8"))
    assert catalog["spec_hash"] == spec.spec_hash
    assert [r["id"] for r in catalog["rules"]] == [r.id for r in spec.rules]
    cases = all_cases(spec)
    for entry in catalog["rules"]:
        assert [c["case_id"] for c in entry["cases"]] == [c.case_id for c in cases[entry["id"]]]
        assert entry["cases"], entry["id"]
    assert set(catalog["interfaces"]) == {i.name for i in spec.interfaces}
    assert [f["name"] for f in catalog["faults"]] == [f.name for f in spec.faults]
    assert catalog["errors"]["ACL_ERROR_HOST_MEMORY_NOT_REGISTERED"] == 507911


def test_every_generated_file_carries_the_banner(spec: Spec) -> None:
    for path in sorted(GENERATED.rglob("*")):
        # The writer's list of the files it wrote is bookkeeping, not a rendered file.
        if path.is_file() and "__pycache__" not in path.parts and path.name != codegen.writer.MARKER:
            head = path.read_text(encoding="utf-8")[:400]
            assert f"Generated from spec {spec.spec_hash}" in head, path
            assert "python -m codegen generate" in head, path


def test_duplicate_case_ids_are_a_spec_error(spec_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(
        spec_dir,
        "rules.yaml",
        "  sizes_small: [1, 63, 64, 65, 4095, 4096, 4097]",
        "  sizes_small: [1, 63, 64, 65, 4095, 4096, 4097, 64]",
    )
    result = run_main(capsys, "lint", "--spec", "spec")
    assert result.code == 2
    assert "case ID 'HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=64]' is produced twice" in result.err
    assert result.err.startswith("error: spec/rules.yaml:")


def test_invalid_argument_rule_without_errors_is_rejected(spec_dir: Path) -> None:
    text = (spec_dir / "rules.yaml").read_text(encoding="utf-8")
    start = text.index("  - id: HM-INVAL-FREE-HOST\n")
    errors = text.index("    errors:\n", start)
    end = text.index("    doc:", errors)
    (spec_dir / "rules.yaml").write_text(text[:errors] + text[end:], encoding="utf-8")
    find_issue(issues(spec_dir), "spec/rules.yaml:", "an invalid_argument rule needs errors")


def test_a_new_rule_appears_everywhere(spec_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    append(
        spec_dir,
        "rules.yaml",
        """
  - id: HM-ALIGN-EXTRA
    title: An extra alignment rule
    statement: A rule added by the test.
    title_zh: 测试添加的对齐规则
    statement_zh: 由测试添加的规则。
    family: alignment
    check: alloc_alignment
    severity: recommended
    interfaces: [aclrtMallocHost, aclrtFreeHost]
    matrix: {api: [malloc], cfg: [null_cfg], size: [7, 9]}
    doc: {page: 11-02_host_memory_management.md, anchor: aclrtMallocHost}
    evidence: [{doc: "11-02_host_memory_management.md#aclrtMallocHost:50", says: "Host memory is 64-byte aligned."}]
""",
    )
    assert run_main(capsys, "generate", "--spec", "spec", "--out", "out").code == 0
    out = tmp_path / "out"
    assert "`HM-ALIGN-EXTRA[api=malloc,cfg=null_cfg,size=9]`" in (out / "traceability.md").read_text(encoding="utf-8")
    assert "def test_HM_ALIGN_EXTRA(" in (out / "cases" / "test_alignment.py").read_text(encoding="utf-8")
    catalog = json.loads((out / "catalog.json").read_text(encoding="utf-8"))
    extra = next(r for r in catalog["rules"] if r["id"] == "HM-ALIGN-EXTRA")
    assert len(extra["cases"]) == 2
