"""Host-memory helpers shared by the checks: configs, sizes, patterns, reading and writing."""

from __future__ import annotations

import random

from acl_hostmem_generated import acl_bindings as acl

from ..harness.context import AclContext
from ..harness.violations import SpecViolation

ALIGNMENT = 64
#: Sampled sizes come from every power-of-two class [2^k, 2^(k+1)) below 64 MiB.
SAMPLED_CLASSES = 26
SAMPLED = "sampled"


def config_variant(ctx: AclContext, variant: str) -> acl.MallocConfig | None:
    """The aclrtMallocConfig of a named cfg variant of the spec's ``cfg_variants`` matrix."""
    if variant == "null_cfg":
        return None
    if variant == "empty":
        return acl.malloc_config()
    if variant == "module_id":
        return acl.malloc_config((acl.ACL_RT_MEM_ATTR_MODULE_ID, 33))
    if variant == "device_id":
        return acl.malloc_config((acl.ACL_RT_MEM_ATTR_DEVICE_ID, ctx.device))
    if variant == "va_flag_0":
        return acl.malloc_config((acl.ACL_RT_MEM_ATTR_VA_FLAG, 0))
    if variant == "va_flag_1":
        return acl.malloc_config((acl.ACL_RT_MEM_ATTR_VA_FLAG, 1))
    if variant == "module_and_va0":
        return acl.malloc_config((acl.ACL_RT_MEM_ATTR_MODULE_ID, 33), (acl.ACL_RT_MEM_ATTR_VA_FLAG, 0))
    if variant == "module_id_twice":
        return acl.malloc_config((acl.ACL_RT_MEM_ATTR_MODULE_ID, 7), (acl.ACL_RT_MEM_ATTR_MODULE_ID, 33))
    raise ValueError(f"unknown cfg variant {variant!r}")


def allocate_raw(ctx: AclContext, api: str, size: int, cfg: str = "null_cfg") -> tuple[int, int]:
    """(code, pointer) of aclrtMallocHost ("malloc") or aclrtMallocHostWithCfg ("malloc_cfg"); a success is tracked."""
    if api == "malloc":
        code, ptr = ctx.lib.aclrtMallocHost(size, raw=True)
    else:
        config = config_variant(ctx, cfg)
        code, ptr = ctx.lib.aclrtMallocHostWithCfg(size, config.ptr if config is not None else None, raw=True)
    if code == 0:
        ctx.track_host(ptr, size)
    return code, ptr


def allocate(ctx: AclContext, api: str, size: int, cfg: str = "null_cfg") -> int:
    """Allocate with either call, a set-up step resting on the allocation promise (HM-PAIR-MALLOC-FREE).

    A refused allocation BLOCKS a case of another rule; in that rule's own cases it is a violation.
    """
    with ctx.relying_on("allocate", f"{api} of {size} bytes (cfg={cfg})"):
        code, ptr = allocate_raw(ctx, api, size, cfg)
        if code != 0:
            raise SpecViolation(f"{api} of {size} bytes (cfg={cfg}) failed with {code} {acl.error_name(code)}",
                                code=code)
    return ptr


def release(ctx: AclContext, ptr: int) -> None:
    """aclrtFreeHost of a tracked allocation, a set-up step resting on the free promise."""
    with ctx.relying_on("free", f"aclrtFreeHost of {ptr:#x}"):
        code = ctx.lib.aclrtFreeHost(ptr, raw=True)
        if code != 0:
            raise SpecViolation(f"aclrtFreeHost({ptr:#x}) failed with {code} {acl.error_name(code)}", code=code)
    ctx.forget_host(ptr)


def sampled_sizes(seed: int) -> list[int]:
    """One size from every power-of-two class [2^k, 2^(k+1)) below 64 MiB, drawn with the run's seed.

    Fixed matrices test the points people think of (a page, a page and a byte); an allocator
    that fails for a whole class between them is caught only by sizes inside that class.
    """
    draw = random.Random(f"acl-sampled-sizes:{seed}")
    return [draw.randint(1 << k, (1 << (k + 1)) - 1) for k in range(SAMPLED_CLASSES)]


def sizes_of(ctx: AclContext, size: int | str) -> list[int]:
    """The sizes a case runs: its matrix size, or the sampled sizes (recorded as an observation)."""
    if size != SAMPLED:
        return [int(size)]
    sizes = sampled_sizes(ctx.explore_seed)
    for each in sizes:
        ctx.observe("sampled_sizes", each)
    return sizes


def alignment_grain(pointers: list[int], cap: int = 4096) -> int:
    """Largest power of two, at most ``cap``, that divides every pointer (the lowest bit any of them sets)."""
    combined = cap
    for pointer in pointers:
        combined |= pointer
    return combined & -combined


#: seed -> the longest pattern of that seed made so far in this process (see :func:`pattern`).
_PATTERNS: dict[int, bytearray] = {}


def pattern(size: int, seed: int) -> memoryview:
    """A deterministic byte pattern that differs between seeds and along the buffer (read-only).

    A shorter pattern of a seed is a prefix of a longer one, so each seed's pattern is made
    once, at the longest size asked for, and handed out as views of it: the sampled sizes
    reach 64 MiB, and making each afresh was most of a run's page faults.
    """
    made = _PATTERNS.get(seed)
    if made is None or len(made) < size:
        block = bytes((k * 31 + seed * 97 + 1) & 0xFF for k in range(251))
        made = _PATTERNS[seed] = bytearray(block) * (size // len(block) + 1)
    return memoryview(made).toreadonly()[:size]


def write(address: int, data: bytes | memoryview) -> None:
    """Write host memory at ``address``."""
    acl.ffi.memmove(acl.ffi.cast("char *", address), data, len(data))


def read(address: int, size: int) -> bytes:
    """Read ``size`` bytes of host memory at ``address``."""
    return bytes(acl.ffi.buffer(acl.ffi.cast("char *", address), size))


def holds_data(address: int, data: bytes | memoryview) -> bool:
    """Whether host memory at ``address`` holds ``data``: compared in place, without a copy of it."""
    return bool(acl.ffi.buffer(acl.ffi.cast("char *", address), len(data)) == data)


def first_difference(actual: bytes, wanted: bytes | memoryview) -> int:
    """Offset of the first differing byte, or -1."""
    for offset, (a, b) in enumerate(zip(actual, wanted)):
        if a != b:
            return offset
    return -1 if len(actual) == len(wanted) else min(len(actual), len(wanted))
