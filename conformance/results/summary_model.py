"""``summary.json`` as its readers see it: one typed, read-only model of the schema this kit writes.

:func:`summary_record` checks the document's shape (:func:`~.summary.summary_problem`) and turns it into
frozen records, so that the gate, the fleet and the self-test read the same fields with the same
defaults instead of each indexing a raw JSON object its own way. Writing stays in
:mod:`.summary` (``build_summary``), which is what defines the schema.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from .outcomes import Outcome, decides
from .summary import OUTCOME_VALUES, SCHEMA, summary_problem
from .untrusted import as_object


class SummaryError(ValueError):
    """The document is not a summary.json of the schema this kit writes (one line)."""


@dataclass(frozen=True)
class CaseRecord:
    """One case of a rule: its outcome and what the run recorded for it."""

    case_id: str
    outcome: Outcome
    message: str = ""
    category: str | None = None
    observed_code: str | None = None
    observations: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class RuleRecord:
    """One rule of the summary and its cases, by case ID."""

    rule_id: str
    title: str
    family: str
    severity: str
    outcome: Outcome | None
    cases: Mapping[str, CaseRecord]

    @property
    def decides(self) -> bool:
        """Whether the rule's severity decides a verdict (a rule without one is mandatory)."""
        return decides(self.severity or None)


@dataclass(frozen=True)
class SummaryRecord:
    """A run's summary: its identity, its verdict and every rule with its cases."""

    spec_hash: str
    verdict: str
    rules: Mapping[str, RuleRecord]
    environment: Mapping[str, object]
    findings: tuple[Mapping[str, object], ...]
    totals: Mapping[str, int]
    partial: bool
    schema: str = SCHEMA

    def cases(self) -> Iterator[tuple[RuleRecord, CaseRecord]]:
        """Every (rule, case) pair, in the summary's order."""
        for rule in self.rules.values():
            for case in rule.cases.values():
                yield rule, case

    def case_outcomes(self) -> dict[str, tuple[str, str, str]]:
        """case ID -> (rule ID, outcome as summary.json writes it, message)."""
        return {case.case_id: (rule.rule_id, case.outcome.value, case.message) for rule, case in self.cases()}


def _text(value: object) -> str:
    return "" if value is None else str(value)


def _case(case_id: str, data: Mapping[str, object]) -> CaseRecord:
    code = data.get("observed_code")
    category = data.get("category")
    observations = data.get("observations")
    return CaseRecord(case_id, Outcome(data["outcome"]), _text(data.get("message")),
                      category if isinstance(category, str) else None,
                      code if isinstance(code, str) else None,
                      dict(observations) if isinstance(observations, Mapping) else {})


def _rule(rule_id: str, data: Mapping[str, object]) -> RuleRecord:
    outcome = data.get("outcome")
    return RuleRecord(rule_id, _text(data.get("title")), _text(data.get("family")), _text(data.get("severity")),
                      Outcome(outcome) if outcome in OUTCOME_VALUES else None,
                      {cid: _case(cid, case) for cid, case in as_object(data.get("cases")).items()
                       if isinstance(case, Mapping)})  # summary_problem checked that every case is an object


def summary_record(data: object) -> SummaryRecord:
    """The summary ``data`` (parsed JSON) as a :class:`SummaryRecord`; SummaryError when it is not one."""
    problem = summary_problem(data)
    if problem is not None:
        raise SummaryError(problem)
    assert isinstance(data, Mapping)
    totals = data.get("totals") if isinstance(data.get("totals"), Mapping) else {}
    findings = data.get("findings") if isinstance(data.get("findings"), list) else []
    environment = data.get("environment") if isinstance(data.get("environment"), Mapping) else {}
    selection = data.get("selection") if isinstance(data.get("selection"), Mapping) else {}
    return SummaryRecord(
        spec_hash=_text(data.get("spec_hash")),
        verdict=_text(data.get("verdict")),
        rules={rid: _rule(rid, rule) for rid, rule in data["rules"].items()},
        environment=dict(environment or {}),
        findings=tuple(f for f in findings or [] if isinstance(f, Mapping)),
        totals={str(k): int(v) for k, v in (totals or {}).items() if isinstance(v, int)},
        partial=bool((selection or {}).get("partial")),
        schema=_text(data.get("schema")),
    )
