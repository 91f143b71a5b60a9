"""Pairing and lifecycle: allocate/free and register/unregister pairs, and their misuse.

Each check asserts only its own rule's promise. The allocations, registrations and
unregistrations its set-up needs rest on other rules' promises (the spec's
``setup_promises``) and run under :meth:`AclContext.relying_on`, so a backend that breaks
one of those shows as that rule failing and this case BLOCKED by it.
"""

from __future__ import annotations

import faulthandler
import os
import signal
import threading
import time
from typing import Literal, Protocol

from _pytest.outcomes import skip  # pytest.skip, without importing pytest into the executor

from acl_hostmem_generated import acl_bindings as acl
from acl_hostmem_generated.catalog_types import ExpectEntry

from ..harness.context import DOC_PAGE, AclContext
from ..harness.violations import CallTimeout, SpecViolation
from .assertions import describe, failed, holds, succeeded
from .memory import allocate, holds_data, pattern, release, write

PAIR_ROUNDS = 3
ALREADY_REGISTERED = acl.ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED


class _FreeCall(Protocol):
    """aclrtFreeHost or aclrtFreeHostWithDevSync of the case's library, called raw."""

    __name__: str

    def __call__(self, ptr: int, /, *, raw: Literal[True]) -> int: ...


def _free_call(ctx: AclContext, free: str) -> _FreeCall:
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


def _set_up_registration(ctx: AclContext, api: str, ptr: int, size: int, what: str) -> None:
    """A registration the case builds on (the register promise): its failure BLOCKS the case."""
    with ctx.relying_on("register", what):
        succeeded(_register_raw(ctx, api, ptr, size), what)


def _unregister(ctx: AclContext, ptr: int, what: str) -> None:
    """An unregistration the case itself judges."""
    succeeded(ctx.lib.aclrtHostUnregister(ptr, raw=True), what)
    ctx.forget_registration(ptr)


def alloc_free_pair(ctx: AclContext, *, alloc: str, free: str, expect: ExpectEntry | None) -> None:
    """Memory from either allocation call is released by either free call, repeatedly."""
    release_call = _free_call(ctx, free)
    for round_ in range(PAIR_ROUNDS):
        ptr = allocate(ctx, alloc, 4096)
        succeeded(release_call(ptr, raw=True), f"round {round_ + 1}: {release_call.__name__} of memory from {alloc}")
        ctx.forget_host(ptr)


def double_free(ctx: AclContext, *, free: str, expect: ExpectEntry | None) -> None:
    """A second free of the same pointer fails."""
    release_call = _free_call(ctx, free)
    ptr = ctx.host_alloc(4096)
    with ctx.relying_on("free", f"the first {release_call.__name__}"):
        succeeded(release_call(ptr, raw=True), f"first {release_call.__name__}")
    ctx.forget_host(ptr)
    code = release_call(ptr, raw=True)
    ctx.observe("code", code)
    failed(ctx, code, expect, f"second {release_call.__name__} of the same pointer")


def free_foreign(ctx: AclContext, *, free: str, pointer: str, expect: ExpectEntry | None) -> None:
    """Free refuses interior and never-allocated host pointers; the owner stays intact."""
    release_call = _free_call(ctx, free)
    owner = ctx.host_alloc(8192)
    data = pattern(8192, 3)
    write(owner, data)
    target = owner + 64 if pointer == "interior" else ctx.pageable_pages(1)
    code = release_call(target, raw=True)
    ctx.observe("code", code)
    holds(holds_data(owner, data), f"the {release_call.__name__} of a {pointer.replace('_', ' ')} pointer changed "
                                     "the content of a live allocation")
    with ctx.relying_on("free", f"{release_call.__name__} of the owning allocation afterwards"):
        succeeded(release_call(owner, raw=True), f"{release_call.__name__} of the owning allocation afterwards")
    ctx.forget_host(owner)
    failed(ctx, code, expect, f"{release_call.__name__} of a {pointer.replace('_', ' ')} pointer")


