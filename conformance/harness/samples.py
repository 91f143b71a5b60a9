"""Valid arguments for any of the nine interfaces, built from the spec's parameter samples.

The invalid-argument and product-support checks start from a call that would succeed and
change one thing. The spec says, per parameter, how a valid value is made
(``sample`` in ``spec/interfaces.yaml``); this module makes it, and registers whatever it
allocated with the case context so teardown releases it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from acl_hostmem_generated import acl_bindings as acl
from acl_hostmem_generated.acl_bindings import CData, Out
from acl_hostmem_generated.catalog_types import Sample

from .context import AclContext
from .violations import Blocked

#: An argument of a wrapper: an integer (a size, a flag, an address), a cffi pointer, OUT for an
#: output the wrapper allocates, or None for NULL.
Argument = int | CData | Out | None
#: What a call wrote through its output parameters: addresses and numbers, or handles.
Output = int | CData | None

#: What a tolerant sample may meet on a family that lacks a call: the call's refusal, or the
#: refusal of a set-up step that rests on it.
_REFUSED = (acl.AclError, Blocked)


def _pinned_or_pageable(ctx: AclContext, tolerant: bool) -> int:
    if not tolerant:
        return ctx.pinned_pages(1)
    try:
        return ctx.pinned_pages(1)
    except _REFUSED:
        # The family cannot allocate host memory at all; any page will do for a call that
        # is expected to fail.
        return ctx.pageable_pages(1)


def _registered(ctx: AclContext, tolerant: bool) -> int:
    page = _pinned_or_pageable(ctx, tolerant)
    if not tolerant:
        ctx.register(page, ctx.page, "v1")
        return page
    try:
        ctx.register(page, ctx.page, "v1")
    except _REFUSED:
        pass
    return page


def sample_value(ctx: AclContext, sample: Sample | None, *, tolerant: bool = False) -> Argument:
    """A valid value for one parameter; ``tolerant`` falls back when the family lacks a call."""
    if not sample:
        raise ValueError("the parameter has no sample in the spec")
    # A sample has exactly one kind (the schema's ``sample``): which key it holds decides the value.
    if "value" in sample:
        return sample["value"]
    if "out" in sample:
        return acl.OUT
    if "null_pointer" in sample:
        return None
    if "host_alloc" in sample:
        size = sample["host_alloc"]["size"]
        if tolerant:
            try:
                return ctx.host_alloc(size)
            except _REFUSED:
                return ctx.pageable_pages(1)
        return ctx.host_alloc(size)
    if "pinned_page" in sample:
        return _pinned_or_pageable(ctx, tolerant)
    if "registered_page" in sample:
        return _registered(ctx, tolerant)
    if "current_device" in sample:
        return ctx.device
    if "enum_member" in sample:
        member: object = getattr(acl, sample["enum_member"])
        if not isinstance(member, int):  # codegen check holds enum members to the generated constants
            raise TypeError(f"{sample['enum_member']} is not an enum member")
        return member
    kind = next(iter(sample))
    raise ValueError(f"unknown sample kind {kind!r}")


def valid_arguments(ctx: AclContext, interface: str, *, tolerant: bool = False) -> dict[str, Argument]:
    """Keyword arguments for a call of ``interface`` that should succeed where it is supported."""
    params = ctx.catalog["interfaces"][interface]["params"]
    return {p["name"]: sample_value(ctx, p["sample"], tolerant=tolerant) for p in params}


def call_raw(ctx: AclContext, interface: str, args: Mapping[str, Argument]) -> tuple[int, tuple[Output, ...]]:
    """Call ``interface`` with keyword arguments; returns (code, outputs)."""
    result = getattr(ctx.lib, interface)(**args, raw=True)
    if isinstance(result, tuple):
        return result[0], tuple(result[1:])
    return result, ()


def adopt_result(ctx: AclContext, interface: str, args: Mapping[str, Any], outputs: tuple[Output, ...]) -> None:
    """After a call succeeded, hand what it created (or released) to the context's bookkeeping.

    ``args`` stays untyped: a backend that wrongly accepts a NULL or odd pointer has it handed on to the
    context's bookkeeping as given (which is typed for addresses, ``int``, only).
    """
    block = outputs[0] if outputs else None
    if interface in ("aclrtMallocHost", "aclrtMallocHostWithCfg") and block:
        if not isinstance(block, int):  # a host allocation answers an address
            raise TypeError(f"{interface} answered {block!r}, not an address")
        ctx.track_host(block)
    elif interface in ("aclrtFreeHost", "aclrtFreeHostWithDevSync"):
        ctx.forget_host(args["hostPtr"])
    elif interface in ("aclrtHostRegister", "aclrtHostRegisterV2"):
        ctx.track_registration(args["ptr"])
    elif interface == "aclrtHostUnregister":
        ctx.forget_registration(args["ptr"])
