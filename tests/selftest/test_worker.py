"""Many self-test runs in one long-lived judge process, each with its own executors, environment and reports."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from conformance.selftest import plan
from conformance.selftest.worker import SuiteJudge, pytest_arguments

LIB = plan.DEFAULT_LIB
RULE = "HM-PAIR-DOUBLE-FREE"


def _run(name: str, faults: str | None) -> plan.Run:
    env = plan._short_window(plan._base_env("Ascend910B1", plan.MODERN_KERNEL))
    if faults:
        env["ACLSIM_FAULTS"] = faults
    return plan.Run(name, env, "atlas_a2", plan.MODERN_KERNEL, select=(RULE,))


def _outcomes(out: Path, name: str) -> set[str]:
    summary = json.loads((out / name / "summary.json").read_text())
    return {case["outcome"] for case in summary["rules"][RULE]["cases"].values()}


def test_one_judge_runs_suites_one_after_another_each_in_its_own_environment(tmp_path):
    """A fault run, then a faithful run, then the fault again, all in one judge process: the fault
    reaches only its own runs' executors, and each run writes its own summary."""
    assert LIB.exists(), "build the simulator first (make sim)"
    judge = SuiteJudge()
    try:
        runs = [_run("fault", "double_free_ok"), _run("faithful", None), _run("fault-again", "double_free_ok")]
        pids = set()
        for run in runs:
            plan.execute(run, LIB, tmp_path, 5.0, [], judge)
            assert run.summary is not None and not run.isolated, run.log_tail
            assert judge._proc is not None
            pids.add(judge._proc.pid)
        assert len(pids) == 1  # one judge process ran all three
        assert "FAIL" in _outcomes(tmp_path, "fault") and "FAIL" in _outcomes(tmp_path, "fault-again")
        assert _outcomes(tmp_path, "faithful") == {"PASS"}
        assert "ACLSIM_FAULTS" not in os.environ
        # Each run's CPU (its judge's and its executors') is measured in the judge process, per run.
        assert all(run.cpu_seconds is not None and 0 < run.cpu_seconds < run.seconds * 4 for run in runs), [
            (run.cpu_seconds, run.seconds) for run in runs]
    finally:
        judge.close()


def test_a_run_whose_judge_died_is_repeated_in_a_process_of_its_own(tmp_path):
    """The judge process is gone (killed between runs): the run is still judged, once more, alone."""
    assert LIB.exists(), "build the simulator first (make sim)"
    judge = SuiteJudge()
    try:
        judge._start()[0].kill()
        judge._proc.wait()  # type: ignore[union-attr]
        judge._start = lambda: (judge._proc, judge._replies)  # type: ignore[method-assign]  # no restart
        run = plan.execute(_run("fault", "double_free_ok"), LIB, tmp_path, 5.0, [], judge)
        assert run.isolated and run.summary is not None
        assert "FAIL" in _outcomes(tmp_path, "fault")
    finally:
        judge.close()


def test_only_a_python_m_pytest_command_line_goes_to_the_judge():
    assert pytest_arguments([sys.executable, "-m", "pytest", "-q", "x"]) == ["-q", "x"]
    with pytest.raises(ValueError):
        pytest_arguments(["pytest", "-q"])


def test_a_self_test_run_leaves_pytests_tracebacks_out(tmp_path):
    """The verdicts come from the cases' records: pytest's long representation of a failure (which parses the
    generated module's source) is not built, as in `run`'s console."""
    seen: list[list[str]] = []

    class Recorder(SuiteJudge):
        def run(self, command, env, log):  # type: ignore[no-untyped-def]
            seen.append(list(command))
            raise plan.WorkerLost("recorded")

    plan._attempt(_run("fault", "double_free_ok"), LIB, tmp_path / "r", 5.0, [], 1, Recorder())
    assert seen and "--tb=no" in seen[0]
