"""The per-case context handed to every check: the library, the device, and cleanup.

Everything a case allocates goes through an :class:`AclContext` so that teardown can
release it even when the case fails half-way: registrations are removed, host and
device memory freed, blockers opened and streams destroyed, in that order. Every ACL call
the case makes is recorded in :attr:`AclContext.trace` for the report.
"""

from __future__ import annotations

import ctypes
import mmap
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from acl_hostmem_generated import acl_bindings as acl
from acl_hostmem_generated.acl_bindings import AclLibrary, address

from .observations import ObservationLog
from .options import DEFAULT_EXPLORE_SEED, DEFAULT_EXPLORE_STEPS
from .probes import BoundedCall, StreamBlocker
from .trace import TraceEntry, show_result, show_value
from .violations import CallTimeout

PAGE = 4096


@dataclass(frozen=True)
class Attachment:
    """A file a case produced for the report (a replay script, a reproducer), by name."""

    name: str
    text: str


@dataclass
class Product:
    """What the harness knows about the backend: SoC, family, OS kernel, devices and run mode.

    ``run_mode`` is what aclrtGetRunMode answered: "host" (EP form) or "device" (RC or
    Control-CPU-open form, where host memory is plain pages).
    """

    soc: str
    family: str
    kernel: str
    device_count: int
    va_flag: bool
    run_mode: str = "host"


@dataclass(frozen=True)
class Note:
    """A finding a check records without failing the case (see :meth:`AclContext.finding`)."""

    severity: str
    message: str
    code: str | None = None


