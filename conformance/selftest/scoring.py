"""Scoring the self-test's runs: false alarms on faithful runs and legal variants, kills per fault."""

from __future__ import annotations

from typing import TypedDict

from acl_hostmem_generated.catalog_types import Catalog

from ..harness.product import Machine, applicability
from ..results.outcomes import DECIDING_SEVERITY
from ..results.summary import PARTIAL
from .plan import DRIVER_PINS, FAILING, NOT_PASSING, SEQUENCE_FAMILY, Run, family_record

DECIDING = DECIDING_SEVERITY
EXPLORER_FAMILY = SEQUENCE_FAMILY


def predicted_not_applicable(catalog: Catalog, family_id: str, machine: Machine) -> set[str]:
    """Case IDs the spec says are NOT_APPLICABLE on a family and machine."""
    family = family_record(catalog, family_id)
    out: set[str] = set()
    for rule in catalog["rules"]:
        out.update(c["case_id"] for c in rule["cases"]
                   if not applicability(catalog, rule, family, machine, c).applies)
    return out


def deviating_rules(run: Run) -> list[str]:
    """The rules below mandatory that did not pass in a run (what a legal choice made deviate)."""
    severity = run.rule_severity()
    return sorted({rule for rule, outcome, _m in run.case_outcomes().values()
                   if outcome in NOT_PASSING and severity.get(rule, DECIDING) != DECIDING})


def score_faithful(catalog: Catalog, run: Run) -> list[str]:
    """Problems of a faithful run: any failure, or a NOT_APPLICABLE set other than predicted.

    On the driver's pinning path (``ACLSIM_PIN_REGISTER=driver``), a legal choice, a rule below
    mandatory may deviate as under a legal variant (:func:`deviating_rules`); a mandatory one may not.
    """
    problems = list(run.problems)
    if run.summary is None:
        return problems
    outcomes = run.case_outcomes()
    all_cases = {c["case_id"] for r in catalog["rules"] for c in r["cases"]}
    missing = sorted(all_cases - set(outcomes))
    if missing:
        problems.append(f"{run.name}: {len(missing)} case(s) without a result, e.g. {missing[0]}")
    allowed = set(deviating_rules(run)) if run.pin_register == DRIVER_PINS else set()
    for case_id, (rule, outcome, message) in sorted(outcomes.items()):
        if outcome in NOT_PASSING and rule not in allowed:
            problems.append(f"{run.name}: false alarm {case_id}: {outcome} {message[:200]}")
    actual_na = {c for c, (_r, o, _m) in outcomes.items() if o == "NOT_APPLICABLE"}
    predicted = predicted_not_applicable(catalog, run.family, run.machine)
    for case_id in sorted(actual_na - predicted):
        problems.append(f"{run.name}: {case_id} was NOT_APPLICABLE but the spec predicts it applies")
    for case_id in sorted(predicted - actual_na):
        problems.append(f"{run.name}: {case_id} ran but the spec predicts NOT_APPLICABLE")
    return problems


class FaultVerdictJSON(TypedDict):
    """selftest.json's verdict on one fault run: did a rule the fault violates kill it, and what else failed."""

    fault: str
    family: str
    violates: list[str]
    release: str | None
    pin_register: str  # who pins aclrtHostRegisterV2 PINNED memory: runtime or driver (plan.pin_settings)
    run: str
    selected: list[str]
    sampled: bool  # whether the sampled-size cases ran (plan.sampled_rules)
    status: str
    killing_cases: list[str]
    killing_rules: list[str]
    on_target_rules: list[str]
    collateral_rules: list[str]
    collateral_mandatory: list[str]
    blocked_cases: int
    seconds: float
    cpu_seconds: float | None
    isolated_rerun: bool


class LegalVerdictJSON(TypedDict):
    """selftest.json's verdict on one legal-variant run: false alarms, and the rules it made deviate."""

    variant: str
    family: str
    pin_register: str
    run: str
    status: str
    false_alarms: list[str]
    deviating_rules: list[str]
    findings: int
    covers: list[str]
    sampled: bool  # whether the sampled-size cases ran (plan.variant_concerns_sampled)
    seconds: float
    cpu_seconds: float | None


