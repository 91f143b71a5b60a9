"""A planted sequence fault: the explorer finds it, shrinks it, and its reproducers reproduce it.

Acceptance: the shrunk reproducer has at most 10 calls; the generated C reproducer compiles
against the generated header and, run against the simulator, exits non-zero with the fault
and 0 without; the finding is reported under the explorer's own rule family in
summary.json, JUnit and Allure.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import LIB, PLANTED, ROOT, ExplorerRun, explorer_env

from conformance.results.summary import run_verdict

DOCUMENTED = "HM-EXPLORE-DOCUMENTED[paths=documented]"
ALL = "HM-EXPLORE-ALL[paths=all]"


def test_the_planted_fault_fails_both_explorer_rules_in_their_own_family(planted_run: ExplorerRun) -> None:
    summary = planted_run.summary
    assert planted_run.returncode == 1, planted_run.output[-3000:]
    for rule_id, case_id in (("HM-EXPLORE-DOCUMENTED", DOCUMENTED), ("HM-EXPLORE-ALL", ALL)):
        rule = summary["rules"][rule_id]
        assert rule["family"] == "explorer" and rule["outcome"] == "FAIL", rule
        assert "state model does not predict" in rule["cases"][case_id]["message"]
    assert summary["by_family"]["explorer"]["FAIL"] == 2
    assert summary["verdict"] == "PARTIAL"  # a -k run; exit status 1 because HM-EXPLORE-DOCUMENTED is mandatory
    assert run_verdict(summary["rules"]) == "FAIL"


def test_junit_and_allure_carry_the_finding(planted_run: ExplorerRun) -> None:
    junit = ET.parse(planted_run.report_dir / "junit.xml").getroot()
    failed = {case.get("name") for case in junit.iter("testcase") if case.find("failure") is not None}
    assert {DOCUMENTED, ALL} <= failed
    results = [json.loads(p.read_text()) for p in (planted_run.report_dir / "allure-results").glob("*-result.json")]
    explorer = [r for r in results if {"name": "tag", "value": "explorer"} in r["labels"]]
    assert len(explorer) == 2 and all(r["status"] == "failed" for r in explorer)
    names = {a["name"] for r in explorer for a in r.get("attachments", [])}
    assert {"ACL call trace", "path.txt", "replay.py", "repro.c", "exploration.json"} <= names


@pytest.mark.parametrize("case_id", [DOCUMENTED, ALL])
def test_the_shrunk_reproducer_has_at_most_ten_calls(planted_run: ExplorerRun, case_id: str) -> None:
    message = planted_run.summary["rules"][case_id.split("[")[0]]["cases"][case_id]["message"]
    assert "reproduce it in a new process" in message, message
    script = (planted_run.artifacts(case_id) / "replay.py").read_text()
    calls = script.count("obs = run.call(")
    assert 1 <= calls <= 10, script


def _compile(source: Path, target: Path) -> None:
    cc = shutil.which("cc") or shutil.which("gcc")
    assert cc, "the C reproducer needs a C compiler"
    include = ROOT / "acl_hostmem_generated" / "include"
    subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-I", str(include), str(source), "-o", str(target),
                    "-L", str(LIB.parent), "-lascendcl", "-lpthread", f"-Wl,-rpath,{LIB.parent}"],
                   check=True, capture_output=True, text=True)


def test_the_c_reproducer_fails_with_the_fault_and_passes_without(planted_run: ExplorerRun, tmp_path: Path) -> None:
    binary = tmp_path / "repro"
    _compile(planted_run.artifacts(DOCUMENTED) / "repro.c", binary)
    faulty = subprocess.run([str(binary)], env=explorer_env(ACLSIM_FAULTS=PLANTED), capture_output=True, text=True,
                            timeout=60)
    assert faulty.returncode == 1, faulty.stdout + faulty.stderr
    assert faulty.stdout.startswith("step "), faulty.stdout
    faithful = subprocess.run([str(binary)], env=explorer_env(), capture_output=True, text=True, timeout=60)
    assert faithful.returncode == 0, faithful.stdout + faithful.stderr


def test_the_replay_script_fails_with_the_fault_and_passes_without(planted_run: ExplorerRun) -> None:
    script = planted_run.artifacts(ALL) / "replay.py"
    command = [sys.executable, str(script), str(LIB)]
    faulty = subprocess.run(command, cwd=ROOT, env=explorer_env(ACLSIM_FAULTS=PLANTED), capture_output=True,
                            text=True, timeout=60)
    assert faulty.returncode == 1, faulty.stdout + faulty.stderr
    faithful = subprocess.run(command, cwd=ROOT, env=explorer_env(), capture_output=True, text=True, timeout=60)
    assert faithful.returncode == 0, faithful.stdout + faithful.stderr
