"""The per-case context handed to every check: the library, the device, and cleanup.

Everything a case allocates goes through an :class:`AclContext` so that teardown can
release it even when the case fails half-way: blockers are opened, then what the case holds
is given back in the spec's teardown order (``acl_hostmem_generated.teardown``), then the
case's threads are joined and its own mappings unmapped. Every ACL call
the case makes is recorded in :attr:`AclContext.trace` for the report.

Set-up steps that rest on another rule's promise run under :meth:`AclContext.relying_on`
(the context's own helpers do so themselves), so that their failure BLOCKS the case by
that rule; the rule must be declared under the case's rule's ``needs``. The harness's own
instruments run under :meth:`AclContext.instrument`. Page-aligned memory is aligned to the
host's page size (``--acl-host-page``), which the driver aligns and rounds registrations to.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import mmap
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TypeVar

from acl_hostmem_generated import acl_bindings as acl
from acl_hostmem_generated.acl_bindings import AclLibrary, CData, MallocConfig, address
from acl_hostmem_generated.catalog_types import Catalog, ObservationEntry
from acl_hostmem_generated.teardown import ACQUIRES, Step

from . import preconditions
from .attachment import Attachment
from .ledger import HandleType, Ledger
from .observations import ObservationLog, Scalar
from .options import DEFAULT_EXPLORE_SEED, DEFAULT_EXPLORE_STEPS, DEFAULT_SYNC_WINDOW
from .probes import BoundedCall, StreamBlocker
from .product import Machine
from .trace import TraceEntry, show_result, show_value
from .violations import Blocked, CallTimeout, HarnessError, InstrumentFailed

_T = TypeVar("_T")

#: The docs' page: registration needs a 4 KiB-aligned pointer (11-02_host_memory_management.md:292).
DOC_PAGE = 4096


#: Pageable mappings under a registration that could not be removed, kept alive for the rest of
#: the process: unmapping them would hand their addresses to later cases, whose registrations
#: would collide with the stuck one (a second deviation counted against an innocent rule).
_STUCK_MAPPINGS: list[tuple[mmap.mmap, CData]] = []
#: aclrtMallocHost memory under such a registration, never freed for the same reason.
_STUCK_HOST: list[int] = []
#: The ranges, whole host pages, of the registrations that could not be removed: a later case's
#: registration that fails there is BLOCKED by the unregister promise, not judged on its own rule.
_STUCK_EXTENTS: list[StuckRange] = []
_REGISTER_CALLS = frozenset(call for call, resource in ACQUIRES.items() if resource == "registration")


#: How a teardown step makes a release: (what, the promise it rests on, the call); False when it
#: failed, which is then recorded.
_Attempt = Callable[[str, str, Callable[[], object]], bool]


@dataclass(frozen=True)
class StuckRange:
    """Whole host pages a registration still holds after its case, and whose deviation that is:
    ``owner`` None when the case could not unregister it (the unregister promise's), else the rule
    whose case left it behind although it unregistered (seen only by the simulator's counters)."""

    start: int
    end: int
    owner: str | None = None


def remember_stuck(base: int, size: int, page: int, owner: str | None = None) -> None:
    """Remember that the registration ``[base, +size)`` outlives its case (rounded to whole ``page``s)."""
    start = base // page * page
    end = (base + max(size, 1) + page - 1) // page * page
    _STUCK_EXTENTS.append(StuckRange(start, end, owner))


def forget_stuck(ptr: int, size: int) -> None:
    """A registration of ``[ptr, +size)`` succeeded: whatever stuck range it overlaps is evidently gone."""
    end = ptr + max(size, 1)
    _STUCK_EXTENTS[:] = [r for r in _STUCK_EXTENTS if not (r.start < end and ptr < r.end)]


def stuck_extent(ptr: int, size: int) -> StuckRange | None:
    """The range of a registration that outlived its case which ``[ptr, +size)`` overlaps, if any."""
    end = ptr + max(size, 1)
    return next((r for r in _STUCK_EXTENTS if r.start < end and ptr < r.end), None)


def keep_for_good(mapping: mmap.mmap, view: CData) -> None:
    """Keep a pageable mapping under a registration that could not be removed mapped until the process ends."""
    _STUCK_MAPPINGS.append((mapping, view))


def reclaim(lib: AclLibrary, block: int, size: int) -> bool:
    """Get the freed aclrtMallocHost address ``block`` back and keep it until the process ends, because
    a registration that could not be removed still covers it; whether the allocator gave it back.

    Allocations of ``size`` are made until one lands at ``block`` (at most :data:`RECLAIM_TRIES`);
    the others are freed again.
    """
    others: list[int] = []
    found = False
    try:
        for _ in range(RECLAIM_TRIES):
            code, ptr = lib.aclrtMallocHost(size, raw=True)
            if code != 0:
                break
            if ptr == block:
                _STUCK_HOST.append(ptr)
                found = True
                break
            others.append(ptr)
    finally:
        for ptr in others:
            lib.aclrtFreeHost(ptr, raw=True)
    return found

#: How many allocations :meth:`AclContext.reclaim` makes to get a freed address back.
RECLAIM_TRIES = 256
#: How many extra registrations of one base teardown removes at most.
DRAIN_TRIES = 16


@dataclass(frozen=True)
class Release:
    """One teardown step that failed: what it released, the promise it rests on, and why it failed."""

    what: str
    promise: str  # a set-up step of setup_promises, or "instrument"
    problem: str


@dataclass
class Product:
    """What the harness knows about the backend: SoC, family, OS kernel, devices and run mode.

    ``run_mode`` is what aclrtGetRunMode answered: "host" (EP form) or "device" (RC or
    Control-CPU-open form, where host memory is plain pages). ``driver`` is the family's
    driver generation (svm v2, v3, or none); ``host_page`` the host kernel's page size that
    the driver aligns and rounds registrations to; ``host_alloc`` where aclrtMallocHost
    memory comes from.
    """

    soc: str
    family: str
    kernel: str
    device_count: int
    va_flag: bool
    run_mode: str = "host"
    driver: str = "none"
    host_page: int = 4096
    host_alloc: str = "svm"
    release: str | None = None  # the CANN release the run is judged against

    @property
    def machine(self) -> Machine:
        """The machine facts applicability depends on."""
        return Machine(self.kernel, self.run_mode, self.device_count, self.host_page, self.host_alloc, self.release)


@dataclass(frozen=True)
class Note:
    """A finding a check records without failing the case (see :meth:`AclContext.finding`)."""

    severity: str
    message: str
    code: str | None = None


class AclContext:
    """The library, device and product a case runs against, plus its resources."""

    def __init__(self, lib: AclLibrary, product: Product, *, device: int, timeout: float,
                 catalog: Catalog, observations: Iterable[ObservationEntry] = (),
                 explore_steps: int = DEFAULT_EXPLORE_STEPS, explore_seed: int = DEFAULT_EXPLORE_SEED,
                 rule_id: str = "", needs: Iterable[str] = (), sync_window: float = DEFAULT_SYNC_WINDOW) -> None:
        self.lib = lib
        self.product = product
        self.device = device
        self.timeout = timeout
        self.catalog = catalog
        self.explore_steps = explore_steps
        self.explore_seed = explore_seed
        self.sync_window = sync_window
        self.rule_id = rule_id
        self.needs = frozenset(needs)
        self.promises: Mapping[str, str] = catalog.get("setup_promises") or {}
        self.page = product.host_page
        self.rests_on: tuple[str, ...] = ()
        self._probing = False
        self.trace: list[TraceEntry] = []
        self.observed = ObservationLog(observations)
        self.findings: list[Note] = []
        self.attachments: list[Attachment] = []
        self._started = time.perf_counter()
        self._lock = threading.Lock()
        # What the case holds (tracked by the helpers and track_*/forget_*), and every registration its
        # calls made (touched, from the trace: size, and the promise its removal rests on).
        self.ledger = Ledger()
        self.released_extents: dict[int, int] = {}  # after release: the registrations the case made
        self._blockers: list[StreamBlocker] = []
        self._pageable: list[tuple[mmap.mmap, CData]] = []
        self._guarded: list[tuple[int, int]] = []
        self._threads: list[threading.Thread] = []
        lib.trace = self._record

    def attach(self, name: str, text: str) -> None:
        """Hand a file to the report (Allure attachment, and a file beside the results)."""
        self.attachments.append(Attachment(name, text))

    # ---- tracing ----
    def _record(self, function: str, args: dict[str, object], result: object) -> None:
        if function in _REGISTER_CALLS:
            self._registration_called(args, result)
        entry = TraceEntry(
            function,
            {k: show_value(v) for k, v in args.items()},
            show_result(function, result),
            threading.current_thread().name,
            (time.perf_counter() - self._started) * 1000,
        )
        with self._lock:
            self.trace.append(entry)

    def _registration_called(self, args: dict[str, object], result: object) -> None:
        """Remember a registration's size; a refused one over the range of a registration an earlier
        case could not remove BLOCKS the case by the unregister promise (raised out of the call)."""
        ptr, size = args.get("ptr"), args.get("size")
        if not isinstance(ptr, int) or not isinstance(size, int) or not isinstance(result, int):
            return
        if result == 0:
            # Removing a PINNED-only registration is a promise of its own (setup_promises register_pinned).
            pinned = args.get("flag") == acl.ACL_HOST_REG_PINNED
            self.ledger.touch("registration", ptr, size, "register_pinned" if pinned else None)
            forget_stuck(ptr, size)
            return
        extent = stuck_extent(ptr, size)
        if extent is None or self._probing:
            return
        if extent.owner is not None:  # this refusal may be the deviation of the rule that left the range held
            if extent.owner != self.rule_id and extent.owner not in self.rests_on:
                self.rests_on += (extent.owner,)
            return
        rule = self.promise_of("unregister")
        if rule != self.rule_id:
            raise Blocked(rule, f"registration of [{ptr:#x}, +{size})",
                          f"refused with {result}, over [{extent.start:#x}, {extent.end:#x}), which an earlier "
                          "case's registration still covers because it could not be removed", result)

    # ---- observations ----
    def observe(self, name: str, value: Scalar, *, key: object = None) -> None:
        """Record a fact the case saw (declared for its rule in spec/observations.yaml) for summary.json.

        A value of the wrong type or an undeclared name raises HarnessError: a harness bug.
        """
        self.observed.record(name, value, key)
    # ---- findings ----
    def finding(self, severity: str, message: str, code: str | None = None) -> None:
        """Record something that does not decide the case, at its own severity (e.g. a source-only code)."""
        with self._lock:
            self.findings.append(Note(severity, message, code))

    # ---- set-up steps and instruments ----
    def promise_of(self, promise: str) -> str:
        """The rule a set-up step (a key of the spec's setup_promises) or a rule ID stands for."""
        return self.promises.get(promise, promise)

    def promise_of_call(self, function: str) -> str | None:
        """The rule whose promise a call of ``function`` rests on (the spec's setup_promises calls), or None."""
        step = (self.catalog.get("promise_calls") or {}).get(function)
        return self.promise_of(step) if step else None

    @contextlib.contextmanager
    def probing(self) -> Iterator[None]:
        """The harness probes the product (does an unsupported call fail cleanly?): its set-up rests
        on no rule's promise, and failing steps are the probe's to tolerate."""
        outer, self._probing = self._probing, True
        try:
            yield
        finally:
            self._probing = outer

    def may_rest_on(self, promise: str) -> None:
        """A failure the case is about to report may be another rule's deviation seen from here (the
        same symptom): it becomes BLOCKED by that rule when the rule fails on its own cases in the same
        run, and stays this rule's FAIL otherwise. The rule must be declared under ``needs``."""
        rule = self.promise_of(promise)
        if rule == self.rule_id or not self.rule_id:
            return
        if rule not in self.needs:
            raise HarnessError(f"{self.rule_id} may rest on the promise of {rule} but does not list it under "
                               "needs: in spec/rules.yaml")
        if rule not in self.rests_on:
            self.rests_on += (rule,)

    @contextlib.contextmanager
    def relying_on(self, promise: str, what: str) -> Iterator[None]:
        """Run a set-up step resting on another rule's promise (a setup_promises step or a rule ID).

        Its failure BLOCKS the case by that rule. In a case of that rule itself the step is
        what the case judges, so it runs as it is. Relying on a rule the case's rule does not
        declare under ``needs`` is a harness error, whatever the step's outcome.
        """
        rule = self.promise_of(promise)
        if not self.rule_id or rule == self.rule_id or self._probing:
            yield
            return
        if rule not in self.needs:
            raise HarnessError(f"{self.rule_id} relies on the promise of {rule} ({what}) but does not list it "
                               "under needs: in spec/rules.yaml")
        with preconditions.resting_on(rule, what):
            yield

    def instrument(self, name: str, what: str) -> contextlib.AbstractContextManager[None]:
        """Run a step of one of the harness's instruments: its failure is an ERROR naming it."""
        return preconditions.instrument(name, what)

    # ---- host memory ----
    def host_alloc(self, size: int, *, api: str = "malloc", cfg: MallocConfig | None = None) -> int:
        """Allocate host memory with aclrtMallocHost ("malloc") or WithCfg ("malloc_cfg")."""
        with self.relying_on("allocate", f"{'aclrtMallocHost' if api == 'malloc' else 'aclrtMallocHostWithCfg'} "
                                         f"of {size} bytes"):
            if api == "malloc":
                ptr = self.lib.aclrtMallocHost(size)
            else:
                ptr = self.lib.aclrtMallocHostWithCfg(size, cfg.ptr if cfg is not None else None)
        self.track_host(ptr, size)
        return ptr

    def track_host(self, ptr: int, size: int | None = None) -> None:
        """Free ``ptr`` with aclrtFreeHost at teardown unless :meth:`forget_host` is called."""
        self.ledger.acquire("host_memory", ptr, size=size)

    def forget_host(self, ptr: int) -> None:
        """The case freed ``ptr`` itself."""
        self.ledger.give_back("host_memory", ptr)

    def pinned_pages(self, pages: int = 1) -> int:
        """A host-page-aligned range of ``pages`` host pages inside an aclrtMallocHost allocation.

        The allocation has a page to spare on both ends, so that the driver's rounding of a
        registration to whole host pages never reaches another allocation.
        """
        base = self.host_alloc((pages + 2) * self.page)
        return (base + self.page - 1) // self.page * self.page

    def pageable_pages(self, pages: int = 1, *, align: int | None = None, offset: int = 0,
                       readonly: bool = False) -> int:
        """Pageable memory (anonymous mmap), not from aclrtMallocHost: ``pages`` host pages whose
        start is ``offset`` bytes past a multiple of ``align`` (default: the host page).

        ``readonly`` maps it PROT_READ.
        """
        align = align or self.page
        length = pages * self.page + align + offset
        if readonly:
            start = self._map(length, mmap.PROT_READ)
        else:
            region = mmap.mmap(-1, length)
            view = acl.ffi.from_buffer(region)
            self._pageable.append((region, view))
            start = address(view)
        return (start + align - 1) // align * align + offset

    def _map(self, length: int, prot: int) -> int:
        """An anonymous mapping made with libc's mmap (unmapped at teardown); its address."""
        base = _libc().mmap(None, length, prot, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)
        if base in (None, ctypes.c_void_p(-1).value):
            raise OSError(ctypes.get_errno(), "mmap failed")
        self._guarded.append((base, length))
        return int(base)

    def guarded_pages(self, pages: int = 1) -> int:
        """``pages`` host pages of pageable memory followed by a page that is not mapped at all."""
        libc = _libc()
        page = self.page
        length = (pages + 2) * page
        raw = libc.mmap(None, length, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS,
                        -1, 0)
        if raw in (None, ctypes.c_void_p(-1).value):
            raise OSError(ctypes.get_errno(), "mmap failed")
        base = (raw + page - 1) // page * page
        # Only the pages we keep are ours to unmap later: the hole may be reused by anyone.
        if base > raw:
            libc.munmap(raw, base - raw)
        libc.munmap(base + pages * page, raw + length - base - pages * page)
        self._guarded.append((base, pages * page))
        return int(base)

    # ---- registration ----
    def register(self, ptr: int, size: int, api: str = "v1", *, promise: str = "register") -> int | None:
        """Register with V1 (MAPPED; returns devPtr) or V2 MAPPED (returns None), a set-up step
        resting on ``promise``; raises on failure."""
        with self.relying_on(promise, f"{'aclrtHostRegister' if api == 'v1' else 'aclrtHostRegisterV2'} "
                                      f"of [{ptr:#x}, +{size})"):
            if api == "v1":
                dev = self.lib.aclrtHostRegister(ptr, size, acl.ACL_HOST_REGISTER_MAPPED)
            else:
                self.lib.aclrtHostRegisterV2(ptr, size, acl.ACL_HOST_REG_MAPPED)
                dev = None
        self.track_registration(ptr)
        return dev

    def unregister(self, ptr: int, what: str = "aclrtHostUnregister", *, device: int | None = None) -> None:
        """Unregister ``ptr`` (with ``device`` current, default the case's), a set-up step resting on
        the unregister promise; raises on failure, and the registration then counts as stuck."""
        with self.relying_on("unregister", f"{what} of {ptr:#x}"):
            if device is None:
                code = self.lib.aclrtHostUnregister(ptr, raw=True)
            else:
                code = self.on_device(device, lambda: self.lib.aclrtHostUnregister(ptr, raw=True))
            if code != 0:
                self.mark_stuck(ptr)
                raise acl.AclError("aclrtHostUnregister", code)
        self.forget_registration(ptr)

    def leaked_registrations(self) -> None:
        """After release the backend still counts registrations: every range the case registered may
        be one of them, and a later refusal there may be this case's rule's deviation."""
        for base, size in self.released_extents.items():
            remember_stuck(base, size, self.page, owner=self.rule_id)

    def mark_stuck(self, ptr: int) -> None:
        """A registration at ``ptr`` that could not be removed: the memory under it is never released,
        so that no later case is handed addresses the backend still holds as registered."""
        self.ledger.leak("registration", ptr)

    def reclaim(self, block: int, size: int) -> bool:
        """:func:`reclaim` the freed ``block`` of ``size`` bytes, under a registration this case could not remove."""
        self.mark_stuck(block)
        with self.instrument("reclaiming memory under a stuck registration", f"aclrtMallocHost of {size} bytes"):
            return reclaim(self.lib, block, size)

    def device_pointer(self, ptr: int) -> int:
        """aclrtHostGetDevicePointer of a registered ``ptr``, a set-up step resting on its promise."""
        with self.relying_on("device_pointer", f"aclrtHostGetDevicePointer of {ptr:#x}"):
            return int(self.lib.aclrtHostGetDevicePointer(ptr, 0))

    def track_registration(self, ptr: int) -> None:
        """Unregister ``ptr`` at teardown unless :meth:`forget_registration` is called."""
        self.ledger.acquire("registration", ptr)

    def forget_registration(self, ptr: int) -> None:
        """The case unregistered ``ptr`` itself."""
        self.ledger.give_back("registration", ptr)

    # ---- device memory and streams ----
    def device_alloc(self, size: int) -> int:
        """Device memory from aclrtMalloc (an instrument), freed at teardown."""
        with self.instrument("device memory", f"aclrtMalloc of {size} bytes"):
            ptr = self.lib.aclrtMalloc(size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        self.ledger.acquire("device_memory", ptr)
        return ptr

    def forget_device(self, ptr: int) -> None:
        """The case released device memory ``ptr`` itself."""
        self.ledger.give_back("device_memory", ptr)

    def stream(self) -> CData:
        """A new stream on the current device (an instrument), destroyed at teardown."""
        with self.instrument("stream", "aclrtCreateStream"):
            handle = self.lib.aclrtCreateStream()
        self.ledger.acquire("stream", handle)
        return handle

    def block(self, stream: CData, *, wait: bool = True) -> StreamBlocker:
        """Block ``stream`` with the harness's host-callback gate until the returned blocker is
        opened (or the timeout passes); with ``wait``, until the stream has reached the gate.

        The blocker is an instrument: a launch that fails or a callback that never runs is an
        ERROR naming it, never a verdict on the rule under test.
        """
        with self.instrument("blocking host callback", "aclrtLaunchHostFunc"):
            blocker = StreamBlocker(self.lib, stream, self.timeout)
        self._blockers.append(blocker)
        if wait and not blocker.entered.wait(self.timeout):
            raise InstrumentFailed(f"the harness's blocking host callback never started: aclrtLaunchHostFunc "
                                   f"succeeded but the stream did not run the callback within {self.timeout:.0f} s "
                                   "(does this backend run host callbacks?)")
        return blocker

    def copy(self, what: str, fn: Callable[[], int]) -> None:
        """A copy the harness makes for its own purposes (an instrument); ``fn`` returns the aclError."""
        with self.instrument("copy", what):
            code = fn()
            if code != 0:
                raise acl.AclError(what, code)

    # ---- bounded waits ----
    def start(self, fn: Callable[[], _T], name: str = "acl-call", *, set_device: bool = True,
              device: int | None = None) -> BoundedCall[_T]:
        """Run ``fn`` in a helper thread and return a handle to watch it.

        The current device is per thread, so the helper first makes ``device`` (default: the
        case's device) current unless ``set_device`` is False.
        """
        call: BoundedCall[_T] = BoundedCall(threading.Thread(target=lambda: None))
        wanted = self.device if device is None else device

        def runner() -> None:
            try:
                if set_device:
                    self.lib.aclrtSetDevice(wanted)
                call.result.append(fn())
            except BaseException as exc:  # noqa: BLE001 - reported through value()
                call.error.append(exc)
            finally:
                call.finished_at.append(time.perf_counter())

        call.thread = threading.Thread(target=runner, name=name, daemon=True)
        call.thread.start()
        self._threads.append(call.thread)
        return call

    def on_device(self, device: int, fn: Callable[[], _T]) -> _T:
        """Run ``fn`` with ``device`` current (in a helper thread) and return its value."""
        call = self.start(fn, name=f"device-{device}", device=device)
        if not call.wait(self.timeout):
            raise CallTimeout(f"a call with device {device} current did not return within {self.timeout:.0f} s")
        return call.value()

    def within(self, fn: Callable[[], _T], seconds: float, what: str) -> _T:
        """Run ``fn`` and fail the case if it does not return within ``seconds``."""
        call = self.start(fn, name=what)
        if not call.wait(seconds):
            raise CallTimeout(f"{what} did not return within {seconds:.1f} s")
        return call.value()

    # ---- teardown ----
    def _drain(self, call: str, handles: list[int]) -> None:
        """Give each handle back again while that succeeds (untraced): a backend that took a second
        registration of a range must not leave it to outlive the memory and trip later cases."""
        release = getattr(self.lib, call)
        tracing, self.lib.trace = self.lib.trace, None
        try:
            for handle in handles:
                for _ in range(DRAIN_TRIES):
                    if release(handle, raw=True) != 0:
                        break
        finally:
            self.lib.trace = tracing

    def _give_back(self, step: Step, kind: HandleType, attempt: _Attempt) -> None:
        """One step of the spec's teardown over what the case holds, as the kind's declaration says."""
        ledger = self.ledger
        for call in ledger.calls(step):
            handle = call.entry.handle
            if call.kept and isinstance(handle, int):
                # A registration that could not be removed still covers this memory: freeing it would
                # hand the same addresses to the next case, whose registrations would then collide.
                _STUCK_HOST.append(handle)
                continue
            what = f"{step.call}({handle:#x})" if kind.named else step.call
            given = attempt(what, ledger.promise_of(step.resource, call.entry),
                            functools.partial(getattr(self.lib, step.call), handle))
            if not given and step.gives_back and kind.leaks_if_refused:
                ledger.leak(step.resource, handle)
        if step.gives_back and kind.drained:
            leaked = ledger.leaked(step.resource)
            touched = ledger.touched(step.resource)
            self._drain(step.call, [h for h in touched if isinstance(h, int) and h not in leaked])
            for handle in leaked:
                size = touched[handle].size if handle in touched else None
                if isinstance(handle, int):
                    remember_stuck(handle, self.page if size is None else size, self.page)

    def release(self) -> list[Release]:
        """Release everything the case still holds; returns the steps that failed (never raises)."""
        problems: list[Release] = []

        def attempt(what: str, promise: str, fn: Callable[[], object]) -> bool:
            try:
                fn()
            except Exception as exc:  # noqa: BLE001 - teardown must go on
                problems.append(Release(what, promise, str(exc)))
                return False
            return True

        for blocker in self._blockers:
            blocker.open()
        for step, kind in self.ledger.teardown():
            self._give_back(step, kind, attempt)
        stuck = [ptr for ptr in self.ledger.leaked("registration") if isinstance(ptr, int)]
        for thread in self._threads:
            thread.join(self.timeout)
            if thread.is_alive():
                problems.append(Release(f"thread {thread.name}", "instrument",
                                        f"still running after {self.timeout:.0f} s"))
        for region, view in self._pageable:
            start = address(view)
            if any(start <= p < start + len(region) for p in stuck):
                keep_for_good(region, view)
                continue
            with contextlib.suppress(Exception):
                acl.ffi.release(view)
            attempt("munmap", "instrument", region.close)
        if self._guarded:
            libc = _libc()
            for base, length in self._guarded:
                if not any(base <= p < base + length for p in stuck):
                    libc.munmap(base, length)
        self.released_extents = {h: e.size for h, e in self.ledger.touched("registration").items()
                                 if isinstance(h, int) and e.size is not None}
        self.ledger.clear()
        self._blockers.clear()
        self._pageable.clear()
        self._guarded.clear()
        self.lib.trace = None
        return problems



def _libc() -> ctypes.CDLL:
    """libc's mmap and munmap with their prototypes (for mappings Python's mmap cannot make)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    return libc
