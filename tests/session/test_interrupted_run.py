"""An interrupted run (issue 31.1): stops within seconds, contained, verdict INTERRUPTED, exit 128 + the signal,
the previous reports of its directory kept, nothing in history; certify says that nothing was certified."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from kit_runs import KIT, LIB, child_env

from conformance.results.summary import INTERRUPTED_NOT_RUN

#: Seconds from the signal to the run's exit, with room for a loaded machine (the run itself takes about 1).
STOP_LIMIT_S = 6.0
PREVIOUS_SUMMARY = {"schema": "an earlier run", "verdict": "PASS"}


def _previous_reports(report: Path) -> None:
    (report / "allure-results").mkdir(parents=True)
    (report / "allure-results" / "earlier-result.json").write_text("{}", encoding="utf-8")
    (report / "summary.json").write_text(json.dumps(PREVIOUS_SUMMARY), encoding="utf-8")
    (report / "junit.xml").write_text("<testsuites/>", encoding="utf-8")
    (report / "history.jsonl").write_text('{"earlier": 1}\n', encoding="utf-8")


def _started(report: Path, proc: subprocess.Popen[str], limit: float = 120.0) -> None:
    """Wait until the run has finished a case (its Allure results hold one), so that it is interrupted mid-run."""
    until = time.monotonic() + limit
    while time.monotonic() < until and proc.poll() is None:
        results = report / "allure-results"
        if results.is_dir() and any(p.name.endswith("-result.json") and p.name != "earlier-result.json"
                                    for p in results.iterdir()):
            return
        time.sleep(0.1)
    pytest.fail(f"the run did not start a case within {limit:.0f} s (exit {proc.poll()})")


def _interrupt(proc: subprocess.Popen[str], signum: int, to_group: bool) -> tuple[float, str]:
    """Send ``signum`` to the run's process group (as a terminal does) or to the CLI alone; (seconds to exit,
    its stderr)."""
    started = time.monotonic()
    (os.killpg if to_group else os.kill)(proc.pid, signum)
    _, err = proc.communicate(timeout=60)
    return time.monotonic() - started, err


def _leftovers(pgid: int) -> list[int]:
    """Processes still in the run's process group."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid:
                found.append(int(entry.name))
    return found


def _start(tmp_path: Path, report: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen([*KIT, "run", "--no-html", "-n", "2", "--acl-lib", str(LIB),
                             "--acl-report-dir", str(report), *extra], cwd=tmp_path, env=child_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)


@pytest.mark.parametrize(("signum", "to_group"), [(signal.SIGINT, True), (signal.SIGTERM, False),
                                                  (signal.SIGHUP, True)], ids=["SIGINT-group", "SIGTERM-cli",
                                                                               "SIGHUP-group"])
def test_an_interrupted_run_stops_contained_and_keeps_the_previous_reports(sim_built, tmp_path, signum, to_group):
    report = tmp_path / "reports"
    _previous_reports(report)
    proc = _start(tmp_path, report)
    _started(report, proc)
    took, err = _interrupt(proc, signum, to_group)
    assert proc.returncode == 128 + signum, err[-2000:]
    assert took < STOP_LIMIT_S, f"the run took {took:.1f} s to stop"
    assert _leftovers(proc.pid) == []  # contained as a deadline contains it
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines[-1].startswith(f"verdict: INTERRUPTED by {signal.Signals(signum).name}"), err[-2000:]
    assert "Traceback" not in err
    # Nothing of the partial run replaces the previous reports, and nothing enters history.
    assert json.loads((report / "summary.json").read_text(encoding="utf-8")) == PREVIOUS_SUMMARY
    assert (report / "junit.xml").read_text(encoding="utf-8") == "<testsuites/>"
    assert sorted(p.name for p in (report / "allure-results").iterdir()) == ["earlier-result.json"]
    assert (report / "history.jsonl").read_text(encoding="utf-8") == '{"earlier": 1}\n'
    assert not (report / ".previous-run").exists()


def test_keep_partial_keeps_an_interrupted_summary_with_its_unrun_cases_marked(sim_built, tmp_path):
    report = tmp_path / "reports"
    _previous_reports(report)
    proc = _start(tmp_path, report, "--keep-partial")
    _started(report, proc)
    _, err = _interrupt(proc, signal.SIGINT, to_group=True)
    assert proc.returncode == 130, err[-2000:]
    summary = json.loads((report / "summary.json").read_text(encoding="utf-8"))
    assert summary["verdict"] == "INTERRUPTED" and summary["root_causes"] == [] and summary["unjudged_rules"] == []
    cases = [case for rule in summary["rules"].values() for case in rule["cases"].values()]
    unrun = [case for case in cases if case["category"] == "not_run"]
    assert unrun and all(case["message"] == INTERRUPTED_NOT_RUN for case in unrun)
    assert not any(case["category"] == "harness_error" for case in cases)
    assert (report / "history.jsonl").read_text(encoding="utf-8") == '{"earlier": 1}\n'
    gate = subprocess.run([*KIT, "gate", str(report), str(report)], cwd=tmp_path,
                          env=child_env(), capture_output=True, text=True, timeout=60)
    assert gate.returncode == 2 and "INTERRUPTED" in gate.stdout + gate.stderr  # never a baseline


def test_an_interrupted_certify_certifies_nothing_and_leaves_no_staging(sim_built, tmp_path):
    out = tmp_path / "certification"
    proc = subprocess.Popen([*KIT, "certify", "--no-html", "-n", "2", "--acl-lib",
                             str(LIB), "--out-dir", str(out)], cwd=tmp_path, env=child_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    until = time.monotonic() + 120
    while time.monotonic() < until and not list(out.glob(".staging-*/allure-results/*-result.json")):
        time.sleep(0.1)
    started = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    stdout, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, stdout[-2000:] + err[-2000:]
    assert time.monotonic() - started < STOP_LIMIT_S + 2
    assert err.strip().splitlines() == [
        "certify: INTERRUPTED by SIGINT: nothing was certified (the run and its staging directory are gone)"]
    assert list(out.iterdir()) == []
    assert _leftovers(proc.pid) == []