def free_device_memory(ctx: AclContext, *, free: str, expect: ExpectEntry | None) -> None:
    """The host free calls refuse device memory and leave it allocated."""
    release_call = _free_call(ctx, free)
    target = ctx.device_alloc(4096)
    code = release_call(target, raw=True)
    if code == 0:
        ctx.forget_device(target)
    failed(ctx, code, expect, f"{release_call.__name__} of device memory from aclrtMalloc")
    succeeded(ctx.lib.aclrtFree(target, raw=True), "aclrtFree of the device memory after the refused host free")
    ctx.forget_device(target)


def register_unregister(ctx: AclContext, *, api: str, expect: ExpectEntry | None) -> None:
    """Register then unregister succeeds, and the range can be registered again."""
    page = ctx.pinned_pages(1)
    for round_ in range(2):
        succeeded(_register_raw(ctx, api, page, ctx.page), f"round {round_ + 1}: {api} registration")
        _unregister(ctx, page, f"round {round_ + 1}: aclrtHostUnregister")
    ctx.observe("rounding", _registration_rounding(ctx, api, page))


def _registration_rounding(ctx: AclContext, api: str, page: int) -> str:
    """What a registration of the first half of a page covers (an observation, never a verdict).

    ``refused`` when half a page cannot be registered; else ``page`` when a device pointer
    exists for a byte past the requested half, ``exact`` when not; ``base_only`` when the
    device pointer of a byte inside the half is refused too: the lookup matches registrations
    by their base (as the runtime's own registry does), so the covered range cannot be seen.
    """
    half = ctx.page // 2
    if _register_raw(ctx, api, page, half) != 0:
        return "refused"
    inside, _dev = ctx.lib.aclrtHostGetDevicePointer(page + 64, 0, raw=True)
    beyond, _dev = ctx.lib.aclrtHostGetDevicePointer(page + half + 64, 0, raw=True)
    if ctx.lib.aclrtHostUnregister(page, raw=True) == 0:
        ctx.forget_registration(page)
    if inside != 0:
        return "base_only"
    return "page" if beyond == 0 else "exact"


def double_unregister(ctx: AclContext, *, api: str, expect: ExpectEntry | None) -> None:
    """The second unregister of a pointer reports it as not registered."""
    page = ctx.pinned_pages(1)
    _set_up_registration(ctx, api, page, ctx.page, f"{api} registration")
    ctx.unregister(page, "the first aclrtHostUnregister")
    code = ctx.lib.aclrtHostUnregister(page, raw=True)
    ctx.observe("code", code)
    failed(ctx, code, expect, "second aclrtHostUnregister")


def unregister_unknown(ctx: AclContext, *, pointer: str, expect: ExpectEntry | None) -> None:
    """Unregistering a never-registered or interior pointer fails and keeps registrations."""
    base = ctx.pinned_pages(2)
    if pointer == "never_registered":
        code = ctx.lib.aclrtHostUnregister(base, raw=True)
        ctx.observe("code", code)
        failed(ctx, code, expect, "aclrtHostUnregister of never-registered memory")
        return
    _set_up_registration(ctx, "v1", base, 2 * ctx.page, "registration of two pages")
    code = ctx.lib.aclrtHostUnregister(base + ctx.page, raw=True)
    ctx.observe("code", code)
    if code == 0 and ctx.lib.aclrtHostGetDevicePointer(base, 0, raw=True)[0] != 0:
        ctx.forget_registration(base)  # the interior call took the whole registration with it
    failed(ctx, code, expect, "aclrtHostUnregister of a pointer inside a registered range")
    code, _dev = ctx.lib.aclrtHostGetDevicePointer(base, 0, raw=True)
    succeeded(code, "aclrtHostGetDevicePointer after the refused unregister (the registration must survive)")
    ctx.unregister(base, "aclrtHostUnregister of the base pointer")


def double_register(ctx: AclContext, *, first: str, second: str, expect: ExpectEntry | None) -> None:
    """Registering a registered range again fails (with the code the rule names, if any)."""
    page = ctx.pinned_pages(1)
    _set_up_registration(ctx, first, page, ctx.page, f"first registration ({first})")
    code = _register_raw(ctx, second, page, ctx.page)
    ctx.observe("code", code)
    failed(ctx, code, expect, f"second registration ({second}) of the same range")


