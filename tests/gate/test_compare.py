"""The gate on synthetic runs: classification, exit codes, --fail-on, reports, history carry."""

from __future__ import annotations

import json
import subprocess

import pytest
from bundle_helpers import FAULTED_RULE, PASSING_PAIR_RULE, REPO, first_case, write_fake_bundle

from conformance.certify.verify import verify
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
    assert main([str(base), str(cand), "--fail-on", "regression", "--markdown", str(md), "--json", str(js)]) == 0
    assert main([str(base), str(cand), "--markdown", str(md), "--json", str(js)]) == 1  # waiver-change gates by default
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


# ----------------------------------------------------------------------------- gate rules of issue 10


def _gate(tmp_path, *args):
    out = tmp_path / "reports"
    return main([*map(str, args), "--markdown", str(out / "g.md"), "--json", str(out / "g.json")])


def test_pass_to_not_applicable_is_coverage_loss_and_fails_the_default_gate(catalog, make_summary, tmp_path, capsys):
    case = first_case(catalog, FAULTED_RULE)
    base = save(tmp_path, "base", make_summary())
    cand = save(tmp_path, "cand", make_summary({case: "NOT_APPLICABLE"}))
    assert _gate(tmp_path, base, cand) == 1
    report = json.loads((tmp_path / "reports" / "g.json").read_text())
    assert report["gated_by"] == ["coverage-loss"]
    assert report["fail_on"] == ["regression", "inconclusive", "coverage-loss", "waiver-change"]
    assert [c["case_id"] for c in report["classes"]["coverage-loss"]] == [case]
    assert "gating class coverage-loss: 1 case(s)" in capsys.readouterr().out
    assert _gate(tmp_path, base, cand, "--fail-on", "regression") == 0


def test_another_family_is_refused_unless_allowed_and_then_reported(catalog, make_summary, tmp_path, capsys):
    base = save(tmp_path, "base", make_summary())
    other = make_summary(product_family="atlas_inference", soc="Ascend310P3")
    for rule in other["rules"].values():  # registration is unsupported there: the cases are NOT_APPLICABLE
        for case in rule["cases"].values():
            case["outcome"] = "NOT_APPLICABLE"
    cand = save(tmp_path, "cand", other)
    assert _gate(tmp_path, base, cand) == 2
    err = capsys.readouterr().err
    assert "different products or specs (family atlas_a2 vs atlas_inference; soc Ascend910B3 vs Ascend310P3)" in err
    assert "--allow-different-product" in err and "\n" not in err.strip()
    assert _gate(tmp_path, base, cand, "--allow-different-product") == 1
    md = (tmp_path / "reports" / "g.md").read_text()
    assert "> warning: compared across different products or specs (family atlas_a2 vs atlas_inference" in md
    every_case = sum(len(rule["cases"]) for rule in other["rules"].values())
    assert f"gating class coverage-loss: {every_case} case(s)" in capsys.readouterr().out


def test_another_spec_is_refused(catalog, make_summary, tmp_path, capsys):
    base = save(tmp_path, "base", make_summary())
    cand = save(tmp_path, "cand", dict(make_summary(), spec_hash="0123456789abcdef"))
    assert _gate(tmp_path, base, cand) == 2
    assert f"spec_hash {catalog['spec_hash']} vs 0123456789abcdef" in capsys.readouterr().err


@pytest.mark.parametrize("junk", ["{}", "[]", '{"schema": "acl-conformance-summary/1"}', "{", '"x"',
                                  '{"schema": "acl-conformance-summary/1", "environment": {}, "rules": {"R": 1}}'])
def test_structurally_wrong_runs_are_one_line_errors(make_summary, tmp_path, capsys, junk):
    base = save(tmp_path, "base", make_summary())
    cand = tmp_path / "cand.json"
    cand.write_text(junk)
    assert _gate(tmp_path, base, cand) == 2
    assert _gate(tmp_path, cand, base) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "Traceback" not in err and err.startswith("gate: ")


@pytest.mark.parametrize("fail_on", [",", "", " , ", "regression,,bogus"])
def test_empty_or_unparsable_fail_on_is_an_error(make_summary, tmp_path, capsys, fail_on):
    base = save(tmp_path, "base", make_summary())
    assert _gate(tmp_path, base, base, "--fail-on", fail_on) == 2
    assert "--fail-on" in capsys.readouterr().err


def test_make_gate_prints_the_gates_own_status(catalog, make_summary, tmp_path):
    base = save(tmp_path, "base", make_summary())
    cand = save(tmp_path, "cand", make_summary({first_case(catalog, FAULTED_RULE): "FAIL"}))
    for args, status in ((["FAIL_ON=regression"], 1), (["FAIL_ON=,"], 2), ([], 1), (["FAIL_ON=waiver-change"], 0)):
        done = subprocess.run(["make", "-s", "gate", f"BASELINE={base}", f"CANDIDATE={cand}", *args], cwd=REPO,
                              capture_output=True, text=True)
        assert done.stdout.strip().splitlines()[-1] == f"gate exit status: {status}", done.stdout + done.stderr
        assert done.returncode == (0 if status == 0 else 2)  # make's own convention


def test_a_new_waiver_over_a_passing_rule_fails_the_default_gate(catalog, make_summary, tmp_path, capsys):
    """F5: a candidate whose plain waiver names the regressed rule says WAIVED; the default gate still fails."""
    case = first_case(catalog, FAULTED_RULE)
    base = save(tmp_path, "base", make_summary())
    cand = save(tmp_path, "cand", make_summary({case: {"outcome": "WAIVED", "waiver": {"reason": "known"}}}))
    assert main([str(base), str(cand)]) == 1
    out = capsys.readouterr().out
    assert "waiver-change" in out and "gate: FAIL" in out
    assert main([str(base), str(cand), "--fail-on", "regression,coverage-loss"]) == 0  # only when asked
