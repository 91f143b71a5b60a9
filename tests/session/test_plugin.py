"""The plugin end to end over the fake cases: outcomes, isolation, waivers, reports."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from kit_runs import child_env, run_fake

from conformance.session.preflight import Problem

ALIGN = "HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=1]"
REG = "HM-PAIR-REG-UNREG[api=v1]"
SYNC_FREE = "HM-SYNC-FREE-NO-IMPLICIT[size=4096]"
FREE_NULL = "HM-INVAL-FREE-HOST[hostPtr=NULL]"


def test_serial_run_reports(sim_built, fake_suite, tmp_path):
    report = tmp_path / "r"
    run = run_fake(fake_suite, report, "--junitxml", str(report / "junit.xml"))
    assert run.returncode == 0, run.output
    ran = run.ran()
    assert {c["outcome"] for c in ran.values()} == {"PASS"} and len(ran) == 6
    summary = run.summary
    assert summary["environment"]["product_family"] == "atlas_a2"
    assert summary["environment"]["cann_version"] and summary["environment"]["library_sha256"]
    assert summary["rules"]["HM-CAP-STABLE"]["outcome"] == "ERROR"  # not collected: never silently dropped
    results = list((report / "allure-results").glob("*-result.json"))
    assert len(results) == 6
    data = json.loads(results[0].read_text())
    labels = {(label["name"], label["value"]) for label in data["labels"]}
    assert ("epic", "Host memory") in labels and ("outcome", "PASS") in labels
    assert data["links"] and data["attachments"][0]["name"] == "ACL call trace"
    trace = (report / "allure-results" / data["attachments"][0]["source"]).read_text()
    assert "ACL_SUCCESS" in trace or "ACL_ERROR" in trace
    assert (report / "allure-results" / "environment.properties").read_text().count("soc=Ascend910B3") == 1
    assert ET.parse(report / "junit.xml").getroot().iter("testcase")


def test_forced_outcomes(sim_built, fake_suite, tmp_path):
    expected = {"violation": ("FAIL", "spec_violation"), "wrong_code": ("FAIL", "wrong_error_code"),
                "harness": ("ERROR", "harness_error"), "other": ("ERROR", "harness_error"),
                "skip": ("ERROR", "harness_error")}
    for mode, (outcome, category) in expected.items():
        run = run_fake(fake_suite, tmp_path / mode, "-k", "FREE_HOST", env=child_env(FAKE_MODE=mode))
        case = run.cases()[FREE_NULL]
        assert (case["outcome"], case["category"]) == (outcome, category), (mode, case)
    wrong = run_fake(fake_suite, tmp_path / "w", "-k", "FREE_HOST", env=child_env(FAKE_MODE="wrong_code"))
    assert wrong.cases()[FREE_NULL]["observed_code"] == "100000 ACL_ERROR_INVALID_PARAM"


def test_not_applicable_on_unsupported_family(sim_built, fake_suite, tmp_path):
    run = run_fake(fake_suite, tmp_path / "r", env=child_env(ACLSIM_SOC="Ascend310P3"))
    cases = run.ran()
    assert cases[REG]["outcome"] == "NOT_APPLICABLE"
    assert cases[REG]["message"].startswith("NOT_APPLICABLE: aclrtHostRegister is not supported on Atlas inference")
    assert cases[ALIGN]["outcome"] == "PASS"  # a 310P card in EP form: the alignment promise holds
    assert cases[FREE_NULL]["outcome"] == "PASS"
    rc = run_fake(fake_suite, tmp_path / "rc", env=child_env(ACLSIM_SOC="Ascend310P3", ACLSIM_RUN_MODE="device"))
    align = rc.ran()[ALIGN]
    assert align["outcome"] == "NOT_APPLICABLE", align  # RC form, as aclrtGetRunMode answers
    assert "aclrtGetRunMode answered the device run mode" in align["message"]


def test_unsupported_interface_that_works_is_the_support_rules_deviation(sim_built, fake_suite, tmp_path):
    # The support matrix is HM-PROD-SUPPORT's promise (setup_promises: supported): a case of another
    # rule that finds an interface working where the matrix says absent is BLOCKED by it, not FAIL.
    run = run_fake(fake_suite, tmp_path / "r", "-k", "REG_UNREG",
                   env=child_env(ACLSIM_SOC="Ascend310P3", ACLSIM_FAULTS="prod_register_extra"))
    case = run.cases()[REG]
    assert (case["outcome"], case["category"], case["blocked_by"]) == ("BLOCKED", "blocked", "HM-PROD-SUPPORT"), case
    assert "where the support matrix says it is not supported" in case["message"]


def test_crash_and_hang_are_isolated(sim_built, fake_suite, tmp_path):
    crash = run_fake(fake_suite, tmp_path / "c", "-n", "2", "--alluredir", str(tmp_path / "c" / "allure-results"),
                     env=child_env(ACLSIM_FAULTS="crash_in_register"))
    cases = crash.ran()
    assert (cases[REG]["outcome"], cases[REG]["category"]) == ("ERROR", "crash"), cases[REG]
    assert all(c["outcome"] == "PASS" for cid, c in cases.items() if cid != REG) and len(cases) == 6
    crashed = [json.loads(p.read_text()) for p in (tmp_path / "c" / "allure-results").glob("*-result.json")]
    assert any(r["status"] == "broken" and "[crash]" in r["statusDetails"]["message"] for r in crashed)

    hang = run_fake(fake_suite, tmp_path / "h", "-n", "2", "--acl-timeout", "0.5",
                    "-k", "FREE_NO_IMPLICIT or FREE_HOST", env=child_env(ACLSIM_FAULTS="hang_in_free"))
    cases = hang.ran()
    # The fake case calls aclrtFreeHost unbounded, so only the hard per-case limit ends it. The
    # call is one HM-PAIR-MALLOC-FREE promises (setup_promises: free), and the case is another
    # rule's: the hang is BLOCKED by that rule, the kill (a timeout) kept in the message.
    hung = cases[SYNC_FREE]
    assert (hung["outcome"], hung["category"], hung["blocked_by"]) == ("BLOCKED", "blocked",
                                                                       "HM-PAIR-MALLOC-FREE"), hung
    assert "died in aclrtFreeHost" in hung["message"] and "timeout:" in hung["message"], hung["message"]
    assert cases[FREE_NULL]["outcome"] == "PASS"
    assert [c["rule"] for c in hang.summary["root_causes"]] == ["HM-PAIR-MALLOC-FREE"]


def test_waivers_and_bad_expectations(sim_built, fake_suite, tmp_path):
    waivers = tmp_path / "w.yaml"
    waivers.write_text(
        "schema: acl-conformance-expectations/1\nexpectations:\n"
        f"  - case: \"{FREE_NULL}\"\n    families: [atlas_a2]\n    reason: forced\n"
        "  - rule: HM-ALIGN-MALLOC\n    families: [atlas_a2]\n    reason: stale on purpose\n"
    )
    run = run_fake(fake_suite, tmp_path / "r", "--acl-expectations", str(waivers),
                   env=child_env(FAKE_MODE="violation"))
    cases = run.ran()
    assert cases[FREE_NULL]["outcome"] == "WAIVED" and cases[FREE_NULL]["waiver"]["reason"] == "forced"
    assert cases[ALIGN]["outcome"] == "XPASS"
    assert run.summary["expectations"]["files"] == [str(waivers)]
    bad = tmp_path / "bad.yaml"
    bad.write_text("schema: acl-conformance-expectations/1\nexpectations:\n  - rule: HM-X\n")
    broken = run_fake(fake_suite, tmp_path / "b", "--acl-expectations", str(bad))
    assert broken.returncode == 2 and "bad.yaml:" in broken.output


def test_device_pinning_per_worker(sim_built, fake_suite, tmp_path):
    serial = run_fake(fake_suite, tmp_path / "s", env=child_env(ACLSIM_DEVICE_COUNT="2"))
    parallel = run_fake(fake_suite, tmp_path / "p", "-n", "2", env=child_env(ACLSIM_DEVICE_COUNT="2"))
    outcome = {cid: c["outcome"] for cid, c in serial.ran().items()}
    assert outcome == {cid: c["outcome"] for cid, c in parallel.ran().items()}
    assert parallel.summary["environment"]["device_count"] == 2


def test_missing_library_stops_the_run_before_any_case(fake_suite, tmp_path):
    run = run_fake(fake_suite, tmp_path / "r", "--acl-lib", str(Path(tmp_path) / "nope.so"))
    assert run.returncode == Problem.LIBRARY_NOT_FOUND, run.output
    assert "no such file" in run.output and not (tmp_path / "r" / "summary.json").exists()
