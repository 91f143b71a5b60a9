"""Units of the results stage: case outcomes, waivers, the summary and its verdict, Allure labels, HTML."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from conformance.results import allure, identity
from conformance.results import summary as summary_module
from conformance.results.html import external_scripts, strip_analytics
from conformance.results.outcomes import (
    CATEGORY_TITLES,
    CaseResult,
    Category,
    Finding,
    Outcome,
    PhaseResult,
    apply_waiver,
    classify,
    crash_result,
    worst,
)

ROOT = Path(__file__).resolve().parents[2]
CATALOG = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text())
RULES = {r["id"]: r for r in CATALOG["rules"]}


def phases(*items: tuple[str, str, str | None, str]) -> list[PhaseResult]:
    return [PhaseResult(when, outcome, exc, msg) for when, outcome, exc, msg in items]


OK_SETUP = ("setup", "passed", None, "")
OK_TEARDOWN = ("teardown", "passed", None, "")


class FakeWaiver:
    def to_json(self) -> dict[str, object]:
        return {"reason": "known", "where": "w.yaml:3", "accepted": False}


def _result(case: dict, outcome: Outcome, category: Category | None = None) -> CaseResult:
    rule = case["case_id"].split("[")[0]
    return CaseResult(case["case_id"], rule, outcome, category, "", None, 0.01)


PAGE = """<html><head>
<script async src="https://www.googletagmanager.com/gtag/js?id=G-1"></script>
<script>
  window.dataLayer = window.dataLayer || [];
  function gtag(){dataLayer.push(arguments);} gtag('js', new Date());
