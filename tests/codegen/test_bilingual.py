"""Both languages in the spec: every rule and product family in Chinese too, one glossary applied by lint,
and the Chinese texts' quotes checked against the official pages (``lint --reference``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from specedit import CHECKS, edit, find_issue, issues, line_of, run_main

from codegen.bilingual import Term, page_issues, page_text
from codegen.load import load_spec, read_documents

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "acl_hostmem_generated" / "catalog.json"


# ---- every rule and family in both languages -------------------------------------------------


def test_a_rule_without_a_chinese_title_is_refused(spec_dir: Path) -> None:
    edit(spec_dir, "rules.yaml", "    title_zh: aclrtFreeHost拒绝NULL\n", "")
    line = line_of(spec_dir, "rules.yaml", "id: HM-INVAL-FREE-HOST")
    find_issue(issues(spec_dir), f"spec/rules.yaml:{line}: rules[", ".title_zh: missing required field 'title_zh'")


def test_a_rule_without_a_chinese_statement_is_refused(spec_dir: Path) -> None:
    edit(spec_dir, "rules.yaml", "    statement_zh: aclrtFreeHost(NULL)返回失败（ACL_ERROR_INVALID_PARAM）。\n", "")
    find_issue(issues(spec_dir), "spec/rules.yaml:", ".statement_zh: missing required field 'statement_zh'")


def test_an_explorer_rule_without_chinese_is_refused(spec_dir: Path) -> None:
    edit(spec_dir, "state_model.yaml", "    title_zh: 随机调用序列的行为符合完整状态模型的预测\n", "")
    find_issue(issues(spec_dir), "spec/state_model.yaml:", "rules[1].title_zh: missing required field 'title_zh'")


def test_an_applicability_reason_without_chinese_is_refused(spec_dir: Path) -> None:
    edit(spec_dir, "rules.yaml", ', reason_zh: "争议仅涉及Atlas 训练系列产品。"', "")
    find_issue(issues(spec_dir), "spec/rules.yaml:", ".applies.reason_zh: missing required field 'reason_zh'")


def test_a_chinese_field_that_holds_english_is_refused(spec_dir: Path) -> None:
    edit(spec_dir, "rules.yaml", "    title_zh: aclrtFreeHost拒绝NULL\n", "    title_zh: aclrtFreeHost rejects NULL\n")
    line = line_of(spec_dir, "rules.yaml", "title_zh: aclrtFreeHost rejects NULL")
    find_issue(issues(spec_dir), f"spec/rules.yaml:{line}: rules[", ".title_zh: title_zh has no Chinese in it")


def test_a_family_without_a_chinese_name_is_refused(spec_dir: Path) -> None:
    edit(spec_dir, "products.yaml", "    name_zh: Atlas 训练系列产品\n", "")
    find_issue(issues(spec_dir), "spec/products.yaml:", "families[5].name_zh: missing required field 'name_zh'")


def test_a_family_name_the_support_lists_do_not_write_is_refused(spec_dir: Path) -> None:
    edit(spec_dir, "products.yaml", "    name_zh: Atlas 训练系列产品\n", "    name_zh: Atlas训练系列\n")
    line = line_of(spec_dir, "products.yaml", "name_zh: Atlas训练系列")
    find_issue(issues(spec_dir), f"spec/products.yaml:{line}: families[5].name_zh: 'Atlas训练系列' is no term of "
               "spec/glossary.yaml")


def test_the_shipped_spec_is_bilingual() -> None:
    spec = load_spec(ROOT / "spec", CHECKS)
    assert spec.rules and all(r.title_zh and r.statement_zh for r in spec.rules)
    assert all(r.applies.reason_zh for r in spec.rules if r.applies.reason)
    assert {f.id: f.name_zh for f in spec.families}["atlas_a2"] == "Atlas A2 训练系列产品/Atlas A2 推理系列产品"


# ---- the glossary ----------------------------------------------------------------------------


def test_a_rule_that_uses_a_glossary_term_must_use_its_chinese_word(spec_dir: Path) -> None:
    # HM-PAIR-DOUBLE-FREE's statement says "fails"; the glossary writes it 失败 (or 报错, 错误).
    edit(spec_dir, "rules.yaml",
         "    statement_zh: 对同一指针第二次释放时返回失败，而不是返回成功（仅为观测记录，文档未作说明）。\n",
         "    statement_zh: 对同一指针第二次释放时不返回成功（仅为观测记录，文档未作说明）。\n")
    line = line_of(spec_dir, "rules.yaml", "statement_zh: 对同一指针第二次释放时不返回成功")
    find_issue(issues(spec_dir), f"spec/rules.yaml:{line}: rules[", ".statement_zh: the English text uses 'fails' "
               "(glossary term 'fail'): the Chinese text must say 失败 or 报错 or 错误")


def test_a_glossary_variant_is_accepted_in_place_of_the_term(spec_dir: Path) -> None:
    edit(spec_dir, "rules.yaml", "    title_zh: 重复释放Host内存返回失败\n", "    title_zh: 重复释放Host内存返回报错\n")
    assert issues(spec_dir) == []


def test_a_changed_glossary_word_is_enforced_on_every_rule(spec_dir: Path) -> None:
    # Renaming the official term makes every rule that uses it wrong until the rules follow.
    edit(spec_dir, "glossary.yaml", "    zh: 取消注册\n", "    zh: 解除注册\n")
    found = [i for i in issues(spec_dir) if "glossary term 'unregister'" in i]
    assert len(found) > 10 and all("must say 解除注册" in i for i in found)


def test_a_term_is_a_whole_word_not_part_of_an_identifier_or_a_flag() -> None:
    register = Term("register", ("register", "registered"), ("注册",))
    assert register.used_in("Registered memory") == "registered"
    assert register.used_in("aclrtHostRegister of a range") is None
    assert register.used_in("the host-register feature") is None
    assert register.used_in("memory never unregistered") is None
    mapped = Term("map", ("map", "mapped"), ("映射",))
    assert mapped.used_in("a V2 MAPPED registration") is None and mapped.used_in("is not mapped") == "mapped"
    rule = Term("rule", ("rule",), ("规则",), other_senses=("rule out",))
    assert rule.used_in("Where the docs rule out the device run mode") is None
    assert rule.used_in("judged by the rule that promises it") == "rule"


def test_a_glossary_term_defined_twice_is_refused(spec_dir: Path) -> None:
    edit(spec_dir, "glossary.yaml", "  - id: waiver\n    en: waiver\n", "  - id: waiver\n    en: root cause\n")
    find_issue(issues(spec_dir), "spec/glossary.yaml:", "the English 'root cause' is already the glossary term "
               "'root_cause'")


def test_a_kit_word_without_chinese_is_refused(spec_dir: Path) -> None:
    edit(spec_dir, "glossary.yaml", "    zh: 根因\n", "    zh: root cause\n")
    find_issue(issues(spec_dir), "spec/glossary.yaml:", "zh: zh has no Chinese in it")


def test_a_quote_needs_a_zh_source(spec_dir: Path) -> None:
    edit(spec_dir, "rules.yaml", '    zh_source: "11-02_host_memory_management.md#aclrtMallocHost:67"\n', "")
    find_issue(issues(spec_dir), "spec/rules.yaml:", ".statement_zh: quotes an official page (「...」) but the rule "
               "has no zh_source")


def test_the_catalog_carries_both_languages_and_the_glossary() -> None:
    catalog = json.loads(CATALOG.read_text(encoding="utf-8"))
    rule = next(r for r in catalog["rules"] if r["id"] == "HM-ALIGN-MALLOC")
    assert rule["title"] == "aclrtMallocHost returns a 64-byte aligned pointer"
    assert "64字节对齐" in rule["title_zh"] and "「由系统保证内存首地址64字节对齐」" in rule["statement_zh"]
    assert rule["zh_source"] == "11-02_host_memory_management.md#aclrtMallocHost:50"
    assert rule["applies"]["reason_zh"].startswith("在Ascend RC形态、Control CPU开放形态下")
    assert {f["id"]: f["name_zh"] for f in catalog["families"]}["ipv350"] == "IPV350"
    terms = {t["id"]: t for t in catalog["glossary"]}
    assert terms["page_locked"]["zh"] == "锁页内存" and terms["page_locked"]["source"]
    assert terms["outcome_blocked"] == {"id": "outcome_blocked", "en": "BLOCKED", "zh": "受阻", "en_variants": [],
                                        "zh_variants": [], "source": None, "note": terms["outcome_blocked"]["note"]}


# ---- against the pages (lint --reference) --------------------------------------------------------

PAGE = """# 11-02 主机内存管理

