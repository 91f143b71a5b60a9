"""How much of the spec's mandatory promise a run judged: summary.json's ``coverage``.

A run judged against an older release may find nearly every mandatory case NOT_APPLICABLE
(the release did not yet document the call on the product). Such a run proves nothing about the
interfaces the library exports, and must not read as PASS when the release was not the library's
own word: when the release was inferred (from the ACL API version) or chosen (--acl-cann-release),
an interface the library exports whose mandatory cases all lay outside that release's contract is
*unexercised*, and a run with an unexercised interface is INCONCLUSIVE. A library that names its
own release is judged by that release's contract, whatever it documents (the counts still say how
much was judged). An interface the product does not hold in any release (NOT_APPLICABLE for the
product, not for the release) is no gap either.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from acl_hostmem_generated.catalog_types import Catalog

from ..harness.release import outside_contract
from ..i18n import current, translate
from .identity import case_interfaces
from .outcomes import Outcome, decides
from .untrusted import as_list, as_object


class CoverageJSON(TypedDict):
    """summary.json's ``coverage``: mandatory cases of the run, how many were judged, the unexercised
    interfaces (sorted)."""

    mandatory_cases: int
    mandatory_judged: int
    unexercised_interfaces: list[str]


def coverage(catalog: Catalog, rules: Mapping[str, object], environment: Mapping[str, object]) -> CoverageJSON:
    """The coverage of a run whose summary ``rules`` (rule ID -> rule with ``cases``) and ``environment``
    are given; severities and interfaces come from the spec's ``catalog``, never from the summary."""
    missing = {str(name) for name in as_list(environment.get("missing_functions"))}
    total = judged = 0
    per_interface: dict[str, list[bool]] = {}  # interface -> [any mandatory case judged, any outside the release]
    for rule in catalog.get("rules", []):
        if not decides(rule.get("severity")):
            continue
        params_of = {c["case_id"]: c.get("params") for c in rule.get("cases", [])}
        cases = as_object(as_object(rules.get(rule["id"])).get("cases"))
        for case_id, case in cases.items():
            record = as_object(case)
            ran = record.get("outcome") != Outcome.NOT_APPLICABLE.value
            total += 1
            judged += ran
            for interface in case_interfaces(rule, params_of.get(case_id)):
                seen = per_interface.setdefault(interface, [False, False])
                seen[0] = seen[0] or ran
                seen[1] = seen[1] or (not ran and outside_contract(str(record.get("message") or "")))
    chosen = as_object(environment.get("release")).get("source") != "library"  # not the library's own word
    unexercised = sorted(i for i, (ran, outside) in per_interface.items()
                         if chosen and not ran and outside and i not in missing)
    return {"mandatory_cases": total, "mandatory_judged": judged, "unexercised_interfaces": unexercised}


def coverage_line(summary: Mapping[str, object], lang: str | None = None) -> str:
    """``mandatory cases judged: 4 of 143`` (and the unexercised interfaces), for the console and certificate."""
    lang = lang or current()
    data = as_object(summary.get("coverage"))
    line = translate("mandatory cases judged: {judged} of {cases}", lang).format(
        judged=data.get("mandatory_judged", "?"), cases=data.get("mandatory_cases", "?"))
    unexercised = [str(i) for i in as_list(data.get("unexercised_interfaces"))]
    if unexercised:
        line += translate("; no mandatory case of {interfaces} (exported by the library) lies in the judged "
                          "release's contract", lang).format(interfaces=", ".join(unexercised))
    return line


def summary_coverage(summary: Mapping[str, object]) -> CoverageJSON:
    """The coverage a summary records (for a reader without the spec's catalog)."""
    data = as_object(summary.get("coverage"))
    judged, total = data.get("mandatory_judged"), data.get("mandatory_cases")
    return {"mandatory_cases": total if isinstance(total, int) else 0,
            "mandatory_judged": judged if isinstance(judged, int) else 0,
            "unexercised_interfaces": unexercised_interfaces(summary)}


def unexercised_interfaces(summary: Mapping[str, object]) -> list[str]:
    """The unexercised interfaces a summary records."""
    return [str(i) for i in as_list(as_object(summary.get("coverage")).get("unexercised_interfaces"))]
