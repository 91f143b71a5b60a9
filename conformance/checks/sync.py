"""Synchronisation: which calls wait for the device, and which return at once.

The harness's instruments (streams, the host-callback gate that blocks them, the copies
queued behind it, device memory) are not what these cases judge: their failure is an ERROR
naming the instrument, never a FAIL of the sync rule.
"""

from __future__ import annotations

import threading
from typing import Protocol

from acl_hostmem_generated import acl_bindings as acl
from acl_hostmem_generated.acl_bindings import CData
from acl_hostmem_generated.catalog_types import ExpectEntry

from ..harness.context import AclContext
from ..harness.violations import CallTimeout, SpecViolation
from .assertions import holds, succeeded
from .memory import holds_data, pattern, write

# How long a call that must wait is watched before the gate opens: long enough for a
# backend that ignores the pending task to return, short enough to keep the suite fast.
# The `window` cases watch for --acl-sync-window instead, long enough to expose a sync that
# gives up after a bounded wait.
OBSERVE_S = 0.3


def _prompt(ctx: AclContext) -> float:
    """The bound for a call that must not wait: well under the blocker's own limit."""
    return max(1.0, ctx.timeout / 3)


def _hold(ctx: AclContext, hold: str) -> float:
    # A window shorter than OBSERVE_S shortens every watch (the self-test's runs without a sync fault).
    return ctx.sync_window if hold == "window" else min(OBSERVE_S, ctx.sync_window)


class _Gated(Protocol):
    """What blocks streams until it is opened: a StreamBlocker, or several together (:class:`_Blocked`)."""

    @property
    def gate(self) -> threading.Event: ...

    def open(self) -> None: ...


def _returned(blocker: _Gated) -> str:
    """For a call that has returned: whether the case had opened the blocker's gate by then (an observation)."""
    return "after_gate" if blocker.gate.is_set() else "before_gate"


STREAMS = 3
BLOCKED = {"first": (0,), "middle": (1,), "last": (2,), "several": (0, 2)}


class _Blocked:
    """Several streams of the current device, some of them blocked by a host callback."""

    def __init__(self, ctx: AclContext, blocked: str) -> None:
        self.streams = [ctx.stream() for _ in range(STREAMS)]
        self.which = BLOCKED[blocked]
        self.blockers = [ctx.block(self.streams[i]) for i in self.which]
        self.label = f"stream(s) {', '.join(str(i + 1) for i in self.which)} of {STREAMS} blocked ({blocked})"

    def still_pending(self, ctx: AclContext, what: str) -> None:
        for index in self.which:
            _still_pending(ctx, self.streams[index], what)

    def open(self) -> None:
        for blocker in self.blockers:
            blocker.open()

    @property
    def gate(self) -> threading.Event:
        """The gate of the first blocker (they open together), for :func:`_returned`."""
        return self.blockers[0].gate


def _still_pending(ctx: AclContext, stream: CData, what: str) -> None:
    status = ctx.lib.aclrtStreamQuery(stream)
    holds(status == acl.ACL_STREAM_STATUS_NOT_READY,
          f"the blocked stream reported status {status} after {what}; the call must not have completed its tasks")


def alloc_no_sync(ctx: AclContext, *, api: str, blocked: str, expect: ExpectEntry | None) -> None:
    """Allocation returns while streams of the device are blocked."""
    streams = _Blocked(ctx, blocked)
    if api == "malloc":
        code, ptr = ctx.within(lambda: ctx.lib.aclrtMallocHost(4096, raw=True), _prompt(ctx), "aclrtMallocHost")
    else:
        code, ptr = ctx.within(lambda: ctx.lib.aclrtMallocHostWithCfg(4096, None, raw=True), _prompt(ctx),
                               "aclrtMallocHostWithCfg")
    if code == 0:
        ctx.track_host(ptr)
    ctx.observe("returned", _returned(streams))
    with ctx.relying_on("allocate", f"{api} while {streams.label}"):
        succeeded(code, f"{api} while {streams.label}")
    streams.still_pending(ctx, api)
    streams.open()


def free_no_sync(ctx: AclContext, *, size: int, blocked: str, expect: ExpectEntry | None) -> None:
    """aclrtFreeHost returns while streams of the device are blocked."""
    ptr = ctx.host_alloc(size)
    streams = _Blocked(ctx, blocked)
    code = ctx.within(lambda: ctx.lib.aclrtFreeHost(ptr, raw=True), _prompt(ctx), "aclrtFreeHost")
    ctx.observe("returned", _returned(streams))
    with ctx.relying_on("free", f"aclrtFreeHost while {streams.label}"):
        succeeded(code, f"aclrtFreeHost while {streams.label}")
    ctx.forget_host(ptr)
    streams.still_pending(ctx, "aclrtFreeHost")
    streams.open()