<a id="aclrtMallocHost"></a>

## aclrtMallocHost

申请Host内存（该内存是锁页内存），由系统保证内存首地址64字节对齐。

通过本接口申请的内存，需要通过[aclrtFreeHost](#aclrtFreeHost)接口释放内存。
"""


@pytest.fixture()
def reference(tmp_path: Path) -> Path:
    """A reference directory with one small page: line 7 promises the alignment, line 9 the pairing."""
    pages = tmp_path / "reference"
    pages.mkdir()
    (pages / "11-02_host_memory_management.md").write_text(PAGE, encoding="utf-8")
    return pages


def _glossary(spec_dir: Path, zh: str = "锁页内存", line: int = 7) -> None:
    """Replace the glossary with one official term cited on the small page."""
    (spec_dir / "glossary.yaml").write_text(
        f'terms:\n  - {{id: page_locked, en: page-locked, zh: {zh}, source: "11-02_host_memory_management.md#'
        f'aclrtMallocHost:{line}"}}\n', encoding="utf-8")


def _page_issues(spec_dir: Path, reference: Path, prefix: str) -> list[str]:
    """The page issues of one place (the other rules cite pages the small reference does not have)."""
    found = [str(i) for i in page_issues(reference, read_documents(spec_dir))]
    return [issue for issue in found if issue.split(": ", 1)[1].startswith(prefix)]


def test_a_quote_on_its_cited_line_holds(spec_dir: Path, reference: Path) -> None:
    edit(spec_dir, "rules.yaml", '    zh_source: "11-02_host_memory_management.md#aclrtMallocHost:50"\n',
         '    zh_source: "11-02_host_memory_management.md#aclrtMallocHost:7"\n', count=2)
    _glossary(spec_dir)
    assert _page_issues(spec_dir, reference, "rules[0]") == [] and _page_issues(spec_dir, reference, "terms") == []


def test_a_quote_that_is_not_on_its_cited_line_is_refused(spec_dir: Path, reference: Path) -> None:
    edit(spec_dir, "rules.yaml", '    zh_source: "11-02_host_memory_management.md#aclrtMallocHost:50"\n',
         '    zh_source: "11-02_host_memory_management.md#aclrtMallocHost:9"\n', count=2)
    find_issue(_page_issues(spec_dir, reference, "rules[0]"), "spec/rules.yaml:",
               "rules[0].statement_zh: the quote 「由系统保证内存首地址64字节对齐」 is not on "
               "11-02_host_memory_management.md#aclrtMallocHost:9")


def test_a_zh_source_outside_its_anchor_is_refused(spec_dir: Path, reference: Path) -> None:
    edit(spec_dir, "rules.yaml", '    zh_source: "11-02_host_memory_management.md#aclrtMallocHost:50"\n',
         '    zh_source: "11-02_host_memory_management.md#aclrtMallocHost:1"\n', count=2)
    find_issue(_page_issues(spec_dir, reference, "rules[0]"), "spec/rules.yaml:",
               "rules[0].zh_source: lines 1 lie outside the section of #aclrtMallocHost")


def test_an_official_term_that_is_not_on_its_source_line_is_refused(spec_dir: Path, reference: Path) -> None:
    _glossary(spec_dir, zh="页锁定内存")
    find_issue(_page_issues(spec_dir, reference, "terms"),
               "spec/glossary.yaml:2: terms[0].zh: '页锁定内存' does not stand on "
               "11-02_host_memory_management.md#aclrtMallocHost:7")


def test_a_page_line_is_read_as_its_reader_sees_it() -> None:
    line = "通过本接口申请的内存，需要通过[aclrtFreeHost](#aclrtFreeHost)接口释放，ALIGN\\_UP"
    assert page_text(line) == "通过本接口申请的内存，需要通过aclrtFreeHost接口释放，ALIGN_UP"


def test_lint_with_the_pages_checks_the_chinese_and_without_them_says_so(spec_dir: Path, reference: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    result = run_main(capsys, "lint", "--spec", str(spec_dir), "--checks", str(CHECKS))
    assert result.code == 0 and "the Chinese texts' quotes and the glossary's official terms were not checked" in \
        result.err
    result = run_main(capsys, "lint", "--spec", str(spec_dir), "--checks", str(CHECKS), "--reference", str(reference))
    assert result.code == 2 and "is not in" in result.err and "zh_source" in result.err
