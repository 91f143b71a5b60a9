"""The self-test judges correctly, and fails when a fault survives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.selftest import command, judge, plan, report

ROOT = Path(__file__).resolve().parents[2]
CATALOG = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text())
LIB = ROOT / "build" / "sim" / "libascendcl.so"


def _run(fault: dict | None, outcomes: dict[str, str], family: str = "atlas_a2") -> plan.Run:
    """A finished run whose summary holds the given case outcomes (all others PASS)."""
    rules: dict[str, dict] = {}
    for rule in CATALOG["rules"]:
        cases = {c["case_id"]: {"outcome": outcomes.get(c["case_id"], "PASS"), "message": "m"} for c in rule["cases"]}
        rules[rule["id"]] = {"cases": cases, "severity": rule["severity"]}
    run = plan.Run("r", {}, family, plan.MODERN_KERNEL, fault)
    run.summary = {"rules": rules, "totals": {}}
    return run


FAULT = {"name": "double_free_ok", "family": "pairing", "violates": ["HM-PAIR-DOUBLE-FREE"]}


def test_fault_killed_by_its_own_rule():
    verdict = judge.judge_fault(_run(FAULT, {"HM-PAIR-DOUBLE-FREE[free=free]": "FAIL"}))
    assert verdict["status"] == "killed" and verdict["on_target_rules"] == ["HM-PAIR-DOUBLE-FREE"]


def test_fault_caught_only_by_another_rule_is_not_killed():
    verdict = judge.judge_fault(_run(FAULT, {"HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=1]": "ERROR"}))
    assert verdict["status"] == "wrong-rule"


def test_surviving_fault_fails_the_selftest():
    verdict = judge.judge_fault(_run(FAULT, {}))
    assert verdict["status"] == "survived"
    result = judge.report(CATALOG, [], [verdict], [], 1.0)
    assert not result["passed"] and result["mutation_score"]["killed"] == 0
    assert "HM-PAIR-DOUBLE-FREE" in result["unproven_rules"]
    assert "survived" in report.markdown(result)


def test_false_alarm_and_applicability_mismatch_are_reported():
    predicted = judge.predicted_not_applicable(CATALOG, "atlas_a2", plan.MODERN_KERNEL, devices=plan.DEVICES)
    assert predicted, "the A2 family has rules that do not apply on a modern kernel"
    one_na = sorted(predicted)[0]
    outcomes = {c: "NOT_APPLICABLE" for c in predicted if c != one_na}
    outcomes["HM-PAIR-DOUBLE-FREE[free=free]"] = "FAIL"
    problems = judge.judge_faithful(CATALOG, _run(None, outcomes))
    assert any("false alarm HM-PAIR-DOUBLE-FREE[free=free]" in p for p in problems)
    run_mode_na = judge.predicted_not_applicable(CATALOG, "atlas_inference", plan.MODERN_KERNEL, run_mode="device")
    assert "HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=1]" in run_mode_na  # RC form, detected at run time
    assert "HM-SYNC-DEVSYNC-CURRENT-DEVICE" in judge.predicted_not_applicable(CATALOG, "atlas_a2", plan.MODERN_KERNEL)
    assert any(one_na in p and "predicts NOT_APPLICABLE" in p for p in problems)


def test_every_fault_is_planned_once_with_its_environment():
    runs = plan.plan_runs(CATALOG, None, None)
    faults = [r for r in runs if r.fault is not None and not r.legal]
    assert [r.fault["name"] for r in faults] == [f["name"] for f in CATALOG["faults"] if not f.get("legal")]
    legacy = next(r for r in faults if r.fault["name"] == "legacy_kernel_accepts")
    assert legacy.kernel == "5.10.0" and legacy.env["ACLSIM_KERNEL"] == "5.10.0"
    sequence = [r for r in faults if r.fault["family"] == plan.SEQUENCE_FAMILY]
    assert len(sequence) >= 6 and all(r.select == () for r in sequence), "a sequence fault runs the whole suite"
    assert all(r.select == tuple(r.fault["violates"]) for r in faults if r not in sequence), \
        "a fault run selects its rules' cases"
    faithful = [r for r in runs if r.fault is None]
    assert {r.family for r in faithful} == {f["id"] for f in CATALOG["families"]}
    assert all(r.env["ACLSIM_DEVICE_COUNT"] == "2" for r in runs)


def test_every_legal_variant_runs_on_each_family_it_concerns():
    runs = [r for r in plan.plan_runs(CATALOG, None, None) if r.legal]
    for variant in (f for f in CATALOG["faults"] if f.get("legal")):
        families = {r.family for r in runs if r.fault["name"] == variant["name"]}
        assert families == set(variant["families"] or [f["id"] for f in CATALOG["families"]]), variant["name"]
    rc = next(r for r in runs if r.fault["name"] == "legal_rc_form")
    assert rc.run_mode == "device" and rc.env["ACLSIM_RUN_MODE"] == "device" and not rc.select


LEGAL = {"name": "legal_alt_codes", "legal": True, "family": "invalid_argument", "covers": ["HM-INVAL-FREE-HOST"]}


def test_mandatory_failure_under_a_legal_variant_is_a_false_alarm():
    run = _run(LEGAL, {"HM-INVAL-FREE-HOST[hostPtr=NULL]": "FAIL",
                       "HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=1]": "FAIL"})
    verdict = judge.judge_legal(run)
    assert verdict["status"] == "false-alarm"
    assert [a.split(":")[0] for a in verdict["false_alarms"]] == ["HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=1]"]
    assert verdict["deviating_rules"] == ["HM-INVAL-FREE-HOST"]  # recommended: an allowed deviation
    result = judge.report(CATALOG, [], [], [], 1.0, [verdict])
    assert not result["passed"] and result["false_alarm_score"]["mandatory_failures"] == 1
    assert "false alarms 1 mandatory failure(s) over 1 legal-variant run(s)" in report.markdown(result)
    assert "HM-INVAL-FREE-HOST" not in result["unproven_rules"]  # the covering variant showed it can fail


@pytest.mark.parametrize("weakened", [False, True], ids=["intact-checks", "weakened-checks"])
def test_selftest_on_a_real_fault_run(weakened, tmp_path, monkeypatch):
    """With the alignment checks weakened, align_malloc_off16 survives and the self-test fails."""
    assert LIB.exists(), "build the simulator first (make sim)"
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent))
    extra = ["-p", "weakened_checks"] if weakened else []
    result = command.run_selftest(LIB, tmp_path, jobs=1, timeout=5.0, families=[],
                                   faults=["align_malloc_off16"], extra=extra)
    verdict = result["faults"][0]
    if weakened:
        assert verdict["status"] == "survived" and not result["passed"], verdict
    else:
        assert verdict["status"] == "killed", verdict
        assert "HM-ALIGN-MALLOC" in verdict["on_target_rules"]


def test_selftest_fails_when_a_rule_is_made_too_strict(tmp_path, monkeypatch):
    """A check that demands codes the docs do not give raises false alarms under legal_alt_codes."""
    assert LIB.exists(), "build the simulator first (make sim)"
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent))
    result = command.run_selftest(LIB, tmp_path, jobs=1, timeout=5.0, families=["atlas_a2"], faults=[],
                                   extra=["-p", "strict_checks"], variants=["legal_alt_codes"], faithful=False)
    assert result["legal_variants"][0]["status"] == "false-alarm"
    alarms = result["legal_variants"][0]["false_alarms"]
    assert result["false_alarm_score"]["mandatory_failures"] == len(alarms) > 0
    assert any(a.startswith("HM-INVAL-CFG-OTHER-DEVICE[cfg=other_device]: FAIL") for a in alarms), alarms


def test_selftest_reports_no_false_alarm_for_the_intact_checks(tmp_path):
    assert LIB.exists(), "build the simulator first (make sim)"
    result = command.run_selftest(LIB, tmp_path, jobs=1, timeout=5.0, families=["atlas_a2"], faults=[],
                                   variants=["legal_alt_codes"], faithful=False)
    assert result["legal_variants"][0]["status"] == "clean", result["legal_variants"]
    assert result["false_alarm_score"] == {"mandatory_failures": 0, "runs": 1, "variants": ["legal_alt_codes"],
                                           "clean_runs": 1}
