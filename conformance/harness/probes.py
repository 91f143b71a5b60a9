"""Probes for blocking behaviour: a stream blocker with a gate, and calls watched with timeouts.

Both are bounded: the blocker's callback gives up after ``limit`` seconds and every watched
call runs in a daemon thread, so a harness bug or a hanging backend cannot wedge the run.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from acl_hostmem_generated import acl_bindings as acl
from acl_hostmem_generated.acl_bindings import AclLibrary, CData

_T = TypeVar("_T")


class StreamBlocker:
    """Blocks a stream with a host callback until :meth:`open` is called.

    The callback waits on an event with a bound (``limit`` seconds) so that a harness bug
    can never wedge a stream forever; :attr:`entered` tells that the stream reached it.
    """

    def __init__(self, lib: AclLibrary, stream: CData, limit: float) -> None:
        self.gate = threading.Event()
        self.entered = threading.Event()
        self.limit = limit

        def host_func(_args: CData) -> None:
            self.entered.set()
            self.gate.wait(self.limit)

        callback = acl.ffi.callback("aclrtHostFunc", host_func)
        assert isinstance(callback, CData)  # a C function pointer (the stubs call it a Python callable)
        self._callback = callback
        lib.aclrtLaunchHostFunc(stream, self._callback, None)

    def open(self) -> None:
        """Let the stream continue."""
        self.gate.set()


@dataclass
class BoundedCall(Generic[_T]):
    """A call running in a helper thread, so that the case can watch it with timeouts."""

    thread: threading.Thread
    result: list[_T] = field(default_factory=list)
    error: list[BaseException] = field(default_factory=list)
    finished_at: list[float] = field(default_factory=list)

    @property
    def done(self) -> bool:
        """Whether the call has returned."""
        return not self.thread.is_alive()

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds; True when the call returned."""
        self.thread.join(timeout)
        return self.done

    def value(self) -> _T:
        """The call's return value (re-raising what it raised)."""
        if self.error:
            raise self.error[0]
        return self.result[0]
