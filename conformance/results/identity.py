"""Case identity: how a pytest node of a generated case maps to its rule and case ID.

A case ID is ``<rule id>[<param id>]`` (``HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=1]``);
the generated test function of a rule is ``test_`` + the rule ID with ``-`` as ``_``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Set
from typing import TYPE_CHECKING

from .untrusted import as_list

if TYPE_CHECKING:  # read by processes that never need pytest (the preflight's probe)
    import pytest


def test_name_for_rule(rule_id: str) -> str:
    """The generated test function of a rule: ``HM-ALIGN-MALLOC`` -> ``test_HM_ALIGN_MALLOC``."""
    return "test_" + rule_id.replace("-", "_")


def case_id_from_nodeid(nodeid: str, rule_ids: Iterable[str]) -> tuple[str, str] | None:
    """(case id, rule id) for a pytest node id of a generated case, or None if it is not one."""
    name = nodeid.rsplit("::", 1)[-1]
    base, _, rest = name.partition("[")
    # The rule whose test this is, looked up at once where the IDs are a set or mapping and the rule's ID has
    # no "_" (every ID of the spec); else by the name of every rule's test.
    guess = base[len("test_"):].replace("_", "-") if base.startswith("test_") else None
    if guess is not None and isinstance(rule_ids, (Set, Mapping)) and guess in rule_ids:
        rule: str | None = guess
    else:
        rule = {test_name_for_rule(r): r for r in rule_ids}.get(base)
    if rule is None:
        return None
    return (f"{rule}[{rest[:-1]}]" if rest else rule), rule


def case_id_for_item(rule_id: str, item: pytest.Item) -> str:
    """``<rule id>[<param id>]``, or the rule id for an unparametrized test."""
    callspec = getattr(item, "callspec", None)
    return f"{rule_id}[{callspec.id}]" if callspec is not None else rule_id


def case_interfaces(rule: Mapping[str, object], params: Mapping[str, object] | None) -> list[str]:
    """Interfaces a case exercises: the rule's, or the ``interface`` parameter when it has none."""
    interfaces = rule.get("interfaces")
    if interfaces:
        return [str(i) for i in as_list(interfaces)]
    interface = params.get("interface") if params else None
    if isinstance(interface, str):
        return [interface]
    return []


def tested_interface(rule: Mapping[str, object], params: Mapping[str, object] | None = None) -> str:
    """The interface a case is about, for filing it in reports.

    The case's ``interface`` parameter when it has one; else the interface the rule's
    documentation anchor names (a rule cites the section of the interface it constrains,
    e.g. ``...#aclrtHostUnregister``); else the rule's first interface.
    """
    interface = params.get("interface") if params else None
    if isinstance(interface, str):
        return interface
    interfaces = [str(i) for i in as_list(rule.get("interfaces"))]
    anchor = str(rule.get("doc_url") or "").rpartition("#")[2]
    if anchor in interfaces:
        return anchor
    return interfaces[0] if interfaces else "product support"
