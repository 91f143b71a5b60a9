"""Partial runs: -k, --acl-rule, -m and --lf run a subset, report exactly it, and say PARTIAL.

The same runs check junit.xml against the JUnit schema Jenkins validates with: test name = case
ID, class = rule family, a WAIVED case is a skip that carries its waiver's reason.
"""

from __future__ import annotations

import fnmatch
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import xmlschema
from kit_runs import ROOT, SUITE, child_env, finish, start_suite

from conformance.results.identity import case_interfaces
from conformance.results.junit import SCHEMA_FILE

CATALOG = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text())
XSD = SCHEMA_FILE
WAIVED_RULE = "HM-PAIR-DOUBLE-UNREGISTER"
FAULTS = "double_unregister_ok,double_register_ok"  # break HM-PAIR-DOUBLE-UNREGISTER and -DOUBLE-REGISTER


def catalog_cases(keep) -> set[str]:
    return {c["case_id"] for rule in CATALOG["rules"] for c in rule["cases"] if keep(rule, c)}


def reported_cases(report: Path) -> set[str]:
    summary = json.loads((report / "summary.json").read_text())
    return {cid for rule in summary["rules"].values() for cid in rule["cases"]}


def run(tmp_path: Path, name: str, *args: str, **env: str):
    report = tmp_path / name
    return finish(start_suite(report, *args, env=child_env(**env), workers="2"), report)


@pytest.mark.parametrize("args, keep", [
    (["-k", "HM-ALIGN-MALLOC"], lambda rule, case: "HM-ALIGN-MALLOC" in case["case_id"]),
    (["--acl-rule", "HM-ALIGN-MALLOC", "--acl-rule", "HM-CAP-*"],
     lambda rule, case: rule["id"] == "HM-ALIGN-MALLOC" or fnmatch.fnmatch(rule["id"], "HM-CAP-*")),
    (["-m", "aclrtHostUnregister and mandatory and not pairing"],
     lambda rule, case: "aclrtHostUnregister" in case_interfaces(rule, case["params"])
     and rule["severity"] == "mandatory" and rule["family"] != "pairing"),
], ids=["-k case ID", "--acl-rule", "-m interface, severity, family"])
def test_a_selection_reports_exactly_the_selected_cases_as_partial(sim_built, tmp_path, args, keep):
    done = run(tmp_path, "r", *args)
    assert done.returncode == 0, done.output[-3000:]
    expected = catalog_cases(keep)
    assert expected and reported_cases(done.report_dir) == expected
    summary = done.summary
    assert summary["verdict"] == "PARTIAL" and summary["selection"]["selected_cases"] == len(expected)
    assert sum(summary["totals"].values()) == len(expected)
    assert "verdict: PARTIAL" in done.output


def test_node_ids_on_the_command_line_are_a_selection(sim_built, tmp_path):
    """pytest's own way of naming cases: the other cases are not reported as lost."""
    report = tmp_path / "r"
    where = (f"{SUITE}/test_alignment.py::test_HM_ALIGN_MALLOC", f"{SUITE}/test_pairing.py::test_HM_PAIR_DOUBLE_FREE")
    done = finish(start_suite(report, where=where), report)
    assert done.returncode == 0, done.output[-3000:]
    expected = catalog_cases(lambda rule, case: rule["id"] in ("HM-ALIGN-MALLOC", "HM-PAIR-DOUBLE-FREE"))
    assert expected and reported_cases(report) == expected
    assert done.summary["verdict"] == "PARTIAL"


def test_last_failed_reruns_the_failures_and_junit_follows_the_schema(sim_built, tmp_path):
    waivers = tmp_path / "waivers.yaml"
    waivers.write_text("schema: acl-conformance-expectations/1\nexpectations:\n"
                       f"  - rule: {WAIVED_RULE}\n    families: [atlas_a2]\n"
                       "    reason: known double-unregister deviation\n"
                       "    tracking: SIM-1\n")
    report = tmp_path / "r"
    first = finish(start_suite(report, "-m", "pairing", "--acl-expectations", str(waivers),
                               env=child_env(ACLSIM_FAULTS=FAULTS), workers="2"), report)
    assert first.returncode == 1, first.output[-3000:]  # HM-PAIR-DOUBLE-REGISTER fails, the waived rule does not
    outcomes = {cid: c["outcome"] for cid, c in first.cases().items()}
    # pytest saw every case that did not pass fail: --lf reruns the FAIL, WAIVED and BLOCKED ones
    # (HM-PAIR-DOUBLE-REGISTER-V1-CODE is BLOCKED by HM-PAIR-DOUBLE-REGISTER-V1, which it needs)
    failing = {cid for cid, outcome in outcomes.items() if outcome in ("FAIL", "WAIVED", "BLOCKED")}
    assert {outcomes[c] for c in failing} == {"FAIL", "WAIVED", "BLOCKED"}
    code_cases = {cid: first.cases()[cid] for cid in failing if cid.startswith("HM-PAIR-DOUBLE-REGISTER-V1-CODE[")}
    assert code_cases and {(c["outcome"], c["blocked_by"]) for c in code_cases.values()} == {
        ("BLOCKED", "HM-PAIR-DOUBLE-REGISTER-V1")}

    junit = report / "junit.xml"
    xmlschema.XMLSchema(XSD).validate(junit)
    cases = {tc.get("name"): tc for tc in ET.parse(junit).getroot().iter("testcase")}
    assert set(cases) == set(outcomes) and {tc.get("classname") for tc in cases.values()} == {"pairing"}
    waived = next(tc for cid, tc in cases.items() if outcomes[cid] == "WAIVED")
    assert waived.find("failure") is None
    assert waived.find("skipped").get("message") == "WAIVED: known double-unregister deviation (SIM-1)"
    failed = next(tc for cid, tc in cases.items() if outcomes[cid] == "FAIL")
    assert failed.find("failure") is not None
    assert "severity: mandatory" in failed.find("system-out").text and "outcome: FAIL" in failed.find("system-out").text
    properties = {p.get("name"): p.get("value") for p in failed.find("properties")}
    assert properties["severity"] == "mandatory" and properties["outcome"] == "FAIL"
    assert properties["rule"] == failed.get("name").split("[")[0] and properties["interface"]
    waived_properties = {p.get("name"): p.get("value") for p in waived.find("properties")}
    assert waived_properties["waiver_reason"] == "known double-unregister deviation"
    blocked = next(tc for cid, tc in cases.items() if outcomes[cid] == "BLOCKED")
    error = blocked.find("error")
    assert error is not None and error.get("type") == "blocked" and error.get("message").startswith("BLOCKED by ")
    blocked_properties = {p.get("name"): p.get("value") for p in blocked.find("properties")}
    assert blocked_properties["outcome"] == "BLOCKED"
    assert blocked_properties["blocked_by"] == first.cases()[blocked.get("name")]["blocked_by"]
    suite_properties = [p for p in ET.parse(junit).getroot().find("testsuite").find("properties")]
    assert [p.get("value").partition(" ")[0] for p in suite_properties if p.get("name") == "root_cause"] == [
        c["rule"] for c in first.summary["root_causes"]]

    again = finish(start_suite(report, "--lf", env=child_env(), workers="2"), report)  # same report dir: its cache
    assert again.returncode == 0, again.output[-3000:]
    assert reported_cases(report) == failing and again.summary["verdict"] == "PARTIAL"
    assert {c["outcome"] for c in again.cases().values()} == {"PASS"}
