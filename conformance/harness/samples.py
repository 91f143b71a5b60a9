"""Valid arguments for any of the nine interfaces, built from the spec's parameter samples.

The invalid-argument and product-support checks start from a call that would succeed and
change one thing. The spec says, per parameter, how a valid value is made
(``sample`` in ``spec/interfaces.yaml``); this module makes it, and registers whatever it
allocated with the case context so teardown releases it.
"""

from __future__ import annotations

from typing import Any

from acl_hostmem_generated import acl_bindings as acl

from .context import AclContext
from .violations import Blocked

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


def sample_value(ctx: AclContext, sample: dict[str, Any] | None, *, tolerant: bool = False) -> Any:
    """A valid value for one parameter; ``tolerant`` falls back when the family lacks a call."""
    if not sample:
        raise ValueError("the parameter has no sample in the spec")
    kind, spec = next(iter(sample.items()))
    if kind == "value":
        return spec
    if kind == "out":
        return acl.OUT
    if kind == "null_pointer":
        return None
    if kind == "host_alloc":
        if tolerant:
            try:
                return ctx.host_alloc(spec["size"])
            except _REFUSED:
                return ctx.pageable_pages(1)
        return ctx.host_alloc(spec["size"])
    if kind == "pinned_page":
        return _pinned_or_pageable(ctx, tolerant)
    if kind == "registered_page":
        return _registered(ctx, tolerant)
    if kind == "current_device":
        return ctx.device
    if kind == "enum_member":
        return getattr(acl, spec)
    raise ValueError(f"unknown sample kind {kind!r}")


def valid_arguments(ctx: AclContext, interface: str, *, tolerant: bool = False) -> dict[str, Any]:
    """Keyword arguments for a call of ``interface`` that should succeed where it is supported."""
    params = ctx.catalog["interfaces"][interface]["params"]
    return {p["name"]: sample_value(ctx, p["sample"], tolerant=tolerant) for p in params}


def call_raw(ctx: AclContext, interface: str, args: dict[str, Any]) -> tuple[int, tuple[Any, ...]]:
    """Call ``interface`` with keyword arguments; returns (code, outputs)."""
    result = getattr(ctx.lib, interface)(**args, raw=True)
    if isinstance(result, tuple):
        return result[0], tuple(result[1:])
    return result, ()


def adopt_result(ctx: AclContext, interface: str, args: dict[str, Any], outputs: tuple[Any, ...]) -> None:
    """After a call succeeded, hand what it created (or released) to the context's bookkeeping."""
    if interface in ("aclrtMallocHost", "aclrtMallocHostWithCfg") and outputs and outputs[0]:
        ctx.track_host(outputs[0])
    elif interface in ("aclrtFreeHost", "aclrtFreeHostWithDevSync"):
        ctx.forget_host(args["hostPtr"])
    elif interface in ("aclrtHostRegister", "aclrtHostRegisterV2"):
        ctx.track_registration(args["ptr"])
    elif interface == "aclrtHostUnregister":
        ctx.forget_registration(args["ptr"])