</script>
<script src="//cdn.example.org/x.js"></script>
<script>window.allureReportData = {};</script>
<script src="data:application/javascript;base64,AAAA"></script>
</head><body></body></html>"""


class _Recorder:
    """Just enough of an AclContext for assertions.failed: it records findings."""

    def __init__(self) -> None:
        self.findings: list[tuple[str, str, str | None]] = []

    def finding(self, severity: str, message: str, code: str | None = None) -> None:
        self.findings.append((severity, message, code))


def test_pass_fail_and_categories():
    assert classify(phases(OK_SETUP, ("call", "passed", None, ""), OK_TEARDOWN), "C", "R").outcome is Outcome.PASS
    fail = classify(phases(OK_SETUP, ("call", "failed", "SpecViolation", "bad"), OK_TEARDOWN), "C", "R")
    assert (fail.outcome, fail.category, fail.message) == (Outcome.FAIL, Category.SPEC_VIOLATION, "bad")
    wrong = classify(phases(OK_SETUP, ("call", "failed", "WrongErrorCode", "x"), OK_TEARDOWN), "C", "R")
    assert (wrong.outcome, wrong.category) == (Outcome.FAIL, Category.WRONG_ERROR_CODE)
    for exc in ("HarnessError", "KeyError", "AclError", "AssertionError"):
        err = classify(phases(OK_SETUP, ("call", "failed", exc, "x"), OK_TEARDOWN), "C", "R")
        assert (err.outcome, err.category) == (Outcome.ERROR, Category.HARNESS_ERROR)


def test_setup_failure_and_not_applicable():
    fixture = classify(phases(("setup", "failed", "RuntimeError", "boom"), OK_TEARDOWN), "C", "R")
    assert (fixture.outcome, fixture.category) == (Outcome.ERROR, Category.HARNESS_ERROR)
    worked = classify(phases(("setup", "failed", "SpecViolation", "worked where unsupported"), OK_TEARDOWN), "C", "R")
    assert worked.outcome is Outcome.FAIL
    na = classify(phases(("setup", "skipped", "Skipped", "NOT_APPLICABLE: x"), OK_TEARDOWN), "C", "R")
    assert (na.outcome, na.category) == (Outcome.NOT_APPLICABLE, Category.NOT_APPLICABLE)
    other = classify(phases(OK_SETUP, ("call", "skipped", "Skipped", "why not"), OK_TEARDOWN), "C", "R")
    assert other.outcome is Outcome.ERROR and "NOT_APPLICABLE" in other.message


def test_teardown_problems_are_visible():
    leak = classify(phases(OK_SETUP, ("call", "passed", None, ""), ("teardown", "failed", "HarnessError", "leak")),
                    "C", "R")
    assert leak.outcome is Outcome.ERROR and "teardown: leak" in leak.message
    both = classify(phases(OK_SETUP, ("call", "failed", "SpecViolation", "bad"),
                           ("teardown", "failed", "HarnessError", "leak")), "C", "R")
    assert both.outcome is Outcome.FAIL and "bad" in both.message and "leak" in both.message


def test_observed_code_is_named():
    result = classify([PhaseResult("call", "failed", "WrongErrorCode", "x", 507911)], "C", "R",
                      lambda c: f"{c} NAME")
    assert result.observed_code == "507911 NAME"


def test_crash_or_timeout():
    assert crash_result("C", "R", 0.2, 35.0).category is Category.CRASH
    assert crash_result("C", "R", 35.1, 35.0).category is Category.TIMEOUT
    assert crash_result("C", "R", None, 35.0).outcome is Outcome.ERROR


def test_waivers():
    fail = CaseResult("C", "R", Outcome.FAIL, Category.SPEC_VIOLATION, "bad", None, 0.1)
    waived = apply_waiver(fail, FakeWaiver())
    assert waived.outcome is Outcome.WAIVED and waived.category is Category.WAIVED and waived.waiver["where"]
    passed = CaseResult("C", "R", Outcome.PASS, None, "", None, 0.1)
    assert apply_waiver(passed, FakeWaiver()).outcome is Outcome.XPASS
    error = CaseResult("C", "R", Outcome.ERROR, Category.CRASH, "crash", None, 0.1)
    assert apply_waiver(error, FakeWaiver()) == error
    assert apply_waiver(fail, None) == fail
    assert CaseResult.from_json(waived.to_json()) == waived


def test_worst_order():
    assert worst([Outcome.PASS, Outcome.NOT_APPLICABLE]) is Outcome.PASS
    assert worst([Outcome.NOT_APPLICABLE] * 3) is Outcome.NOT_APPLICABLE
    assert worst([Outcome.XPASS, Outcome.WAIVED, Outcome.PASS]) is Outcome.WAIVED
    assert worst([Outcome.FAIL, Outcome.ERROR]) is Outcome.ERROR
    assert worst([]) is None
    # BLOCKED sits between FAIL and WAIVED: ERROR > FAIL > BLOCKED > WAIVED > XPASS > PASS > NOT_APPLICABLE
    assert worst([Outcome.BLOCKED, Outcome.WAIVED, Outcome.PASS]) is Outcome.BLOCKED
    assert worst([Outcome.BLOCKED, Outcome.FAIL]) is Outcome.FAIL


def test_blocked_names_the_rule_whose_promise_broke_and_instruments_are_errors():
    setup = PhaseResult("setup", "passed")
    blocked = classify([setup, PhaseResult("call", "failed", "Blocked", "BLOCKED by HM-PAIR-REG-UNREG: register failed",
                                           blocked_by="HM-PAIR-REG-UNREG"), PhaseResult("teardown", "passed")],
                       "C", "R")
    assert (blocked.outcome, blocked.category, blocked.blocked_by) == (Outcome.BLOCKED, Category.BLOCKED,
                                                                       "HM-PAIR-REG-UNREG")
    assert CaseResult.from_json(blocked.to_json()) == blocked
    instrument = classify(phases(OK_SETUP, ("call", "failed", "InstrumentFailed", "stream"), OK_TEARDOWN), "C", "R")
    assert (instrument.outcome, instrument.category) == (Outcome.ERROR, Category.INSTRUMENT)
    # a promised release that failed at teardown blocks a case that passed, by the rule promising it
    late = classify([setup, PhaseResult("call", "passed"),
                     PhaseResult("teardown", "failed", "Blocked", "unregister failed", blocked_by="HM-PAIR-REG-UNREG")],
                    "C", "R")
    assert (late.outcome, late.blocked_by) == (Outcome.BLOCKED, "HM-PAIR-REG-UNREG")
    # a waiver covers a FAIL, never a BLOCKED case: the deviation is another rule's
    assert apply_waiver(blocked, FakeWaiver()) == blocked


def test_case_ids_from_node_ids():
    ids = RULES.keys()
    node = "acl_hostmem_generated/cases/test_alignment.py::test_HM_ALIGN_MALLOC[api=malloc,cfg=null_cfg,size=1]"
    assert identity.case_id_from_nodeid(node, ids) == ("HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=1]",
                                                        "HM-ALIGN-MALLOC")
    assert identity.case_id_from_nodeid("x.py::test_HM_CAP_STABLE", ids) == ("HM-CAP-STABLE", "HM-CAP-STABLE")
    assert identity.case_id_from_nodeid("x.py::test_other", ids) is None


def test_allure_labels():
    labels = dict(allure.allure_labels(RULES["HM-ALIGN-MALLOC"], "atlas_a2"))
    assert labels["epic"] == "Host memory" and labels["feature"] == "aclrtMallocHost"
    assert labels["story"].startswith("HM-ALIGN-MALLOC ") and labels["severity"] == "critical"
    tags = [v for k, v in allure.allure_labels(RULES["HM-ALIGN-MALLOC"], "atlas_a2") if k == "tag"]
    assert tags == ["alignment", "atlas_a2"]
    names = {c["name"] for c in allure.categories_json()}
    assert {"Spec violation", "Wrong error code", "Crash", "Timeout", "Not applicable", "Harness error"} <= names


def test_summary_shape_and_verdict():
    results = {c["case_id"]: _result(c, Outcome.PASS) for r in CATALOG["rules"] for c in r["cases"]}
    summary = summary_module.build_summary(CATALOG, results, environment={"suite_version": "v1"}, command=["x"])
    assert summary["schema"] == "acl-conformance-summary/3" and summary["verdict"] == "PASS"
    assert summary["root_causes"] == []
    assert set(summary["rules"]) == set(RULES)
    assert summary["totals"]["PASS"] == len(results)
    assert set(summary["by_family"]) == {r["family"] for r in CATALOG["rules"]}
    assert "aclrtMallocHost" in summary["by_interface"]
    case = next(iter(summary["rules"]["HM-ALIGN-MALLOC"]["cases"].values()))
    assert set(case) == {"outcome", "category", "message", "observed_code", "duration_s", "waiver", "findings",
                         "observations"}
    json.dumps(summary)


def test_summary_rule_outcomes_and_missing_rules():
    rule = RULES["HM-ALIGN-MALLOC"]
    first, second = rule["cases"][0], rule["cases"][1]
    results = {first["case_id"]: _result(first, Outcome.NOT_APPLICABLE, Category.NOT_APPLICABLE),
               second["case_id"]: _result(second, Outcome.FAIL, Category.SPEC_VIOLATION)}
    summary = summary_module.build_summary(CATALOG, results, environment={}, command=[])
    assert summary["rules"]["HM-ALIGN-MALLOC"]["outcome"] == "ERROR"  # the other cases did not run
    assert summary["rules"]["HM-CAP-STABLE"]["outcome"] == "ERROR"
    assert summary["verdict"] == "FAIL"
    only_na = {c["case_id"]: _result(c, Outcome.NOT_APPLICABLE) for c in rule["cases"]}
    summary = summary_module.build_summary(CATALOG, only_na, environment={}, command=[])
    assert summary["rules"]["HM-ALIGN-MALLOC"]["outcome"] == "NOT_APPLICABLE"


def test_a_blocked_mandatory_case_fails_the_run_and_its_blocker_is_the_root_cause():
    results = {c["case_id"]: _result(c, Outcome.PASS) for r in CATALOG["rules"] for c in r["cases"]}
    assert "HM-PAIR-REG-UNREG" in RULES["HM-VA-IDENTITY"]["needs"]
    recommended = next(r for r in CATALOG["rules"] if r["severity"] == "recommended"
                       and "HM-PAIR-REG-UNREG" in r.get("needs", []))
    blocked = [c["case_id"] for c in RULES["HM-VA-IDENTITY"]["cases"]] + [recommended["cases"][0]["case_id"]]
    for case_id in blocked:
        results[case_id] = replace(results[case_id], outcome=Outcome.BLOCKED, category=Category.BLOCKED,
                                   blocked_by="HM-PAIR-REG-UNREG", message="BLOCKED by HM-PAIR-REG-UNREG")
    summary = summary_module.build_summary(CATALOG, results, environment={}, command=[])
    assert summary["rules"]["HM-VA-IDENTITY"]["outcome"] == "BLOCKED" and summary["verdict"] == "FAIL"
    assert summary["totals"]["BLOCKED"] == len(blocked)
    case = summary["rules"]["HM-VA-IDENTITY"]["cases"][blocked[0]]
    assert case["blocked_by"] == "HM-PAIR-REG-UNREG"
    # the root cause is the rule that blocked, once, although its own cases passed
    assert summary["root_causes"] == [{
        "rule": "HM-PAIR-REG-UNREG", "severity": "mandatory", "title": RULES["HM-PAIR-REG-UNREG"]["title"],
        "outcome": "PASS", "failing_cases": 0, "blocked_cases": len(blocked),
        "blocked_rules": sorted({"HM-VA-IDENTITY", recommended["id"]})}]
    assert "root causes" in summary_module.format_summary(summary)
    assert summary_module.exit_status(summary) == 1


def test_a_failure_that_rests_on_a_rule_is_blocked_by_it_only_when_it_fails_on_its_own():
    from conformance.results.rootcause import attribute_findings

    results = {c["case_id"]: _result(c, Outcome.PASS) for r in CATALOG["rules"] for c in r["cases"]}
    content = RULES["HM-CONTENT-RW-FULL"]["cases"][0]["case_id"]
    live = RULES["HM-ALIGN-LIVE"]["cases"][0]["case_id"]
    # overlapping blocks seen by a content case: the symptom may be HM-ALIGN-LIVE's deviation
    results[content] = replace(_result(RULES["HM-CONTENT-RW-FULL"]["cases"][0], Outcome.FAIL,
                                       Category.SPEC_VIOLATION), rests_on=("HM-ALIGN-LIVE",))
    assert attribute_findings(CATALOG, results)[content].outcome is Outcome.FAIL  # HM-ALIGN-LIVE passed
    results[live] = _result(RULES["HM-ALIGN-LIVE"]["cases"][0], Outcome.FAIL, Category.SPEC_VIOLATION)
    moved = attribute_findings(CATALOG, results)[content]
    assert (moved.outcome, moved.blocked_by) == (Outcome.BLOCKED, "HM-ALIGN-LIVE")
    assert moved.message.startswith("BLOCKED by HM-ALIGN-LIVE: the symptom may be the deviation of HM-ALIGN-LIVE")
    # a case blocked by a rule that did not fail is re-attributed to a failing rule it rests on
    neighbours = RULES["HM-REG-NEIGHBOURS"]["cases"][0]["case_id"]
    results[neighbours] = replace(results[neighbours], outcome=Outcome.BLOCKED, category=Category.BLOCKED,
                                  blocked_by="HM-PAIR-REG-UNREG", rests_on=("HM-ALIGN-LIVE",))
    assert attribute_findings(CATALOG, results)[neighbours].blocked_by == "HM-ALIGN-LIVE"
    # a rule whose only failures rest on another rule does not block anything itself
    results[live] = replace(results[live], rests_on=("HM-CONTENT-RW-FULL",))
    assert attribute_findings(CATALOG, results)[content].outcome is Outcome.FAIL


def test_recommended_failure_keeps_verdict():
    results = {c["case_id"]: _result(c, Outcome.PASS) for r in CATALOG["rules"] for c in r["cases"]}
    rec = next(r for r in CATALOG["rules"] if r["severity"] == "recommended")
    for c in rec["cases"]:
        results[c["case_id"]] = _result(c, Outcome.FAIL, Category.SPEC_VIOLATION)
    summary = summary_module.build_summary(CATALOG, results, environment={}, command=[])
    assert summary["rules"][rec["id"]]["outcome"] == "FAIL" and summary["verdict"] == "PASS"
    assert "verdict: PASS" in summary_module.format_summary(summary, "somewhere")


def test_environment_properties():
    text = allure.environment_properties({"b": "x\ny", "a": None})
    assert text == "a=\nb=x\\ny\n"


def test_strip_analytics():
    assert len(external_scripts(PAGE)) == 2
    clean = strip_analytics(PAGE)
    assert external_scripts(clean) == []
    assert "gtag" not in clean and "dataLayer" not in clean
    assert "window.allureReportData" in clean and "data:application/javascript" in clean


def test_every_category_has_its_bucket_in_the_allure_report():
    """allurerc.mjs groups failing cases by the category label; a category without a bucket would vanish."""
    config = (ROOT / "allure" / "allurerc.mjs").read_text(encoding="utf-8")
    for category, title in CATEGORY_TITLES.items():
        assert f'name: "{title}", matchers: byCategory("{category.value}")' in config, category
    # BLOCKED cases are grouped under the rule whose promise broke, the root causes' bucket first
    blocked = (f'name: "{CATEGORY_TITLES[Category.BLOCKED]}", matchers: byCategory("blocked"), '
               'groupBy: [{ label: "blocked_by" }]')
    assert blocked in config
    buckets = config[config.index("categories: ["):]
    assert buckets.index('byCategory("blocked")') < buckets.index('byCategory("crash")')


def test_a_code_that_decides_fails_the_case_a_weaker_one_is_a_finding():
    from conformance.checks.assertions import failed
    from conformance.harness.violations import SpecViolation, WrongErrorCode

    source_only = {"code": "ACL_ERROR_RT_PARAM_INVALID", "value": 107000, "provenance": "runtime-source",
                   "severity": "recommended", "decides": False}
    ctx = _Recorder()
    failed(ctx, 100000, source_only, "call")
    assert ctx.findings == [("recommended", ctx.findings[0][1], "ACL_ERROR_INVALID_PARAM")]
    assert "expected 107000 ACL_ERROR_RT_PARAM_INVALID (runtime-source, judged at recommended)" in ctx.findings[0][1]
    failed(ctx, 107000, source_only, "call")
    assert len(ctx.findings) == 1, "the expected code is no finding"
    with pytest.raises(WrongErrorCode):
        failed(ctx, 100000, dict(source_only, decides=True, severity="mandatory"), "call")
    with pytest.raises(SpecViolation):
        failed(ctx, 0, source_only, "call")
    failed(ctx, 507899, None, "call")  # no code expected: any failure will do


def test_findings_survive_the_case_result_round_trip():
    finding = Finding("recommended", "another code", "ACL_ERROR_INVALID_PARAM")
    result = classify([PhaseResult("call", "passed")], "R[x]", "R", findings=[finding])
    again = CaseResult.from_json(json.loads(json.dumps(result.to_json())))
    assert again.findings == (finding,) and again.outcome is Outcome.PASS

