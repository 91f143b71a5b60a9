"""Behaviour drift: observations that differ between two runs, even where no outcome changed.

Cases record what they saw (``summary.json`` ``observations``: exact codes, alignment grain,
capability answers, ...). Between a baseline and a candidate run, every observation of a case
present in both runs whose value changed is a :class:`Drift`, with its rule, its provenance
(what promises the value: ``documented``, ``runtime-source``, ``unspecified`` ...) and both
values. The gate fails on drift only when asked: ``--fail-on drift`` (any drift) or
``--fail-on drift:PROVENANCE``; an expectations entry with ``observation:`` accepts a known
drift (with a reason and an expiry), and accepted drift never fails the gate.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..i18n import _
from ..results.untrusted import as_object

if TYPE_CHECKING:
    from ..results.expectations import ExpectationSet

DRIFT = "drift"
PROVENANCES = ("documented", "runtime-source", "driver-source", "conflict", "unspecified")
DRIFT_CLASSES = (DRIFT, *(f"{DRIFT}:{p}" for p in PROVENANCES))

#: case ID -> (rule ID, observation name -> {"value", "type", "provenance"})
CaseObservations = dict[str, tuple[str, dict[str, dict[str, object]]]]


@dataclass(frozen=True)
class Drift:
    """One observation of one case whose value differs between the two runs."""

    rule_id: str
    case_id: str
    observation: str
    provenance: str
    type: object  # the declared type as the candidate's summary.json records it (a string, or None)
    baseline: object
    candidate: object
    accepted_by: Mapping[str, object] | None = None

    def to_json(self) -> dict[str, object]:
        """JSON-ready dict (gate.json, the fleet matrix)."""
        return {"rule": self.rule_id, "case": self.case_id, "observation": self.observation,
                "provenance": self.provenance, "type": self.type, "baseline": self.baseline,
                "candidate": self.candidate, "accepted_by": dict(self.accepted_by) if self.accepted_by else None}


def case_observations(summary: Mapping[str, object]) -> CaseObservations:
    """Every case of a summary.json that recorded observations, with its rule."""
    found: CaseObservations = {}
    for rule_id, rule in as_object(summary.get("rules")).items():
        for case_id, case in as_object(as_object(rule).get("cases")).items():
            observed = case.get("observations") if isinstance(case, Mapping) else None
            if observed and isinstance(observed, Mapping):  # an untrusted summary may hold anything here
                found[case_id] = (rule_id, {name: dict(entry) for name, entry in observed.items()
                                            if isinstance(entry, Mapping)})
    return found


def diff_observations(old: CaseObservations, new: CaseObservations) -> list[Drift]:
    """Observations recorded by a case in both runs with different values, sorted by case and name.

    An observation present on one side only is not drift: the case's outcome changed, or the
    spec did, and the gate reports that elsewhere.
    """
    drifts = []
    for case_id in sorted(set(old) & set(new)):
        rule_id, before = old[case_id]
        _rule, after = new[case_id]
        for name in sorted(set(before) & set(after)):
            if before[name].get("value") != after[name].get("value"):
                entry = after[name]
                drifts.append(Drift(rule_id, case_id, name, str(entry.get("provenance") or "unspecified"),
                                    entry.get("type"), before[name].get("value"), entry.get("value")))
    return drifts


def observation_drift(baseline: Mapping[str, object], candidate: Mapping[str, object]) -> list[Drift]:
    """The drift between two summary.json documents."""
    return diff_observations(case_observations(baseline), case_observations(candidate))


def accept_known_drift(drifts: Iterable[Drift], expectations: ExpectationSet | None, family: str, soc: str,
                       cann_version: str, today: datetime.date) -> list[Drift]:
    """Mark each drift an unexpired expectation entry accepts (``observation:`` entries) on this product."""
    if expectations is None:
        return list(drifts)
    out = []
    for drift in drifts:
        entry = expectations.match_drift(drift.case_id, drift.rule_id, drift.observation, family, soc,
                                         cann_version, today)
        out.append(replace(drift, accepted_by=entry.to_json()) if entry is not None else drift)
    return out


def is_drift_class(name: str) -> bool:
    """Whether ``name`` is a ``--fail-on`` drift class: ``drift`` or ``drift:PROVENANCE``."""
    return name in DRIFT_CLASSES


def gating_drift(name: str, drifts: Sequence[Drift]) -> list[Drift]:
    """The drift that fails the gate under the class ``name`` (none unless it is a drift class)."""
    if not is_drift_class(name):
        return []
    provenance = name.partition(":")[2]
    return [d for d in drifts if d.accepted_by is None and (not provenance or d.provenance == provenance)]


def show_value(value: object, kind: object) -> str:
    """A value for people: codes with their name, lists and mappings spelled out."""
    if kind == "code" and isinstance(value, int) and not isinstance(value, bool):
        from acl_hostmem_generated.acl_bindings import error_name

        return f"{value} {error_name(value)}"
    if isinstance(value, list):
        return "[" + ", ".join(show_value(v, kind) for v in value) + "]"
    if isinstance(value, Mapping):
        return ", ".join(f"{k}: {show_value(v, kind)}" for k, v in value.items())
    return str(value)


def drift_markdown(drifts: Sequence[Drift]) -> list[str]:
    """The drift section of gate.md."""
    accepted = [d for d in drifts if d.accepted_by]
    out = [_("## Behaviour drift ({count}, {accepted} accepted)").format(count=len(drifts), accepted=len(accepted)),
           "", _("Observations whose value changed between the runs, whatever the outcome."), ""]
    if not drifts:
        return out + [_("None.")]
    out += [_("| rule | case | observation | provenance | baseline | candidate | accepted by |"),
            "|---|---|---|---|---|---|---|"]
    for d in drifts:
        accepted_by = f"{d.accepted_by.get('where')} ({d.accepted_by.get('reason')})" if d.accepted_by else ""
        out.append(f"| {d.rule_id} | `{d.case_id}` | `{d.observation}` | {d.provenance} | "
                   f"{show_value(d.baseline, d.type)} | {show_value(d.candidate, d.type)} | {accepted_by} |")
    return out
