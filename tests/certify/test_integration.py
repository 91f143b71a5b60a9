"""Certification and gating on real runs of the suite against the reference simulator.

The runs are session fixtures (conftest.py), made once and shared: one full faithful
certification, pairing-only runs of the faithful and the faulted simulator, and a
pairing-only faulted run with expectations.
"""

from __future__ import annotations

import json
import shutil

from bundle_helpers import FAULTED_RULE, PASSING_PAIR_RULE, SECOND_FAULTED_RULE

from conformance.certify.bundle import write_sums
from conformance.certify.verdict import CERTIFIED, NOT_CERTIFIED
from conformance.certify.verify import verify
from conformance.gate.command import main as gate_main
from conformance.results.summary import load_json


def pairing_rules(summary):
    return {rid: rule for rid, rule in summary["rules"].items() if rid.startswith("HM-PAIR-")}


def test_faithful_simulator_is_certified(faithful_bundle):
    bundle = faithful_bundle.bundle
    assert faithful_bundle.assessment.verdict == CERTIFIED, [r.rule_id for r in faithful_bundle.assessment.blocking]
    assert faithful_bundle.returncode == 0, faithful_bundle.stdout
    assert "<!-- acl-verdict: CERTIFIED -->" in (bundle / "certificate.md").read_text()
    for rel in ("allure-results", "allure-report/index.html", "junit.xml", "summary.json", "manifest.json"):
        assert (bundle / rel).exists(), rel
    manifest = load_json(bundle / "manifest.json")
    assert manifest["verdict"] == CERTIFIED and manifest["complete"] is True
    assert manifest["library"]["sha256"] and manifest["packages"]["pytest"]
    assert bundle.name.endswith("Z") and bundle.name.count("-") >= 2


def test_a_driver_that_behaves_as_its_source_says_gets_the_verdict_the_evidence_supports(public_driver_bundle):
    """svm v2 (Ascend910B3) and v3 (Ascend950): where the public driver answers otherwise than the docs,
    only advisory and recommended rules may fail; no case is an ERROR, and the certificate leads with
    each root cause once."""
    bundle = public_driver_bundle.bundle
    summary = json.loads((bundle / "summary.json").read_text(encoding="utf-8"))
    assert public_driver_bundle.assessment.verdict == CERTIFIED, [r.rule_id for r in
                                                                  public_driver_bundle.assessment.blocking]
    cases = {cid: (rule, case) for rule in summary["rules"].values() for cid, case in rule["cases"].items()}
    assert not [cid for cid, (_r, case) in cases.items() if case["outcome"] == "ERROR"], summary["totals"]
    causes = summary["root_causes"]
    # A case BLOCKED by the driver's side of a conflict (e.g. a v3 free refused while registered) is
    # never a mandatory one, and its blocker is a root cause of the run.
    blocked = {cid: (rule, case) for cid, (rule, case) in cases.items() if case["outcome"] == "BLOCKED"}
    assert all(rule["severity"] != "mandatory" for rule, _c in blocked.values()), sorted(blocked)
    assert {case["blocked_by"] for _r, case in blocked.values()} <= {c["rule"] for c in causes}
    assert causes and all(c["severity"] != "mandatory" for c in causes), causes
    assert len({c["rule"] for c in causes}) == len(causes)
    certificate = (bundle / "certificate.md").read_text(encoding="utf-8")
    headings = [line for line in certificate.splitlines() if line.startswith("## ")]
    assert headings[0].startswith("## Verdict") and headings[1] == "## Root causes", headings
    first = certificate.index("## Root causes")
    section = certificate[first:certificate.index("\n## ", first + 3)]
    for cause in causes:
        assert section.count(cause["rule"] + " ") + section.count(cause["rule"] + ":") >= 1, cause["rule"]
    assert verify(bundle) == []


def test_a_library_on_the_driver_side_pinning_path_is_certified_on_a2(driver_pins_bundle):
    """The runtime's driver-side pinning path (IsSupportPinRegister) is legal: on an Atlas A2 only
    rules below mandatory may deviate, and the bundle records the setting it ran under."""
    bundle = driver_pins_bundle.bundle
    assert driver_pins_bundle.assessment.verdict == CERTIFIED, [r.rule_id for r in
                                                                driver_pins_bundle.assessment.blocking]
    assert driver_pins_bundle.returncode == 0, driver_pins_bundle.stdout
    summary = json.loads((bundle / "summary.json").read_text(encoding="utf-8"))
    assert summary["environment"]["backend_env"]["ACLSIM_PIN_REGISTER"] == "driver", summary["environment"]
    failed = {rid for rid, rule in summary["rules"].items() if rule.get("outcome") == "FAIL"}
    assert "HM-REG-SECOND-DEVICE" in failed, "the driver keeps registrations per device: the path was taken"
    assert verify(bundle) == []


