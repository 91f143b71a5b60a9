"""Invalid arguments: each bad argument gets its documented error; everything else stays valid."""

from __future__ import annotations

from typing import Any

from acl_hostmem_generated import acl_bindings as acl

from ..harness.context import AclContext
from ..harness.samples import adopt_result, call_raw, valid_arguments
from ..harness.violations import CallTimeout
from .verdicts import failed

_CONFIGS = {
    "attrs_null": lambda ctx: acl.malloc_config(num_attrs=1, attrs_null=True),
    "attr_reserved": lambda ctx: acl.malloc_config((acl.ACL_RT_MEM_ATTR_RSV, 0)),
    "attr_unknown": lambda ctx: acl.malloc_config((0x7FFF, 1)),
    "other_device": lambda ctx: acl.malloc_config((acl.ACL_RT_MEM_ATTR_DEVICE_ID, _other_device(ctx))),
}


def _other_device(ctx: AclContext) -> int:
    count = ctx.product.device_count
    return (ctx.device + 1) % count if count > 1 else count


def _bad_value(ctx: AclContext, args: dict[str, Any], param: str, condition: str, value: Any) -> tuple[Any, Any]:
    """(argument to pass, object to keep alive) for one invalid-argument condition."""
    if condition == "is_null":
        return None, None
    if condition == "equals":
        return (ctx.product.device_count if value == "@device_count" else value), None
    if condition == "offset":
        return args[param] + value, None
    if condition == "unregistered":
        return ctx.pinned_pages(1), None
    if condition == "config":
        cfg = _CONFIGS[value](ctx)
        return cfg.ptr, cfg
    raise ValueError(f"unknown condition {condition!r}")


def invalid_argument(ctx: AclContext, *, interface: str, param: str, condition: str, value: Any,
                     expect: dict[str, Any] | None) -> None:
    """Call ``interface`` with one invalid argument; it must fail (with the documented code)."""
    args = valid_arguments(ctx, interface)
    args[param], _keepalive = _bad_value(ctx, args, param, condition, value)
    code, outputs = call_raw(ctx, interface, args)
    if code == 0:
        adopt_result(ctx, interface, args, outputs)
    ctx.observe("code", code)
    failed(code, expect, f"{interface} with {param} {condition.replace('_', ' ')} {value!r}")


def no_device(ctx: AclContext, *, call: str, expect: dict[str, Any] | None) -> None:
    """From a thread that never set a device, the call fails instead of picking a device."""
    page = ctx.pinned_pages(1)
    calls = {
        "aclrtMallocHost": lambda: ctx.lib.aclrtMallocHost(4096, raw=True),
        "aclrtMallocHostWithCfg": lambda: ctx.lib.aclrtMallocHostWithCfg(4096, None, raw=True),
        "aclrtHostRegisterV2": lambda: ctx.lib.aclrtHostRegisterV2(page, 4096, acl.ACL_HOST_REG_MAPPED, raw=True),
    }
    thread = ctx.start(calls[call], name="no-device", set_device=False)
    if not thread.wait(ctx.timeout):
        raise CallTimeout(f"{call} from a thread without a device did not return within {ctx.timeout:.0f} s")
    result = thread.value()
    code = result[0] if isinstance(result, tuple) else result
    if code == 0:
        if call == "aclrtHostRegisterV2":
            ctx.track_registration(page)
        else:
            ctx.track_host(result[1])
    ctx.observe("code", code)
    failed(code, expect, f"{call} from a thread with no current device")
