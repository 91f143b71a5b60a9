"""``spec/observations.yaml``: the facts each rule's cases record, checked against the rules.

The schema fixes the shape of each declaration; this module checks what the schema cannot
(every key names a rule, names are unique per rule, ``values`` go with enums only, an
``expect`` evidence needs an expected error) and builds the model's
:class:`~codegen.model.Observation` tuples.
"""

from __future__ import annotations

from typing import Any

from .errors import SpecIssue
from .model import Observation
from .validate import Document


def observation_issues(docs: dict[str, Document]) -> list[SpecIssue]:
    """Every cross-reference problem of the observations document, with file:line: field."""
    doc = docs["observations"]
    rules = {r["id"]: r for r in docs["rules"].data["rules"]}
    issues: list[SpecIssue] = []

    def report(path: list[str | int], message: str) -> None:
        issues.append(SpecIssue(doc.where(path), message))

    for rule_id, entries in doc.data["observations"].items():
        rule = rules.get(rule_id)
        if rule is None:
            report(["observations", rule_id], f"observations of unknown rule {rule_id!r}")
            continue
        seen: set[str] = set()
        for index, entry in enumerate(entries):
            path: list[str | int] = ["observations", rule_id, index]
            if entry["name"] in seen:
                report(path + ["name"], f"duplicate observation {entry['name']!r} of {rule_id}")
            seen.add(entry["name"])
            if entry["type"] == "enum" and "values" not in entry:
                report(path + ["values"], "an enum observation needs 'values'")
            if entry["type"] != "enum" and "values" in entry:
                report(path + ["values"], f"only enum observations take 'values' (this one is {entry['type']})")
            if "key" in entry and entry.get("many"):
                report(path + ["many"], "an observation is either keyed ('key') or a list ('many'), not both")
            expect = entry.get("expect")
            if expect == "refused" and entry["type"] != "code":
                report(path + ["expect"], f"'refused' is said of codes (this observation is {entry['type']})")
            if isinstance(expect, dict) and "at_least" in expect and entry["type"] != "int":
                report(path + ["expect"], f"'at_least' is said of ints (this observation is {entry['type']})")
            if isinstance(expect, dict) and entry["type"] == "enum":
                named = [expect["equals"]] if "equals" in expect else expect.get("one_of", [])
                unknown = [v for v in named if v not in entry.get("values", [])]
                if unknown:
                    report(path + ["expect"], f"{unknown[0]!r} is not one of the observation's values")
            if entry["evidence"] == "expect" and not (rule.get("code") or rule.get("errors")):
                report(path + ["evidence"], f"{rule_id} expects no error, so no expected error backs this value")
    return issues


def _observation(raw: dict[str, Any]) -> Observation:
    return Observation(raw["name"], raw["type"], raw["meaning"], raw["evidence"], tuple(raw.get("values", ())),
                       raw.get("key"), bool(raw.get("many", False)), raw.get("expect"))


def rule_observations(doc: Document) -> dict[str, tuple[Observation, ...]]:
    """Rule ID -> its declared observations, in file order."""
    return {rule_id: tuple(_observation(e) for e in entries) for rule_id, entries in doc.data["observations"].items()}
