"""Verdict INCONCLUSIVE: mandatory cases the instrument could not observe, and no mandatory rule failed.

It is kept apart from FAIL everywhere a run's verdict is read: summary.json and the exit status, the
console, JUnit's properties, the certificate's first lines (and ``verify`` recomputes them), the
gate's classes and the fleet matrix.
"""

from __future__ import annotations

import json
from typing import Any

from bundle_helpers import FAULTED_RULE, first_case, write_fake_bundle

from conformance.certify.certificate import render_markdown
from conformance.certify.command import EXIT_INCONCLUSIVE as CERTIFY_INCONCLUSIVE
from conformance.certify.verdict import NOT_CERTIFIED, assess
from conformance.certify.verify import verify
from conformance.fleet.inputs import RunRecord
from conformance.fleet.matrix import build_matrix
from conformance.fleet.report import render_html
from conformance.fleet.report import render_markdown as fleet_markdown
from conformance.gate.compare import compare_summaries
from conformance.results.junit import UNJUDGED_PROPERTY, build_junit
from conformance.results.summary import exit_status, format_summary, run_verdict
from conformance.results.vocabulary import EXIT_FAIL, EXIT_INCONCLUSIVE, Verdict

SYNC_RULE = "HM-SYNC-DEVSYNC-WAITS"  # needs host callbacks: a backend that never runs them cannot be observed
UNOBSERVED = {"outcome": "ERROR", "category": "instrument",
              "message": "the harness's host callback never ran: the stream blocker could not block"}


def _unobserved(catalog: dict[str, Any], rule_id: str = SYNC_RULE) -> dict[str, Any]:
    rule = next(r for r in catalog["rules"] if r["id"] == rule_id)
    return {c["case_id"]: dict(UNOBSERVED) for c in rule["cases"]}


def test_unobserved_mandatory_cases_without_a_failure_are_inconclusive(catalog, make_summary):
    summary = make_summary(_unobserved(catalog))
    assert summary["verdict"] == run_verdict(summary["rules"]) == Verdict.INCONCLUSIVE.value
    assert summary["unjudged_rules"] == [SYNC_RULE]
    assert exit_status(summary) == EXIT_INCONCLUSIVE not in (0, EXIT_FAIL)
    shown = format_summary(summary)
    assert "verdict: INCONCLUSIVE (no mandatory rule failed, but 1 could not be judged" in shown


def test_a_mandatory_failure_beside_them_is_fail_and_a_crash_is_the_library_s(catalog, make_summary):
    failing = make_summary({**_unobserved(catalog), first_case(catalog, FAULTED_RULE): "FAIL"})
    assert failing["verdict"] == "FAIL" and exit_status(failing) == EXIT_FAIL
    crashed = make_summary({first_case(catalog, SYNC_RULE): {"outcome": "ERROR", "category": "crash"}})
    assert crashed["verdict"] == "FAIL"  # the library crashed: a judgement, not an instrument that could not see


def test_junit_names_the_unjudged_rules_apart_from_the_root_causes(catalog, make_summary):
    summary = make_summary(_unobserved(catalog))
    properties = [(p.get("name"), p.get("value")) for p in build_junit(summary, catalog).iter("property")]
    assert ("verdict", "INCONCLUSIVE") in properties
    assert (UNJUDGED_PROPERTY, SYNC_RULE) in properties


def test_the_certificate_says_inconclusive_first_and_verify_recomputes_it(catalog, make_summary, tmp_path):
    summary = make_summary(_unobserved(catalog))
    assessment = assess(summary, catalog)
    assert assessment.verdict == NOT_CERTIFIED and assessment.inconclusive
    assert CERTIFY_INCONCLUSIVE == EXIT_INCONCLUSIVE
    bundle = write_fake_bundle(tmp_path, summary)
    assert verify(bundle) == []
    head = (bundle / "certificate.md").read_text().splitlines()[:6]
    assert any(line.startswith("Why: INCONCLUSIVE: no mandatory rule failed") for line in head), head
    # A certificate whose first lines call it a failure does not follow from the outcomes.
    md = (bundle / "certificate.md").read_text()
    (bundle / "certificate.md").write_text(md.replace("Why: INCONCLUSIVE", "Why: FAILED"))
    assert any("line under the verdict" in p for p in verify(bundle))


def test_verify_recomputes_a_summary_that_calls_an_inconclusive_run_fail(catalog, make_summary, tmp_path):
    summary = make_summary(_unobserved(catalog))
    summary["verdict"] = "FAIL"
    bundle = write_fake_bundle(tmp_path, summary)
    assert any("summary.json: verdict FAIL does not follow from the outcomes (INCONCLUSIVE)" in p
               for p in verify(bundle))


def test_render_of_an_inconclusive_certificate_names_the_unjudged_rule(catalog, make_summary):
    summary = make_summary(_unobserved(catalog))
    md = render_markdown(assess(summary, catalog), summary, {})
    assert "could not be judged" in md and SYNC_RULE in md


def test_the_gate_classes_a_pass_that_became_unobservable_as_inconclusive(catalog, make_summary, tmp_path):
    case = first_case(catalog, SYNC_RULE)
    comparison = compare_summaries(make_summary(), make_summary({case: dict(UNOBSERVED)}), tmp_path, tmp_path)
    assert [c.case_id for c in comparison.classes["inconclusive"]] == [case]
    assert comparison.classes["regression"] == [] and comparison.regressed_rules == []
    assert comparison.gating(["regression", "inconclusive"]) == ["inconclusive"]


def _record(name: str, verdict: str) -> RunRecord:
    return RunRecord(name, "atlas_a2", "9.0.0", "Ascend910B3", "h", verdict, {SYNC_RULE: "ERROR"}, {})


def test_the_fleet_matrix_shows_each_column_s_verdict(tmp_path):
    matrix = build_matrix([_record("a", "INCONCLUSIVE")])
    assert "| _run verdict_ | INCONCLUSIVE |" in fleet_markdown(matrix)
    assert '<th class="verdict">INCONCLUSIVE</th>' in render_html(matrix)
    assert json.loads(json.dumps(matrix.to_json()))["columns"][0]["verdicts"] == ["INCONCLUSIVE"]