def _devsync_free(ctx: AclContext, ptr: int, blocker: _Gated, what: str, hold: float) -> None:
    """Free with device sync while ``blocker`` holds streams for ``hold`` seconds; it must wait for the gate."""
    call = ctx.start(lambda: ctx.lib.aclrtFreeHostWithDevSync(ptr, raw=True), name="free-devsync")
    if call.wait(hold):
        ctx.observe("returned", _returned(blocker))
        blocker.open()
        raise SpecViolation(f"aclrtFreeHostWithDevSync returned ({call.value()}) while {what} was still pending "
                            f"(watched for {hold:.1f} s)")
    blocker.open()
    if not call.wait(ctx.timeout):
        raise CallTimeout(f"aclrtFreeHostWithDevSync did not return within {ctx.timeout:.0f} s "
                          "after the blocked stream was released")
    ctx.observe("returned", _returned(blocker))
    with ctx.relying_on("free", "aclrtFreeHostWithDevSync once the streams were released"):
        succeeded(call.value(), "aclrtFreeHostWithDevSync")
    ctx.forget_host(ptr)


def devsync_waits(ctx: AclContext, *, size: int, hold: str, expect: ExpectEntry | None) -> None:
    """The free waits for a queued copy that reads the memory, and the copy sees the data."""
    source = ctx.host_alloc(size)
    data = pattern(size, 5)
    write(source, data)
    target = ctx.device_alloc(size)
    stream = ctx.stream()
    blocker = ctx.block(stream)
    ctx.copy("aclrtMemcpyAsync queued behind the blocked callback",
             lambda: ctx.lib.aclrtMemcpyAsync(target, size, source, size, acl.ACL_MEMCPY_HOST_TO_DEVICE, stream,
                                              raw=True))
    _devsync_free(ctx, source, blocker, "a copy reading the memory", _hold(ctx, hold))
    back = ctx.host_alloc(size)
    ctx.copy("aclrtMemcpy of the copy's result",
             lambda: ctx.lib.aclrtMemcpy(back, size, target, size, acl.ACL_MEMCPY_DEVICE_TO_HOST, raw=True))
    holds(holds_data(back, data), "the queued copy read changed data: the memory was released before it ran")


def devsync_all_streams(ctx: AclContext, *, blocked: str, hold: str, expect: ExpectEntry | None) -> None:
    """The free waits for blocked work on any stream of the device, not only the one using the memory."""
    ptr = ctx.host_alloc(4096)
    user = ctx.stream()
    target = ctx.device_alloc(4096)
    ctx.copy("aclrtMemcpyAsync of the memory on its own stream",
             lambda: ctx.lib.aclrtMemcpyAsync(target, 4096, ptr, 4096, acl.ACL_MEMCPY_HOST_TO_DEVICE, user, raw=True))
    ctx.copy("aclrtSynchronizeStream of that stream", lambda: ctx.lib.aclrtSynchronizeStream(user, raw=True))
    streams = _Blocked(ctx, blocked)
    _devsync_free(ctx, ptr, streams, streams.label + ", none of them using the memory", _hold(ctx, hold))


def devsync_current_device(ctx: AclContext, *, expect: ExpectEntry | None) -> None:
    """A blocked stream of another device does not hold up the free on the current device."""
    other = (ctx.device + 1) % ctx.product.device_count
    stream = ctx.on_device(other, ctx.stream)
    blocker = ctx.on_device(other, lambda: ctx.block(stream))
    ptr = ctx.host_alloc(4096)
    call = ctx.start(lambda: ctx.lib.aclrtFreeHostWithDevSync(ptr, raw=True), name="free-devsync")
    returned = call.wait(_prompt(ctx))
    pending = ctx.lib.aclrtStreamQuery(stream) == acl.ACL_STREAM_STATUS_NOT_READY
    blocker.open()
    if call.wait(ctx.timeout) and call.value() == 0:
        ctx.forget_host(ptr)
    if not returned:
        raise CallTimeout(f"aclrtFreeHostWithDevSync on device {ctx.device} did not return within "
                          f"{_prompt(ctx):.1f} s while a stream of device {other} was blocked")
    with ctx.relying_on("free", "aclrtFreeHostWithDevSync"):
        succeeded(call.value(), "aclrtFreeHostWithDevSync")
    holds(pending, "the other device's blocked stream completed during aclrtFreeHostWithDevSync")
