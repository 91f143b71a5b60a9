"""Making the explorer's calls: on the main or the second thread, with gates opened on time.

Streams are blocked with the harness's :class:`~conformance.harness.probes.StreamBlocker`
(a host callback waiting on a gate). Two kinds of call need a gate opened while they run:

- a call that must wait for the device (aclrtFreeHostWithDevSync) gets the gates of the
  device's blocked streams opened :data:`RELEASE_DELAY_S` after it starts; it must not
  return before that happens;
- any other call made while streams are blocked is watched: if it has not returned after
  :data:`WATCH_BOUND_S`, the gates are opened so that it can, and the call is known to
  have waited.

An :class:`Alarm` thread does the first, a polling :class:`Watchdog` the second, so that
neither costs a thread start per call.
"""

from __future__ import annotations

import heapq
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from acl_hostmem_generated import acl_bindings as acl
from acl_hostmem_generated.acl_bindings import AclLibrary, CData

from ...harness.probes import StreamBlocker
from .calls import Output, Request
from .outputs import Observation

_T = TypeVar("_T")
#: What a wrapper called with raw=True answers: the aclError, with its one output if it has one.
RawResult = int | tuple[int, Output]

RELEASE_DELAY_S = 0.001
WATCH_BOUND_S = 0.5
WATCH_POLL_S = 0.05


QUIET = Observation()
"""What a call observes when no stream is blocked."""


class ThreadCallHung(Exception):
    """A call on the second thread did not return within the bound."""


@dataclass(order=True)
class _Job:
    due: float
    seq: int
    gates: tuple[int, ...] = field(compare=False)
    fired: bool = field(default=False, compare=False)
    cancelled: bool = field(default=False, compare=False)


class Alarm:
    """A helper thread that opens gates when a job falls due, unless the job was cancelled first.

    Jobs are few (a call that may wait for the device while streams are blocked), so each
    one wakes the thread; the many watched calls go through :class:`Watchdog` instead.
    """

    def __init__(self, open_gates: Callable[[tuple[int, ...]], None]) -> None:
        self._open = open_gates
        self._cv = threading.Condition()
        self._jobs: list[_Job] = []
        self._seq = 0
        self._stopped = False
        self._thread = threading.Thread(target=self._loop, name="explorer-alarm", daemon=True)
        self._thread.start()

    def arm(self, delay: float, gates: tuple[int, ...]) -> _Job:
        """Open ``gates`` after ``delay`` seconds unless :meth:`disarm` comes first."""
        with self._cv:
            self._seq += 1
            job = _Job(time.monotonic() + delay, self._seq, gates)
            heapq.heappush(self._jobs, job)
            self._cv.notify()
        return job

    def disarm(self, job: _Job) -> bool:
        """Cancel ``job``; True when it had fired already (its gates are open)."""
        with self._cv:
            job.cancelled = not job.fired
            return job.fired

    def stop(self) -> None:
        """End the helper thread."""
        with self._cv:
            self._stopped = True
            self._cv.notify()

    def _loop(self) -> None:
        with self._cv:
            while not self._stopped:
                while self._jobs and self._jobs[0].cancelled:
                    heapq.heappop(self._jobs)
                if not self._jobs:
                    self._cv.wait()
                    continue
                wait = self._jobs[0].due - time.monotonic()
                if wait > 0:
                    self._cv.wait(wait)
                    continue
                job = heapq.heappop(self._jobs)
                self._open(job.gates)
                job.fired = True


class _Watch:
    """One watched call: when it started, the gates to open if it runs too long, and whether that happened."""

    def __init__(self, gates: tuple[int, ...], due: float) -> None:
        self.gates = gates
        self.due = due
        self.lock = threading.Lock()
        self.fired = False
        self.done = False


class Watchdog:
    """A thread that looks at the call in progress every :data:`WATCH_POLL_S` and opens its gates once it is overdue.

    Starting and ending a watch is an assignment and an uncontended lock, so that every
    call made while streams are blocked can be watched.
    """

    def __init__(self, open_gates: Callable[[tuple[int, ...]], None]) -> None:
        self._open = open_gates
        self._current: _Watch | None = None
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="explorer-watchdog", daemon=True)
        self._thread.start()

    def start(self, gates: tuple[int, ...], bound: float) -> _Watch:
        """Watch the call about to be made."""
        watch = _Watch(gates, time.monotonic() + bound)
        self._current = watch
        return watch

    def end(self, watch: _Watch) -> bool:
        """The call returned; True when its gates had to be opened."""
        with watch.lock:
            watch.done = True
        self._current = None
        return watch.fired

    def stop(self) -> None:
        """End the thread."""
        self._stopped.set()

    def _loop(self) -> None:
        while not self._stopped.wait(WATCH_POLL_S):
            watch = self._current
            if watch is None or time.monotonic() < watch.due:
                continue
            with watch.lock:
                if not watch.done and not watch.fired:
                    self._open(watch.gates)
                    watch.fired = True


