"""junit.xml: every outcome maps as CI expects and the document follows our schema; the schema can refuse."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import xmlschema

from conformance.results.junit import SCHEMA_FILE, junit_text

ROOT = Path(__file__).resolve().parents[2]
CATALOG = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text())


def _summary() -> dict:
    rules = {}
    outcomes = iter(["PASS", "FAIL", "ERROR", "WAIVED", "NOT_APPLICABLE", "XPASS"] * 100)
    for rule in CATALOG["rules"][:6]:
        cases = {}
        for case in rule["cases"][:2]:
            outcome = next(outcomes)
            waived = outcome in ("WAIVED", "XPASS")
            waiver = {"reason": "known", "tracking": "T-1", "accepted": False} if waived else None
            cases[case["case_id"]] = {"outcome": outcome, "category": None, "message": f"{outcome} message\nmore",
                                      "observed_code": "507911 X" if outcome == "FAIL" else None,
                                      "duration_s": 0.01, "waiver": waiver}
        rules[rule["id"]] = {"family": rule["family"], "severity": rule["severity"], "cases": cases}
    return {"verdict": "FAIL", "spec_hash": CATALOG["spec_hash"], "environment": {}, "rules": rules}


def test_every_outcome_is_written_as_ci_expects_and_validates():
    text = junit_text(_summary(), CATALOG)
    schema = xmlschema.XMLSchema(SCHEMA_FILE)
    schema.validate(text)
    cases = list(ET.fromstring(text).iter("testcase"))
    by_outcome = {}
    for case in cases:
        props = {p.get("name"): p.get("value") for p in case.find("properties")}
        by_outcome[props["outcome"]] = case
        assert props["rule"] and props["severity"] and props["interface"]
    assert by_outcome["FAIL"].find("failure") is not None
    assert by_outcome["ERROR"].find("error") is not None
    assert by_outcome["WAIVED"].find("skipped").get("message") == "WAIVED: known (T-1)"
    assert by_outcome["NOT_APPLICABLE"].find("skipped") is not None
    assert all(by_outcome[o].find(k) is None for o in ("PASS", "XPASS") for k in ("failure", "error", "skipped"))


@pytest.mark.parametrize("damage", ["two-verdicts", "properties-after-failure", "no-classname"])
def test_the_schema_refuses_a_malformed_document(damage):
    root = ET.fromstring(junit_text(_summary(), CATALOG))
    case = next(c for c in root.iter("testcase") if c.find("failure") is not None)
    if damage == "two-verdicts":
        ET.SubElement(case, "error", message="x")
    elif damage == "properties-after-failure":
        props = case.find("properties")
        case.remove(props)
        case.append(props)
    else:
        del case.attrib["classname"]
    assert not xmlschema.XMLSchema(SCHEMA_FILE).is_valid(ET.tostring(root, encoding="unicode"))
