"""VA identity: device addresses of registered memory, with and without the VA flag."""

from __future__ import annotations

from acl_hostmem_generated import acl_bindings as acl
from acl_hostmem_generated.catalog_types import ExpectEntry

from ..harness.context import AclContext
from ..harness.violations import SpecViolation
from .assertions import failed, holds, succeeded
from .memory import config_variant, holds_data, pattern, release, sizes_of, write


def va_identity(ctx: AclContext, *, size: int | str, expect: ExpectEntry | None) -> None:
    """With VA_FLAG=1 the registered device address equals the host address and copies work (every sampled size).

    The allocation is promised only 64-byte alignment and registration needs a page-aligned
    pointer, so one page more is allocated and the page-aligned range inside it is registered.
    """
    cfg = config_variant(ctx, "va_flag_1")
    assert cfg is not None  # a named variant, not the NULL config
    for each in sizes_of(ctx, size):
        code, block = ctx.lib.aclrtMallocHostWithCfg(each + ctx.page, cfg.ptr, raw=True)
        if code != 0:
            raise SpecViolation(f"aclrtMallocHostWithCfg with VA_FLAG=1 of {each + ctx.page} bytes failed with "
                                f"{code} {acl.error_name(code)} on a product that supports the VA flag", code=code)
        ctx.track_host(block)
        ptr = (block + ctx.page - 1) // ctx.page * ctx.page
        _identity(ctx, ptr, each)
        ctx.unregister(ptr)
        release(ctx, block)


def _identity(ctx: AclContext, ptr: int, size: int) -> None:
    dev = ctx.register(ptr, size, "v1")
    holds(dev == ptr, f"aclrtHostRegister of {size} bytes of VA-flag memory returned devPtr {dev:#x} for host "
                      f"address {ptr:#x}")
    code, answer = ctx.lib.aclrtHostGetDevicePointer(ptr, 0, raw=True)
    succeeded(code, f"aclrtHostGetDevicePointer of {size} bytes of registered VA-flag memory")
    if answer != dev:  # disagreeing with the registration's own devPtr may be HM-VA-DEVPTR-CONSISTENT's deviation
        ctx.may_rest_on("device_pointer")
    holds(answer == dev, f"aclrtHostGetDevicePointer answered {answer:#x} for VA-flag memory at {ptr:#x}, "
                         f"whose registration gave {dev:#x}")
    source = ctx.host_alloc(size)
    data = pattern(size, 11)
    write(source, data)
    succeeded(ctx.lib.aclrtMemcpy(dev, size, source, size, acl.ACL_MEMCPY_HOST_TO_DEVICE, raw=True),
              "aclrtMemcpy into the VA-identical device address")
    holds(holds_data(ptr, data), "a copy through the device address did not land in the host memory")
    back = ctx.host_alloc(size)
    succeeded(ctx.lib.aclrtMemcpy(back, size, dev, size, acl.ACL_MEMCPY_DEVICE_TO_HOST, raw=True),
              "aclrtMemcpy out of the VA-identical device address")
    holds(holds_data(back, data), "a copy out of the device address did not return the host content")
    release(ctx, back)
    release(ctx, source)


def va_unsupported(ctx: AclContext, *, size: int, expect: ExpectEntry | None) -> None:
    """Without VA support, VA_FLAG=1 is refused and plain allocation still works."""
    cfg = config_variant(ctx, "va_flag_1")
    assert cfg is not None  # a named variant, not the NULL config
    code, ptr = ctx.lib.aclrtMallocHostWithCfg(size, cfg.ptr, raw=True)
    if code == 0:
        ctx.track_host(ptr)
    ctx.observe("code", code)
    failed(ctx, code, expect, "aclrtMallocHostWithCfg with VA_FLAG=1 on a product without VA support")
    ctx.host_alloc(size)  # the documented fallback


def devptr_consistent(ctx: AclContext, *, api: str, pages: int, expect: ExpectEntry | None) -> None:
    """GetDevicePointer answers what registration produced (V1) or a non-NULL address (V2)."""
    size = pages * ctx.page
    ptr = ctx.pinned_pages(pages)
    dev = ctx.register(ptr, size, "v1" if api == "v1" else "v2")
    code, answer = ctx.lib.aclrtHostGetDevicePointer(ptr, 0, raw=True)
    succeeded(code, f"aclrtHostGetDevicePointer of a mapped {api} registration")
    holds(answer != 0, f"aclrtHostGetDevicePointer returned NULL for a mapped {api} registration")
    if dev is not None:
        holds(dev != 0, "aclrtHostRegister returned a NULL devPtr")
        holds(answer == dev, f"aclrtHostGetDevicePointer answered {answer:#x}, registration returned {dev:#x}")
    _observe_relation(ctx, api, ptr, answer)


def _observe_relation(ctx: AclContext, api: str, ptr: int, dev: int) -> None:
    """How device addresses relate to host addresses, from this registration and one more (an observation).

    Identity (equal), one constant offset for both, or other; nothing is recorded when the
    second registration cannot be made, which the rule does not require.
    """
    second = ctx.pinned_pages(1)
    if api == "v1":
        code, second_dev = ctx.lib.aclrtHostRegister(second, ctx.page, acl.ACL_HOST_REGISTER_MAPPED, raw=True)
    else:
        code = ctx.lib.aclrtHostRegisterV2(second, ctx.page, acl.ACL_HOST_REG_MAPPED, raw=True)
    if code != 0:
        return
    ctx.track_registration(second)
    if api != "v1":
        code, second_dev = ctx.lib.aclrtHostGetDevicePointer(second, 0, raw=True)
        if code != 0:
            return
    offsets = {dev - ptr, second_dev - second}
    ctx.observe("relation", "identity" if offsets == {0} else "constant_offset" if len(offsets) == 1 else "other")


def devptr_interior(ctx: AclContext, *, api: str, expect: ExpectEntry | None) -> None:
    """An interior pointer either fails or resolves to the base's device address plus its offset."""
    base = ctx.pinned_pages(2)
    ctx.register(base, 2 * ctx.page, "v1" if api == "v1" else "v2")
    base_dev = ctx.device_pointer(base)
    for offset in (64, ctx.page, ctx.page + 100):
        code, dev = ctx.lib.aclrtHostGetDevicePointer(base + offset, 0, raw=True)
        if code == 0:
            holds(dev == base_dev + offset,
                  f"aclrtHostGetDevicePointer(base+{offset}) answered {dev:#x}; the base maps to {base_dev:#x}, "
                  f"so only a failure or {base_dev + offset:#x} is consistent")