class SecondThread:
    """A thread that runs calls handed to it, one at a time; its current device is its own."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[tuple[int, Callable[[], None]] | None] = queue.SimpleQueue()
        # Results come back numbered, so that one arriving after its caller gave up is never taken for the next;
        # a job leaves its value with its caller and sends back what it raised (None when it returned).
        self._results: queue.SimpleQueue[tuple[int, BaseException | None]] = queue.SimpleQueue()
        self._sent = 0
        self._thread = threading.Thread(target=self._loop, name="explorer-thread-2", daemon=True)
        self._thread.start()

    def run(self, fn: Callable[[], _T], timeout: float) -> _T:
        """Run ``fn`` on the thread and return its result; ThreadCallHung when it takes longer than ``timeout``."""
        returned: list[_T] = []

        def job() -> None:
            returned.append(fn())

        self._sent += 1
        self._jobs.put((self._sent, job))
        deadline = time.monotonic() + timeout
        while True:
            try:
                number, raised = self._results.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise ThreadCallHung(f"the call on the second thread did not return within {timeout:.1f} s") from None
            if number == self._sent:
                break
        if raised is not None:
            raise raised
        return returned[0]

    def stop(self) -> None:
        """End the thread after its current call."""
        self._jobs.put(None)

    def _loop(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                return
            number, job = item
            raised: BaseException | None = None
            try:
                job()
            except BaseException as exc:  # noqa: BLE001 - handed back to the caller
                raised = exc
            self._results.put((number, raised))


class Driver:
    """Makes the explorer's calls against one library and counts them."""

    def __init__(self, lib: AclLibrary, timeout: float) -> None:
        self.lib = lib
        self.timeout = timeout
        self.calls = 0
        self.blockers: dict[int, StreamBlocker] = {}
        # Blockers of finished examples stay referenced: a stream may still be leaving their callback.
        self._retired: list[StreamBlocker] = []
        self._gate_count = 0
        self.alarm = Alarm(self.open_gates)
        self.watchdog = Watchdog(self.open_gates)
        self.second: SecondThread | None = None

    # ---- per example ----
    def start_example(self) -> None:
        """A fresh second thread (with no current device) for a new example."""
        self.end_example()
        self.second = SecondThread()

    def end_example(self) -> None:
        """Open every gate and let the second thread go."""
        self.open_gates(tuple(self.blockers))
        self._retired.extend(self.blockers.values())
        self.blockers.clear()
        if self.second is not None:
            self.second.stop()
            self.second = None

    def close(self) -> None:
        """End the example and the alarm thread."""
        self.end_example()
        self.alarm.stop()
        self.watchdog.stop()

    # ---- gates ----
    def open_gates(self, gates: tuple[int, ...]) -> None:
        """Let the streams these gates block continue."""
        for gate in gates:
            blocker = self.blockers.get(gate)
            if blocker is not None:
                blocker.open()

    def gate_is_open(self, gate: int) -> bool:
        """Whether ``gate`` has been opened."""
        blocker = self.blockers.get(gate)
        return blocker is None or blocker.gate.is_set()

    def next_gate(self) -> int:
        """The number the next blocking callback gets."""
        self._gate_count += 1
        return self._gate_count

    # ---- calls ----
    def call(self, req: Request, *, release: tuple[int, ...] = (), watch: tuple[int, ...] = ()) -> tuple[
            int, Output, Observation]:
        """Make the call ``req`` describes; returns (aclError, its one output or None, what was observed)."""
        if req.interface == "aclrtLaunchHostFunc":
            return self._block(req)
        wrapper = getattr(self.lib, req.interface)
        values = req.values
        if req.thread == 0 and not release and not watch:
            self.calls += 1
            result = wrapper(**values, raw=True)
            if result.__class__ is tuple:
                return result[0], result[1], QUIET
            return result, None, QUIET
        gates = release + watch

        def run() -> tuple[RawResult, frozenset[int]]:
            result: RawResult = wrapper(**values, raw=True)
            return result, frozenset(g for g in gates if self.gate_is_open(g))

        job = self.alarm.arm(RELEASE_DELAY_S, release) if release else None
        watched = self.watchdog.start(watch, WATCH_BOUND_S) if watch else None
        started = time.perf_counter()
        self.calls += 1
        try:
            if req.thread == 0:
                result, opened = run()
            else:
                assert self.second is not None
                # The exploration's monitor gives up on a call after one timeout; this bound is
                # only the backstop of runs without a monitor (shortening a finding).
                result, opened = self.second.run(run, 2 * self.timeout)
        finally:
            released = release if job is not None and self.alarm.disarm(job) else ()
            fired = watched is not None and self.watchdog.end(watched)
        observed = Observation(watched=watch, watchdog_fired=fired, released=released,
                               open_at_return=opened, seconds=time.perf_counter() - started)
        if isinstance(result, tuple):
            return result[0], result[1], observed
        return result, None, observed

    def _block(self, req: Request) -> tuple[int, Output, Observation]:
        """aclrtLaunchHostFunc of a gated callback (the harness's StreamBlocker) on the main thread."""
        self.calls += 1
        stream = req.values["stream"]
        if not isinstance(stream, CData):  # the explorer blocks only streams it created
            raise TypeError(f"the stream is {stream!r}, not a handle")
        try:
            blocker = StreamBlocker(self.lib, stream, self.timeout)
        except acl.AclError as exc:
            return exc.code, None, Observation()
        self.blockers[req.gate or 0] = blocker
        return 0, None, Observation()
