"""summary.json read through one typed model: its shape checked, its fields with one set of defaults."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.results.outcomes import CaseResult, Category, Outcome
from conformance.results.summary import SCHEMA, build_summary
from conformance.results.summary_model import SummaryError, summary_record

ROOT = Path(__file__).resolve().parents[2]
CATALOG = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text())
CASE = "HM-PAIR-DOUBLE-FREE[free=free]"


def _summary() -> dict:
    failed = CaseResult(CASE, "HM-PAIR-DOUBLE-FREE", Outcome.FAIL, Category.SPEC_VIOLATION, "freed twice", None, 0.0)
    return build_summary(CATALOG, {CASE: failed}, environment={"soc": "Ascend910B1", "product_family": "atlas_a2"},
                         command=["pytest"])


def test_a_written_summary_reads_back_as_records():
    data = _summary()
    record = summary_record(data)
    rule = record.rules["HM-PAIR-DOUBLE-FREE"]
    written = data["rules"][rule.rule_id]
    assert rule.outcome is Outcome(written["outcome"])
    assert (rule.family, rule.severity) == ("pairing", written["severity"])
    assert rule.cases[CASE].outcome is Outcome.FAIL and rule.cases[CASE].message == "freed twice"
    assert record.case_outcomes()[CASE] == ("HM-PAIR-DOUBLE-FREE", "FAIL", "freed twice")
    assert len(list(record.cases())) == sum(len(r["cases"]) for r in CATALOG["rules"])
    assert record.totals == data["totals"] and record.verdict == data["verdict"] and not record.partial
    assert record.environment["soc"] == "Ascend910B1" and record.schema == SCHEMA


def test_missing_fields_read_as_the_same_defaults_everywhere():
    record = summary_record({"schema": SCHEMA, "environment": {}, "rules": {"R": {"cases": {"R[x]": {
        "outcome": "PASS"}}}}})
    rule = record.rules["R"]
    assert (rule.title, rule.family, rule.severity, rule.outcome) == ("", "", "", None)
    assert rule.decides, "a rule without a severity is mandatory"
    assert (rule.cases["R[x]"].message, rule.cases["R[x]"].observed_code) == ("", None)
    assert (record.verdict, record.totals, record.findings) == ("", {}, ())


@pytest.mark.parametrize("data, says", [
    ([], "not a JSON object"),
    ({"schema": "acl-conformance-summary/1", "rules": {}, "environment": {}}, "not a conformance summary"),
    ({"schema": SCHEMA, "rules": {"R": {"cases": {"R[x]": {"outcome": "MAYBE"}}}}, "environment": {}},
     "not an object with a known outcome"),
])
def test_anything_else_is_refused_in_one_line(data, says):
    with pytest.raises(SummaryError, match=says):
        summary_record(data)
