"""Judging self-test runs: false alarms and applicability on faithful runs, kills per fault."""

from __future__ import annotations

from typing import Any

from ..harness.product import applicability
from .plan import FAILING, Run, family_record


def predicted_not_applicable(catalog: dict[str, Any], family_id: str, kernel: str) -> set[str]:
    """Case IDs the spec says are NOT_APPLICABLE on a family and kernel."""
    family = family_record(catalog, family_id)
    out = set()
    for rule in catalog["rules"]:
        if not applicability(catalog, rule, family, kernel).applies:
            out.update(c["case_id"] for c in rule["cases"])
    return out


def judge_faithful(catalog: dict[str, Any], run: Run) -> list[str]:
    """Problems of a faithful run: any failure, or a NOT_APPLICABLE set other than predicted."""
    problems = list(run.problems)
    if run.summary is None:
        return problems
    outcomes = run.case_outcomes()
    all_cases = {c["case_id"] for r in catalog["rules"] for c in r["cases"]}
    missing = sorted(all_cases - set(outcomes))
    if missing:
        problems.append(f"{run.name}: {len(missing)} case(s) without a result, e.g. {missing[0]}")
    for case_id, (_rule, outcome, message) in sorted(outcomes.items()):
        if outcome in FAILING:
            problems.append(f"{run.name}: false alarm {case_id}: {outcome} {message[:200]}")
    actual_na = {c for c, (_r, o, _m) in outcomes.items() if o == "NOT_APPLICABLE"}
    predicted = predicted_not_applicable(catalog, run.family, run.kernel)
    for case_id in sorted(actual_na - predicted):
        problems.append(f"{run.name}: {case_id} was NOT_APPLICABLE but the spec predicts it applies")
    for case_id in sorted(predicted - actual_na):
        problems.append(f"{run.name}: {case_id} ran but the spec predicts NOT_APPLICABLE")
    return problems


def judge_fault(run: Run) -> dict[str, Any]:
    """Which cases a fault killed, and whether one of them belongs to a rule it violates."""
    assert run.fault is not None
    killers = {case: rule for case, (rule, outcome, _m) in run.case_outcomes().items() if outcome in FAILING}
    rules = sorted(set(killers.values()))
    on_target = sorted(r for r in rules if r in run.fault["violates"])
    status = "killed" if on_target else ("wrong-rule" if killers else "survived")
    if run.summary is None:
        status = "no-result"
    return {
        "fault": run.fault["name"], "family": run.fault["family"], "violates": run.fault["violates"],
        "status": status, "killing_cases": sorted(killers), "killing_rules": rules, "on_target_rules": on_target,
        "seconds": round(run.seconds, 2), "isolated_rerun": run.isolated,
    }


def unproven_rules(catalog: dict[str, Any], verdicts: list[dict[str, Any]], every_fault: bool = True) -> list[str]:
    """Rules that no fault proved (a fault declaring the rule killed one of its cases).

    With only some faults run (``every_fault`` false), only the rules those faults declare can be proven.
    """
    proven = {r for v in verdicts for r in v["on_target_rules"]}
    claimed = None if every_fault else {r for v in verdicts for r in v["violates"]}
    return [r["id"] for r in catalog["rules"] if r["id"] not in proven and (claimed is None or r["id"] in claimed)]


def report(catalog: dict[str, Any], faithful: list[Run], verdicts: list[dict[str, Any]],
           faithful_problems: list[str], seconds: float, every_fault: bool = True) -> dict[str, Any]:
    """The self-test result as data (``every_fault`` false: a run limited to some faults)."""
    killed = sum(v["status"] == "killed" for v in verdicts)
    unproven = unproven_rules(catalog, verdicts, every_fault)
    severity = {r["id"]: r["severity"] for r in catalog["rules"]}
    mandatory_unproven = [r for r in unproven if severity[r] == "mandatory"]
    ok = (not faithful_problems and killed == len(verdicts) and not mandatory_unproven)
    return {
        "schema": "acl-conformance-selftest/1",
        "spec_hash": catalog["spec_hash"],
        "passed": ok,
        "mutation_score": {"killed": killed, "total": len(verdicts),
                           "percent": round(100.0 * killed / len(verdicts), 1) if verdicts else 100.0},
        "faithful_runs": [{"name": r.name, "family": r.family, "kernel": r.kernel, "seconds": round(r.seconds, 2),
                           "totals": (r.summary or {}).get("totals")} for r in faithful],
        "faithful_problems": faithful_problems,
        "faults": verdicts,
        "unproven_rules": unproven,
        "unproven_mandatory_rules": mandatory_unproven,
        "seconds": round(seconds, 1),
    }