def double_register_code(ctx: AclContext, *, first: str, expect: ExpectEntry | None) -> None:
    """A repeated aclrtHostRegister answers ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED (docs' side of the conflict)."""
    page = ctx.pinned_pages(1)
    _set_up_registration(ctx, first, page, ctx.page, f"first registration ({first})")
    code = _register_raw(ctx, "v1", page, ctx.page)
    ctx.observe("code", code)
    with ctx.relying_on("HM-PAIR-DOUBLE-REGISTER-V1", "the second aclrtHostRegister of the range must fail"):
        holds(code != 0, "the second aclrtHostRegister of the same range succeeded")
    holds(code == ALREADY_REGISTERED, f"the second aclrtHostRegister failed with {describe(code)}, not "
                                      f"{describe(ALREADY_REGISTERED)} as the error list names it")


OVERLAPS = {
    # (offset in pages, length in pages) of the second range; the first covers pages 1-2 of 4.
    "head": (0, 2),
    "tail": (2, 2),
    "inside": (1, 1),
    "around": (0, 4),
}


def overlap_register(ctx: AclContext, *, overlap: str, expect: ExpectEntry | None) -> None:
    """A V2 range sharing pages with a registered one cannot be registered; the first survives."""
    page = ctx.page
    block = ctx.pinned_pages(4)
    first = block + page
    _set_up_registration(ctx, "v1", first, 2 * page, "registration of pages 1-2")
    offset, length = OVERLAPS[overlap]
    code = _register_raw(ctx, "v2_mapped", block + offset * page, length * page)
    ctx.observe("code", code)
    failed(ctx, code, expect, f"aclrtHostRegisterV2 of an overlapping range ({overlap})")
    code, _dev = ctx.lib.aclrtHostGetDevicePointer(first, 0, raw=True)
    succeeded(code, "aclrtHostGetDevicePointer of the first range after the refused overlap")


V1_OVERLAPS = {
    # (offset in pages, length in pages) of the V1 range; the first covers pages 1-2 of 4, so each
    # starts inside it, past its base: the case a check of the base pointer alone lets through.
    "interior": (2, 1),
    "tail": (2, 2),
}


def overlap_register_v1(ctx: AclContext, *, first: str, overlap: str, expect: ExpectEntry | None) -> None:
    """aclrtHostRegister of a range starting inside a registered one fails, whatever its code."""
    page = ctx.page
    block = ctx.pinned_pages(4)
    _set_up_registration(ctx, first, block + page, 2 * page, f"registration of pages 1-2 ({first})")
    offset, length = V1_OVERLAPS[overlap]
    code = _register_raw(ctx, "v1", block + offset * page, length * page)
    ctx.observe("code", code)
    failed(ctx, code, expect, f"aclrtHostRegister of a range starting inside a registered one ({overlap})")


REFUSED_FLAGS = {"iomemory": acl.ACL_HOST_REG_IOMEMORY, "readonly": acl.ACL_HOST_REG_READONLY}


def refused_leaves_no_record(ctx: AclContext, *, flag: str, expect: ExpectEntry | None) -> None:
    """After the driver refused a registration, unregistering its pointer fails as not registered."""
    page = ctx.pinned_pages(1)
    code = ctx.lib.aclrtHostRegisterV2(page, ctx.page, REFUSED_FLAGS[flag], raw=True)
    ctx.observe("register_code", code)
    if code == 0:
        ctx.track_registration(page)
        skip(f"NOT_APPLICABLE: aclrtHostRegisterV2({flag.upper()}) of aclrtMallocHost memory registered, so "
             "there is no refused registration to look for (nothing promises the refusal)")
    code = ctx.lib.aclrtHostUnregister(page, raw=True)
    if code == 0:
        ctx.forget_registration(page)
        ctx.may_rest_on("HM-PAIR-UNREG-UNKNOWN")  # the same symptom where any unknown pointer unregisters
    ctx.observe("code", code)
    failed(ctx, code, expect, f"aclrtHostUnregister after aclrtHostRegisterV2({flag.upper()}) was refused")


def devptr_after_unregister(ctx: AclContext, *, api: str, expect: ExpectEntry | None) -> None:
    """No device pointer for a range after it was unregistered."""
    page = ctx.pinned_pages(1)
    _set_up_registration(ctx, api, page, ctx.page, f"{api} registration")
    ctx.unregister(page)
    code, _dev = ctx.lib.aclrtHostGetDevicePointer(page, 0, raw=True)
    ctx.observe("code", code)
    failed(ctx, code, expect, "aclrtHostGetDevicePointer after unregister")


