"""Observations in ``summary.json``: each recorded value with its type and its provenance.

Provenance says what promises the value, and so how a change of it between two runs
(behaviour drift) is to be read: ``documented`` (the docs promise it: a change is also a
verdict change), ``runtime-source``, ``unspecified`` (nothing promises it). It comes from the
declaration's ``evidence`` and the catalog's provenance of the rule or of the case's expected
error; :func:`observation_provenance` is the one place that knows how.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from acl_hostmem_generated.catalog_types import CaseEntry, ObservationEntry, RuleEntry

UNSPECIFIED = "unspecified"


class ObservationJSON(TypedDict):
    """One observation of a case in summary.json: the recorded value, its declared type, its provenance."""

    value: object
    type: str | None
    provenance: str


def observation_provenance(rule: RuleEntry, case: CaseEntry | None, declared: ObservationEntry | None) -> str:
    """Provenance of an observed value of ``case`` (catalog entries) declared as ``declared``.

    ``evidence: rule`` takes the rule's provenance; ``evidence: expect`` the provenance of the
    case's expected error when that names a code (a failure without a promised code leaves the
    code unspecified); anything else is unspecified.
    """
    evidence = declared.get("evidence") if declared else None
    if evidence == "rule":
        return str(rule.get("provenance") or UNSPECIFIED)
    if evidence == "expect":
        expect = case.get("expect") if case else None
        return str(expect.get("provenance") or UNSPECIFIED) if expect and expect.get("code") else UNSPECIFIED
    return UNSPECIFIED


def case_observations(rule: RuleEntry, case: CaseEntry | None,
                      recorded: Mapping[str, object]) -> dict[str, ObservationJSON]:
    """The ``observations`` object of a case in summary.json: name -> value, type, provenance."""
    declared = {str(d["name"]): d for d in rule.get("observations") or []}
    out: dict[str, ObservationJSON] = {}
    for name, value in sorted(recorded.items()):
        decl = declared.get(name)
        out[name] = {"value": value, "type": decl.get("type") if decl else None,
                     "provenance": observation_provenance(rule, case, decl)}
    return out
