"""Invalid arguments: each bad argument gets its documented error; everything else stays valid."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from acl_hostmem_generated import acl_bindings as acl
from acl_hostmem_generated.acl_bindings import MallocConfig
from acl_hostmem_generated.catalog_types import ExpectEntry

from ..harness.context import AclContext
from ..harness.samples import Argument, adopt_result, call_raw, valid_arguments
from ..harness.violations import CallTimeout
from .assertions import failed, holds, succeeded

_T = TypeVar("_T")
#: What a raw call from a thread without a context answers: the code, with the output where it has one.
_Raw = int | tuple[int, int]

_CONFIGS = {
    "attrs_null": lambda ctx: acl.malloc_config(num_attrs=1, attrs_null=True),
    "attrs_null_empty": lambda ctx: acl.malloc_config(num_attrs=0, attrs_null=True),
    "attr_reserved": lambda ctx: acl.malloc_config((acl.ACL_RT_MEM_ATTR_RSV, 0)),
    "attr_unknown": lambda ctx: acl.malloc_config((0x7FFF, 1)),
    "other_device": lambda ctx: acl.malloc_config((acl.ACL_RT_MEM_ATTR_DEVICE_ID, _other_device(ctx))),
}


def _other_device(ctx: AclContext) -> int:
    count = ctx.product.device_count
    return (ctx.device + 1) % count if count > 1 else count


def _bad_value(ctx: AclContext, args: dict[str, Argument], param: str, condition: str,
               value: str | int) -> tuple[Argument, MallocConfig | None]:
    """(argument to pass, object to keep alive) for one invalid-argument condition."""
    if condition == "is_null":
        return None, None
    if condition == "equals":
        number = ctx.product.device_count if value == "@device_count" else value
        if not isinstance(number, int):  # rules.yaml compares with numbers (and the device count)
            raise TypeError(f"{param} cannot equal {number!r}: not a number")
        return number, None
    if condition == "offset":
        base = args[param]
        if not isinstance(base, int) or not isinstance(value, int):
            raise TypeError(f"unsupported operand type(s) for +: '{type(base).__name__}' and "
                            f"'{type(value).__name__}'")
        return base + value, None
    if condition == "unregistered":
        return ctx.pinned_pages(1), None
    if condition == "config":
        if not isinstance(value, str):  # configurations are named
            raise KeyError(value)
        cfg = _CONFIGS[value](ctx)
        return cfg.ptr, cfg
    raise ValueError(f"unknown condition {condition!r}")


def invalid_argument(ctx: AclContext, *, interface: str, param: str, condition: str, value: str | int,
                     expect: ExpectEntry | None) -> None:
    """Call ``interface`` with one invalid argument; it must fail (with the documented code)."""
    args = valid_arguments(ctx, interface)
    args[param], _keepalive = _bad_value(ctx, args, param, condition, value)
    code, outputs = call_raw(ctx, interface, args)
    if code == 0:
        adopt_result(ctx, interface, args, outputs)
    ctx.observe("code", code)
    failed(ctx, code, expect, f"{interface} with {param} {condition.replace('_', ' ')} {value!r}")


def _output(result: _Raw) -> int:
    """The output of a raw call that has one."""
    if isinstance(result, tuple):
        return result[1]
    raise TypeError("'int' object is not subscriptable")


def _no_context_call(ctx: AclContext, call: str) -> tuple[Callable[[], _Raw], Callable[[_Raw], None]]:
    """(the call to make from a thread without a context, what to do when it succeeds anyway)."""
    lib = ctx.lib
    if call == "aclrtMallocHost":
        return lambda: lib.aclrtMallocHost(4096, raw=True), lambda r: ctx.track_host(_output(r))
    if call == "aclrtMallocHostWithCfg":
        return lambda: lib.aclrtMallocHostWithCfg(4096, None, raw=True), lambda r: ctx.track_host(_output(r))
    if call == "aclrtFreeHostWithDevSync":
        ptr = ctx.host_alloc(4096)
        return lambda: lib.aclrtFreeHostWithDevSync(ptr, raw=True), lambda r: ctx.forget_host(ptr)
    if call == "aclrtHostMemMapCapabilities":
        return (lambda: lib.aclrtHostMemMapCapabilities(ctx.device, acl.ACL_RT_HAC_TYPE_AIC, raw=True),
                lambda r: None)
    page = ctx.pinned_pages(1)
    if call == "aclrtHostRegister":
        return (lambda: lib.aclrtHostRegister(page, ctx.page, acl.ACL_HOST_REGISTER_MAPPED, raw=True),
                lambda r: ctx.track_registration(page))
    if call == "aclrtHostRegisterV2":
        return (lambda: lib.aclrtHostRegisterV2(page, ctx.page, acl.ACL_HOST_REG_MAPPED, raw=True),
                lambda r: ctx.track_registration(page))
    ctx.register(page, ctx.page, "v1")
    if call == "aclrtHostGetDevicePointer":
        return lambda: lib.aclrtHostGetDevicePointer(page, 0, raw=True), lambda r: None
    if call == "aclrtHostUnregister":
        return lambda: lib.aclrtHostUnregister(page, raw=True), lambda r: ctx.forget_registration(page)
    raise ValueError(f"unknown call {call!r}")


def _without_context(ctx: AclContext, fn: Callable[[], _T], what: str) -> _T:
    thread = ctx.start(fn, name="no-context", set_device=False)
    if not thread.wait(ctx.timeout):
        raise CallTimeout(f"{what} from a thread without a context did not return within {ctx.timeout:.0f} s")
    return thread.value()


def no_device(ctx: AclContext, *, call: str, expect: ExpectEntry | None) -> None:
    """From a thread with no current context, the call fails instead of picking a device."""
    fn, adopt = _no_context_call(ctx, call)
    result = _without_context(ctx, fn, call)
    code = result[0] if isinstance(result, tuple) else result
    if code == 0:
        adopt(result)
    ctx.observe("code", code)
    failed(ctx, code, expect, f"{call} from a thread with no current context")


def free_without_context(ctx: AclContext, *, expect: ExpectEntry | None) -> None:
    """aclrtFreeHost succeeds from a thread with no current context."""
    ptr = ctx.host_alloc(4096)
    code = _without_context(ctx, lambda: ctx.lib.aclrtFreeHost(ptr, raw=True), "aclrtFreeHost")
    succeeded(code, "aclrtFreeHost from a thread with no current context")
    ctx.forget_host(ptr)


def other_device_registration(ctx: AclContext, *, op: str, expect: ExpectEntry | None) -> None:
    """A registration of device 0 used under device 1: a success is real, a failure leaves it intact."""
    other = (ctx.device + 1) % ctx.product.device_count
    page = ctx.pinned_pages(1)
    dev = ctx.register(page, ctx.page, "v1")
    lib = ctx.lib
    if op == "devptr":
        code, answer = ctx.on_device(other, lambda: lib.aclrtHostGetDevicePointer(page, 0, raw=True))
        if code == 0:
            holds(answer == dev, f"under device {other} the device pointer is {answer:#x}; the registration under "
                                 f"device {ctx.device} gave {dev:#x}")
        holds(ctx.device_pointer(page) == dev,
              f"the device pointer under device {ctx.device} changed after the query under device {other}")
        return
    code = ctx.on_device(other, lambda: lib.aclrtHostUnregister(page, raw=True))
    after, _answer = lib.aclrtHostGetDevicePointer(page, 0, raw=True)
    if code == 0:
        # Forgotten only once it is gone: a registration left behind would outlive its memory.
        holds(after != 0, f"aclrtHostUnregister under device {other} reported success, yet the range still has a "
                          f"device pointer under device {ctx.device}")
        ctx.forget_registration(page)
        succeeded(_register_again(ctx, page), "registering the range again after it was unregistered")
        return
    succeeded(after, f"aclrtHostGetDevicePointer under device {ctx.device} after the refused unregister under "
                     f"device {other} (the registration must survive)")
    ctx.unregister(page, f"aclrtHostUnregister under device {ctx.device}")


def _register_again(ctx: AclContext, page: int) -> int:
    code, _dev = ctx.lib.aclrtHostRegister(page, ctx.page, acl.ACL_HOST_REGISTER_MAPPED, raw=True)
    if code == 0:
        ctx.track_registration(page)
    return code
