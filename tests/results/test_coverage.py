"""No silently weaker contract (issue 30.3): how many mandatory cases a run judged, and an interface the library
exports that a chosen or inferred release leaves without any judged mandatory case makes the run INCONCLUSIVE."""

from __future__ import annotations

import json
from typing import Any

from bundle_helpers import write_fake_bundle

from conformance.certify.verdict import NOT_CERTIFIED, assess
from conformance.certify.verify import verify
from conformance.results.coverage import coverage
from conformance.results.summary import exit_status, format_summary
from conformance.results.vocabulary import EXIT_INCONCLUSIVE, Verdict

INTERFACE = "aclrtMallocHostWithCfg"


def _outside_release(catalog: dict[str, Any], release: str = "9.0.0") -> dict[str, Any]:
    """Every mandatory case of INTERFACE NOT_APPLICABLE because the judged release did not document it."""
    outcomes = {}
    for rule in catalog["rules"]:
        if rule["severity"] != "mandatory":
            continue
        for case in rule["cases"]:
            interfaces = rule.get("interfaces") or [case["params"].get("interface")]
            if INTERFACE in interfaces:
                outcomes[case["case_id"]] = {"outcome": "NOT_APPLICABLE", "category": "not_applicable",
                                             "message": f"NOT_APPLICABLE: {INTERFACE} is documented on atlas_a2 from "
                                                        f"CANN 9.2.0 on; this run is judged against {release}"}
    assert outcomes
    return outcomes


def _judged_by(source: str) -> dict[str, Any]:
    return {"name": "9.0.0", "reported": "ACL API 1.17.0", "source": source, "newer_than_known": False}


def test_a_chosen_release_that_leaves_an_exported_interface_unjudged_is_inconclusive(catalog, make_summary, tmp_path):
    summary = make_summary(_outside_release(catalog), release=_judged_by("override"))
    assert summary["coverage"]["unexercised_interfaces"] == [INTERFACE]
    assert summary["coverage"]["mandatory_judged"] < summary["coverage"]["mandatory_cases"]
    assert summary["verdict"] == Verdict.INCONCLUSIVE.value and exit_status(summary) == EXIT_INCONCLUSIVE
    assert f"no mandatory case of {INTERFACE}" in format_summary(summary)
    assessment = assess(summary, catalog)
    assert assessment.verdict == NOT_CERTIFIED and assessment.inconclusive
    assert INTERFACE in assessment.reason() and "mandatory cases judged)" in assessment.reason()
    bundle = write_fake_bundle(tmp_path, summary)
    head = (bundle / "certificate.md").read_text().splitlines()[:6]
    assert any(line.startswith("Why: INCONCLUSIVE") and INTERFACE in line for line in head), head


def test_verify_recomputes_the_coverage_a_summary_claims(catalog, make_summary, tmp_path):
    summary = make_summary(_outside_release(catalog), release=_judged_by("acl-api"))
    bundle = write_fake_bundle(tmp_path, summary)
    forged = json.loads((bundle / "summary.json").read_text())
    forged["coverage"]["unexercised_interfaces"] = []
    (bundle / "summary.json").write_text(json.dumps(forged))
    assert any("coverage" in problem for problem in verify(bundle))


def test_the_library_s_own_release_sets_its_contract_and_the_counts_say_how_much_was_judged(catalog, make_summary):
    summary = make_summary(_outside_release(catalog), release=_judged_by("library"))
    assert summary["coverage"]["unexercised_interfaces"] == [] and summary["verdict"] == "PASS"
    assert coverage(catalog, summary["rules"], summary["environment"]) == summary["coverage"]
    assert "mandatory cases judged: " in format_summary(summary)


def test_a_missing_function_is_no_unexercised_interface(catalog, make_summary):
    summary = make_summary(_outside_release(catalog), release=_judged_by("override"), missing_functions=[INTERFACE])
    assert summary["coverage"]["unexercised_interfaces"] == []


def test_a_not_applicable_rule_says_why(catalog, make_summary):
    from conformance.results.outcomes import CaseResult, Category, Outcome
    from conformance.results.summary import build_summary

    rule = next(r for r in catalog["rules"] if r["severity"] == "mandatory")
    reason = "NOT_APPLICABLE: not on this product"
    results = {c["case_id"]: CaseResult(c["case_id"], rule["id"], Outcome.NOT_APPLICABLE, Category.NOT_APPLICABLE,
                                        reason, None, 0.0) for c in rule["cases"]}
    summary = build_summary(catalog, results, environment={}, command=[], selected=list(results))
    assert summary["rules"][rule["id"]]["outcome"] == "NOT_APPLICABLE"
    assert summary["rules"][rule["id"]]["message"] == reason
