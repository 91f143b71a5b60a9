"""Product model: which family a SoC belongs to, and whether a rule applies to it.

Pure functions over the catalog (``acl_hostmem_generated/catalog.json``), so that applicability can be
unit-tested without a library.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass

from acl_hostmem_generated.catalog_types import CaseEntry, Catalog, FamilyEntry, RuleEntry

from .release import case_calls, outside_reason, supported_in

_NUMBERS = re.compile(r"^\d+(?:\.\d+)*")


def family_for_soc(catalog: Catalog, soc: str) -> FamilyEntry | None:
    """The first family (catalog order) with a SoC pattern matching ``soc``, or None."""
    for family in catalog["families"]:
        if any(fnmatch.fnmatchcase(soc, pattern) for pattern in family["soc_patterns"]):
            return family
    return None


def family_by_id(catalog: Catalog, family_id: str) -> FamilyEntry | None:
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
    """Whether a rule applies: unsupported interfaces (and which of them to probe), or a reason to skip.

    ``probe`` leaves out interfaces whose support on the family is disputed between the
    docs and the runtime source: an advisory rule judges those, so a case never fails
    because the source's side of the dispute answered.
    """

    unsupported: tuple[str, ...] = ()
    skip_reason: str | None = None
    probe: tuple[str, ...] = ()

    @property
    def applies(self) -> bool:
        """True when nothing makes the rule inapplicable."""
        return not self.unsupported and self.skip_reason is None


def unsupported_interfaces(catalog: Catalog, rule: RuleEntry, family_id: str,
                           case: CaseEntry | None = None) -> tuple[str, ...]:
    """The interfaces the rule (or one ``case`` of it) calls that the support matrix marks absent on
    ``family_id``. What a release does not document yet is outside its contract instead (outside_reason)."""
    calls = case_calls(catalog, rule, case, needed_only=True)
    return tuple(name for name in calls if not supported_in(catalog, name, family_id, None))


def disputed_interfaces(catalog: Catalog, rule: RuleEntry, family_id: str,
                        case: CaseEntry | None = None) -> tuple[str, ...]:
    """The interfaces the rule (or ``case``) needs whose support on ``family_id`` the docs and the
    source dispute."""
    return tuple(name for name in case_calls(catalog, rule, case, needed_only=True)
                 if name in catalog["interfaces"] and family_id in catalog["interfaces"][name]["support_disputed"])


@dataclass(frozen=True)
class Machine:
    """What applicability depends on besides the product family: how the machine runs it.

    ``run_mode`` is what aclrtGetRunMode answered ("host" or "device"), never a property of
    the family; ``host_page`` and ``host_alloc`` are the host kernel's page size and where
    aclrtMallocHost memory comes from (--acl-host-page, --acl-host-alloc).
    """

    kernel: str
    run_mode: str = "host"
    devices: int = 1
    host_page: int = 4096
    host_alloc: str = "svm"
    release: str | None = None  # the CANN release the run is judged against (None: the spec knows none)


def applies_reason(rule: RuleEntry, family: FamilyEntry, machine: Machine) -> str | None:
    """None when ``rule.applies`` holds for the family and the machine, else the reason."""
    applies = rule.get("applies") or {}
    reason = applies.get("reason") or "the rule does not apply to this product"
    if applies.get("families") and family["id"] not in applies["families"]:
        return reason
    if applies.get("drivers") and family.get("driver", "none") not in applies["drivers"]:
        return f"{reason} (the {family['name']} runs driver generation {family.get('driver', 'none')})"
    wanted = applies.get("va_flag")
    if wanted is not None and bool(family.get("va_flag")) != bool(wanted):
        return reason
    if applies.get("run_mode") and applies["run_mode"] != machine.run_mode:
        return f"{reason} (aclrtGetRunMode answered the {machine.run_mode} run mode)"
    min_devices = applies.get("min_devices")
    if min_devices and machine.devices < min_devices:
        return f"{reason} ({machine.devices} device(s))"
    if applies.get("host_alloc") and applies["host_alloc"] != machine.host_alloc:
        return f"{reason} (host memory comes from {machine.host_alloc}, --acl-host-alloc)"
    page_above, page_at_most = applies.get("host_page_above"), applies.get("host_page_at_most")
    if (page_above and machine.host_page <= page_above) or (page_at_most and machine.host_page > page_at_most):
        return f"{reason} (the host page is {machine.host_page} bytes, --acl-host-page)"
    kernel = machine.kernel
    have = version_tuple(kernel)
    at_most = applies.get("kernel_at_most")
    if at_most and have and _cmp(have, version_tuple(at_most)) > 0:
        return f"{reason} (kernel {kernel} is newer than {at_most})"
    above = applies.get("kernel_above")
    if above and have and _cmp(have, version_tuple(above)) <= 0:
        return f"{reason} (kernel {kernel} is not newer than {above})"
    return None


def applicability(catalog: Catalog, rule: RuleEntry, family: FamilyEntry,
                  machine: Machine, case: CaseEntry | None = None) -> Applicability:
    """Combine the release's contract, the support matrix and the rule's ``applies`` block for one
    product on one machine (and one ``case`` of the rule, whose calls may enter the contract later
    than the rule's first case). Outside the release's contract nothing is probed."""
    outside = outside_reason(rule, machine.release, case, catalog, family["id"])
    if outside:
        return Applicability((), outside, ())
    unsupported = unsupported_interfaces(catalog, rule, family["id"], case)
    disputed = disputed_interfaces(catalog, rule, family["id"], case)
    return Applicability(unsupported, applies_reason(rule, family, machine),
                         tuple(i for i in unsupported if i not in disputed))


def not_supported_reason(catalog: Catalog, interface: str, family: FamilyEntry,
                         release: str | None = None) -> str:
    """Skip reason for an interface that the family does not support (in ``release``)."""
    entry = catalog["interfaces"].get(interface)
    doc_ref = entry["doc_ref"] if entry else ""
    cell = entry["support_since"].get(family["id"]) if entry else None
    if release and cell and supported_in(catalog, interface, family["id"], None):
        return (f"NOT_APPLICABLE: {interface} is supported on {family['name']} from CANN {cell} on; this run is "
                f"judged against {release} ({doc_ref})")
    return f"NOT_APPLICABLE: {interface} is not supported on {family['name']} ({doc_ref})"
