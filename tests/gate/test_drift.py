"""Behaviour drift in the gate, on synthetic runs: what counts, provenance, --fail-on drift, acceptance."""

from __future__ import annotations

import datetime
import json

import pytest
from bundle_helpers import first_case

from conformance.gate.command import main, parse_fail_on
from conformance.gate.compare import compare_summaries
from conformance.results.expectations import ExpectationError, load_expectations

RULE = "HM-PAIR-DOUBLE-FREE"
GRAIN_RULE = "HM-ALIGN-MALLOC"


def observed(value, kind="code", provenance="unspecified"):
    return {"observations": {("code" if kind == "code" else "grain"): {"value": value, "type": kind,
                                                                         "provenance": provenance}}}


def runs(catalog, make_summary, tmp_path, old, new):
    """Two summaries on disk whose first HM-PAIR-DOUBLE-FREE and HM-ALIGN-MALLOC cases observe old/new."""
    paths = []
    for name, (code, grain) in (("base", old), ("cand", new)):
        summary = make_summary({
            first_case(catalog, RULE): {"outcome": "PASS", **observed(code)},
            first_case(catalog, GRAIN_RULE): {"outcome": "PASS", **observed(grain, "int")},
        }, product_family="atlas_a2", soc="Ascend910B3", cann_version="8.5.0")
        path = tmp_path / name / "summary.json"
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(summary))
        paths.append(path)
    return paths


def test_changed_observations_are_drift_with_rule_provenance_and_both_values(catalog, make_summary, tmp_path):
    base, cand = runs(catalog, make_summary, tmp_path, (100000, 64), (107000, 64))
    result = compare_summaries(json.loads(base.read_text()), json.loads(cand.read_text()), base, cand)
    assert [d.to_json() for d in result.drift] == [{
        "rule": RULE, "case": first_case(catalog, RULE), "observation": "code", "provenance": "unspecified",
        "type": "code", "baseline": 100000, "candidate": 107000, "accepted_by": None}]
    assert not any(result.classes.values())  # no outcome changed
    assert result.gating(["regression"]) == [] and result.gating(["drift", "drift:unspecified"]) == [
        "drift", "drift:unspecified"]
    assert result.gating(["drift:documented", "drift:runtime-source"]) == []


def test_an_observation_on_one_side_only_is_not_drift(catalog, make_summary, tmp_path):
    base, cand = runs(catalog, make_summary, tmp_path, (100000, 64), (100000, 64))
    baseline, candidate = json.loads(base.read_text()), json.loads(cand.read_text())
    del candidate["rules"][RULE]["cases"][first_case(catalog, RULE)]["observations"]["code"]
    assert compare_summaries(baseline, candidate, base, cand).drift == []


def test_the_gate_reports_drift_and_fails_only_when_asked(catalog, make_summary, tmp_path, capsys):
    base, cand = runs(catalog, make_summary, tmp_path, (100000, 64), (107000, 4096))
    assert main([str(base), str(cand)]) == 0
    report = json.loads((cand.parent / "gate.json").read_text())
    assert report["counts"]["drift"] == 2 and {d["observation"] for d in report["drift"]} == {"code", "grain"}
    markdown = (cand.parent / "gate.md").read_text()
    assert "## Behaviour drift (2, 0 accepted)" in markdown
    assert f"| {RULE} | `{first_case(catalog, RULE)}` | `code` | unspecified | 100000 ACL_ERROR_INVALID_PARAM | " \
           "107000 ACL_ERROR_RT_PARAM_INVALID |  |" in markdown
    capsys.readouterr()
    assert main([str(base), str(cand), "--fail-on", "regression,drift"]) == 1
    out = capsys.readouterr().out
    assert "gating class drift: 2 observation(s) changed" in out and "code (unspecified): 100000 -> 107000" in out
    assert main([str(base), str(cand), "--fail-on", "drift:documented"]) == 0


def test_an_expectation_accepts_a_known_drift_until_it_expires(catalog, make_summary, tmp_path, capsys):
    base, cand = runs(catalog, make_summary, tmp_path, (100000, 64), (107000, 64))
    accept = tmp_path / "accept.yaml"
    accept.write_text(
        "expectations:\n"
        f"  - rule: {RULE}\n    observation: code\n    families: [atlas_a2]\n    cann: '>=8.5'\n"
        "    reason: the runtime now answers 107000 for a double free\n    expires: 2099-01-01\n"
        f"  - rule: {GRAIN_RULE}\n    observation: '*'\n    reason: old\n    expires: 2020-01-01\n")
    assert main([str(base), str(cand), "--fail-on", "drift", "--expectations", str(accept)]) == 0
    report = json.loads((cand.parent / "gate.json").read_text())
    assert report["drift"][0]["accepted_by"]["where"] == f"{accept}:2"
    assert any("accept.yaml:8: the acceptance of '*' drift expired on 2020-01-01" in w for w in report["warnings"])
    assert "## Behaviour drift (1, 1 accepted)" in (cand.parent / "gate.md").read_text()
    other_product = tmp_path / "other.yaml"
    other_product.write_text(accept.read_text().replace("[atlas_a2]", "[atlas_a3]"))
    assert main([str(base), str(cand), "--fail-on", "drift", "--expectations", str(other_product)]) == 1


def test_drift_entries_need_an_expiry_and_never_waive_an_outcome(tmp_path):
    path = tmp_path / "e.yaml"
    path.write_text(f"expectations:\n  - rule: {RULE}\n    observation: code\n    reason: r\n")
    with pytest.raises(ExpectationError, match=r"e.yaml:3: expectations\[0\].observation: accepting a drift needs"):
        load_expectations([path])
    path.write_text(f"expectations:\n  - rule: {RULE}\n    observation: code\n    reason: r\n    expires: 2099-01-01\n")
    entries = load_expectations([path])
    today = datetime.date(2026, 1, 1)
    assert entries.match("c", RULE, "atlas_a2", "s", "8.5", today) is None
    assert entries.match_drift("c", RULE, "code", "atlas_a2", "s", "8.5", today).observation == "code"
    assert entries.match_drift("c", RULE, "grain", "atlas_a2", "s", "8.5", today) is None


def test_fail_on_accepts_drift_classes_and_names_the_choices():
    assert parse_fail_on("regression, drift:unspecified") == ["regression", "drift:unspecified"]
    with pytest.raises(ValueError, match="unknown --fail-on class 'drift:maybe'.*drift:runtime-source"):
        parse_fail_on("drift:maybe")