def test_intact_real_bundle_verifies_and_tampering_is_found(faithful_bundle, tmp_path):
    assert verify(faithful_bundle.bundle) == []
    copy = tmp_path / "copy"
    shutil.copytree(faithful_bundle.bundle, copy)
    results = sorted((copy / "allure-results").glob("*.json"))
    data = bytearray(results[0].read_bytes())
    data[-2] ^= 0x20
    results[0].write_bytes(bytes(data))
    assert f"allure-results/{results[0].name}: checksum mismatch" in verify(copy)
    summary = json.loads((copy / "summary.json").read_text())
    rule = summary["rules"][FAULTED_RULE]
    removed = sorted(rule["cases"])[0]
    del rule["cases"][removed]
    (copy / "summary.json").write_text(json.dumps(summary))
    write_sums(copy)
    assert f"summary.json: case {removed} of rule {FAULTED_RULE} has no outcome" in verify(copy)


def test_mandatory_fault_is_not_certified_naming_the_rule(faulted_bundle):
    assert faulted_bundle.assessment.verdict == NOT_CERTIFIED
    blocking = {r.rule_id for r in faulted_bundle.assessment.blocking}
    assert FAULTED_RULE in blocking
    assert {rid for rid in blocking if rid.startswith("HM-PAIR-")} == {FAULTED_RULE}
    text = (faulted_bundle.bundle / "certificate.md").read_text()
    assert "<!-- acl-verdict: NOT CERTIFIED -->" in text and FAULTED_RULE in text
    assert verify(faulted_bundle.bundle) == []  # an honest NOT CERTIFIED bundle verifies


def test_gate_names_exactly_the_regressed_rules(faithful_pairing_run, faulted_bundle, tmp_path, capsys):
    md, js = tmp_path / "gate.md", tmp_path / "gate.json"
    status = gate_main(
        [str(faithful_pairing_run), str(faulted_bundle.bundle), "--markdown", str(md), "--json", str(js)]
    )
    assert status == 1
    report = json.loads(js.read_text())
    assert report["regressed_rules"] == [FAULTED_RULE]
    assert {c["rule_id"] for c in report["classes"]["regression"]} == {FAULTED_RULE}
    assert f"regressed rule: {FAULTED_RULE}" in capsys.readouterr().out
    assert (
        gate_main([str(faithful_pairing_run), str(faithful_pairing_run), "--json", str(js), "--markdown", str(md)]) == 0
    )


def test_expectations_waive_failures_flag_stale_waivers_and_expire(waived_run):
    summary = load_json(waived_run / "summary.json")
    rules = pairing_rules(summary)
    waived = rules[FAULTED_RULE]
    assert waived["outcome"] == "WAIVED"
    assert all(c["waiver"]["tracking"] == "SIM-1" for c in waived["cases"].values() if c["outcome"] == "WAIVED")
    assert rules[PASSING_PAIR_RULE]["outcome"] == "XPASS"
    assert rules[SECOND_FAULTED_RULE]["outcome"] == "FAIL"  # its expectation expired in 2020
    assert [e["rule"] for e in summary["expectations"]["expired"]] == [SECOND_FAULTED_RULE]


def test_gate_reports_waiver_changes(faithful_pairing_run, waived_run, tmp_path):
    js = tmp_path / "gate.json"
    args = [str(faithful_pairing_run), str(waived_run), "--json", str(js), "--markdown", str(tmp_path / "g.md")]
    assert gate_main([*args, "--fail-on", "waiver-change"]) == 1
    report = json.loads(js.read_text())
    changed = {c["rule_id"] for c in report["classes"]["waiver-change"]}
    assert {FAULTED_RULE, PASSING_PAIR_RULE} <= changed
    # the expired expectation no longer covers the second fault (which also breaks concurrent registration)
    assert SECOND_FAULTED_RULE in report["regressed_rules"]
    assert not {FAULTED_RULE, PASSING_PAIR_RULE} & set(report["regressed_rules"])


def test_certify_cli_exits_1_naming_the_rule(faulted_bundle):
    assert faulted_bundle.returncode == 1
    assert faulted_bundle.stdout.startswith(f"NOT CERTIFIED: {faulted_bundle.bundle}")
    assert f"  {FAULTED_RULE}: " in faulted_bundle.stdout
