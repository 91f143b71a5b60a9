"""Alignment: every successful host allocation is 64-byte aligned."""

from __future__ import annotations

from typing import Any

from acl_hostmem_generated import acl_bindings as acl

from ..harness.context import AclContext
from .memory import ALIGNMENT, alignment_grain, allocate
from .verdicts import holds

# Several allocations of each size stay live at once, so that an allocator that is aligned
# only for its first block (or only for page-sized blocks) is caught.
LIVE_SMALL = 8
LIVE_LARGE = 2
LARGE = 1 << 20


def alloc_alignment(ctx: AclContext, *, api: str, cfg: str, size: int, expect: dict[str, Any] | None) -> None:
    """Each of several live allocations of ``size`` bytes starts on a 64-byte boundary."""
    live = LIVE_LARGE if size > LARGE else LIVE_SMALL
    ptrs = [allocate(ctx, api, size, cfg) for _ in range(live)]
    ctx.observe("grain", alignment_grain(ptrs))
    for index, ptr in enumerate(ptrs):
        holds(ptr % ALIGNMENT == 0,
              f"allocation {index + 1} of {live} ({api}, cfg={cfg}, size={size}) returned {ptr:#x}, "
              f"which is {ptr % ALIGNMENT} bytes past a 64-byte boundary")


def live_alignment(ctx: AclContext, *, api: str, size: int, count: int, expect: dict[str, Any] | None) -> None:
    """``count`` live allocations are each aligned and pairwise disjoint."""
    ptrs = [allocate(ctx, api, size) for _ in range(count)]
    ctx.observe("grain", alignment_grain(ptrs))
    misaligned = [p for p in ptrs if p % ALIGNMENT]
    holds(not misaligned, f"{len(misaligned)} of {count} live allocations are not 64-byte aligned, "
                          f"e.g. {misaligned[:1][0] if misaligned else 0:#x}")
    ordered = sorted(ptrs)
    for low, high in zip(ordered, ordered[1:]):
        holds(low + size <= high,
              f"live allocations overlap: [{low:#x}, {low + size:#x}) and [{high:#x}, {high + size:#x})")


def run_mode_host(ctx: AclContext, *, expect: dict[str, Any] | None) -> None:
    """aclrtGetRunMode answers ACL_HOST where the docs rule out the device run mode."""
    mode = ctx.lib.aclrtGetRunMode()
    holds(mode == acl.ACL_HOST, f"aclrtGetRunMode answered {mode}, expected ACL_HOST ({acl.ACL_HOST}) on "
                                f"{ctx.product.family}, where the docs rule out ACL_DEVICE")
