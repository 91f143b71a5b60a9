"""gate.md, the fleet matrix page and the self-test report in Chinese; their machine-read parts stay."""

from __future__ import annotations

import json

from bundle_helpers import FAULTED_RULE, first_case

from conformance import i18n
from conformance.cli import main as cli_main
from conformance.fleet.report import js_text
from conformance.selftest import report, scoring


def _save(tmp_path, name, summary):
    path = tmp_path / name / "summary.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(summary))
    return path


def test_gate_md_and_its_console_line_in_chinese(tmp_path, catalog, make_summary, capsys):
    base = _save(tmp_path, "base", make_summary())
    cand = _save(tmp_path, "cand", make_summary({first_case(catalog, FAULTED_RULE): "FAIL"}))
    md, out = tmp_path / "gate.md", tmp_path / "gate.json"
    status = cli_main(["gate", str(base), str(cand), "--markdown", str(md), "--json", str(out), "--lang", "zh"])
    assert status == 1
    text = md.read_text(encoding="utf-8")
    assert text.startswith("# 一致性门禁\n\n**结果：FAIL**")
    assert "## 回退（之前通过，现在为 FAIL/ERROR/BLOCKED） (1)" in text and FAULTED_RULE in text
    assert capsys.readouterr().out.startswith("gate：FAIL（1 regression")
    gate_json = json.loads(out.read_text(encoding="utf-8"))
    assert "regression" in gate_json["counts"]  # gate.json keeps its keys in every language


def test_the_matrix_page_script_says_the_catalogue_words():
    assert js_text("{shown} of {total} rules shown", {"shown": "shown", "total": "rows.length"}) == \
        "shown+' of '+rows.length+' rules shown'"  # the English script, as it always read
    assert js_text("显示 {total} 条规则中的 {shown} 条", {"shown": "s", "total": "t"}) == \
        "'显示 '+t+' 条规则中的 '+s+' 条'"
    assert js_text("it's {x}", {"x": "x"}) == "'it\\'s '+x"


def test_the_matrix_page_in_chinese(tmp_path, catalog, make_summary):
    from conformance.fleet.inputs import read_runs
    from conformance.fleet.matrix import build_matrix
    from conformance.fleet.report import render_html

    _save(tmp_path, "a2", make_summary())
    matrix = build_matrix(read_runs([tmp_path]), [f["id"] for f in catalog["families"]])
    i18n.choose("zh")
    page = render_html(matrix)
    assert '<html lang="zh">' in page and "<h1>机群兼容性矩阵</h1>" in page
    assert "'显示 '+rows.length+' 条规则中的 '+shown+' 条'" in page


def test_the_self_test_report_in_chinese(catalog):
    result = scoring.report(catalog, [], [], [], 1.0)
    i18n.choose("zh")
    text = report.markdown(result)
    assert text.startswith("# 一致性测试套件自检")
    assert "## 没有故障开关能证明的规则" in text

