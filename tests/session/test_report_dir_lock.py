"""One run per report directory (F10): a second run into a directory in use is refused and touches nothing."""

from __future__ import annotations

import json
import subprocess
import sys

from kit_runs import KIT, LIB, child_env

from conformance.session.preflight import Problem
from conformance.session.reportlock import LOCK_NAME, lock_report_dir


def test_a_second_run_into_a_report_directory_in_use_is_refused_and_deletes_nothing(sim_built, tmp_path):
    report = tmp_path / "reports"
    lock = lock_report_dir(report)  # a first run, still writing
    (report / "allure-results").mkdir()
    (report / "allure-results" / "first-result.json").write_text("{}", encoding="utf-8")
    (report / "summary.json").write_text(json.dumps({"verdict": "PASS"}), encoding="utf-8")
    try:
        plain_pytest = ["-m", "pytest", "-p", "conformance.session.plugin"]
        for command in (["-m", "conformance", "run", "--no-html"], plain_pytest):
            proc = subprocess.run([sys.executable, *command, "-n", "1", "--acl-lib", str(LIB), "--acl-report-dir",
                                   str(report)], cwd=tmp_path, env=child_env(), capture_output=True, text=True,
                                  timeout=120)
            assert proc.returncode == Problem.REPORT_DIR_IN_USE, proc.stdout[-2000:] + proc.stderr[-2000:]
            assert "another run" in proc.stderr and str(report) in proc.stderr, proc.stderr
            assert (report / "allure-results" / "first-result.json").is_file()  # the first run's results stay
            assert json.loads((report / "summary.json").read_text(encoding="utf-8")) == {"verdict": "PASS"}
    finally:
        lock.release()
    assert not (report / LOCK_NAME).exists()


def test_the_lock_ends_with_the_run(sim_built, tmp_path):
    report = tmp_path / "reports"
    for _ in range(2):  # the second run finds the directory free again
        proc = subprocess.run([*KIT, "run", "--no-html", "-n", "1", "--acl-lib",
                               str(LIB), "--acl-report-dir", str(report), "--acl-rule", "HM-ALIGN-MALLOC-CFG"],
                              cwd=tmp_path, env=child_env(), capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
        assert not (report / LOCK_NAME).exists()
