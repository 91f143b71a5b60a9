"""Expectation entries that waive nothing are named: a typo, or an entry for another product."""

from __future__ import annotations

import datetime
import json

from kit_runs import ROOT

from conformance.results.expectations import load_expectations
from conformance.results.outcomes import CaseResult, Outcome
from conformance.results.waiver_use import unused_expectations

CATALOG = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text())


def test_unused_entries_are_named_with_why(tmp_path):
    path = tmp_path / "w.yaml"
    path.write_text("schema: acl-conformance-expectations/1\nexpectations:\n"
                    "  - rule: HM-NOPE\n    families: [atlas_a2]\n    reason: typo\n"
                    "  - rule: HM-ALIGN-MALLOC\n    families: [atlas_inference]\n    reason: other family\n"
                    "  - rule: HM-PAIR-DOUBLE-FREE\n    families: [atlas_a2]\n    reason: used\n"
                    "  - rule: HM-CAP-STABLE\n    families: [atlas_a2]\n    reason: expired\n    expires: 2020-01-01\n")
    entries = load_expectations([path]).entries
    results = [CaseResult("HM-PAIR-DOUBLE-FREE[free=free]", "HM-PAIR-DOUBLE-FREE", Outcome.PASS, None, "", None, 0.0),
               CaseResult("HM-ALIGN-MALLOC[x]", "HM-ALIGN-MALLOC", Outcome.PASS, None, "", None, 0.0)]
    facts = {"product_family": "atlas_a2", "soc": "Ascend910B3", "cann_version": "8.5"}
    unused = unused_expectations(entries, CATALOG, results, facts, datetime.date(2026, 1, 1))
    assert [(u["rule"], u["why"].split(" (")[0]) for u in unused] == [
        ("HM-NOPE", "names no rule or case of the spec"), ("HM-ALIGN-MALLOC", "matched no case of this run")]