class SequenceFaultJSON(TypedDict):
    """A fault meant for the explorer and the rules, explorer and fixed-matrix, that killed it."""

    fault: str
    explorer_rules: list[str]
    fixed_matrix_rules: list[str]


class ReleaseKillsJSON(TypedDict):
    """The fault runs on one older release: how many were killed, of how many, and the survivors."""

    killed: int
    total: int
    survivors: list[str]


class MutationScoreJSON(TypedDict):
    """Faults killed of the faults run (the newest release's)."""

    killed: int
    total: int
    percent: float


class OlderReleasesJSON(TypedDict):
    """The fault runs on older releases, by release and run by run."""

    faults: dict[str, ReleaseKillsJSON]
    runs: list[FaultVerdictJSON]


class FalseAlarmScoreJSON(TypedDict):
    """Mandatory failures of the legal variants (false alarms)."""

    mandatory_failures: int
    runs: int
    variants: list[str]
    clean_runs: int


class DiagnosticPrecisionJSON(TypedDict):
    """Rules a fault made fail besides those it violates, and the cases it blocked."""

    collateral_mandatory_failures: int
    collateral_failures: int
    faults_with_collateral: dict[str, list[str]]
    blocked_cases: int


class FaithfulRunJSON(TypedDict):
    """A run against the faithful simulator."""

    name: str
    family: str
    kernel: str
    pin_register: str
    seconds: float
    cpu_seconds: float | None
    totals: dict[str, int] | None
    deviating_rules: list[str]  # rules below mandatory that did not pass: allowed on the driver's pinning path only


class SelftestJSON(TypedDict):
    """selftest.json: the self-test's result as :func:`report` writes it."""

    schema: str
    spec_hash: str
    passed: bool
    mutation_score: MutationScoreJSON
    older_releases: OlderReleasesJSON
    false_alarm_score: FalseAlarmScoreJSON
    diagnostic_precision: DiagnosticPrecisionJSON
    faithful_runs: list[FaithfulRunJSON]
    faithful_problems: list[str]
    faults: list[FaultVerdictJSON]
    legal_variants: list[LegalVerdictJSON]
    unproven_rules: list[str]
    unproven_mandatory_rules: list[str]
    sequence_faults: list[SequenceFaultJSON]
    seconds: float
    cpu_seconds: float


def score_fault(run: Run) -> FaultVerdictJSON:
    """Which cases a fault killed, whether one of them belongs to a rule it violates, and the collateral.

    Collateral failures are rules that fail on their own although the fault does not declare
    them: one deviation should show as its own rules failing and the rest BLOCKED by them.
    """
    assert run.fault is not None
    sequence = run.fault["family"] == SEQUENCE_FAMILY
    family = {rid: rule.family for rid, rule in run.summary.rules.items()} if run.summary else {}
    # An explorer finding BLOCKED by a fixed rule that failed too was still found by the explorer.
    killers = {case: rule for case, (rule, outcome, _m) in run.case_outcomes().items()
               if run.selected(rule) and (outcome in FAILING or
                                          (sequence and outcome == "BLOCKED" and family.get(rule) == EXPLORER_FAMILY))}
    rules = sorted(set(killers.values()))
    on_target = sorted(r for r in rules if r in run.fault["violates"])
    status = "killed" if on_target else ("wrong-rule" if killers else "survived")
    if run.summary is None:
        status = "no-result"
    severity = run.rule_severity()
    # A sequence fault's fixed-matrix failures are what the matrix also catches (sequence_faults),
    # not collateral: the explorer exists for what needs a history, and the matrix may see part of it.
    collateral = [] if sequence else [r for r in rules if r not in run.fault["violates"]]
    return {
        "fault": run.fault["name"], "family": run.fault["family"], "violates": run.fault["violates"],
        "release": run.release, "pin_register": run.pin_register, "run": run.name, "selected": list(run.select),
        "sampled": run.sampled,
        "status": status, "killing_cases": sorted(killers), "killing_rules": rules, "on_target_rules": on_target,
        "collateral_rules": collateral,
        "collateral_mandatory": [r for r in collateral if severity.get(r, DECIDING) == DECIDING],
        "blocked_cases": sum(1 for _r, outcome, _m in run.case_outcomes().values() if outcome == "BLOCKED"),
        "seconds": round(run.seconds, 2), "cpu_seconds": cpu_of(run), "isolated_rerun": run.isolated,
    }


