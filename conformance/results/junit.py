"""``junit.xml`` for CI (Jenkins, GitLab): one test per case, named by its case ID, that agrees with the verdict.

The layout is the JUnit XML that Jenkins and GitLab read, written down as our own schema in
``junit.xsd`` beside this module: ``<testsuites>`` holds one ``<testsuite>`` per rule family,
whose ``<properties>`` carry the run's facts and verdict (and, for an INCONCLUSIVE run, each mandatory
rule it could not judge as ``unjudged_rule``); each ``<testcase>`` has the case ID
as ``name`` and the rule family as ``classname``. Outcomes map as CI expects:

- PASS, XPASS: a plain test (an XPASS says in its output that the waiver is stale);
- FAIL: ``<failure>``; ERROR: ``<error>``; BLOCKED: ``<error type="blocked">`` naming the rule
  whose promise failed (the case could not reach its own assertion);
- WAIVED and NOT_APPLICABLE: ``<skipped>`` with the waiver's reason or the reason it does not apply.

Each case carries its own ``<properties>`` (rule, severity, provenance, interface, outcome,
observed code, waiver) for tools, and the same facts as ``name: value`` lines of its
``<system-out>``, which both CI systems show with the test.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import Path

from acl_hostmem_generated.catalog_types import Catalog

from .identity import case_interfaces
from .rootcause import root_cause_line
from .summary import CaseSummaryJSON, SummaryJSON
from .untrusted import as_list

#: Our schema of the JUnit XML written here (see the module docstring).
SCHEMA_FILE = Path(__file__).with_name("junit.xsd")

SUITES_NAME = "acl-conformance"
RUN_PROPERTIES = ("verdict", "spec_hash", "suite_version")
#: The first properties of every suite: the run's root causes, each failing rule once.
ROOT_CAUSE_PROPERTY = "root_cause"
#: A mandatory rule the run could not judge (its verdict then INCONCLUSIVE, not FAIL), one property each.
UNJUDGED_PROPERTY = "unjudged_rule"
ENVIRONMENT_PROPERTIES = ("library", "library_sha256", "soc", "product_family", "cann_version", "cann_release",
                          "os_kernel")
_ELEMENT = {"FAIL": "failure", "ERROR": "error", "BLOCKED": "error", "WAIVED": "skipped", "NOT_APPLICABLE": "skipped"}


def _first_line(text: str | None, limit: int = 500) -> str:
    lines = (text or "").strip().splitlines()
    return lines[0][:limit] if lines else ""


def case_properties(rule: Mapping[str, object], case_id: str, case: CaseSummaryJSON) -> list[tuple[str, str]]:
    """(name, value) facts of one case, in a fixed order (``rule``: the summary's rule with the catalog's over it)."""
    params = next((c.get("params") for c in as_list(rule.get("cases", [])) if isinstance(c, Mapping)
                   and c.get("case_id") == case_id), None)
    recorded = case.get("waiver")
    waiver: Mapping[str, object] = recorded if isinstance(recorded, Mapping) else {}
    facts = [
        ("rule", str(rule.get("id") or "")),
        ("severity", str(rule.get("severity") or "")),
        ("provenance", str(rule.get("provenance") or "")),
        ("interface", ", ".join(case_interfaces(rule, params if isinstance(params, Mapping) else None))),
        ("outcome", str(case.get("outcome") or "")),
        ("category", str(case.get("category") or "")),
        ("observed_code", str(case.get("observed_code") or "")),
        ("blocked_by", str(case.get("blocked_by") or "")),
        ("waiver_reason", str(waiver.get("reason") or "")),
        ("waiver_tracking", str(waiver.get("tracking") or "")),
        ("doc", str(rule.get("doc_url") or "")),
    ]
    return [(name, value) for name, value in facts if value]


def _skip_reason(case: CaseSummaryJSON) -> str:
    waiver = case.get("waiver") if isinstance(case.get("waiver"), Mapping) else None
    if case.get("outcome") == "WAIVED" and waiver:
        tracking = f" ({waiver['tracking']})" if waiver.get("tracking") else ""
        return f"WAIVED: {waiver.get('reason', '')}{tracking}"
    return _first_line(case.get("message")) or str(case.get("outcome"))


def _testcase(suite: ET.Element, family: str, rule: Mapping[str, object], case_id: str,
              case: CaseSummaryJSON) -> str:
    element = ET.SubElement(suite, "testcase", name=case_id, classname=family,
                            time=f"{float(case.get('duration_s') or 0.0):.3f}")
    facts = case_properties(rule, case_id, case)
    properties = ET.SubElement(element, "properties")
    for name, value in facts:
        ET.SubElement(properties, "property", name=name, value=value)
    outcome = str(case.get("outcome"))
    kind = _ELEMENT.get(outcome)
    if kind == "skipped":
        ET.SubElement(element, "skipped", message=_skip_reason(case))
    elif kind is not None:
        detail = ET.SubElement(element, kind, message=_first_line(case.get("message")),
                               type=str(case.get("category") or outcome))
        detail.text = str(case.get("message") or "")
    lines = [f"{name}: {value}" for name, value in facts]
    if outcome == "XPASS":
        lines.append(_first_line(case.get("message")))
    ET.SubElement(element, "system-out").text = "\n".join(lines) + "\n"
    return kind or "passed"


def build_junit(summary: SummaryJSON, catalog: Catalog) -> ET.Element:
    """The ``<testsuites>`` element of a summary (only the cases the summary lists)."""
    catalog_rules = {rule["id"]: rule for rule in catalog.get("rules", [])}
    environment = summary.get("environment") or {}
    root = ET.Element("testsuites", name=SUITES_NAME)
    suites: dict[str, tuple[ET.Element, dict[str, float]]] = {}
    for rule_id, entry in (summary.get("rules") or {}).items():
        family = str(entry.get("family") or "unknown")
        rule: dict[str, object] = {**entry, **catalog_rules.get(rule_id, {"cases": []}), "id": rule_id}
        if family not in suites:
            suite = ET.SubElement(root, "testsuite", name=family)
            properties = ET.SubElement(suite, "properties")
            for cause in summary.get("root_causes") or []:
                ET.SubElement(properties, "property", name=ROOT_CAUSE_PROPERTY, value=root_cause_line(cause))
            for name in RUN_PROPERTIES:
                ET.SubElement(properties, "property", name=name, value=str(summary.get(name) or ""))
            for rule_id in summary.get("unjudged_rules") or []:  # INCONCLUSIVE: apart from the failures
                ET.SubElement(properties, "property", name=UNJUDGED_PROPERTY, value=str(rule_id))
            for name in ENVIRONMENT_PROPERTIES:
                ET.SubElement(properties, "property", name=name, value=str(environment.get(name) or ""))
            suites[family] = (suite, {"tests": 0, "failure": 0, "error": 0, "skipped": 0, "time": 0.0})
        suite, counts = suites[family]
        for case_id, case in (entry.get("cases") or {}).items():
            kind = _testcase(suite, family, rule, case_id, case)
            counts["tests"] += 1
            counts["time"] += float(case.get("duration_s") or 0.0)
            if kind != "passed":
                counts[kind] += 1
    totals = {"tests": 0, "failure": 0, "error": 0, "skipped": 0, "time": 0.0}
    for suite, counts in suites.values():
        suite.set("tests", str(counts["tests"]))
        suite.set("failures", str(counts["failure"]))
        suite.set("errors", str(counts["error"]))
        suite.set("skipped", str(counts["skipped"]))
        suite.set("time", f"{counts['time']:.3f}")
        for key in totals:
            totals[key] += counts[key]
    root.set("tests", str(totals["tests"]))
    root.set("failures", str(totals["failure"]))
    root.set("errors", str(totals["error"]))
    root.set("time", f"{totals['time']:.3f}")
    return root


def junit_text(summary: SummaryJSON, catalog: Catalog) -> str:
    """The junit.xml document of a summary."""
    root = build_junit(summary, catalog)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
