"""The facts of the state model, computed for one request against the abstract state.

Each fact ``spec/state_model.yaml`` declares is a property of :class:`Facts` with the same
name (``tests/explorer`` checks that every one exists); ``condition`` evaluates the
structured error conditions of rules.yaml that the model's ``errors_of`` clauses carry.
"""

from __future__ import annotations

import enum

from acl_hostmem_generated import acl_bindings as acl

from .calls import Request, integer
from .state import Allocation, Registration, Stream, World

_KNOWN_FLAGS = acl.ACL_HOST_REG_MAPPED | acl.ACL_HOST_REG_IOMEMORY | acl.ACL_HOST_REG_READONLY | acl.ACL_HOST_REG_PINNED


class _Unset(enum.Enum):
    """A lookup not made yet (None is an answer: nothing there)."""

    UNSET = enum.auto()


_UNSET = _Unset.UNSET
#: The page the docs ask registrations to be aligned to (11-02_host_memory_management.md:292).
DOC_PAGE = 4096
#: The svm v2 driver maps memory of its host VA range (VA_FLAG=1) in 2 MiB units.
UVA_GRAIN = 2 << 20


class Facts:
    """The facts of one request (each clause test reads a few of them, once or twice).

    The lookups several facts share (the registration at the pointer, the one containing it,
    the registrations a range touches) are made once per request: a prediction tries a dozen
    clauses, and the explorer's rate is bound by its own Python, not by the backend.
    """

    __slots__ = ("world", "req", "_reg", "_containing", "_touched")

    def __init__(self, world: World, req: Request) -> None:
        self.world = world
        self.req = req
        self._reg: Registration | None | _Unset = _UNSET
        self._containing: Registration | None | _Unset = _UNSET
        self._touched: tuple[Registration, ...] | _Unset = _UNSET

    def condition(self, param: str, kind: str, value: object) -> bool:
        """Whether the request carries the invalid argument a rule's error condition describes."""
        req = self.req
        if kind == "is_null":
            return param in req.values and req.values[param] is None
        if kind != "unregistered" and not req.tags:
            return False
        if kind == "equals":
            wanted = self.world.product.device_count if value == "@device_count" else value
            return req.values.get(param) == wanted and req.tags.get(param) == ("equals", value)
        if kind in ("offset", "config"):
            return req.tags.get(param) == (kind, value)
        if kind == "unregistered":
            pointer = integer(req.values.get(param) or 0, param)
            if pointer == req.pointer:
                return self._registration_containing is None
            return self.world.registration_containing(pointer) is None
        raise ValueError(f"unknown error condition {kind!r}")

    def applies(self, rule: str | None) -> bool:
        """Whether a rule a clause cites applies to the product (family, kernel, run mode, devices)."""
        return rule not in self.world.product.inapplicable

    # ---- product and thread ----
    @property
    def device(self) -> int | None:
        """The calling thread's current device."""
        return self.world.threads[self.req.thread]

    @property
    def unsupported(self) -> bool:
        """The support matrix says the product family lacks the called interface (and does not dispute it)."""
        product = self.world.product
        return self.req.interface in product.unsupported and self.req.interface not in product.disputed

    @property
    def support_disputed(self) -> bool:
        """The family's support of the called interface is disputed."""
        return self.req.interface in self.world.product.disputed

    @property
    def no_device(self) -> bool:
        """The calling thread has no current device."""
        return self.device is None

    @property
    def va_unsupported(self) -> bool:
        """The family does not support the VA flag."""
        return not self.world.product.va_flag

    @property
    def legacy_kernel(self) -> bool:
        """The OS kernel is 5.10 or older."""
        return self.world.product.legacy_kernel

    @property
    def cfg_va_flag(self) -> bool:
        """The configuration asks for VA_FLAG=1."""
        return self.req.cfg_kind == "va_flag"

    # ---- the pointer a free acts on ----
    @property
    def _allocation(self) -> Allocation | None:
        return self.world.allocation_at(self.req.pointer)

    @property
    def target_live_base(self) -> bool:
        """The pointer is the start of a live allocation."""
        return self._allocation is not None

    @property
    def target_interior(self) -> bool:
        """The pointer lies inside a live allocation but is not its start."""
        return self._allocation is None and self.world.allocation_containing(self.req.pointer) is not None

    @property
    def target_was_freed(self) -> bool:
        """The pointer is the start of a freed allocation and lies in no live one."""
        return self.req.pointer in self.world.freed and self.world.allocation_containing(self.req.pointer) is None

    @property
    def target_read_by_pending_work(self) -> bool:
        """A copy queued on a blocked stream reads the allocation."""
        return self._allocation is not None and bool(self.world.readers_of(self._allocation.var))

    @property
    def target_read_on_other_device(self) -> bool:
        """A copy queued on a blocked stream of another device reads the allocation."""
        return self._allocation is not None and any(
            s.device != self.device for s in self.world.readers_of(self._allocation.var))

    # ---- the range a registration covers ----
    @property
    def range_pageable(self) -> bool:
        """The range lies in pageable memory the explorer mapped."""
        return self.world.region_containing(self.req.pointer, max(self.req.size, 1)) is not None

    @property
    def _range_allocation(self) -> Allocation | None:
        return self.world.allocation_containing(self.req.pointer, max(self.req.size, 1))

    @property
    def range_in_allocation(self) -> bool:
        """The range lies in one live host allocation."""
        return self._range_allocation is not None

    @property
    def range_va_allocation(self) -> bool:
        """The range lies in an allocation made with VA_FLAG=1."""
        return self._range_allocation is not None and self._range_allocation.va_flag

    def _touching(self) -> tuple[Registration, ...]:
        """Live registrations the range shares a byte with."""
        touched = self._touched
        if touched is _UNSET:
            start, length = self.req.pointer, max(self.req.size, 1)
            touched = self._touched = tuple(r for r in self.world.registrations.values() if r.touches(start, length))
        return touched

    @property
    def range_overlaps_other_device(self) -> bool:
        """The range shares bytes with a registration made on another device."""
        return any(r.device != self.device for r in self._touching())

    @property
    def range_overlaps_unmapped(self) -> bool:
        """The range shares bytes with a registration without a device mapping."""
        return any(not r.mapped for r in self._touching())

    @property
    def range_overlaps_stale(self) -> bool:
        """The range shares bytes with a registration that outlived its freed memory."""
        return any(r.stale for r in self._touching())

    @property
    def range_overlaps_stale_node(self) -> bool:
        """Under the svm v2 driver, the range shares bytes with a registration that outlived its freed memory:
        that driver keeps the node, so a V1 registration of the range is refused. Elsewhere the memory's end
        may take the driver's node with it (HM-PAIR-FREE-REGISTERED allows either answer)."""
        return self.world.product.driver == "v2" and self.range_overlaps_stale

    @property
    def range_registered_exactly(self) -> bool:
        """A live registration (its memory not freed) has exactly this base and size."""
        reg = self.world.registrations.get(self.req.pointer)
        return reg is not None and not reg.stale and reg.size == self.req.size

    def _rounded(self, base: int, size: int) -> int:
        """The end of ``[base, base + size)`` as the svm v2 driver rounds it: whole host pages from the
        pointer, or 2 MiB for memory of a VA_FLAG=1 allocation (devmm_svm.c:3580-3583)."""
        allocation = self.world.allocation_containing(base, max(size, 1))
        grain = UVA_GRAIN if allocation is not None and allocation.va_flag else self.world.product.host_page
        return base + -(-max(size, 1) // grain) * grain

    @property
    def range_in_driver_rounding(self) -> bool:
        """Under the svm v2 driver, the range shares no byte with a live registration of the calling
        thread's device, but one of the two, rounded as the driver rounds it, reaches the other."""
        if self.world.product.driver != "v2":
            return False
        start, end = self.req.pointer, self._rounded(self.req.pointer, self.req.size)
        device = self.device
        for reg in self.world.registrations.values():
            if reg.device != device or reg.touches(start, max(self.req.size, 1)):
                continue
            if start < self._rounded(reg.base, reg.size) and reg.base < end:
                return True
        return False

    @property
    def range_pageable_off_host_page(self) -> bool:
        """Under the svm v2 driver on a host with pages above 4 KiB, the range is pageable memory whose
        start is not aligned to the host page (the driver refuses it; the docs ask for 4 KiB)."""
        product = self.world.product
        return (product.driver == "v2" and product.host_page > DOC_PAGE and self.range_pageable
                and self.req.pointer % product.host_page != 0)

    @property
    def target_held_by_registration(self) -> bool:
        """Under the svm v3 driver, a live registration lies in the allocation the pointer starts: that
        driver refuses to free memory a registration holds."""
        allocation = self._allocation
        if self.world.product.driver != "v3" or allocation is None:
            return False
        return any(not r.stale and allocation.base <= r.base < allocation.base + allocation.size
                   for r in self.world.registrations.values())

    @property
    def range_overlaps_registration(self) -> bool:
        """The range shares bytes with a live registration (its memory not freed) of another base or size."""
        return any(not r.stale and not (r.base == self.req.pointer and r.size == self.req.size)
                   for r in self._touching())

    # ---- registration arguments ----
    def _reserved(self, v1_type: int, v2_bit: int) -> bool:
        if self.req.interface == "aclrtHostRegister":
            return self.req.values.get("type") == v1_type
        flag = integer(self.req.values.get("flag", 0), "flag")
        return bool(flag & v2_bit) and not flag & ~_KNOWN_FLAGS

    @property
    def reserved_readonly(self) -> bool:
        """The register type or V2 flag has the reserved READONLY member or bit (and only known bits)."""
        return self._reserved(acl.ACL_HOST_REGISTER_READONLY, acl.ACL_HOST_REG_READONLY)

    @property
    def reserved_iomemory(self) -> bool:
        """The register type or V2 flag has the reserved IOMEMORY member or bit (and only known bits)."""
        return self._reserved(acl.ACL_HOST_REGISTER_IOMEMORY, acl.ACL_HOST_REG_IOMEMORY)

    @property
    def flag_pinned(self) -> bool:
        """The V2 flag has the PINNED bit."""
        return bool(integer(self.req.values.get("flag", 0), "flag") & acl.ACL_HOST_REG_PINNED)

    @property
    def flag_pinned_only(self) -> bool:
        """The V2 flag is PINNED without MAPPED."""
        return bool(self.req.values.get("flag", 0) == acl.ACL_HOST_REG_PINNED)

    # ---- the pointer a query or unregistration names ----
    @property
    def _registration(self) -> Registration | None:
        reg = self._reg
        if reg is _UNSET:
            reg = self._reg = self.world.registrations.get(self.req.pointer)
        return reg

    @property
    def _registration_containing(self) -> Registration | None:
        found = self._containing
        if found is _UNSET:
            found = self._containing = self.world.registration_containing(self.req.pointer)
        return found

    @property
    def registration_base(self) -> bool:
        """The pointer is the base of a live registration."""
        return self._registration is not None

    @property
    def registration_stale(self) -> bool:
        """The live registration the pointer starts outlived its freed memory."""
        return self._registration is not None and self._registration.stale

    @property
    def registration_interior(self) -> bool:
        """The pointer lies inside a live registration but is not its base."""
        return self._registration is None and self._registration_containing is not None

    @property
    def registration_removed(self) -> bool:
        """The pointer is the base of a removed registration and lies in no live one."""
        return self.req.pointer in self.world.removed and self._registration_containing is None

    @property
    def registration_other_device(self) -> bool:
        """A live registration the pointer touches belongs to another device."""
        return any(r.device != self.device for r in self._touching())

    @property
    def registration_unmapped(self) -> bool:
        """The live registration the pointer starts has no device mapping."""
        return self._registration is not None and not self._registration.mapped

    @property
    def device_pointer_known(self) -> bool:
        """The device address of the registration the pointer starts is known."""
        return self._registration is not None and self._registration.devptr is not None

    # ---- capabilities and streams ----
    @property
    def capability_answered(self) -> bool:
        """The same device and HAC type were asked before."""
        key = (self.req.values.get("deviceId"), self.req.values.get("hacType"))
        return key in self.world.capabilities

    @property
    def _stream(self) -> Stream | None:
        return self.world.streams.get(self.req.stream or "")

    @property
    def stream_blocked(self) -> bool:
        """A host callback still blocks the stream."""
        return self._stream is not None and self._stream.blocked

    @property
    def stream_other_device(self) -> bool:
        """The stream belongs to another device than the calling thread's."""
        return self._stream is not None and self._stream.device != self.device
