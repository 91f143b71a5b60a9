"""A self-test limited to some faults judges only the rules those faults declare."""

from __future__ import annotations

import json
from pathlib import Path

from conformance.selftest.scoring import report, unproven_rules

CATALOG = json.loads((Path(__file__).resolve().parents[2] / "acl_hostmem_generated" / "catalog.json").read_text())
KILLED = {"fault": "double_unregister_ok", "family": "pairing", "violates": ["HM-PAIR-DOUBLE-UNREGISTER"],
          "status": "killed", "killing_cases": ["x"], "killing_rules": ["HM-PAIR-DOUBLE-UNREGISTER"],
          "on_target_rules": ["HM-PAIR-DOUBLE-UNREGISTER"], "seconds": 1.0, "isolated_rerun": False}


def test_a_fault_subset_does_not_report_every_other_rule_unproven():
    assert unproven_rules(CATALOG, [KILLED], every_fault=False) == []
    result = report(CATALOG, [], [KILLED], [], 1.0, every_fault=False)
    assert result["passed"] and result["unproven_rules"] == []
    missed = {**KILLED, "status": "survived", "killing_cases": [], "killing_rules": [], "on_target_rules": []}
    assert unproven_rules(CATALOG, [missed], every_fault=False) == ["HM-PAIR-DOUBLE-UNREGISTER"]


def test_the_full_self_test_still_requires_every_rule():
    assert len(unproven_rules(CATALOG, [KILLED])) == len(CATALOG["rules"]) - 1
