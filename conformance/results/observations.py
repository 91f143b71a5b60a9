"""Observations in ``summary.json``: each recorded value with its type and its provenance.

Provenance says what promises the value, and so how a change of it between two runs
(behaviour drift) is to be read: ``documented`` (the docs promise it: a change is also a
verdict change), ``runtime-source``, ``unspecified`` (nothing promises it). It comes from the
declaration's ``evidence`` and the catalog's provenance of the rule or of the case's expected
error; :func:`observation_provenance` is the one place that knows how.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

UNSPECIFIED = "unspecified"


def observation_provenance(rule: Mapping[str, Any], case: Mapping[str, Any] | None,
                           declared: Mapping[str, Any] | None) -> str:
    """Provenance of an observed value of ``case`` (catalog entries) declared as ``declared``.

    ``evidence: rule`` takes the rule's provenance; ``evidence: expect`` the provenance of the
    case's expected error when that names a code (a failure without a promised code leaves the
    code unspecified); anything else is unspecified.
    """
    evidence = (declared or {}).get("evidence")
    if evidence == "rule":
        return str(rule.get("provenance") or UNSPECIFIED)
    if evidence == "expect":
        expect = (case or {}).get("expect") or {}
        return str(expect.get("provenance") or UNSPECIFIED) if expect.get("code") else UNSPECIFIED
    return UNSPECIFIED


def case_observations(rule: Mapping[str, Any], case: Mapping[str, Any] | None,
                      recorded: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The ``observations`` object of a case in summary.json: name -> value, type, provenance."""
    declared = {str(d["name"]): d for d in rule.get("observations") or []}
    out = {}
    for name, value in sorted(recorded.items()):
        decl = declared.get(name)
        out[name] = {"value": value, "type": decl.get("type") if decl else None,
                     "provenance": observation_provenance(rule, case, decl)}
    return out
