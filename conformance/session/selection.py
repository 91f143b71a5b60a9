"""Selecting cases: rule IDs, markers and keywords, and whether a run covers only part of the spec.

Every generated case is marked with its rule family, its severity and each interface it calls,
so ``-m "sync and mandatory"`` or ``-m aclrtHostRegister`` select by them; its rule ID and case
ID join its keywords, so ``-k HM-ALIGN-MALLOC`` selects by the IDs printed everywhere;
``--acl-rule RULE`` (repeatable, globs allowed) keeps the cases of those rules. A run that was
asked to select (``-k``, ``-m``, ``--lf``, ``--deselect``, ``--acl-rule``) and kept fewer cases
than the spec has is *partial*: its reports hold only the selected cases, and its verdict is PARTIAL.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from acl_hostmem_generated.catalog_types import CaseParams, Catalog

from ..results.identity import case_id_for_item, case_id_from_nodeid, case_interfaces
from ..results.outcomes import SEVERITIES

if TYPE_CHECKING:  # the preflight's probe process imports this module, and never needs pytest
    import pytest

    from .state import CaseRule

SEVERITY_MARKS = SEVERITIES


def marker_names(catalog: Catalog) -> dict[str, str]:
    """Marker name -> its description: every rule family, severity and interface of the spec."""
    names: dict[str, str] = {rule["family"]: f"cases of the {rule['family']} rule family" for rule in catalog["rules"]}
    names.update({severity: f"cases of {severity} rules" for severity in SEVERITY_MARKS})
    names.update({name: f"cases that call {name}" for name in catalog["interfaces"]})
    return names


def unknown_rule_patterns(patterns: Iterable[str], catalog: Catalog) -> list[str]:
    """The ``--acl-rule`` patterns that match no rule of the spec."""
    ids = [rule["id"] for rule in catalog["rules"]]
    return [p for p in patterns if not fnmatch.filter(ids, p)]


def case_params(rule: CaseRule, case_id: str) -> CaseParams:
    """The matrix values of a case of the catalog (empty when the case is not in it)."""
    return next((c.get("params") or {} for c in rule.get("cases", []) if c["case_id"] == case_id), {})


def label_item(item: pytest.Item, rule: CaseRule) -> None:
    """Add the family, severity and interface markers and the rule and case ID keywords of a case."""
    case_id = case_id_for_item(rule["id"], item)
    item.extra_keyword_matches.update({rule["id"], case_id})
    names = [rule.get("family"), rule.get("severity"), *case_interfaces(rule, case_params(rule, case_id))]
    for name in dict.fromkeys(n for n in names if n):
        item.add_marker(name)


def keep_rules(items: list[pytest.Item], rule_of: Callable[[pytest.Item], CaseRule | None], patterns: tuple[str, ...],
               config: pytest.Config) -> None:
    """Deselect every case whose rule matches none of ``patterns`` (``--acl-rule``)."""
    if not patterns:
        return
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        rule = rule_of(item)
        matches = rule is not None and any(fnmatch.fnmatchcase(rule["id"], p) for p in patterns)
        (kept if matches else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def selection_requested(config: pytest.Config, rule_patterns: tuple[str, ...]) -> bool:
    """Whether the run was asked to run only some cases (node IDs on the command line included)."""
    option = config.option
    return bool(rule_patterns or getattr(option, "keyword", "") or getattr(option, "markexpr", "")
                or getattr(option, "lf", False) or getattr(option, "deselect", None)
                or any("::" in str(arg) for arg in config.args))


def selected_case_ids(nodeids: Iterable[str], rule_ids: Iterable[str]) -> set[str]:
    """Case IDs of the collected node IDs that are generated cases."""
    rule_ids = list(rule_ids)
    found = (case_id_from_nodeid(nodeid, rule_ids) for nodeid in nodeids)
    return {ids[0] for ids in found if ids is not None}
