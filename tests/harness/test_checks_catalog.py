"""Every rule's check procedure exists and accepts exactly the parameters its cases pass."""

from __future__ import annotations

import importlib
import inspect
import json

import pytest
from kit_runs import ROOT

CATALOG = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text())


@pytest.mark.parametrize("rule", CATALOG["rules"], ids=[r["id"] for r in CATALOG["rules"]])
def test_check_matches_the_cases(rule):
    module = importlib.import_module(f"conformance.checks.{rule['family']}")
    check = getattr(module, rule["check"], None)
    assert callable(check), f"conformance.checks.{rule['family']} has no {rule['check']}"
    accepted = {name for name, p in inspect.signature(check).parameters.items() if p.kind is p.KEYWORD_ONLY}
    for case in rule["cases"]:
        assert accepted == set(case["params"]) | {"expect"}, case["case_id"]
