"""``verify``: the observations a bundle's summary.json carries agree with the spec's declarations.

Every recorded value must be declared for its rule, of the declared type and shape, and carry
the provenance that the catalog gives it (recomputed, not trusted), so that a gate or fleet
matrix built on the bundle reads drift correctly. A PASS its own observations contradict
(:mod:`conformance.results.consistency`) is a problem too.
"""

from __future__ import annotations

from collections.abc import Mapping

from acl_hostmem_generated.catalog_types import CaseEntry, Catalog, RuleEntry

from ..harness.observations import value_problem
from ..results.consistency import contradictions
from ..results.observations import observation_provenance
from ..results.summary import SCHEMA
from ..results.untrusted import as_object


def check_observations(summary: Mapping[str, object], catalog: Catalog) -> list[str]:
    """One line per problem with the observations of ``summary`` (judged against ``catalog``)."""
    if summary.get("schema") != SCHEMA:
        return [f"summary.json: schema {summary.get('schema')!r}, expected {SCHEMA!r} (observations not checked)"]
    problems: list[str] = []
    catalog_rules = {str(r["id"]): r for r in catalog.get("rules", [])}
    for rule_id, rule in sorted(as_object(summary.get("rules")).items()):
        spec_rule = catalog_rules.get(rule_id)
        if spec_rule is None:
            continue  # reported by the completeness check
        cases = {str(c["case_id"]): c for c in spec_rule.get("cases", [])}
        for case_id, case in sorted(as_object(as_object(rule).get("cases")).items()):
            if not isinstance(case, Mapping):
                continue
            observed = case.get("observations")
            if not isinstance(observed, Mapping):
                problems.append(f"summary.json: case {case_id} has no observations object")
                continue
            for name, entry in sorted(observed.items()):
                problem = _entry_problem(spec_rule, cases.get(case_id), name, entry)
                if problem:
                    problems.append(f"summary.json: case {case_id}: observation {name!r}: {problem}")
            if case.get("outcome") == "PASS":
                values = {name: entry.get("value") for name, entry in observed.items() if isinstance(entry, Mapping)}
                found = contradictions(spec_rule, cases.get(case_id), values)
                if found:
                    problems.append(f"summary.json: case {case_id} is PASS, but " + "; ".join(found))
    return problems


def _entry_problem(rule: RuleEntry, case: CaseEntry | None, name: str, entry: object) -> str | None:
    declared = next((d for d in rule.get("observations") or [] if d.get("name") == name), None)
    if declared is None:
        return f"not declared for {rule['id']} in the spec"
    if not isinstance(entry, Mapping) or set(entry) != {"value", "type", "provenance"}:
        return "expected an object with value, type and provenance"
    if entry["type"] != declared["type"]:
        return f"type {entry['type']!r}, declared {declared['type']!r}"
    problem = value_problem(declared, entry["value"])
    if problem:
        return problem
    expected = observation_provenance(rule, case, declared)
    if entry["provenance"] != expected:
        return f"provenance {entry['provenance']!r} does not follow from the spec ({expected!r})"
    return None
