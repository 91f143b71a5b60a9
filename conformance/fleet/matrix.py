"""The compatibility matrix: rows are rules, columns are (product family, release judged against, CANN version).

A column is named after the contract its runs were judged against first (``family@release/version``),
so a library of 9.2.0 judged against 8.5.0 sits in an ``@8.5.0/9.2.0`` column, never in a 9.2.0 one.

Runs of the same column (several machines of one product on one version) combine into one
cell per rule: the worst outcome, and each case's observations as the first run saw them (a
value another run of the column disagrees with is counted as a variance). Each cell also
carries the behaviour drift against the previous CANN version of the same product family:
every observation of the rule whose value changed, with its provenance and both values.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..gate.drift import CaseObservations, Drift, diff_observations
from ..results.matching import VersionKey, glob_match, version_key
from ..results.outcomes import Outcome, worst
from .inputs import UNKNOWN, Excluded, RuleFacts, RunRecord

SCHEMA = "acl-conformance-fleet/1"
_OUTCOMES = frozenset(o.value for o in Outcome)


@dataclass
class Column:
    """One (product family, release judged against, CANN version) with what its runs said."""

    family: str
    release: str  # the contract its runs were judged against
    cann_version: str
    sources: list[str] = field(default_factory=list)
    socs: set[str] = field(default_factory=set)
    verdicts: set[str] = field(default_factory=set)
    outcomes: dict[str, list[str]] = field(default_factory=dict)
    observations: CaseObservations = field(default_factory=dict)
    variances: dict[str, int] = field(default_factory=dict)
    releases: set[str] = field(default_factory=set)  # the contracts its runs were judged against
    outside: dict[str, int] = field(default_factory=dict)  # rule -> most cases outside a run's contract

    @property
    def key(self) -> str:
        """The column's name in matrix.json: ``family@version`` when the runs were judged against that very release
        (or no known one), else ``family@release/version``: the contract first."""
        if self.release in (self.cann_version, UNKNOWN):
            return f"{self.family}@{self.cann_version}"
        return f"{self.family}@{self.release}/{self.cann_version}"

    @property
    def title(self) -> str:
        """The column's heading for people, naming the contract first where it is not the library's own release."""
        if self.release in (self.cann_version, UNKNOWN):
            return f"{self.family} {self.cann_version}"
        return f"{self.family} CANN {self.release} contract (library {self.cann_version})"

    def add(self, run: RunRecord) -> None:
        """Fold one run of this column in."""
        self.sources.append(run.source)
        self.socs.add(run.soc)
        self.verdicts.add(run.verdict)
        self.releases.add(run.release)
        for rule_id, count in run.outside.items():
            self.outside[rule_id] = max(count, self.outside.get(rule_id, 0))
        for rule_id, outcome in run.outcomes.items():
            self.outcomes.setdefault(rule_id, []).append(outcome)
        for case_id, (rule_id, observed) in run.observations.items():
            if case_id not in self.observations:
                self.observations[case_id] = (rule_id, observed)
            elif any(self.observations[case_id][1].get(name, entry) != entry for name, entry in observed.items()):
                self.variances[rule_id] = self.variances.get(rule_id, 0) + 1

    def outcome(self, rule_id: str) -> str | None:
        """The worst outcome of the rule over this column's runs (None when no run has the rule)."""
        found = [Outcome(o) for o in self.outcomes.get(rule_id, []) if o in _OUTCOMES]
        result = worst(found)
        return result.value if result else None


@dataclass(frozen=True)
class Cell:
    """One rule on one column."""

    outcome: str | None
    previous: str | None
    drift: tuple[Drift, ...]
    variances: int
    outside: int = 0  # cases of the rule outside the column's release contract (NOT_APPLICABLE for it)
    release: str = ""  # that release, when outside

    def to_json(self) -> dict[str, object]:
        """JSON-ready dict."""
        return {"outcome": self.outcome, "previous_outcome": self.previous,
                "drift": [d.to_json() for d in self.drift], "variances": self.variances,
                "outside_contract": {"cases": self.outside, "release": self.release} if self.outside else None}


@dataclass
class Matrix:
    """The merged matrix and what was left out of it."""

    rows: list[RuleFacts]
    columns: list[Column]
    cells: dict[str, dict[str, Cell]]
    excluded: list[Excluded]
    spec_hashes: list[str]

    @property
    def drift_cells(self) -> list[tuple[str, str]]:
        """(rule, column key) of every cell with drift."""
        return [(rule, key) for rule, row in self.cells.items() for key, cell in row.items() if cell.drift]

    def to_json(self) -> dict[str, object]:
        """matrix.json."""
        return {
            "schema": SCHEMA,
            "spec_hashes": self.spec_hashes,
            "columns": [{"key": c.key, "family": c.family, "release": c.release, "cann_version": c.cann_version,
                         "releases": sorted(c.releases), "runs": c.sources,
                         "socs": sorted(c.socs), "verdicts": sorted(c.verdicts)} for c in self.columns],
            "rows": [{"rule": r.rule_id, "title": r.title, "severity": r.severity, "family": r.family}
                     for r in self.rows],
            "cells": {rule: {key: cell.to_json() for key, cell in row.items()} for rule, row in self.cells.items()},
            "drift_cells": [{"rule": rule, "column": key} for rule, key in self.drift_cells],
            "excluded": [{"source": e.source, "reason": e.reason} for e in self.excluded],
        }


def _column_order(column: Column, families: Sequence[str]) -> tuple[int, str, VersionKey, VersionKey]:
    rank = families.index(column.family) if column.family in families else len(families)
    return rank, column.family, version_key(column.release), version_key(column.cann_version)


def build_matrix(inputs: Iterable[RunRecord | Excluded], families: Sequence[str] = (),
                 rules: Sequence[str] = ()) -> Matrix:
    """Fold the inputs (consumed one at a time) into the matrix.

    ``families`` orders the columns (the spec's family order; others follow by name), and
    ``rules`` (glob patterns) restricts the rows.
    """
    columns: dict[tuple[str, str, str], Column] = {}
    facts: dict[str, RuleFacts] = {}
    excluded: list[Excluded] = []
    hashes: dict[str, None] = {}
    for item in inputs:
        if isinstance(item, Excluded):
            excluded.append(item)
            continue
        column = columns.setdefault((item.family, item.release, item.cann_version),
                                    Column(item.family, item.release, item.cann_version))
        column.add(item)
        hashes.setdefault(item.spec_hash, None)
        for fact in item.rules:
            facts.setdefault(fact.rule_id, fact)
    ordered = sorted(columns.values(), key=lambda c: _column_order(c, families))
    rows = [f for f in facts.values() if not rules or any(glob_match(p, f.rule_id) for p in rules)]
    cells: dict[str, dict[str, Cell]] = {row.rule_id: {} for row in rows}
    previous: dict[str, Column] = {}
    for column in ordered:
        before = previous.get(column.family)
        drift = diff_observations(before.observations, column.observations) if before else []
        for row in rows:
            outcome = column.outcome(row.rule_id)
            earlier = before.outcome(row.rule_id) if before else None
            cells[row.rule_id][column.key] = Cell(
                outcome, earlier if earlier != outcome else None,
                tuple(d for d in drift if d.rule_id == row.rule_id), column.variances.get(row.rule_id, 0),
                column.outside.get(row.rule_id, 0), ", ".join(sorted(column.releases)))
        previous[column.family] = column
    return Matrix(rows, ordered, cells, excluded, list(hashes))
