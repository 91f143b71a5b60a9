"""The judge's scheduler: case programs run on N executors ahead of pytest, one in flight each.

Every generated case makes exactly one ``acl.run(check, expect=..., **params)`` call, and its
``acl_check`` marker says which (:func:`predicted_program`), so the judge knows each case's
program from the collected item without running the test body. When the run loop starts, the
scheduler queues the programs of the selected cases in pytest's order (after ``--acl-shuffle``
and every selection) and one thread per executor takes the next one as soon as its executor is
free: waiting for the executor, its output and its record happens there, never in pytest's
thread, which meanwhile reports the cases before. When pytest reaches a case, ``acl.run``
takes its answer (:meth:`Scheduler.take`), after checking that the program it would send is
the one dispatched; a program nobody predicted (a test's own check) jumps the queue and runs
on the next free executor.

Everything that follows a case in its executor is decided in that executor's thread before
its next case: a lost executor's case result (its call journal is read before a fresh one
overwrites it, a hung call counts towards giving it up), and a fresh executor after a case
that may have spoiled its process (:data:`Hooks.spoils`). Nothing is ever queued behind a
program in flight. The scheduler knows nothing of pytest: the plugin hands it plain jobs and
the hooks that decide what a case's program carries, its limit and its losses
(in the spirit of pytest-xdist's ``DSession`` loop and scheduler protocol, with executors
in place of workers).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import pytest

from ..executor.protocol import CHECK_PACKAGE
from ..results.outcomes import CaseResult
from .executors import Answer, Executor, ExecutorError

#: How long :meth:`Scheduler.take` waits between looks at its executor threads (a thread that died is a
#: fault of the kit, answered as a harness error rather than waited for).
WAIT_SLICE_S = 1.0


def check_program(check: str) -> dict[str, object]:
    """The ``check`` field of the program of a ``"family:function"`` check procedure."""
    family, _, function = check.partition(":")
    return {"check": f"{CHECK_PACKAGE}.{family}:{function}"}


def predicted_program(item: pytest.Item, rule_id: str, case_id: str) -> dict[str, object] | None:
    """The program ``acl.run`` of a generated case will send, from its ``acl_check`` marker; None for a
    case without one (a test's own case, whose program is known only when its body runs).

    The marker names the check and either its ``expect`` or the parameter (``case``) whose
    ``(params, expect)`` pair the body passes as ``acl.run(check, expect=expect, **params)``.
    """
    marker = item.get_closest_marker("acl_check")
    if marker is None or not marker.args:
        return None
    if "case" in marker.kwargs:
        callspec = getattr(item, "callspec", None)
        pair = callspec.params.get(marker.kwargs["case"]) if callspec is not None else None
        if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], Mapping)):
            return None
        kwargs: dict[str, object] = {"expect": pair[1], **pair[0]}
    else:
        kwargs = {"expect": marker.kwargs.get("expect")}
    return dict(check_program(str(marker.args[0])), rule_id=rule_id, case_id=case_id, kwargs=kwargs)


@dataclass(eq=False)
class Job:
    """One case program for an executor, and what came of it once :attr:`done` is set.

    Jobs compare by identity: the queue holds the very jobs pytest's cases take, and comparing two by value
    would compare their programs, for every job queued before the one a case takes."""

    key: str  # the case's node ID ("" for a program nobody predicted)
    rule_id: str
    case_id: str
    program: dict[str, object]
    done: threading.Event = field(default_factory=threading.Event)
    outcome: Dispatched | None = None


@dataclass(frozen=True)
class Dispatched:
    """What came of a job: the executor's answer, or why there is none.

    ``error`` is a set-up problem every case of the run meets (the library cannot be opened);
    ``lost`` the judge's result for a case whose executor died or hung; ``not_started`` a job the
    scheduler did not start because the run's time was up.
    """

    answer: Answer | None = None
    error: str | None = None
    lost: CaseResult | None = None
    facts: Mapping[str, object] = field(default_factory=dict)
    not_started: bool = False


@dataclass(frozen=True)
class Hooks:
    """What the plugin decides for the scheduler.

    ``prepare(job)``: the fields the program gets when it is dispatched (the calls given up, say) and its
    limit in seconds, or None when no case may start any more (the run deadline). ``lost(job, answer,
    executor, limit)``: the result of a case whose executor died or hung. ``spoils(job, record)``: whether
    the case may have left its executor in a state no teardown undoes. ``fresh_after_spoil(job)``: whether
    the job needs a fresh executor after such a case. ``open_error(exc)``: the message of an executor that
    cannot start.
    """

    prepare: Callable[[Job], tuple[dict[str, object], float] | None]
    lost: Callable[[Job, Answer, Executor, float], CaseResult]
    spoils: Callable[[Job, Mapping[str, object]], bool]
    fresh_after_spoil: Callable[[Job], bool]
    open_error: Callable[[ExecutorError], str]


@dataclass
class Slot:
    """One executor and its thread."""

    executor: Executor
    spoiled: bool = False
    busy: Job | None = None
    thread: threading.Thread | None = None


class Scheduler:
    """N executors, each running the next queued program as soon as it is free."""

    def __init__(self, executors: list[Executor], hooks: Hooks) -> None:
        self.slots = [Slot(executor) for executor in executors]
        self.hooks = hooks
        self.queue: deque[Job] = deque()
        self.predicted: dict[str, Job] = {}
        self.wakeup = threading.Condition()
        self.stopping = False
        self.started = False

    # ---- the judge's side ----
    def start(self, jobs: list[Job]) -> None:
        """Queue ``jobs`` (pytest's order) and start one thread per executor."""
        with self.wakeup:
            self.queue.extend(jobs)
            self.predicted.update((job.key, job) for job in jobs)
        self._start_threads()

    def _start_threads(self) -> None:
        if self.started:
            return
        self.started = True
        for index, slot in enumerate(self.slots):
            slot.thread = threading.Thread(target=self._serve, args=(slot,), name=f"acl-executor-{index}",
                                           daemon=True)
            slot.thread.start()

    def take(self, key: str, rule_id: str, case_id: str, program: dict[str, object]) -> Dispatched:
        """What came of ``program``, the one the case ``key`` sends: the dispatched job's outcome when it is
        that job's program, else the outcome of running it now on the next free executor."""
        with self.wakeup:
            job = self.predicted.pop(key, None)
            if job is not None and job.program != program:
                if job in self.queue:
                    self.queue.remove(job)
                job = None  # its answer (if it ran) belongs to no case: dropped
            if job is None:
                job = Job(key, rule_id, case_id, program)
                self.queue.appendleft(job)
            elif job in self.queue:  # pytest reached it first: it goes next
                self.queue.remove(job)
                self.queue.appendleft(job)
            self.wakeup.notify_all()
        self._start_threads()
        while not job.done.wait(WAIT_SLICE_S):
            if not any(slot.thread is not None and slot.thread.is_alive() for slot in self.slots):
                return Dispatched(error="the judge's executor threads ended before the case ran")
        assert job.outcome is not None
        return job.outcome

    def stop(self) -> None:
        """Start nothing more, end every program in flight (its executor killed) and stop the executors."""
        with self.wakeup:
            self.stopping = True
            self.queue.clear()
            self.predicted.clear()
            busy = [slot.executor for slot in self.slots if slot.busy is not None]
            self.wakeup.notify_all()
        for executor in busy:  # its thread sees the death at once, and closes it
            executor.kill()
        for slot in self.slots:
            if slot.thread is not None:
                slot.thread.join()
            else:
                slot.executor.stop()

    def facts(self) -> Mapping[str, object]:
        """The facts the first executor that opened the library learned (empty before)."""
        return next((slot.executor.facts for slot in self.slots if slot.executor.facts), {})

    # ---- each executor's thread ----
    def _next(self, slot: Slot) -> Job | None:
        with self.wakeup:
            while not self.queue and not self.stopping:
                self.wakeup.wait()
            if self.stopping:
                return None
            slot.busy = self.queue.popleft()
            return slot.busy

    def _serve(self, slot: Slot) -> None:
        try:
            while (job := self._next(slot)) is not None:
                try:
                    job.outcome = self._run(slot, job)
                except Exception as exc:  # noqa: BLE001 - a fault of the kit ends the case, not the judge
                    job.outcome = Dispatched(error=f"the judge's scheduler failed: {type(exc).__name__}: {exc}")
                finally:
                    with self.wakeup:
                        slot.busy = None
                    job.done.set()
        finally:
            slot.executor.stop()

    def _run(self, slot: Slot, job: Job) -> Dispatched:
        executor = slot.executor
        if slot.spoiled and self.hooks.fresh_after_spoil(job):
            executor.renew()  # a fresh executor in the same slot (forked from its server)
            slot.spoiled = False
        try:
            executor.ensure()
        except ExecutorError as exc:
            return Dispatched(error=self.hooks.open_error(exc))
        if executor.error:
            return Dispatched(error=executor.error, facts=dict(executor.facts))
        prepared = self.hooks.prepare(job)  # after the start: the case's limit counts from its program
        if prepared is None:
            return Dispatched(not_started=True, facts=dict(executor.facts))
        extra, limit = prepared
        answer = executor.run(dict(job.program, **extra), limit)
        if answer.record is None:
            return Dispatched(answer, lost=self.hooks.lost(job, answer, executor, limit), facts=dict(executor.facts))
        slot.spoiled = slot.spoiled or self.hooks.spoils(job, answer.record)
        return Dispatched(answer, facts=dict(executor.facts))
