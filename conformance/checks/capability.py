"""Capability: aclrtHostMemMapCapabilities over every device and HAC type."""

from __future__ import annotations

from typing import Any

from acl_hostmem_generated import acl_bindings as acl

from ..harness.context import PAGE, AclContext
from .verdicts import holds, succeeded

ANSWERS = set(acl.ENUMS["aclrtHostMemMapCapability"].values())
HAC_TYPES = acl.ENUMS["aclrtHacType"]
ANSWER_NAMES = {value: name for name, value in acl.ENUMS["aclrtHostMemMapCapability"].items()}


def _query(ctx: AclContext, device: int, hac: int) -> int:
    code, answer = ctx.lib.aclrtHostMemMapCapabilities(device, hac, raw=True)
    succeeded(code, f"aclrtHostMemMapCapabilities(device {device}, HAC type {hac})")
    holds(answer in ANSWERS, f"device {device}, HAC type {hac}: answer {answer} is not an aclrtHostMemMapCapability")
    return answer


def capability_query(ctx: AclContext, *, hac: str, expect: dict[str, Any] | None) -> None:
    """Every device answers SUPPORTED or NOT_SUPPORTED for the HAC type."""
    for device in range(ctx.product.device_count):
        ctx.observe("answer", ANSWER_NAMES[_query(ctx, device, HAC_TYPES[hac])], key=device)


def capability_stable(ctx: AclContext, *, repeats: int, expect: dict[str, Any] | None) -> None:
    """The same question gets the same answer every time."""
    for name, hac in HAC_TYPES.items():
        answers = {_query(ctx, ctx.device, hac) for _ in range(repeats)}
        holds(len(answers) == 1, f"{name}: {repeats} identical queries gave the answers {sorted(answers)}")


def capability_consistent(ctx: AclContext, *, expect: dict[str, Any] | None) -> None:
    """Where registration works, some accelerator can access registered memory."""
    page = ctx.pinned_pages(1)
    ctx.register(page, PAGE, "v1")
    supported = [name for name, hac in HAC_TYPES.items()
                 if _query(ctx, ctx.device, hac) == acl.ACL_RT_HOST_MEM_MAP_SUPPORTED]
    holds(bool(supported), "registration works, yet every HAC type reports NOT_SUPPORTED")
