"""Outcomes the records must justify: a PASS that its own observations contradict.

The spec states, per observation, what a PASS of the case implies of the value
(``expect`` in ``spec/observations.yaml``). The judge checks every PASS against it as the
results arrive, and ``verify`` checks a bundle the same way: a check whose failure was
swallowed inside the executor still recorded what the library answered, and that answer
decides. A contradicted PASS is an ERROR of category ``inconsistent``, which no waiver
turns into WAIVED.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from acl_hostmem_generated.catalog_types import CaseEntry, ExpectEntry, ObservationEntry, RuleEntry


def _values(declared: ObservationEntry, value: object) -> Iterable[object]:
    if declared.get("key") and isinstance(value, Mapping):
        return value.values()
    if declared.get("many") and isinstance(value, list):
        return value
    return [value]


def _problem(expect: object, value: object, case_expect: ExpectEntry | None) -> str | None:
    """Why ``value`` contradicts ``expect`` (None when it does not)."""
    if expect == "refused":
        if value == 0:
            return "0 (success), though the call must fail"
        if case_expect and case_expect.get("decides") and value != case_expect.get("value"):
            return f"{value}, though {case_expect.get('value')} {case_expect.get('code')} decides"
        return None
    if not isinstance(expect, Mapping):
        return None
    if "equals" in expect and value != expect["equals"]:
        return f"{value!r}, though a pass means {expect['equals']!r}"
    if "at_least" in expect and not (isinstance(value, int) and value >= expect["at_least"]):
        return f"{value!r}, though a pass means at least {expect['at_least']}"
    if "one_of" in expect and value not in expect["one_of"]:
        return f"{value!r}, though a pass means one of {', '.join(map(str, expect['one_of']))}"
    return None


def contradictions(rule: RuleEntry, case: CaseEntry | None, observed: Mapping[str, object]) -> list[str]:
    """What of a PASS case's observations its outcome contradicts, one line each (empty: none)."""
    found = []
    case_expect = case["expect"] if case else None
    for declared in rule.get("observations") or ():
        expect = declared.get("expect")
        if expect is None:
            continue
        name = declared["name"]
        if name not in observed:
            found.append(f"observation {name!r} is missing, though a pass of the case records it")
            continue
        for value in _values(declared, observed[name]):
            problem = _problem(expect, value, case_expect)
            if problem:
                found.append(f"observation {name!r} is {problem}")
                break
    return found


def inconsistency_message(found: list[str]) -> str:
    """The message of a case whose PASS its observations contradict."""
    return "inconsistent: the case reported PASS, but " + "; ".join(found)
