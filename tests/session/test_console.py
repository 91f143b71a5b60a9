"""The run's console: progress, one line per case that did not pass, the summary's count; ``explain`` a case."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from kit_runs import KIT, LIB, child_env

from conformance.certify.runlog import check_run_log
from conformance.results.caseline import case_line, parse_case_line
from conformance.results.explain import explain_lines, find_case
from conformance.results.terminal import PercentProgress, percent_of

FAULT = "double_unregister_ok"  # fails the two cases of HM-PAIR-DOUBLE-UNREGISTER


def _run(report: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*KIT, "run", "-n", "2", "--no-html", "--acl-lib", str(LIB),
                           "--acl-report-dir", str(report), "-m", "pairing", *extra], cwd=report.parent,
                          env=child_env(ACLSIM_FAULTS=FAULT, NO_COLOR="1"), capture_output=True, text=True,
                          check=False)


@pytest.fixture(scope="module")
def fault_run(sim_built: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    report = tmp_path_factory.mktemp("console") / "r"
    done = _run(report)
    assert done.returncode == 1, done.stdout + done.stderr  # PARTIAL with a failing mandatory rule
    return report, done.stdout + done.stderr


def _not_passed(summary: dict) -> dict[str, str]:
    return {case_id: case["outcome"] for rule in summary["rules"].values() for case_id, case in rule["cases"].items()
            if case["outcome"] not in ("PASS", "NOT_APPLICABLE", "WAIVED")}


def test_a_failing_run_prints_one_line_per_case_and_the_summarys_count(fault_run):
    report, out = fault_run
    summary = json.loads((report / "summary.json").read_text())
    printed = {parsed[1]: parsed[0] for line in out.splitlines() if (parsed := parse_case_line(line))
               and parsed[1] in summary["rules"].get(parsed[1].split("[")[0], {}).get("cases", {})}
    assert printed == _not_passed(summary) and printed  # every such case once, with the summary's outcome
    counts = ", ".join(f"{n} {k.lower()}" for k, n in summary["totals"].items() if n)
    assert f"cases: {counts}" in out
    assert "second aclrtHostUnregister succeeded but must fail" in out  # the message, on the case's line
    for pytest_words in ("Traceback", "SpecViolation", "def test_", "short test summary", " failed in ", "+ ",
                         "bringing up nodes", "acl conformance:"):
        assert pytest_words not in out, pytest_words
    assert "% of the cases run" in out
    assert len(out.splitlines()) < 40, out


def test_verbose_brings_back_pytests_report_and_the_command_line(sim_built, tmp_path):
    done = _run(tmp_path / "r", "-v")
    out = done.stdout + done.stderr
    assert "+ " in out and "-m pytest" in out
    assert "SpecViolation: second aclrtHostUnregister succeeded" in out and "short test summary" in out


def test_explain_prints_the_message_trace_and_evidence(fault_run):
    report, _ = fault_run
    done = subprocess.run([*KIT, "explain", "HM-PAIR-DOUBLE-UNREGISTER[api=v1]",
                           str(report)], env=child_env(), capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert text.startswith("HM-PAIR-DOUBLE-UNREGISTER[api=v1]: FAIL")
    assert "second aclrtHostUnregister succeeded but must fail" in text
    assert "ACL call trace:\n" in text and "aclrtHostUnregister(ptr=0x" in text
    assert "evidence:" in text and "https://github.com/hicann/runtime/" in text


def test_explain_names_the_closest_cases_of_an_unknown_one(fault_run):
    report, _ = fault_run
    done = subprocess.run([*KIT, "explain", "HM-PAIR-DOUBLE-UNREGISTER[api=v3]",
                           str(report)], env=child_env(), capture_output=True, text=True, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "did you mean HM-PAIR-DOUBLE-UNREGISTER[api=v1]" in done.stderr


def test_explain_shows_a_hostile_summary_as_inert_text(tmp_path, make_summary):
    summary = make_summary()
    rule = summary["rules"]["HM-PAIR-REG-UNREG"]
    case_id = next(iter(rule["cases"]))
    rule["cases"][case_id].update(outcome="FAIL", message="\x1b[2J\x1b]0;owned\x07gone\u202e",
                                  observations={"\x1b[31mkey": "\x1b[0m"})
    results = tmp_path / "allure-results"
    results.mkdir()
    (tmp_path / "secret.txt").write_text("not the trace")
    (results / "a-result.json").write_text(json.dumps({"name": case_id, "attachments": [
        {"name": "ACL call trace", "source": "../secret.txt"}]}))
    text = "\n".join(explain_lines(tmp_path, summary, case_id))
    assert "\x1b" not in text and "\u202e" not in text and "gone" in text
    assert "not the trace" not in text and "not kept" in text  # an attachment outside allure-results/ is not read
    with pytest.raises(ValueError):
        find_case(summary, "HM-NOT-A-CASE")


def test_a_case_line_is_one_bounded_line_safe_for_a_terminal():
    line = case_line("HM-X[a=1]", "FAIL", "\x1b[31mred\x1b[0m first\nsecond line" + "x" * 500)
    assert "\n" not in line and "\x1b" not in line and line.startswith("FAIL     HM-X[a=1]: red first")
    assert len(line) < 200
    assert case_line("HM-Y", "BLOCKED", "BLOCKED by HM-Z: set-up") == "BLOCKED  HM-Y: by HM-Z: set-up"
    assert parse_case_line(line) == ("FAIL", "HM-X[a=1]")
    assert parse_case_line("run:  10% of the cases run (1s elapsed)") is None


def test_progress_lines_at_each_tenth_with_an_eta_that_certify_reads_back():
    progress = PercentProgress("run", 200)
    progress.started -= 10
    lines = [line for done in range(1, 201) if (line := progress.line(done))]
    assert len(lines) == 10 and lines[0].startswith("run:  10% of the cases run (10s elapsed, ETA 1m30s)")
    assert "ETA" not in lines[-1] and percent_of(lines[-1]) == 100
    assert percent_of("....F.. [ 40%]") == 40  # pytest's own progress, from a run told -v


def test_verify_compares_the_runs_case_lines_with_the_summary(tmp_path, make_summary, catalog):
    summary = make_summary()
    case_id = next(iter(summary["rules"]["HM-PAIR-REG-UNREG"]["cases"]))
    (tmp_path / "run.log").write_text(case_line(case_id, "FAIL", "it broke") + "\n")
    problems = check_run_log(tmp_path, summary, catalog)
    assert problems == [f"run.log: the run printed {case_id} as FAIL, but summary.json says "
                        f"{summary['rules']['HM-PAIR-REG-UNREG']['cases'][case_id]['outcome']}"]
