"""Pairing and lifecycle: allocate/free and register/unregister pairs, and their misuse."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from acl_hostmem_generated import acl_bindings as acl

from ..harness.context import PAGE, AclContext
from ..harness.violations import CallTimeout
from .memory import allocate, pattern, read, write
from .verdicts import failed, holds, succeeded

PAIR_ROUNDS = 3


def _free_call(ctx: AclContext, free: str) -> Any:
    return ctx.lib.aclrtFreeHost if free == "free" else ctx.lib.aclrtFreeHostWithDevSync


def _register_raw(ctx: AclContext, api: str, ptr: int, size: int) -> int:
    """Register with V1 MAPPED or V2 MAPPED; returns the code and tracks a success."""
    if api == "v1":
        code, _dev = ctx.lib.aclrtHostRegister(ptr, size, acl.ACL_HOST_REGISTER_MAPPED, raw=True)
    else:
        code = ctx.lib.aclrtHostRegisterV2(ptr, size, acl.ACL_HOST_REG_MAPPED, raw=True)
    if code == 0:
        ctx.track_registration(ptr)
    return code


def _unregister(ctx: AclContext, ptr: int, what: str) -> None:
    succeeded(ctx.lib.aclrtHostUnregister(ptr, raw=True), what)
    ctx.forget_registration(ptr)


def alloc_free_pair(ctx: AclContext, *, alloc: str, free: str, expect: dict[str, Any] | None) -> None:
    """Memory from either allocation call is released by either free call, repeatedly."""
    release = _free_call(ctx, free)
    for round_ in range(PAIR_ROUNDS):
        ptr = allocate(ctx, alloc, 4096)
        succeeded(release(ptr, raw=True), f"round {round_ + 1}: {release.__name__} of memory from {alloc}")
        ctx.forget_host(ptr)


def double_free(ctx: AclContext, *, free: str, expect: dict[str, Any] | None) -> None:
    """A second free of the same pointer fails."""
    release = _free_call(ctx, free)
    ptr = ctx.host_alloc(4096)
    succeeded(release(ptr, raw=True), f"first {release.__name__}")
    ctx.forget_host(ptr)
    code = release(ptr, raw=True)
    ctx.observe("code", code)
    failed(code, expect, f"second {release.__name__} of the same pointer")


def free_foreign(ctx: AclContext, *, free: str, pointer: str, expect: dict[str, Any] | None) -> None:
    """Free refuses interior, never-allocated and device pointers; the owner stays intact."""
    release = _free_call(ctx, free)
    owner = ctx.host_alloc(8192)
    data = pattern(8192, 3)
    write(owner, data)
    if pointer == "interior":
        target = owner + 64
    elif pointer == "never_allocated":
        target = ctx.pageable_pages(1)
    else:
        target = ctx.device_alloc(4096)
    code = release(target, raw=True)
    ctx.observe("code", code)
    failed(code, expect, f"{release.__name__} of a {pointer.replace('_', ' ')} pointer")
    holds(read(owner, 8192) == data, "the refused free changed the content of a live allocation")
    succeeded(release(owner, raw=True), f"{release.__name__} of the owning allocation afterwards")
    ctx.forget_host(owner)


def register_unregister(ctx: AclContext, *, api: str, expect: dict[str, Any] | None) -> None:
    """Register then unregister succeeds, and the range can be registered again."""
    page = ctx.pinned_pages(1)
    for round_ in range(2):
        succeeded(_register_raw(ctx, api, page, PAGE), f"round {round_ + 1}: {api} registration")
        _unregister(ctx, page, f"round {round_ + 1}: aclrtHostUnregister")
    rounding = _registration_rounding(ctx, api, page)
    if rounding is not None:
        ctx.observe("rounding", rounding)


def _registration_rounding(ctx: AclContext, api: str, page: int) -> str | None:
    """What a registration of the first half of a page covers (an observation, never a verdict).

    ``refused`` when half a page cannot be registered; else ``page`` when a device pointer
    exists for a byte past the requested half, ``exact`` when not. None when the device
    pointer of a byte inside the half is refused too: then the lookup, not the range, decides.
    """
    half = PAGE // 2
    if _register_raw(ctx, api, page, half) != 0:
        return "refused"
    inside, _dev = ctx.lib.aclrtHostGetDevicePointer(page + 64, 0, raw=True)
    beyond, _dev = ctx.lib.aclrtHostGetDevicePointer(page + half + 64, 0, raw=True)
    if ctx.lib.aclrtHostUnregister(page, raw=True) == 0:
        ctx.forget_registration(page)
    if inside != 0:
        return None
    return "page" if beyond == 0 else "exact"


def double_unregister(ctx: AclContext, *, api: str, expect: dict[str, Any] | None) -> None:
    """The second unregister of a pointer reports it as not registered."""
    page = ctx.pinned_pages(1)
    succeeded(_register_raw(ctx, api, page, PAGE), f"{api} registration")
    _unregister(ctx, page, "first aclrtHostUnregister")
    code = ctx.lib.aclrtHostUnregister(page, raw=True)
    ctx.observe("code", code)
    failed(code, expect, "second aclrtHostUnregister")


def unregister_unknown(ctx: AclContext, *, pointer: str, expect: dict[str, Any] | None) -> None:
    """Unregistering a never-registered or interior pointer fails and keeps registrations."""
    base = ctx.pinned_pages(2)
    if pointer == "never_registered":
        code = ctx.lib.aclrtHostUnregister(base, raw=True)
        ctx.observe("code", code)
        failed(code, expect, "aclrtHostUnregister of never-registered memory")
        return
    succeeded(_register_raw(ctx, "v1", base, 2 * PAGE), "registration of two pages")
    code = ctx.lib.aclrtHostUnregister(base + PAGE, raw=True)
    ctx.observe("code", code)
    failed(code, expect, "aclrtHostUnregister of a pointer inside a registered range")
    code, dev = ctx.lib.aclrtHostGetDevicePointer(base, 0, raw=True)
    succeeded(code, "aclrtHostGetDevicePointer after the refused unregister (the registration must survive)")
    _unregister(ctx, base, "aclrtHostUnregister of the base pointer")


def double_register(ctx: AclContext, *, first: str, second: str, expect: dict[str, Any] | None) -> None:
    """Registering a registered range again fails as already registered."""
    page = ctx.pinned_pages(1)
    succeeded(_register_raw(ctx, first, page, PAGE), f"first registration ({first})")
    code = _register_raw(ctx, second, page, PAGE)
    ctx.observe("code", code)
    failed(code, expect, f"second registration ({second}) of the same range")


OVERLAPS = {
    # (offset in pages, length in pages) of the second range; the first covers pages 1-2 of 4.
    "head": (0, 2),
    "tail": (2, 2),
    "inside": (1, 1),
    "around": (0, 4),
}


def overlap_register(ctx: AclContext, *, overlap: str, expect: dict[str, Any] | None) -> None:
    """A range sharing pages with a registered one cannot be registered; the first survives."""
    block = ctx.pinned_pages(4)
    first = block + PAGE
    succeeded(_register_raw(ctx, "v1", first, 2 * PAGE), "registration of pages 1-2")
    offset, length = OVERLAPS[overlap]
    code = _register_raw(ctx, "v1", block + offset * PAGE, length * PAGE)
    ctx.observe("code", code)
    failed(code, expect, f"registration of an overlapping range ({overlap})")
    code, _dev = ctx.lib.aclrtHostGetDevicePointer(first, 0, raw=True)
    succeeded(code, "aclrtHostGetDevicePointer of the first range after the refused overlap")


def devptr_after_unregister(ctx: AclContext, *, api: str, expect: dict[str, Any] | None) -> None:
    """No device pointer for a range after it was unregistered."""
    page = ctx.pinned_pages(1)
    succeeded(_register_raw(ctx, api, page, PAGE), f"{api} registration")
    _unregister(ctx, page, "aclrtHostUnregister")
    code, _dev = ctx.lib.aclrtHostGetDevicePointer(page, 0, raw=True)
    ctx.observe("code", code)
    failed(code, expect, "aclrtHostGetDevicePointer after unregister")


V2_FLAGS = {"pinned": acl.ACL_HOST_REG_PINNED, "pinned_mapped": acl.ACL_HOST_REG_PINNED | acl.ACL_HOST_REG_MAPPED}


def v2_pinned_on_pinned(ctx: AclContext, *, flag: str, expect: dict[str, Any] | None) -> None:
    """PINNED is refused for memory that aclrtMallocHost already page-locked."""
    page = ctx.pinned_pages(1)
    code = ctx.lib.aclrtHostRegisterV2(page, PAGE, V2_FLAGS[flag], raw=True)
    if code == 0:
        ctx.track_registration(page)
    ctx.observe("code", code)
    failed(code, expect, f"aclrtHostRegisterV2({flag}) of aclrtMallocHost memory")


def v2_pinned_no_mapped(ctx: AclContext, *, flag: str, expect: dict[str, Any] | None) -> None:
    """PINNED alone gives no device pointer; PINNED|MAPPED does."""
    page = ctx.pageable_pages(1)
    code = ctx.lib.aclrtHostRegisterV2(page, PAGE, V2_FLAGS[flag], raw=True)
    succeeded(code, f"aclrtHostRegisterV2({flag}) of pageable memory")
    ctx.track_registration(page)
    code, dev = ctx.lib.aclrtHostGetDevicePointer(page, 0, raw=True)
    if flag == "pinned":
        ctx.observe("code", code)
        failed(code, expect, "aclrtHostGetDevicePointer of memory registered PINNED without MAPPED")
    else:
        succeeded(code, "aclrtHostGetDevicePointer of memory registered PINNED|MAPPED")
        holds(dev != 0, "aclrtHostGetDevicePointer returned NULL for a mapped registration")
    _unregister(ctx, page, "aclrtHostUnregister")


def concurrent_register(ctx: AclContext, *, threads: int, rounds: int, expect: dict[str, Any] | None) -> None:
    """Threads racing to register one range: exactly one wins, the rest are refused."""
    for round_ in range(rounds):
        page = ctx.pinned_pages(1)
        barrier = threading.Barrier(threads)

        def contender(page: int = page, barrier: threading.Barrier = barrier) -> int:
            barrier.wait(ctx.timeout)
            return ctx.lib.aclrtHostRegisterV2(page, PAGE, acl.ACL_HOST_REG_MAPPED, raw=True)

        calls = [ctx.start(contender, name=f"register-{i}") for i in range(threads)]
        codes = []
        for call in calls:
            if not call.wait(ctx.timeout):
                raise CallTimeout(f"round {round_ + 1}: a racing registration did not return")
            codes.append(call.value())
        winners = codes.count(0)
        if winners:
            ctx.track_registration(page)
        holds(winners == 1, f"round {round_ + 1}: {winners} of {threads} racing registrations succeeded, codes {codes}")
        for code in codes:
            if code != 0:
                ctx.observe("codes", code)
                failed(code, expect, f"round {round_ + 1}: a losing racing registration")
        _unregister(ctx, page, f"round {round_ + 1}: aclrtHostUnregister")


EXHAUSTION_CAP = 1 << 30


def exhaustion(ctx: AclContext, *, chunk: int, expect: dict[str, Any] | None) -> None:
    """Allocating to exhaustion fails cleanly, and memory is usable again after frees."""
    held: list[int] = []
    code = 0
    while len(held) * chunk < EXHAUSTION_CAP:
        code, ptr = ctx.lib.aclrtMallocHost(chunk, raw=True)
        if code != 0:
            break
        ctx.track_host(ptr)
        held.append(ptr)
    if code == 0:
        pytest.skip(f"NOT_APPLICABLE: the backend allowed {EXHAUSTION_CAP >> 20} MiB of page-locked memory "
                    "without running out; exhaustion cannot be reached safely")
    ctx.observe("code", code)
    failed(code, expect, f"aclrtMallocHost past exhaustion (after {len(held)} x {chunk >> 20} MiB)")
    for ptr in held:
        succeeded(ctx.lib.aclrtFreeHost(ptr, raw=True), "aclrtFreeHost while recovering from exhaustion")
        ctx.forget_host(ptr)
    code, ptr = ctx.lib.aclrtMallocHost(chunk, raw=True)
    if code == 0:
        ctx.track_host(ptr)
    succeeded(code, f"aclrtMallocHost of {chunk >> 20} MiB after freeing everything")


RESERVED = {
    ("v1", "iomemory"): acl.ACL_HOST_REGISTER_IOMEMORY,
    ("v1", "readonly"): acl.ACL_HOST_REGISTER_READONLY,
    ("v2", "iomemory"): acl.ACL_HOST_REG_IOMEMORY,
    ("v2", "readonly"): acl.ACL_HOST_REG_READONLY,
}


def reserved_register_types(ctx: AclContext, *, api: str, option: str, expect: dict[str, Any] | None) -> None:
    """The reserved IOMEMORY and READONLY options are refused."""
    page = ctx.pinned_pages(1)
    value = RESERVED[(api, option)]
    if api == "v1":
        code, _dev = ctx.lib.aclrtHostRegister(page, PAGE, value, raw=True)
    else:
        code = ctx.lib.aclrtHostRegisterV2(page, PAGE, value, raw=True)
    if code == 0:
        ctx.track_registration(page)
    ctx.observe("code", code)
    failed(code, expect, f"{api} registration with the reserved {option} option")


def register_pageable(ctx: AclContext, *, api: str, expect: dict[str, Any] | None) -> None:
    """Pageable memory registers and unregisters on kernels newer than 5.10."""
    page = ctx.pageable_pages(1)
    succeeded(_register_raw(ctx, api, page, PAGE), f"{api} registration of pageable (mmap) memory")
    _unregister(ctx, page, "aclrtHostUnregister of pageable memory")


def register_pageable_legacy(ctx: AclContext, *, api: str, expect: dict[str, Any] | None) -> None:
    """On kernels up to 5.10 pageable memory is refused and aclrtMallocHost memory accepted."""
    page = ctx.pageable_pages(1)
    code = _register_raw(ctx, api, page, PAGE)
    ctx.observe("code", code)
    failed(code, expect, f"{api} registration of pageable memory on a 5.10 kernel")
    pinned = ctx.pinned_pages(1)
    succeeded(_register_raw(ctx, api, pinned, PAGE), f"{api} registration of aclrtMallocHost memory")
    _unregister(ctx, pinned, "aclrtHostUnregister")