V2_FLAGS = {"pinned": acl.ACL_HOST_REG_PINNED, "pinned_mapped": acl.ACL_HOST_REG_PINNED | acl.ACL_HOST_REG_MAPPED}


def v2_pinned_on_pinned(ctx: AclContext, *, flag: str, expect: ExpectEntry | None) -> None:
    """PINNED is refused for memory that aclrtMallocHost already page-locked."""
    page = ctx.pinned_pages(1)
    code = ctx.lib.aclrtHostRegisterV2(page, ctx.page, V2_FLAGS[flag], raw=True)
    if code == 0:
        ctx.track_registration(page)
    ctx.observe("code", code)
    failed(ctx, code, expect, f"aclrtHostRegisterV2({flag}) of aclrtMallocHost memory")


def _pin_pageable(ctx: AclContext, page: int, what: str) -> None:
    """A PINNED-only registration the case builds on (the register_pinned promise)."""
    with ctx.relying_on("register_pinned", what):
        succeeded(ctx.lib.aclrtHostRegisterV2(page, ctx.page, acl.ACL_HOST_REG_PINNED, raw=True), what)
    ctx.track_registration(page)


def v2_pinned_device_pointer(ctx: AclContext, *, flag: str, expect: ExpectEntry | None) -> None:
    """PINNED alone gives no device pointer; PINNED|MAPPED does."""
    page = ctx.pageable_pages(1)
    if flag == "pinned":
        _pin_pageable(ctx, page, "aclrtHostRegisterV2(PINNED) of pageable memory")
        code, _dev = ctx.lib.aclrtHostGetDevicePointer(page, 0, raw=True)
        ctx.observe("code", code)
        failed(ctx, code, expect, "aclrtHostGetDevicePointer of memory registered PINNED without MAPPED")
        with ctx.relying_on("register_pinned", "aclrtHostUnregister of the PINNED-only registration"):
            _unregister(ctx, page, "aclrtHostUnregister")
        return
    code = ctx.lib.aclrtHostRegisterV2(page, ctx.page, V2_FLAGS[flag], raw=True)
    if code != 0:  # a refusal may be HM-REG-PAGEABLE's deviation (pageable memory refused at all)
        ctx.may_rest_on("register_pageable")
    succeeded(code, f"aclrtHostRegisterV2({flag}) of pageable memory")
    ctx.track_registration(page)
    code, dev = ctx.lib.aclrtHostGetDevicePointer(page, 0, raw=True)
    succeeded(code, "aclrtHostGetDevicePointer of memory registered PINNED|MAPPED")
    holds(dev != 0, "aclrtHostGetDevicePointer returned NULL for a mapped registration")
    ctx.unregister(page)


def concurrent_register(ctx: AclContext, *, threads: int, rounds: int, expect: ExpectEntry | None) -> None:
    """Threads racing to register one range: exactly one wins, the rest are refused."""
    for round_ in range(rounds):
        page = ctx.pinned_pages(1)
        barrier = threading.Barrier(threads)

        def contender(page: int = page, barrier: threading.Barrier = barrier) -> int:
            barrier.wait(ctx.timeout)
            return ctx.lib.aclrtHostRegisterV2(page, ctx.page, acl.ACL_HOST_REG_MAPPED, raw=True)

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
        ctx.unregister(page, f"round {round_ + 1}: aclrtHostUnregister")


EXHAUSTION_CAP = 1 << 30


def exhaustion(ctx: AclContext, *, chunk: int, expect: ExpectEntry | None) -> None:
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
        skip(f"NOT_APPLICABLE: the backend allowed {EXHAUSTION_CAP >> 20} MiB of page-locked memory "
                    "without running out; exhaustion cannot be reached safely")
    ctx.observe("code", code)
    failed(ctx, code, expect, f"aclrtMallocHost past exhaustion (after {len(held)} x {chunk >> 20} MiB)")
    for ptr in held:
        release(ctx, ptr)
    code, ptr = ctx.lib.aclrtMallocHost(chunk, raw=True)
    if code == 0:
        ctx.track_host(ptr)
    succeeded(code, f"aclrtMallocHost of {chunk >> 20} MiB after freeing everything")


