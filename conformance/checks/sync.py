"""Synchronisation: which calls wait for the device, and which return at once."""

from __future__ import annotations

from typing import Any

from acl_hostmem_generated import acl_bindings as acl

from ..harness.context import AclContext
from ..harness.violations import CallTimeout, SpecViolation
from .memory import pattern, read, write
from .verdicts import holds, succeeded

# How long a call that must wait is watched before the gate opens: long enough for a
# backend that ignores the pending task to return, short enough to keep the suite fast.
OBSERVE_S = 0.3


def _prompt(ctx: AclContext) -> float:
    """The bound for a call that must not wait: well under the blocker's own limit."""
    return max(1.0, ctx.timeout / 3)


def _returned(blocker: Any) -> str:
    """For a call that has returned: whether the case had opened the blocker's gate by then (an observation)."""
    return "after_gate" if blocker.gate.is_set() else "before_gate"


def _blocked_stream(ctx: AclContext) -> tuple[Any, Any]:
    stream = ctx.stream()
    blocker = ctx.block(stream)
    holds(blocker.entered.wait(ctx.timeout), "the stream never reached the blocking host callback")
    return stream, blocker


def _still_pending(ctx: AclContext, stream: Any, what: str) -> None:
    status = ctx.lib.aclrtStreamQuery(stream)
    holds(status == acl.ACL_STREAM_STATUS_NOT_READY,
          f"the blocked stream reported status {status} after {what}; the call must not have completed its tasks")


def alloc_no_sync(ctx: AclContext, *, api: str, expect: dict[str, Any] | None) -> None:
    """Allocation returns while a stream of the device is blocked."""
    stream, blocker = _blocked_stream(ctx)
    if api == "malloc":
        code, ptr = ctx.within(lambda: ctx.lib.aclrtMallocHost(4096, raw=True), _prompt(ctx), "aclrtMallocHost")
    else:
        code, ptr = ctx.within(lambda: ctx.lib.aclrtMallocHostWithCfg(4096, None, raw=True), _prompt(ctx),
                               "aclrtMallocHostWithCfg")
    if code == 0:
        ctx.track_host(ptr)
    ctx.observe("returned", _returned(blocker))
    succeeded(code, f"{api} while a stream is blocked")
    _still_pending(ctx, stream, api)
    blocker.open()


def free_no_sync(ctx: AclContext, *, size: int, expect: dict[str, Any] | None) -> None:
    """aclrtFreeHost returns while a stream of the device is blocked."""
    ptr = ctx.host_alloc(size)
    stream, blocker = _blocked_stream(ctx)
    code = ctx.within(lambda: ctx.lib.aclrtFreeHost(ptr, raw=True), _prompt(ctx), "aclrtFreeHost")
    ctx.observe("returned", _returned(blocker))
    succeeded(code, "aclrtFreeHost while a stream is blocked")
    ctx.forget_host(ptr)
    _still_pending(ctx, stream, "aclrtFreeHost")
    blocker.open()


def _devsync_free(ctx: AclContext, ptr: int, blocker: Any, what: str) -> None:
    """Free with device sync while ``blocker`` holds a stream; it must wait for the gate."""
    call = ctx.start(lambda: ctx.lib.aclrtFreeHostWithDevSync(ptr, raw=True), name="free-devsync")
    if call.wait(OBSERVE_S):
        ctx.observe("returned", _returned(blocker))
        blocker.open()
        raise SpecViolation(f"aclrtFreeHostWithDevSync returned ({call.value()}) while {what} was still pending")
    blocker.open()
    if not call.wait(ctx.timeout):
        raise CallTimeout(f"aclrtFreeHostWithDevSync did not return within {ctx.timeout:.0f} s "
                          "after the blocked stream was released")
    ctx.observe("returned", _returned(blocker))
    succeeded(call.value(), "aclrtFreeHostWithDevSync")
    ctx.forget_host(ptr)


def devsync_waits(ctx: AclContext, *, size: int, expect: dict[str, Any] | None) -> None:
    """The free waits for a queued copy that reads the memory, and the copy sees the data."""
    source = ctx.host_alloc(size)
    data = pattern(size, 5)
    write(source, data)
    target = ctx.device_alloc(size)
    stream, blocker = _blocked_stream(ctx)
    succeeded(ctx.lib.aclrtMemcpyAsync(target, size, source, size, acl.ACL_MEMCPY_HOST_TO_DEVICE, stream, raw=True),
              "aclrtMemcpyAsync queued behind the blocked callback")
    _devsync_free(ctx, source, blocker, "a copy reading the memory")
    back = ctx.host_alloc(size)
    succeeded(ctx.lib.aclrtMemcpy(back, size, target, size, acl.ACL_MEMCPY_DEVICE_TO_HOST, raw=True),
              "aclrtMemcpy of the copy's result")
    holds(read(back, size) == data, "the queued copy read changed data: the memory was released before it ran")


def devsync_all_streams(ctx: AclContext, *, streams: int, expect: dict[str, Any] | None) -> None:
    """The free waits for every stream of the device, not only the one that used the memory."""
    ptr = ctx.host_alloc(4096)
    created = [ctx.stream() for _ in range(streams - 1)]
    target = ctx.device_alloc(4096)
    succeeded(ctx.lib.aclrtMemcpyAsync(target, 4096, ptr, 4096, acl.ACL_MEMCPY_HOST_TO_DEVICE, created[0], raw=True),
              "aclrtMemcpyAsync on the first stream")
    succeeded(ctx.lib.aclrtSynchronizeStream(created[0], raw=True), "aclrtSynchronizeStream of the first stream")
    _stream, blocker = _blocked_stream(ctx)  # the last stream, unrelated to the memory
    _devsync_free(ctx, ptr, blocker, f"stream {streams} of {streams} (blocked, not using the memory)")
