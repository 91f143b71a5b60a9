"""Product model: which family a SoC belongs to, and whether a rule applies to it.

Pure functions over the catalog (``acl_hostmem_generated/catalog.json``), so that applicability can be
unit-tested without a library.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from typing import Any

_NUMBERS = re.compile(r"^\d+(?:\.\d+)*")


def family_for_soc(catalog: dict[str, Any], soc: str) -> dict[str, Any] | None:
    """The first family (catalog order) with a SoC pattern matching ``soc``, or None."""
    for family in catalog["families"]:
        if any(fnmatch.fnmatchcase(soc, pattern) for pattern in family["soc_patterns"]):
            return family
    return None


def family_by_id(catalog: dict[str, Any], family_id: str) -> dict[str, Any] | None:
    """The family with id ``family_id``, or None."""
    return next((f for f in catalog["families"] if f["id"] == family_id), None)


def version_tuple(release: str) -> tuple[int, ...]:
    """Numeric prefix of a kernel release: ``"5.10.0-136.el8"`` -> ``(5, 10, 0)``."""
    match = _NUMBERS.match(release.strip())
    if not match:
        return ()
    return tuple(int(part) for part in match.group(0).split("."))


def _cmp(left: tuple[int, ...], right: tuple[int, ...]) -> int:
    width = max(len(left), len(right))
    a = left + (0,) * (width - len(left))
    b = right + (0,) * (width - len(right))
    return (a > b) - (a < b)


@dataclass(frozen=True)
class Applicability:
    """Whether a rule applies: ``unsupported`` interfaces to probe, or a reason to skip."""

    unsupported: tuple[str, ...] = ()
    skip_reason: str | None = None

    @property
    def applies(self) -> bool:
        """True when nothing makes the rule inapplicable."""
        return not self.unsupported and self.skip_reason is None


def unsupported_interfaces(catalog: dict[str, Any], rule: dict[str, Any], family_id: str) -> tuple[str, ...]:
    """The rule's interfaces that the support matrix marks absent on ``family_id``."""
    missing = []
    for name in rule.get("interfaces", []):
        support = catalog["interfaces"].get(name, {}).get("support", {})
        if support.get(family_id, True) is False:
            missing.append(name)
    return tuple(missing)


def applies_reason(rule: dict[str, Any], family: dict[str, Any], kernel: str) -> str | None:
    """None when ``rule.applies`` holds for the family and kernel, else the skip reason."""
    applies = rule.get("applies") or {}
    reason = applies.get("reason") or "the rule does not apply to this product"
    if applies.get("families") and family["id"] not in applies["families"]:
        return reason
    for key in ("rc_form", "va_flag"):
        wanted = applies.get(key)
        if wanted is not None and bool(family.get(key)) != bool(wanted):
            return reason
    have = version_tuple(kernel)
    at_most = applies.get("kernel_at_most")
    if at_most and have and _cmp(have, version_tuple(at_most)) > 0:
        return f"{reason} (kernel {kernel} is newer than {at_most})"
    above = applies.get("kernel_above")
    if above and have and _cmp(have, version_tuple(above)) <= 0:
        return f"{reason} (kernel {kernel} is not newer than {above})"
    return None


def applicability(catalog: dict[str, Any], rule: dict[str, Any], family: dict[str, Any],
                  kernel: str) -> Applicability:
    """Combine the support matrix and the rule's ``applies`` block for one product."""
    return Applicability(unsupported_interfaces(catalog, rule, family["id"]),
                         applies_reason(rule, family, kernel))


def not_supported_reason(catalog: dict[str, Any], interface: str, family: dict[str, Any]) -> str:
    """Skip reason for an interface that the family does not support."""
    doc_ref = catalog["interfaces"].get(interface, {}).get("doc_ref", "")
    return f"NOT_APPLICABLE: {interface} is not supported on {family['name']} ({doc_ref})"
