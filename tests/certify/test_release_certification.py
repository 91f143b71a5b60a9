"""Certifying a release against its own contract, and gating across releases."""

from __future__ import annotations

import json
import shutil

import pytest
from bundle_helpers import reseal

from conformance.certify.verify import verify
from conformance.gate.compare import CompareError, compare

CAPABILITY_RULES = ("HM-CAP-QUERY-ALL", "HM-CAP-STABLE", "HM-CAP-CONSISTENT", "HM-INVAL-CAPABILITIES")
DEVICE_POINTER_RULES = ("HM-INVAL-GETDEVPTR", "HM-PAIR-GETDEVPTR-AFTER-UNREG", "HM-VA-DEVPTR-INTERIOR")


def cases_of(summary, rule_id):
    return summary["rules"][rule_id]["cases"]


def test_8_5_0_on_atlas_a2_is_certified_against_its_own_contract(oldest_release_bundle):
    bundle = oldest_release_bundle
    assert bundle.returncode == 0 and bundle.assessment.verdict == "CERTIFIED", bundle.stdout[-2000:]
    summary = json.loads((bundle.bundle / "summary.json").read_text(encoding="utf-8"))
    assert summary["environment"]["cann_release"] == "8.5.0"
    for rule_id in (*CAPABILITY_RULES, *DEVICE_POINTER_RULES):
        for case_id, case in cases_of(summary, rule_id).items():
            assert case["outcome"] == "NOT_APPLICABLE", (case_id, case)
            assert "from CANN 9.0.0 on" in case["message"] or "from CANN 9.1.0 on" in case["message"], case
    v2 = cases_of(summary, "HM-PAIR-REG-UNREG")
    assert v2["HM-PAIR-REG-UNREG[api=v2_mapped]"]["outcome"] == "NOT_APPLICABLE"
    assert v2["HM-PAIR-REG-UNREG[api=v1]"]["outcome"] == "PASS"  # V1 is in the 8.5.0 contract and ran
    support = cases_of(summary, "HM-PROD-SUPPORT")
    assert support["HM-PROD-SUPPORT[interface=aclrtHostMemMapCapabilities]"]["outcome"] == "NOT_APPLICABLE"
    certificate = (bundle.bundle / "certificate.md").read_text(encoding="utf-8")
    facts = certificate.split("- **", 3)  # the sandbox first, then the release judged against
    assert facts[2].startswith("Judged against:** CANN 8.5.0"), certificate[:1500]
    assert verify(bundle.bundle) == []


def test_verify_recomputes_which_cases_lie_outside_the_release(oldest_release_bundle, tmp_path):
    forged = tmp_path / "forged"
    shutil.copytree(oldest_release_bundle.bundle, forged)
    summary = json.loads((forged / "summary.json").read_text(encoding="utf-8"))
    case = summary["rules"]["HM-CAP-STABLE"]["cases"]["HM-CAP-STABLE[repeats=16]"]
    case.update(outcome="PASS", message="")  # claims a run of a case 8.5.0 does not promise
    inside = summary["rules"]["HM-PAIR-REG-UNREG"]["cases"]["HM-PAIR-REG-UNREG[api=v1]"]
    inside.update(outcome="NOT_APPLICABLE", message="NOT_APPLICABLE: this run is judged against 8.5.0")
    (forged / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    reseal(forged)
    problems = "\n".join(verify(forged))
    assert "HM-CAP-STABLE[repeats=16] is outside the CANN 8.5.0 contract but was judged PASS" in problems
    assert "HM-PAIR-REG-UNREG[api=v1] is NOT_APPLICABLE as outside the CANN 8.5.0 contract" in problems


def test_a_gate_across_releases_is_refused_unless_asked_and_then_lists_the_contract_changes(
        oldest_release_bundle, faithful_bundle):
    with pytest.raises(CompareError, match="different CANN releases"):
        compare(oldest_release_bundle.bundle, faithful_bundle.bundle)
    result = compare(oldest_release_bundle.bundle, faithful_bundle.bundle, allow_different_release=True)
    assert "HM-CAP-STABLE[repeats=16]" in {c.case_id for c in result.classes.get("entered-contract", [])}
    assert not result.classes.get("coverage-loss") and not result.classes.get("regression")
    assert result.warnings and "across releases 8.5.0 and" in result.warnings[0]
    backwards = compare(faithful_bundle.bundle, oldest_release_bundle.bundle, allow_different_release=True)
    assert "HM-CAP-STABLE[repeats=16]" in {c.case_id for c in backwards.classes.get("left-contract", [])}
    assert not backwards.classes.get("coverage-loss"), backwards.classes.get("coverage-loss")
