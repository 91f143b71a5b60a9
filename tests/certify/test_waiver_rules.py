"""Waivers cannot hide a failure: no wildcard certifies, a timeout and an unreleased teardown stay FAIL."""

from __future__ import annotations

import datetime
import subprocess

from bundle_helpers import REPO, SIM_LIB
from conftest import sim_env
from kit_runs import KIT

from conformance.certify.verdict import NOT_CERTIFIED, assess
from conformance.results.outcomes import Category, Outcome, PhaseResult, apply_waiver, classify
from conformance.results.summary import load_json

WAIVER = {"rule": "HM-X", "case": None, "families": ["atlas_a2"], "reason": "known", "tracking": "T-1",
          "expires": "2099-01-01", "accepted": True, "where": "w.yaml:2"}

#: An expiry an accepted waiver may have (within a year of today).
SOON = (datetime.date.today() + datetime.timedelta(days=200)).isoformat()


def _phases(call_exception: str, teardown_failed: bool = False) -> list[PhaseResult]:
    phases = [PhaseResult("setup", "passed"), PhaseResult("call", "failed", call_exception, "it broke")]
    if teardown_failed:
        phases.append(PhaseResult("teardown", "failed", "HarnessError", "thread aclrtFreeHost still running"))
    return phases


def test_a_spec_violation_is_waivable():
    result = apply_waiver(classify(_phases("SpecViolation"), "HM-X[a=1]", "HM-X"), WAIVER)
    assert result.outcome is Outcome.WAIVED and result.waiver["waived_category"] == "spec_violation"


def test_a_timeout_of_a_call_that_must_return_is_not_waivable():
    result = apply_waiver(classify(_phases("CallTimeout"), "HM-X[a=1]", "HM-X"), WAIVER)
    assert result.outcome is Outcome.FAIL and result.category is Category.TIMEOUT and result.waiver is None
    assert result.message.startswith("not waivable (a call that must return timed out); waiver w.yaml:2 ignored")


def test_a_case_whose_teardown_could_not_release_is_not_waivable():
    result = apply_waiver(classify(_phases("SpecViolation", teardown_failed=True), "HM-X[a=1]", "HM-X"), WAIVER)
    assert result.outcome is Outcome.FAIL and result.teardown_problem
    assert "its teardown could not release the case's resources" in result.message


def test_an_accepted_wildcard_waiver_stops_run_and_certify_with_exit_2(tmp_path):
    waivers = tmp_path / "everything.yaml"
    waivers.write_text("expectations:\n  - rule: '*'\n    families: [atlas_a2]\n    reason: ship it\n"
                       "    tracking: T-1\n    expires: 2099-12-31\n    accepted: true\n", encoding="utf-8")
    for command in (["run", "--acl-expectations"], ["certify", "--acl-lib", str(SIM_LIB), "--acl-expectations"]):
        done = subprocess.run([*KIT, *command, str(waivers)], cwd=REPO,
                              env=sim_env(), capture_output=True, text=True, timeout=120)
        assert done.returncode == 2, done.stdout + done.stderr
        assert f"{waivers}:2: expectations[0].rule: '*' is not one rule ID" in done.stderr


def test_a_deadlocked_free_cannot_be_waived_into_certified(tmp_path):
    waivers = tmp_path / "deadlock.yaml"
    waivers.write_text("expectations:\n  - rule: HM-SYNC-FREE-NO-IMPLICIT\n    families: [atlas_a2]\n"
                       f"    reason: deadlocks\n    tracking: T-1\n    expires: {SOON}\n    accepted: true\n",
                       encoding="utf-8")
    report = tmp_path / "report"
    command = [*KIT, "run", "--acl-lib", str(SIM_LIB), "--acl-report-dir", str(report),
               "--acl-expectations", str(waivers), "--acl-timeout", "1", "--no-html", "-n", "1",
               "-k", "HM_SYNC_FREE_NO_IMPLICIT"]
    subprocess.run(command, cwd=REPO, env=sim_env("hang_in_free"), capture_output=True, text=True, timeout=300)
    summary = load_json(report / "summary.json")
    case = summary["rules"]["HM-SYNC-FREE-NO-IMPLICIT"]["cases"]["HM-SYNC-FREE-NO-IMPLICIT[size=4096,blocked=first]"]
    assert case["outcome"] == "FAIL" and case["category"] == "timeout" and case["waiver"] is None
    assert "still running" in case["teardown_problem"]
    assert assess(summary).verdict == NOT_CERTIFIED
