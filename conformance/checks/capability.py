"""Capability: aclrtHostMemMapCapabilities over every device and HAC type, and against registration."""

from __future__ import annotations

from acl_hostmem_generated import acl_bindings as acl
from acl_hostmem_generated.catalog_types import ExpectEntry

from ..harness.context import AclContext
from .assertions import holds, succeeded

ANSWERS = set(acl.ENUMS["aclrtHostMemMapCapability"].values())
HAC_TYPES = acl.ENUMS["aclrtHacType"]
ANSWER_NAMES = {value: name for name, value in acl.ENUMS["aclrtHostMemMapCapability"].items()}


def _query(ctx: AclContext, device: int, hac: int) -> int:
    """One query; outside HM-CAP-QUERY-ALL's own cases a set-up step resting on its promise."""
    with ctx.relying_on("capability_query", f"aclrtHostMemMapCapabilities(device {device}, HAC type {hac})"):
        code, answer = ctx.lib.aclrtHostMemMapCapabilities(device, hac, raw=True)
        succeeded(code, f"aclrtHostMemMapCapabilities(device {device}, HAC type {hac})")
        holds(answer in ANSWERS, f"device {device}, HAC type {hac}: answer {answer} is not an "
                                 "aclrtHostMemMapCapability")
    return int(answer)


def capability_query(ctx: AclContext, *, hac: str, expect: ExpectEntry | None) -> None:
    """Every device answers SUPPORTED or NOT_SUPPORTED for the HAC type."""
    for device in range(ctx.product.device_count):
        ctx.observe("answer", ANSWER_NAMES[_query(ctx, device, HAC_TYPES[hac])], key=device)


def capability_stable(ctx: AclContext, *, repeats: int, expect: ExpectEntry | None) -> None:
    """The same question gets the same answer every time."""
    for name, hac in HAC_TYPES.items():
        answers = {_query(ctx, ctx.device, hac) for _ in range(repeats)}
        holds(len(answers) == 1, f"{name}: {repeats} identical queries gave the answers {sorted(answers)}")


def _registers_on(ctx: AclContext, device: int, page: int) -> bool:
    """Whether a V1 registration of ``page`` works with ``device`` current (undone at once)."""
    def attempt() -> int:
        code, _dev = ctx.lib.aclrtHostRegister(page, ctx.page, acl.ACL_HOST_REGISTER_MAPPED, raw=True)
        return int(code)

    if ctx.on_device(device, attempt) != 0:
        return False
    ctx.track_registration(page)
    ctx.unregister(page, f"aclrtHostUnregister with device {device} current", device=device)
    return True


def capability_consistent(ctx: AclContext, *, expect: ExpectEntry | None) -> None:
    """On every device: some accelerator reaches registered memory where registration works, none where refused."""
    page = ctx.pinned_pages(1)
    for device in range(ctx.product.device_count):
        works = _registers_on(ctx, device, page)
        ctx.observe("registration", "works" if works else "refused", key=device)
        supported = [name for name, hac in HAC_TYPES.items()
                     if _query(ctx, device, hac) == acl.ACL_RT_HOST_MEM_MAP_SUPPORTED]
        if works:
            holds(bool(supported), f"device {device}: registration works, yet every HAC type reports NOT_SUPPORTED")
        else:
            holds(not supported, f"device {device}: registration is refused, yet {', '.join(supported)} report "
                                 "SUPPORTED for registered memory")
