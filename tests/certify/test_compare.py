"""The gate on synthetic runs: classification, exit codes, --fail-on, reports, history carry."""

from __future__ import annotations

import json

import pytest
from certify_helpers import FAULTED_RULE, PASSING_PAIR_RULE, first_case, write_fake_bundle

from conformance.certify.bundle import verify
from conformance.gate.command import main, parse_fail_on
from conformance.gate.compare import compare_summaries
from conformance.results.history import carry_history


def save(tmp_path, name, summary):
    path = tmp_path / name / "summary.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(summary))
    return path


def test_regression_fix_new_removed_codes_and_waivers(catalog, make_summary, tmp_path):
    bad = first_case(catalog, FAULTED_RULE)
    fixed = first_case(catalog, PASSING_PAIR_RULE)
    code_case = first_case(catalog, "HM-PAIR-DOUBLE-REGISTER")
    waived = first_case(catalog, "HM-PAIR-OVERLAP-REGISTER")
    baseline = make_summary(
        {fixed: "FAIL", code_case: {"outcome": "FAIL", "observed_code": "ACL_ERROR_INVALID_PARAM"}, waived: "PASS"}
    )
    candidate = make_summary(
        {
            bad: {"outcome": "FAIL", "observed_code": "ACL_SUCCESS"},
            code_case: {"outcome": "FAIL", "observed_code": "ACL_ERROR_RT_PARAM_INVALID"},
            waived: "WAIVED",
        }
    )
    removed = next(iter(baseline["rules"]["HM-CAP-STABLE"]["cases"]))
    del candidate["rules"]["HM-CAP-STABLE"]["cases"][removed]
    candidate["rules"][FAULTED_RULE]["cases"][f"{FAULTED_RULE}[api=v9]"] = {"outcome": "ERROR"}
    result = compare_summaries(baseline, candidate, tmp_path / "b", tmp_path / "c")
    cases = {name: [c.case_id for c in items] for name, items in result.classes.items()}
    assert cases["regression"] == [bad]
    assert result.regressed_rules == [FAULTED_RULE]
    assert cases["fix"] == [fixed]
    assert cases["removed"] == [removed]
    assert cases["new"] == cases["new-failure"] == [f"{FAULTED_RULE}[api=v9]"]
    assert cases["code-change"] == [code_case]
    assert cases["waiver-change"] == [waived]
    assert result.gating(["regression"]) == ["regression"]
    assert result.gating(["removed", "code-change"]) == ["removed", "code-change"]


def test_identical_runs_pass_the_gate(catalog, make_summary, tmp_path, capsys):
    base = save(tmp_path, "base", make_summary())
    cand = save(tmp_path, "cand", make_summary())
    assert main([str(base), str(cand), "--fail-on", ",".join(parse_fail_on("regression,removed,waiver-change"))]) == 0
    assert "gate: PASS" in capsys.readouterr().out
    report = json.loads((cand.parent / "gate.json").read_text())
    assert report["gated_by"] == [] and report["regressed_rules"] == []


def test_gate_exit_codes_and_fail_on(catalog, make_summary, tmp_path, capsys):
    base = save(tmp_path, "base", make_summary({first_case(catalog, FAULTED_RULE): "FAIL"}))
    cand = save(tmp_path, "cand", make_summary({first_case(catalog, FAULTED_RULE): "WAIVED"}))
    md, js = tmp_path / "out" / "g.md", tmp_path / "out" / "g.json"
    assert main([str(base), str(cand), "--markdown", str(md), "--json", str(js)]) == 0
    assert main([str(base), str(cand), "--fail-on", "waiver-change", "--markdown", str(md), "--json", str(js)]) == 1
    assert "waiver-change" in json.loads(js.read_text())["gated_by"]
    assert main([str(cand), str(base), "--fail-on", "bogus"]) == 2
    assert "unknown --fail-on class 'bogus'" in capsys.readouterr().err
    assert main([str(tmp_path / "nothing"), str(cand)]) == 2


def test_bundle_candidate_report_goes_beside_it(catalog, make_summary, tmp_path, capsys):
    base = write_fake_bundle(tmp_path / "b", make_summary())
    cand = write_fake_bundle(tmp_path / "c", make_summary({first_case(catalog, FAULTED_RULE): "ERROR"}))
    assert main([str(base), str(cand)]) == 1
    out = capsys.readouterr().out
    assert f"regressed rule: {FAULTED_RULE}" in out
    assert (cand.parent / f"{cand.name}.gate.md").is_file()
    assert verify(cand) == []  # the report did not land inside the bundle
    text = (cand.parent / f"{cand.name}.gate.md").read_text()
    assert "**Result: FAIL**" in text and FAULTED_RULE in text


@pytest.mark.parametrize("layout", ["allure3", "allure2"])
def test_history_is_carried_from_baseline(tmp_path, layout):
    base = tmp_path / "base"
    if layout == "allure3":
        base.mkdir()
        (base / "history.jsonl").write_text('{"run": 1}\n{"run": 2}\n')
    else:
        (base / "allure-report" / "history").mkdir(parents=True)
        (base / "allure-report" / "history" / "history-trend.json").write_text("[]")
    cand = tmp_path / "cand"
    cand.mkdir()
    (cand / "history.jsonl").write_text('{"run": 2}\n{"run": 3}\n')
    copied = carry_history(base, cand)
    assert len(copied) == 1
    if layout == "allure3":
        assert (cand / "history.jsonl").read_text().splitlines() == ['{"run": 1}', '{"run": 2}', '{"run": 3}']
    else:
        assert (cand / "allure-results" / "history" / "history-trend.json").read_text() == "[]"
    assert carry_history(tmp_path / "empty", tmp_path / "cand2") == []