RESERVED = {
    "v1_readonly": ("v1", acl.ACL_HOST_REGISTER_READONLY),
    "v1_iomemory": ("v1", acl.ACL_HOST_REGISTER_IOMEMORY),
    "v2_readonly": ("v2", acl.ACL_HOST_REG_READONLY),
    "v2_iomemory": ("v2", acl.ACL_HOST_REG_IOMEMORY),
    "v2_mapped_readonly": ("v2", acl.ACL_HOST_REG_MAPPED | acl.ACL_HOST_REG_READONLY),
    "v2_mapped_iomemory": ("v2", acl.ACL_HOST_REG_MAPPED | acl.ACL_HOST_REG_IOMEMORY),
}


def reserved_register_types(ctx: AclContext, *, option: str, expect: ExpectEntry | None) -> None:
    """The reserved IOMEMORY and READONLY options, alone or with MAPPED, are refused."""
    page = ctx.pinned_pages(1)
    api, value = RESERVED[option]
    if api == "v1":
        code, _dev = ctx.lib.aclrtHostRegister(page, ctx.page, value, raw=True)
    else:
        code = ctx.lib.aclrtHostRegisterV2(page, ctx.page, value, raw=True)
    if code == 0:
        ctx.track_registration(page)
    ctx.observe("code", code)
    failed(ctx, code, expect, f"registration with the reserved option {option}")


def register_pageable(ctx: AclContext, *, api: str, expect: ExpectEntry | None) -> None:
    """Pageable memory registers and unregisters on kernels newer than 5.10."""
    page = ctx.pageable_pages(1)
    succeeded(_register_raw(ctx, api, page, ctx.page), f"{api} registration of pageable (mmap) memory")
    ctx.unregister(page, "aclrtHostUnregister of pageable memory")


def register_pageable_legacy(ctx: AclContext, *, api: str, expect: ExpectEntry | None) -> None:
    """On kernels up to 5.10 pageable memory is refused and aclrtMallocHost memory accepted."""
    page = ctx.pageable_pages(1)
    code = _register_raw(ctx, api, page, ctx.page)
    ctx.observe("code", code)
    failed(ctx, code, expect, f"{api} registration of pageable memory on a 5.10 kernel")
    pinned = ctx.pinned_pages(1)
    succeeded(_register_raw(ctx, api, pinned, ctx.page), f"{api} registration of aclrtMallocHost memory")
    ctx.unregister(pinned)


def register_pageable_doc_aligned(ctx: AclContext, *, api: str, expect: ExpectEntry | None) -> None:
    """Pageable memory 4 KiB but not host-page aligned registers (the docs ask only for 4 KiB)."""
    ptr = ctx.pageable_pages(2, offset=DOC_PAGE)
    code = _register_raw(ctx, api, ptr, DOC_PAGE)
    ctx.observe("code", code)
    succeeded(code, f"{api} registration of pageable memory 4 KiB past a {ctx.page}-byte host page")
    ctx.unregister(ptr)


def v2_pinned_then_mapped(ctx: AclContext, *, expect: ExpectEntry | None) -> None:
    """A range registered PINNED-only cannot be registered again as MAPPED."""
    page = ctx.pageable_pages(1)
    _pin_pageable(ctx, page, "aclrtHostRegisterV2(PINNED) of pageable memory")
    code = ctx.lib.aclrtHostRegisterV2(page, ctx.page, acl.ACL_HOST_REG_MAPPED, raw=True)
    failed(ctx, code, expect, "aclrtHostRegisterV2(MAPPED) of a range registered PINNED-only")