def cpu_of(run: Run) -> float | None:
    """The CPU seconds a run cost (its judge's and its executors'), where they were measured."""
    return None if run.cpu_seconds is None else round(run.cpu_seconds, 2)


def score_legal(run: Run) -> LegalVerdictJSON:
    """A legal-variant run: mandatory failures are false alarms; other failures show what it exercised.

    Failures of recommended, advisory and informational rules are expected where the variant
    takes the other side of an open question; they never decide a verdict.
    """
    assert run.fault is not None
    severity = run.rule_severity()
    false_alarms, deviations = [], []
    for case_id, (rule_id, outcome, message) in sorted(run.case_outcomes().items()):
        if outcome not in NOT_PASSING:
            continue
        if severity.get(rule_id, DECIDING) == DECIDING:
            false_alarms.append(f"{case_id}: {outcome} {message[:200]}")
        else:
            deviations.append(rule_id)
    findings = len(run.summary.findings) if run.summary else 0
    problems = list(run.problems)
    # A run that left cases out (the sampled sizes) is a selection, whose verdict is PARTIAL.
    clean_verdict = "PASS" if run.sampled and not run.select else PARTIAL
    if run.summary is not None and (run.summary.verdict or clean_verdict) != clean_verdict and not false_alarms:
        problems.append(f"verdict {run.summary.verdict} without a failing mandatory case")
    return {
        "variant": run.fault["name"], "family": run.family, "pin_register": run.pin_register, "run": run.name,
        "status": "no-result" if run.summary is None else ("false-alarm" if false_alarms or problems else "clean"),
        "false_alarms": false_alarms + problems, "deviating_rules": sorted(set(deviations)), "findings": findings,
        "covers": run.fault.get("covers", []), "sampled": run.sampled, "seconds": round(run.seconds, 2),
        "cpu_seconds": cpu_of(run),
    }


def proven_rules(verdicts: list[FaultVerdictJSON], legal: list[LegalVerdictJSON]) -> set[str]:
    """Rules a fault declaring them killed, or a legal variant covering them made fail."""
    proven = {r for v in verdicts for r in v["on_target_rules"]}
    proven |= {r for v in legal for r in v["deviating_rules"] if r in v["covers"]}
    return proven


def unproven_rules(catalog: Catalog, verdicts: list[FaultVerdictJSON],
                   legal: list[LegalVerdictJSON] | None = None, every_fault: bool = True) -> list[str]:
    """Rules that no switch proved able to fail.

    With only some switches run (``every_fault`` false), only the rules those faults declare
    and those legal variants cover can be proven.
    """
    legal = legal or []
    proven = proven_rules(verdicts, legal)
    claimed = None
    if not every_fault:
        claimed = {r for v in verdicts for r in v["violates"]} | {r for v in legal for r in v["covers"]}
    return [r["id"] for r in catalog["rules"] if r["id"] not in proven and (claimed is None or r["id"] in claimed)]


def sequence_faults(catalog: Catalog, verdicts: list[FaultVerdictJSON]) -> list[SequenceFaultJSON]:
    """For each fault meant for the explorer: the explorer rules and the fixed-matrix rules that killed it."""
    family = {r["id"]: r["family"] for r in catalog["rules"]}
    rows: list[SequenceFaultJSON] = []
    for v in verdicts:
        if v["family"] != EXPLORER_FAMILY:
            continue
        rows.append({"fault": v["fault"],
                     "explorer_rules": [r for r in v["killing_rules"] if family.get(r) == EXPLORER_FAMILY],
                     "fixed_matrix_rules": [r for r in v["killing_rules"] if family.get(r) != EXPLORER_FAMILY]})
    return rows


