"""Expand rules into conformance cases: parameter matrices and invalid-argument variants.

A case ID is the rule ID followed by its parameters, e.g. ``HM-ALIGN-MALLOC[size=4097]``;
the part in brackets is also the pytest parameter ID, so IDs are stable across runs and
readable in reports.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from .model import Condition, Expectation, Rule, Spec


@dataclass(frozen=True)
class Case:
    """One conformance case: a rule, its parameters and what it expects."""

    rule_id: str
    param_id: str
    params: tuple[tuple[str, Any], ...]
    expect: Expectation | None

    @property
    def case_id(self) -> str:
        """The full case ID, ``RULE[params]`` or just ``RULE`` for an unparametrized rule."""
        return f"{self.rule_id}[{self.param_id}]" if self.param_id else self.rule_id

    @property
    def kwargs(self) -> dict[str, Any]:
        """Parameters as keyword arguments for the check procedure."""
        return dict(self.params)


def _format_value(value: Any) -> str:
    return str(value)


def matrix_cases(rule: Rule) -> list[Case]:
    """The cartesian product of a rule's matrix, in key order, one case per combination."""
    if not rule.matrix:
        return [Case(rule.id, "", (), rule.expect)]
    keys = [k for k, _ in rule.matrix]
    combos = [tuple(zip(keys, combo)) for combo in itertools.product(*(values for _, values in rule.matrix))]
    cases = []
    for params in [*combos, *rule.also]:
        param_id = ",".join(f"{k}={_format_value(v)}" for k, v in params)
        cases.append(Case(rule.id, param_id, params, rule.expect))
    return cases


def _condition_params(interface: str, when: Condition) -> tuple[tuple[str, Any], ...]:
    return (("interface", interface), ("param", when.param), ("condition", when.kind), ("value", when.value))


def error_cases(rule: Rule) -> list[Case]:
    """One case per invalid-argument condition; all other arguments stay valid."""
    interface = rule.interfaces[0]
    return [
        Case(rule.id, err.when.label, _condition_params(interface, err.when), err.expect)
        for err in rule.errors
    ]


def rule_cases(rule: Rule) -> list[Case]:
    """All cases of a rule."""
    return error_cases(rule) if rule.errors else matrix_cases(rule)


def all_cases(spec: Spec) -> dict[str, list[Case]]:
    """Cases of every rule, keyed by rule ID, in spec order."""
    return {rule.id: rule_cases(rule) for rule in spec.rules}


def duplicate_case_ids(spec: Spec) -> list[str]:
    """Case IDs produced more than once (a spec bug: two cases could not be told apart)."""
    seen: set[str] = set()
    dupes = []
    for cases in all_cases(spec).values():
        for case in cases:
            if case.case_id in seen:
                dupes.append(case.case_id)
            seen.add(case.case_id)
    return dupes