def v2_pinned_then_mapped_keeps(ctx: AclContext, *, expect: ExpectEntry | None) -> None:
    """A refused PINNED|MAPPED call on a PINNED-only range leaves it as it was, and it unregisters."""
    page = ctx.pageable_pages(1)
    _pin_pageable(ctx, page, "aclrtHostRegisterV2(PINNED) of pageable memory")
    before, dev_before = ctx.lib.aclrtHostGetDevicePointer(page, 0, raw=True)
    ctx.observe("devptr_code_before", before)
    code = ctx.lib.aclrtHostRegisterV2(page, ctx.page, V2_FLAGS["pinned_mapped"], raw=True)
    ctx.observe("code", code)
    with ctx.relying_on("HM-PAIR-V2-PINNED-THEN-MAPPED", "the PINNED|MAPPED registration of the PINNED-only range"):
        holds(code != 0, "aclrtHostRegisterV2(PINNED|MAPPED) of a range registered PINNED-only succeeded")
    after, dev_after = ctx.lib.aclrtHostGetDevicePointer(page, 0, raw=True)
    ctx.observe("devptr_code_after", after)
    holds(after == before and (after != 0 or dev_after == dev_before),
          f"after the refused PINNED|MAPPED call aclrtHostGetDevicePointer answers {describe(after)}"
          f"{f' ({dev_after:#x})' if after == 0 else ''}, before it {describe(before)}"
          f"{f' ({dev_before:#x})' if before == 0 else ''}: the refused call changed the registration")
    with ctx.relying_on("register_pinned", "aclrtHostUnregister of the PINNED-only registration"):
        _unregister(ctx, page, "aclrtHostUnregister of the PINNED-only registration")


def unregister_pinned_only(ctx: AclContext, *, expect: ExpectEntry | None) -> None:
    """aclrtHostUnregister removes a PINNED-only registration; the range registers again."""
    page = ctx.pageable_pages(1)
    for round_ in range(2):
        succeeded(ctx.lib.aclrtHostRegisterV2(page, ctx.page, acl.ACL_HOST_REG_PINNED, raw=True),
                  f"round {round_ + 1}: aclrtHostRegisterV2(PINNED) of pageable memory")
        ctx.track_registration(page)
        _unregister(ctx, page, f"round {round_ + 1}: aclrtHostUnregister of the PINNED-only registration")


def huge_alloc(ctx: AclContext, *, api: str, size: int, expect: ExpectEntry | None) -> None:
    """An allocation no host can back fails instead of handing out a smaller block."""
    if api == "malloc":
        code, ptr = ctx.lib.aclrtMallocHost(size, raw=True)
    else:
        code, ptr = ctx.lib.aclrtMallocHostWithCfg(size, None, raw=True)
    if code == 0:
        ctx.track_host(ptr)
    failed(ctx, code, expect, f"{api} of {size} bytes")


def register_alloc_base(ctx: AclContext, *, alloc: str, size: int, api: str, expect: ExpectEntry | None) -> None:
    """The exact base and size of a 4 KiB-aligned allocation register, unregister and register again."""
    base = allocate(ctx, alloc, size)
    if base % DOC_PAGE:
        skip(f"NOT_APPLICABLE: {alloc} returned {base:#x}, which is not 4 KiB aligned; registering it "
                    "would break the documented precondition of the register calls")
    for round_ in range(2):
        succeeded(_register_raw(ctx, api, base, size),
                  f"round {round_ + 1}: {api} registration of [{base:#x}, +{size}) from {alloc}")
        holds(ctx.device_pointer(base) != 0, "aclrtHostGetDevicePointer answered NULL for the registered base")
        ctx.unregister(base, f"round {round_ + 1}: aclrtHostUnregister of the base")


def register_past_end(ctx: AclContext, *, api: str, expect: ExpectEntry | None) -> None:
    """A range that runs one page past its memory into an unmapped page is refused."""
    base = ctx.guarded_pages(1)
    code = _register_raw(ctx, api, base, 2 * ctx.page)
    ctx.observe("code", code)
    failed(ctx, code, expect, f"{api} registration of one mapped page and the unmapped page after it")


def register_unaligned(ctx: AclContext, *, api: str, expect: ExpectEntry | None) -> None:
    """Pageable memory 64 bytes past a host page boundary is refused."""
    ptr = ctx.pageable_pages(2, offset=64)
    code = _register_raw(ctx, api, ptr, ctx.page)
    ctx.observe("code", code)
    failed(ctx, code, expect, f"{api} registration of pageable memory 64 bytes past a page boundary")


