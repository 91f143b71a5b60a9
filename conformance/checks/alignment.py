"""Alignment: every successful host allocation is 64-byte aligned, and live ones never overlap."""

from __future__ import annotations

from acl_hostmem_generated import acl_bindings as acl
from acl_hostmem_generated.catalog_types import ExpectEntry

from ..harness.context import AclContext
from ..harness.violations import SpecViolation
from .assertions import holds
from .memory import ALIGNMENT, alignment_grain, allocate, allocate_raw, release, sizes_of

# Several allocations of each size stay live at once, so that an allocator that is aligned
# only for its first block (or only for page-sized blocks) is caught.
LIVE_SMALL = 8
LIVE_LARGE = 2
LARGE = 1 << 20


def alloc_alignment(ctx: AclContext, *, api: str, cfg: str, size: int | str, expect: ExpectEntry | None) -> None:
    """Each of several live allocations of ``size`` bytes (or of each sampled size) starts on a 64-byte boundary."""
    grains = []
    for each in sizes_of(ctx, size):
        live = LIVE_LARGE if each > LARGE else LIVE_SMALL
        ptrs = [allocate(ctx, api, each, cfg) for _ in range(live)]
        grains.append(alignment_grain(ptrs))
        for index, ptr in enumerate(ptrs):
            holds(ptr % ALIGNMENT == 0,
                  f"allocation {index + 1} of {live} ({api}, cfg={cfg}, size={each}) returned {ptr:#x}, "
                  f"which is {ptr % ALIGNMENT} bytes past a 64-byte boundary")
        for ptr in ptrs:  # one size class at a time, so that sampled sizes up to 64 MiB stay cheap
            release(ctx, ptr)
    ctx.observe("grain", min(grains))


def config_accepted(ctx: AclContext, *, api: str, cfg: str, size: int, expect: ExpectEntry | None) -> None:
    """The configuration is accepted; the 64-byte alignment of what comes back is HM-ALIGN-MALLOC-CFG's promise."""
    ptrs = []
    for index in range(LIVE_SMALL):
        code, ptr = allocate_raw(ctx, api, size, cfg)
        if code != 0:
            raise SpecViolation(f"allocation {index + 1} of {LIVE_SMALL} ({api}, cfg={cfg}, size={size}) was refused: "
                                f"{code} {acl.error_name(code)}", code=code)
        ptrs.append(ptr)
    ctx.observe("grain", alignment_grain(ptrs))
    with ctx.relying_on("HM-ALIGN-MALLOC-CFG", f"the 64-byte alignment of {api} with cfg={cfg}"):
        misaligned = [p for p in ptrs if p % ALIGNMENT]
        holds(not misaligned, f"{len(misaligned)} of {len(ptrs)} allocations with cfg={cfg} are not 64-byte aligned, "
                              f"e.g. {misaligned[:1][0] if misaligned else 0:#x}")


def live_alignment(ctx: AclContext, *, api: str, size: int, count: int, expect: ExpectEntry | None) -> None:
    """``count`` live allocations are pairwise disjoint (each one's alignment is another rule's promise)."""
    ptrs = [allocate(ctx, api, size) for _ in range(count)]
    ctx.observe("grain", alignment_grain(ptrs))
    promise = "HM-ALIGN-MALLOC" if api == "malloc" else "HM-ALIGN-MALLOC-CFG"
    with ctx.relying_on(promise, f"the 64-byte alignment of {count} live {api} allocations"):
        misaligned = [p for p in ptrs if p % ALIGNMENT]
        holds(not misaligned, f"{len(misaligned)} of {count} live allocations are not 64-byte aligned, "
                              f"e.g. {misaligned[:1][0] if misaligned else 0:#x}")
    ordered = sorted(ptrs)
    for low, high in zip(ordered, ordered[1:]):
        holds(low + size <= high,
              f"live allocations overlap: [{low:#x}, {low + size:#x}) and [{high:#x}, {high + size:#x})")


def run_mode_host(ctx: AclContext, *, expect: ExpectEntry | None) -> None:
    """aclrtGetRunMode answers ACL_HOST where the docs rule out the device run mode."""
    mode = ctx.lib.aclrtGetRunMode()
    holds(mode == acl.ACL_HOST, f"aclrtGetRunMode answered {mode}, expected ACL_HOST ({acl.ACL_HOST}) on "
                                f"{ctx.product.family}, where the docs rule out ACL_DEVICE")