def report(catalog: Catalog, faithful: list[Run], verdicts: list[FaultVerdictJSON],
           faithful_problems: list[str], seconds: float, legal: list[LegalVerdictJSON] | None = None,
           every_fault: bool = True) -> SelftestJSON:
    """The self-test result as data (``every_fault`` false: a run limited to some switches)."""
    legal = legal or []
    # The fault runs on older releases prove the kit there; the mutation score is the newest release's.
    older = [v for v in verdicts if v.get("release")]
    verdicts = [v for v in verdicts if not v.get("release")]
    killed = sum(v["status"] == "killed" for v in verdicts)
    unproven = unproven_rules(catalog, verdicts, legal, every_fault)
    severity = {r["id"]: r["severity"] for r in catalog["rules"]}
    # A mandatory rule must be proven by a fault: a legal variant never breaks one.
    mandatory_proven = {r for v in verdicts for r in v["on_target_rules"]}
    claimed = None if every_fault else {r for v in verdicts for r in v["violates"]}
    mandatory_unproven = [r["id"] for r in catalog["rules"]
                          if severity[r["id"]] == DECIDING and r["id"] not in mandatory_proven
                          and (claimed is None or r["id"] in claimed)]
    alarms = sum(len(v["false_alarms"]) for v in legal)
    collateral = {v["fault"]: v["collateral_mandatory"] for v in verdicts if v.get("collateral_mandatory")}
    collateral_count = sum(len(rules) for rules in collateral.values())
    by_release: dict[str, ReleaseKillsJSON] = {}
    for v in older:
        entry = by_release.setdefault(v["release"] or "", {"killed": 0, "total": 0, "survivors": []})  # set: older
        entry["total"] += 1
        entry["killed"] += v["status"] == "killed"
        if v["status"] != "killed":
            entry["survivors"].append(v["run"])
    ok = not faithful_problems and killed == len(verdicts) and not mandatory_unproven and alarms == 0 \
        and all(v["status"] == "clean" for v in legal) and collateral_count == 0 \
        and all(v["status"] == "killed" for v in older)
    return {
        "schema": "acl-conformance-selftest/3",
        "spec_hash": catalog["spec_hash"],
        "passed": ok,
        "mutation_score": {"killed": killed, "total": len(verdicts),
                           "percent": round(100.0 * killed / len(verdicts), 1) if verdicts else 100.0},
        "older_releases": {"faults": dict(sorted(by_release.items())), "runs": older},
        "false_alarm_score": {
            "mandatory_failures": alarms, "runs": len(legal),
            "variants": sorted({v["variant"] for v in legal}), "clean_runs": sum(v["status"] == "clean" for v in legal),
        },
        "diagnostic_precision": {
            "collateral_mandatory_failures": collateral_count,
            "collateral_failures": sum(len(v.get("collateral_rules", [])) for v in verdicts),
            "faults_with_collateral": collateral,
            "blocked_cases": sum(v.get("blocked_cases", 0) for v in verdicts),
        },
        "faithful_runs": [{"name": r.name, "family": r.family, "kernel": r.kernel, "pin_register": r.pin_register,
                           "seconds": round(r.seconds, 2), "cpu_seconds": cpu_of(r),
                           "totals": dict(r.summary.totals) if r.summary else None,
                           "deviating_rules": deviating_rules(r)} for r in faithful],
        "faithful_problems": faithful_problems,
        "faults": verdicts,
        "legal_variants": legal,
        "unproven_rules": unproven,
        "unproven_mandatory_rules": mandatory_unproven,
        "sequence_faults": sequence_faults(catalog, verdicts),
        "seconds": round(seconds, 1),
        "cpu_seconds": round(sum(r.cpu_seconds or 0.0 for r in faithful)
                             + sum(v.get("cpu_seconds") or 0.0 for v in [*verdicts, *older, *legal]), 1),
    }