def register_read_only(ctx: AclContext, *, api: str, expect: ExpectEntry | None) -> None:
    """Pageable memory mapped PROT_READ cannot be registered: the driver pins for writing."""
    ptr = ctx.pageable_pages(1, readonly=True)
    code = _register_raw(ctx, api, ptr, ctx.page)
    ctx.observe("code", code)
    failed(ctx, code, expect, f"{api} registration of read-only pageable memory")


NEIGHBOUR_COUNT = 4


def register_neighbours(ctx: AclContext, *, api: str, expect: ExpectEntry | None) -> None:
    """The 4 KiB-aligned pages of neighbouring aclrtMallocHost buffers register one after another."""
    buffers = [ctx.host_alloc(2 * DOC_PAGE) for _ in range(NEIGHBOUR_COUNT)]
    pages = [(b + DOC_PAGE - 1) // DOC_PAGE * DOC_PAGE for b in buffers]
    code = 0
    for index, page in enumerate(pages):
        code = _register_raw(ctx, api, page, DOC_PAGE)
        if code != 0:
            ctx.observe("code", code)
            raise SpecViolation(f"{api} registration of the 4 KiB page at {page:#x} of neighbouring buffer "
                                f"{index + 1} of {NEIGHBOUR_COUNT} failed with {describe(code)} while the "
                                f"{index} before it were registered", code=code)
    ctx.observe("code", code)
    for page in pages:
        ctx.unregister(page)


def register_second_device(ctx: AclContext, *, first: str, expect: ExpectEntry | None) -> None:
    """A range registered under one device is refused by aclrtHostRegisterV2 under the other."""
    other = (ctx.device + 1) % ctx.product.device_count
    page = ctx.pinned_pages(1)
    _set_up_registration(ctx, first, page, ctx.page, f"{first} registration with device {ctx.device} current")

    def register_there() -> int:
        return int(ctx.lib.aclrtHostRegisterV2(page, ctx.page, acl.ACL_HOST_REG_MAPPED, raw=True))

    code = ctx.on_device(other, register_there)
    ctx.observe("code", code)
    if code == 0:  # undo the extra registration under the device that made it
        ctx.unregister(page, f"aclrtHostUnregister with device {other} current", device=other)
        ctx.track_registration(page)  # the first registration is still there
    failed(ctx, code, expect, f"aclrtHostRegisterV2 with device {other} current of a range registered with "
                              f"device {ctx.device} current")


FORK_WAIT_S = 5.0


def fork_child_view(ctx: AclContext, *, expect: ExpectEntry | None) -> None:
    """A child made with fork does not see the aclrtMallocHost memory of its parent."""
    ptr = ctx.host_alloc(4096)
    data = pattern(64, 9)
    write(ptr, data)
    pid = os.fork()
    if pid == 0:  # the child: look, answer with the exit status, never return into the harness
        try:
            # A fault must end the child by its signal, not by a handler's exit status (faulthandler, ASan).
            faulthandler.disable()
            for number in (signal.SIGSEGV, signal.SIGBUS):
                signal.signal(number, signal.SIG_DFL)
            os._exit(0 if holds_data(ptr, data) else 3)
        finally:
            os._exit(4)
    status = _wait_child(pid)
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGSEGV, signal.SIGBUS):
        view = "not_mapped"
    elif os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        view = "inherited"
    elif os.WIFEXITED(status) and os.WEXITSTATUS(status) == 3:
        view = "changed"
    else:
        raise SpecViolation(f"the forked child ended with status {status:#x} instead of reading the address")
    ctx.observe("child_view", view)
    holds(view == "not_mapped", f"a forked child found the aclrtMallocHost memory at {ptr:#x} "
                                f"({'with the parent content' if view == 'inherited' else 'changed'})")


def _wait_child(pid: int) -> int:
    """The child's wait status, killing it when it does not end within FORK_WAIT_S."""
    end = time.monotonic() + FORK_WAIT_S
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.005)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    raise CallTimeout(f"the forked child did not end within {FORK_WAIT_S:.0f} s")


