"""Root causes: one deviation shows as one failing rule.

A case whose set-up rested on another rule's promise is BLOCKED by that rule when the
promise broke (decided while it ran). Two things are decided only once every case has a
result, here:

- a FAIL that rests on a rule that itself failed in the same run, on a case resting on
  nothing, is BLOCKED by that rule: an explorer finding on the fixed-matrix rules its path
  calls (the fixed case already names the deviation, and the path stays attached for the
  reader), a fixed case on the rules whose deviation its symptom may be;
- the root causes of a run: every rule that failed on its own or blocked other cases, each
  once, with the number of cases it failed and blocked. Reports lead with them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TypedDict

from acl_hostmem_generated.catalog_types import Catalog

from ..i18n import current, translate
from .outcomes import SEVERITIES, CaseResult, Category, Outcome
from .untrusted import as_object

#: Outcomes a rule can fail on by itself (BLOCKED and WAIVED are not its own deviation).
OWN_FAILURES = frozenset({Outcome.FAIL, Outcome.ERROR})
EXPLORER_FAMILY = "explorer"
SEVERITY_FIRST = {severity: rank for rank, severity in enumerate(SEVERITIES)}


def attribute_findings(catalog: Catalog, results: Mapping[str, CaseResult]) -> dict[str, CaseResult]:
    """The results with every FAIL that rests on a rule which failed on its own cases turned BLOCKED by it.

    An explorer finding rests on the fixed-matrix rules its path calls; a fixed case on the rules
    whose deviation its symptom may be (``AclContext.may_rest_on``). Only a rule's own failures
    count, so two such cases never block each other.
    """
    family = {str(r["id"]): r.get("family") for r in catalog.get("rules", [])}
    # A rule fails on its own where a case of it fails resting on nothing.
    failing = {r.rule_id for r in results.values() if r.outcome in OWN_FAILURES and not r.rests_on}
    out = dict(results)
    for case_id, result in results.items():
        # A BLOCKED case whose blocker did not fail on its own is re-attributed the same way.
        if result.outcome is not Outcome.FAIL and not (result.outcome is Outcome.BLOCKED and
                                                      result.blocked_by not in failing):
            continue
        root = next((rule for rule in result.rests_on if rule in failing and rule != result.rule_id
                     and family.get(rule) != EXPLORER_FAMILY), None)
        if root is None:
            continue
        why = ("the explorer's finding rests on" if family.get(result.rule_id) == EXPLORER_FAMILY
               else "the symptom may be the deviation of")
        out[case_id] = replace(
            result, outcome=Outcome.BLOCKED, category=Category.BLOCKED, blocked_by=root,
            message=f"BLOCKED by {root}: {why} {root}, which failed in this run on its own cases\n{result.message}")
    return out


class RootCauseJSON(TypedDict):
    """A root cause of summary.json: a rule that failed on its own or blocked cases (its facts as the
    summary's rule has them, None for a rule outside a partial run's selection)."""

    rule: str
    severity: object
    title: object
    outcome: object
    failing_cases: int
    blocked_cases: int
    blocked_rules: list[str]


def root_causes(rules: Mapping[str, Mapping[str, object]]) -> list[RootCauseJSON]:
    """Every rule of a summary's ``rules`` that failed on its own or blocked cases, each once.

    Mandatory rules come first, then the rules with the most failing and blocked cases.
    """
    blocked: dict[str, list[str]] = {}
    for rule in rules.values():
        for case_id, case in as_object(rule.get("cases")).items():
            if isinstance(case, Mapping) and case.get("outcome") == Outcome.BLOCKED.value and case.get("blocked_by"):
                blocked.setdefault(str(case["blocked_by"]), []).append(str(case_id))
    causes: list[RootCauseJSON] = []
    for rule_id, rule in rules.items():
        cases = [c for c in as_object(rule.get("cases")).values() if isinstance(c, Mapping)]
        failing = sum(1 for c in cases if c.get("outcome") in (Outcome.FAIL.value, Outcome.ERROR.value))
        blocks = blocked.get(rule_id, [])
        if not failing and not blocks:
            continue
        blocked_rules = sorted({cid.partition("[")[0] for cid in blocks})
        causes.append({"rule": rule_id, "severity": rule.get("severity"), "title": rule.get("title"),
                       "outcome": rule.get("outcome"), "failing_cases": failing, "blocked_cases": len(blocks),
                       "blocked_rules": blocked_rules})
    for rule_id in sorted(set(blocked) - {c["rule"] for c in causes}):  # a rule outside a partial run's selection
        blocks = blocked[rule_id]
        causes.append({"rule": rule_id, "severity": None, "title": None, "outcome": None, "failing_cases": 0,
                       "blocked_cases": len(blocks), "blocked_rules": sorted({c.partition("[")[0] for c in blocks})})
    causes.sort(key=lambda c: (SEVERITY_FIRST.get(str(c["severity"]), 4),
                               -(c["failing_cases"] + c["blocked_cases"]), c["rule"]))
    return causes


def root_cause_line(cause: RootCauseJSON, lang: str | None = None) -> str:
    """``HM-PAIR-REG-UNREG (mandatory): 2 failing case(s), blocks 14 case(s) of 9 rule(s)`` (in ``lang``,
    this process's language by default; rule IDs, severities and outcome words stay as they are)."""
    lang = lang or current()
    parts = []
    if cause.get("failing_cases"):
        parts.append(translate("{count} failing case(s)", lang).format(count=cause["failing_cases"]))
    else:
        parts.append(translate("its own cases {outcome}, but its promise broke in another case's set-up", lang)
                     .format(outcome=str(cause.get("outcome") or "not run").lower()))
    if cause.get("blocked_cases"):
        parts.append(translate("blocks {cases} case(s) of {rules} rule(s)", lang).format(
            cases=cause["blocked_cases"], rules=len(cause.get("blocked_rules") or [])))
    severity = f" ({cause['severity']})" if cause.get("severity") else ""
    return f"{cause['rule']}{severity}: " + translate(", ", lang).join(parts)