class AclContext:
    """The library, device and product a case runs against, plus its resources."""

    def __init__(self, lib: AclLibrary, product: Product, *, device: int, timeout: float,
                 catalog: dict[str, Any], observations: Iterable[Mapping[str, Any]] = (),
                 explore_steps: int = DEFAULT_EXPLORE_STEPS, explore_seed: int = DEFAULT_EXPLORE_SEED) -> None:
        self.lib = lib
        self.product = product
        self.device = device
        self.timeout = timeout
        self.catalog = catalog
        self.explore_steps = explore_steps
        self.explore_seed = explore_seed
        self.trace: list[TraceEntry] = []
        self.observed = ObservationLog(observations)
        self.findings: list[Note] = []
        self.attachments: list[Attachment] = []
        self._started = time.perf_counter()
        self._lock = threading.Lock()
        self._host: list[int] = []
        self._registered: list[int] = []
        self._device_mem: list[int] = []
        self._streams: list[Any] = []
        self._blockers: list[StreamBlocker] = []
        self._pageable: list[tuple[mmap.mmap, Any]] = []
        self._guarded: list[tuple[int, int]] = []
        self._threads: list[threading.Thread] = []
        lib.trace = self._record

    def attach(self, name: str, text: str) -> None:
        """Hand a file to the report (Allure attachment, and a file beside the results)."""
        self.attachments.append(Attachment(name, text))

    # ---- tracing ----
    def _record(self, function: str, args: dict[str, Any], result: Any) -> None:
        entry = TraceEntry(
            function,
            {k: show_value(v) for k, v in args.items()},
            show_result(function, result),
            threading.current_thread().name,
            (time.perf_counter() - self._started) * 1000,
        )
        with self._lock:
            self.trace.append(entry)

    # ---- observations ----
    def observe(self, name: str, value: Any, *, key: object = None) -> None:
        """Record a fact the case saw (declared for its rule in spec/observations.yaml) for summary.json.

        A value of the wrong type or an undeclared name raises HarnessError: a harness bug.
        """
        self.observed.record(name, value, key)
    # ---- findings ----
    def finding(self, severity: str, message: str, code: str | None = None) -> None:
        """Record something that does not decide the case, at its own severity (e.g. a source-only code)."""
        with self._lock:
            self.findings.append(Note(severity, message, code))

    # ---- host memory ----
    def host_alloc(self, size: int, *, api: str = "malloc", cfg: Any = None) -> int:
        """Allocate host memory with aclrtMallocHost ("malloc") or WithCfg ("malloc_cfg")."""
        if api == "malloc":
            ptr = self.lib.aclrtMallocHost(size)
        else:
            ptr = self.lib.aclrtMallocHostWithCfg(size, cfg.ptr if cfg is not None else None)
        self.track_host(ptr)
        return ptr

    def track_host(self, ptr: int) -> None:
        """Free ``ptr`` with aclrtFreeHost at teardown unless :meth:`forget_host` is called."""
        with self._lock:
            self._host.append(ptr)

    def forget_host(self, ptr: int) -> None:
        """The case freed ``ptr`` itself."""
        with self._lock:
            if ptr in self._host:
                self._host.remove(ptr)

    def pinned_pages(self, pages: int = 1) -> int:
        """A page-aligned range of ``pages`` pages inside an aclrtMallocHost allocation."""
        base = self.host_alloc((pages + 1) * PAGE)
        return (base + PAGE - 1) // PAGE * PAGE

    def pageable_pages(self, pages: int = 1) -> int:
        """Page-aligned pageable memory (anonymous mmap), not from aclrtMallocHost."""
        region = mmap.mmap(-1, pages * PAGE)
        view = acl.ffi.from_buffer(region)
        self._pageable.append((region, view))
        return address(view)

    def guarded_pages(self, pages: int = 1) -> int:
        """``pages`` pages of pageable memory followed by a page that is not mapped at all."""
        libc = ctypes.CDLL(None, use_errno=True)
        libc.mmap.restype = ctypes.c_void_p
        libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                              ctypes.c_long]
        libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        length = (pages + 1) * PAGE
        base = libc.mmap(None, length, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS,
                         -1, 0)
        if base in (None, ctypes.c_void_p(-1).value):
            raise OSError(ctypes.get_errno(), "mmap failed")
        # Only the mapped part is ours to unmap later: the hole may be reused by anyone.
        libc.munmap(base + pages * PAGE, PAGE)
        self._guarded.append((base, pages * PAGE))
        return base

    # ---- registration ----
    def register(self, ptr: int, size: int, api: str = "v1") -> int | None:
        """Register with V1 (MAPPED; returns devPtr) or V2 MAPPED (returns None); raises on failure."""
        if api == "v1":
            dev = self.lib.aclrtHostRegister(ptr, size, acl.ACL_HOST_REGISTER_MAPPED)
        else:
            self.lib.aclrtHostRegisterV2(ptr, size, acl.ACL_HOST_REG_MAPPED)
            dev = None
        self.track_registration(ptr)
        return dev

    def track_registration(self, ptr: int) -> None:
        """Unregister ``ptr`` at teardown unless :meth:`forget_registration` is called."""
        with self._lock:
            self._registered.append(ptr)

    def forget_registration(self, ptr: int) -> None:
        """The case unregistered ``ptr`` itself."""
        with self._lock:
            if ptr in self._registered:
                self._registered.remove(ptr)

    # ---- device memory and streams ----
    def device_alloc(self, size: int) -> int:
        """Device memory from aclrtMalloc, freed at teardown."""
        ptr = self.lib.aclrtMalloc(size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        with self._lock:
            self._device_mem.append(ptr)
        return ptr

    def forget_device(self, ptr: int) -> None:
        """The case released device memory ``ptr`` itself."""
        with self._lock:
            if ptr in self._device_mem:
                self._device_mem.remove(ptr)

    def stream(self) -> Any:
        """A new stream on the current device, destroyed at teardown."""
        handle = self.lib.aclrtCreateStream()
        with self._lock:
            self._streams.append(handle)
        return handle

    def block(self, stream: Any) -> StreamBlocker:
        """Block ``stream`` until the returned blocker is opened (or the timeout passes)."""
        blocker = StreamBlocker(self.lib, stream, self.timeout)
        self._blockers.append(blocker)
        return blocker

    # ---- bounded waits ----
    def start(self, fn: Callable[[], Any], name: str = "acl-call", *, set_device: bool = True,
              device: int | None = None) -> BoundedCall:
        """Run ``fn`` in a helper thread and return a handle to watch it.

        The current device is per thread, so the helper first makes ``device`` (default: the
        case's device) current unless ``set_device`` is False.
        """
        call = BoundedCall(threading.Thread(target=lambda: None))
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

    def on_device(self, device: int, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` with ``device`` current (in a helper thread) and return its value."""
        call = self.start(fn, name=f"device-{device}", device=device)
        if not call.wait(self.timeout):
            raise CallTimeout(f"a call with device {device} current did not return within {self.timeout:.0f} s")
        return call.value()

    def within(self, fn: Callable[[], Any], seconds: float, what: str) -> Any:
        """Run ``fn`` and fail the case if it does not return within ``seconds``."""
        call = self.start(fn, name=what)
        if not call.wait(seconds):
            raise CallTimeout(f"{what} did not return within {seconds:.1f} s")
        return call.value()

    # ---- teardown ----
    def release(self) -> list[str]:
        """Release everything the case still holds; returns the problems met (never raises)."""
        problems: list[str] = []

        def attempt(what: str, fn: Callable[[], Any]) -> None:
            try:
                fn()
            except Exception as exc:  # noqa: BLE001 - teardown must go on
                problems.append(f"{what}: {exc}")

        for blocker in self._blockers:
            blocker.open()
        for ptr in reversed(self._registered):
            attempt(f"aclrtHostUnregister({ptr:#x})", lambda p=ptr: self.lib.aclrtHostUnregister(p))
        for stream in self._streams:
            attempt("aclrtSynchronizeStream", lambda s=stream: self.lib.aclrtSynchronizeStream(s))
        for ptr in reversed(self._host):
            attempt(f"aclrtFreeHost({ptr:#x})", lambda p=ptr: self.lib.aclrtFreeHost(p))
        for ptr in reversed(self._device_mem):
            attempt(f"aclrtFree({ptr:#x})", lambda p=ptr: self.lib.aclrtFree(p))
        for stream in self._streams:
            attempt("aclrtDestroyStream", lambda s=stream: self.lib.aclrtDestroyStream(s))
        for thread in self._threads:
            thread.join(self.timeout)
            if thread.is_alive():
                problems.append(f"thread {thread.name} still running after {self.timeout:.0f} s")
        for region, view in self._pageable:
            acl.ffi.release(view)
            attempt("munmap", region.close)
        if self._guarded:
            libc = ctypes.CDLL(None)
            libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
            for base, length in self._guarded:
                libc.munmap(base, length)
        self._registered.clear()
        self._host.clear()
        self._device_mem.clear()
        self._streams.clear()
        self._blockers.clear()
        self._pageable.clear()
        self._guarded.clear()
        self.lib.trace = None
        return problems