def free_while_registered(ctx: AclContext, *, expect: ExpectEntry | None) -> None:
    """aclrtFreeHost frees memory that is still registered at once (the docs' side)."""
    block = ctx.host_alloc(3 * ctx.page)
    page = (block + ctx.page - 1) // ctx.page * ctx.page
    _set_up_registration(ctx, "v1", page, ctx.page, "registration of the memory")
    code = ctx.lib.aclrtFreeHost(block, raw=True)
    ctx.observe("code", code)
    if code == 0:
        ctx.forget_host(block)
        # The registration outlived its memory in the runtime's records; end it by its base.
        if ctx.lib.aclrtHostUnregister(page, raw=True) == 0:
            ctx.forget_registration(page)
        else:  # teardown tries again; meanwhile no later case may be handed these addresses
            ctx.reclaim(block, 3 * ctx.page)
    succeeded(code, "aclrtFreeHost of memory that is still registered")


REUSE_TRIES = 256


def free_registered(ctx: AclContext, *, api: str, expect: ExpectEntry | None) -> None:
    """Memory freed while registered: a new allocation at its address registers, at once or after unregistering."""
    # 4 KiB (the docs' page) rather than the host page: a small block is reused at once by the
    # allocator, where a large one may not be.
    size = 3 * DOC_PAGE
    block = ctx.host_alloc(size)
    ctx.forget_host(block)  # freed below, whatever the outcome
    page = (block + DOC_PAGE - 1) // DOC_PAGE * DOC_PAGE
    _set_up_registration(ctx, api, page, DOC_PAGE, f"{api} registration")
    with ctx.relying_on("HM-PAIR-FREE-WHILE-REGISTERED", "aclrtFreeHost of the still registered memory"):
        code = ctx.lib.aclrtFreeHost(block, raw=True)
        if code != 0:
            ctx.track_host(block)
        succeeded(code, "aclrtFreeHost of the still registered memory")
    ctx.forget_registration(page)  # whether it outlived its memory is what the case finds out
    for _ in range(REUSE_TRIES):
        if ctx.host_alloc(size) == block:
            break
    else:
        if ctx.lib.aclrtHostUnregister(page, raw=True) != 0:
            ctx.mark_stuck(page)
        skip(f"NOT_APPLICABLE: {REUSE_TRIES} allocations never returned the freed address {block:#x} again")
    code = _register_raw(ctx, api, page, DOC_PAGE)
    ctx.observe("code", code)
    if code == 0:  # the registration went with the memory, or the backend took a second one over it
        ctx.unregister(page, "aclrtHostUnregister of the new registration")
        if ctx.lib.aclrtHostUnregister(page, raw=True) == 0:
            ctx.may_rest_on("HM-PAIR-DOUBLE-REGISTER-V1" if api == "v1" else "HM-PAIR-DOUBLE-REGISTER")
            raise SpecViolation(f"the {api} registration at {page:#x} succeeded while the old registration "
                                "there was still in place (a second aclrtHostUnregister removed it)")
        return
    try:
        failed(ctx, code, expect, f"{api} registration of new memory at the address of freed registered memory")
    finally:
        stale = ctx.lib.aclrtHostUnregister(page, raw=True)
        if stale != 0:
            # Teardown tries again; if the stale registration stays, the memory now at its address
            # is kept out of later cases' reach (see AclContext.release).
            ctx.track_registration(page)
    if stale != 0 and not _unregister_works(ctx, api):
        # Unregistering fails for live memory too: HM-PAIR-REG-UNREG's deviation, not this rule's.
        with ctx.relying_on("unregister", "aclrtHostUnregister of a fresh registration (a control)"):
            succeeded(stale, "aclrtHostUnregister of the old base, and of a fresh registration")
    succeeded(stale, "aclrtHostUnregister of the old base (the registration that outlived its memory)")
    ctx.forget_registration(page)
    again = _register_raw(ctx, api, page, DOC_PAGE)
    if again != 0:
        ctx.mark_stuck(page)  # the backend still holds the range: keep its memory from later cases
    succeeded(again, f"{api} registration after unregistering the old base")


def _unregister_works(ctx: AclContext, api: str) -> bool:
    """Whether a fresh registration of aclrtMallocHost memory can be removed (a control for a failure)."""
    page = ctx.pinned_pages(1)
    if _register_raw(ctx, api, page, ctx.page) != 0:
        return False
    if ctx.lib.aclrtHostUnregister(page, raw=True) != 0:
        return False
    ctx.forget_registration(page)
    return True
