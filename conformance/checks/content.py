"""Content: full-range access, aclrtMemset initialisation, and content nobody else may change."""

from __future__ import annotations

from acl_hostmem_generated.catalog_types import ExpectEntry

from ..harness.context import AclContext
from ..harness.violations import SpecViolation
from .assertions import succeeded
from .memory import allocate, first_difference, holds_data, pattern, read, release, sizes_of, write

NEIGHBOURS = 3
#: Above this size two neighbours are enough: writing and reading back 64 MiB three times
#: costs more than it finds.
NEIGHBOURS_LARGE = 2
LARGE = 1 << 20


def _same(address: int, wanted: bytes | memoryview, what: str) -> None:
    if holds_data(address, wanted):
        return
    actual = read(address, len(wanted))
    offset = first_difference(actual, wanted)
    if offset >= 0:
        raise SpecViolation(f"{what}: byte {offset} of {len(wanted)} at {address:#x} is {actual[offset]:#04x}, "
                            f"expected {wanted[offset]:#04x}")


def _disjoint(ctx: AclContext, blocks: list[tuple[int, int]]) -> None:
    """The live allocations ``(address, size)`` do not overlap; overlapping ones are this rule's failure,
    or HM-ALIGN-LIVE's deviation when that rule fails on its own too (the same symptom)."""
    ordered = sorted(blocks)
    for (a, n), (b, _m) in zip(ordered, ordered[1:]):
        if a + n > b:
            ctx.may_rest_on("HM-ALIGN-LIVE")
            raise SpecViolation(f"the live allocations [{a:#x}, +{n}) and [{b:#x}, ...) overlap")


def full_range_rw(ctx: AclContext, *, api: str, size: int | str, expect: ExpectEntry | None) -> None:
    """Every byte of several neighbouring allocations (of each sampled size) reads back what was written to it."""
    for each in sizes_of(ctx, size):
        count = NEIGHBOURS_LARGE if each > LARGE else NEIGHBOURS
        buffers = [(allocate(ctx, api, each), pattern(each, seed)) for seed in range(count)]
        _disjoint(ctx, [(address, each) for address, _data in buffers])
        for address, data in buffers:
            write(address, data)
        for index, (address, data) in enumerate(buffers):
            _same(address, data, f"allocation {index + 1} of {count} ({api}, size={each}) after writing all")
        for address, _data in buffers:
            release(ctx, address)


def memset_init(ctx: AclContext, *, size: int, value: int, expect: ExpectEntry | None) -> None:
    """After aclrtMemset(value) every byte of the allocation holds ``value``."""
    address = ctx.host_alloc(size)
    write(address, bytes([value ^ 0xFF]) * size)  # make sure memset has something to change
    succeeded(ctx.lib.aclrtMemset(address, size, value, size, raw=True), f"aclrtMemset({size} bytes, {value})")
    _same(address, bytes([value]) * size, f"aclrtMemset of {size} bytes to {value}")


def register_preserves(ctx: AclContext, *, api: str, pages: int, expect: ExpectEntry | None) -> None:
    """Register, get-device-pointer and unregister leave every host byte as it was."""
    size = pages * ctx.page
    address = ctx.pinned_pages(pages)
    data = pattern(size, 7)
    write(address, data)
    ctx.register(address, size, "v1" if api == "v1" else "v2")
    _same(address, data, f"after {api} registration")
    ctx.device_pointer(address)
    _same(address, data, "after aclrtHostGetDevicePointer")
    ctx.unregister(address)
    _same(address, data, "after aclrtHostUnregister")


def free_isolation(ctx: AclContext, *, free: str, size: int, expect: ExpectEntry | None) -> None:
    """Freeing every other allocation leaves the survivors' content unchanged."""
    count = 8
    buffers = [(ctx.host_alloc(size), pattern(size, seed)) for seed in range(count)]
    _disjoint(ctx, [(address, size) for address, _data in buffers])
    for address, data in buffers:
        write(address, data)
    release_call = ctx.lib.aclrtFreeHost if free == "free" else ctx.lib.aclrtFreeHostWithDevSync
    for address, _ in buffers[::2]:
        with ctx.relying_on("free", f"{release_call.__name__}({address:#x})"):
            succeeded(release_call(address, raw=True), f"{release_call.__name__}({address:#x})")
        ctx.forget_host(address)
    for address, data in buffers[1::2]:
        _same(address, data, f"survivor of {release_call.__name__} on its neighbours")
    # New allocations may reuse the freed space; they must not disturb the survivors either.
    reused = [ctx.host_alloc(size) for _ in range(count // 2)]
    _disjoint(ctx, [(address, size) for address in reused + [a for a, _d in buffers[1::2]]])
    for address in reused:
        write(address, b"\xee" * size)
    for address, data in buffers[1::2]:
        _same(address, data, "survivor after the freed space was reused")
