"""The explorer's abstract state, and the effects of the state model applied to it.

The components are those ``spec/state_model.yaml`` declares (``acl_hostmem_generated.state_model.STATE``):
the product, live and freed host allocations, pageable mappings, live registrations (also
those that outlived their freed memory, as the runtime keeps them) and removed ones,
streams and the work queued on them, the current device of each thread and the capability
answers seen. Each effect of the model is a method ``effect_<name>`` here;
``tests/explorer`` checks that every effect the model names has one.
"""

from __future__ import annotations

import mmap
from dataclasses import dataclass, field

from acl_hostmem_generated import acl_bindings as acl
from acl_hostmem_generated.acl_bindings import CData

from .calls import PAGE, Output, Request, Sym, integer

MARK_STRIDE = PAGE


def _stream_of(req: Request) -> str:
    """The stream a stream effect acts on: the model gives these effects only to calls that name one."""
    if req.stream is None:
        raise KeyError(f"{req.interface} names no stream")
    return req.stream


def _read_of(req: Request) -> str:
    """The allocation a queued copy reads: the model gives queue_read only to copies that read one."""
    if req.reads is None:
        raise KeyError(f"{req.interface} reads no allocation")
    return req.reads


def _handle(out: Output, what: str) -> CData:
    """An output that is a handle (aclrtCreateStream always answers a cdata, NULL included)."""
    if isinstance(out, CData):
        return out
    raise TypeError(f"{what} is {out!r}, not a handle")


def _address_or_null(out: Output, what: str) -> int | None:
    """An output that is an address, or None where the call answered none."""
    return None if out is None else integer(out, what)


@dataclass
class Allocation:
    """A live host allocation, with the markers the explorer wrote into it."""

    var: str
    base: int
    size: int
    origin: str
    va_flag: bool
    device: int
    marker: int
    words: CData | None = None  # the allocation as uint64_t words (where it has markers)
    offsets: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        self.offsets = tuple(self.marker_offsets())
        if self.offsets:
            self.words = acl.ffi.cast("uint64_t *", self.base)

    @property
    def end(self) -> int:
        """One past the last byte."""
        return self.base + self.size

    def contains(self, start: int, length: int = 1) -> bool:
        """Whether ``[start, start + length)`` lies inside the allocation."""
        return self.base <= start and start + length <= self.end

    def marker_offsets(self) -> list[int]:
        """Where markers sit: the start, every page boundary inside, and the last 8 bytes."""
        if self.size < 8 or self.base % 8:
            return []
        first_page = -(-self.base // MARK_STRIDE) * MARK_STRIDE
        inside = range(first_page - self.base, self.size - 8, MARK_STRIDE)
        return sorted({0, *[o for o in inside if o > 0], (self.size - 8) // 8 * 8})


@dataclass
class Region:
    """Pageable memory the explorer mapped itself (anonymous mmap)."""

    var: str
    base: int
    size: int
    mapping: mmap.mmap
    view: CData

    def contains(self, start: int, length: int = 1) -> bool:
        """Whether ``[start, start + length)`` lies inside the mapping."""
        return self.base <= start and start + length <= self.base + self.size


@dataclass
class Registration:
    """A live registration."""

    base: int
    size: int
    api: str
    mapped: bool
    device: int
    symbol: Sym
    devptr: int | None = None
    devvar: str | None = None
    pinned: bool = False
    # Its host memory was freed while it was registered; the runtime's registry keeps it.
    stale: bool = False

    def touches(self, start: int, length: int = 1) -> bool:
        """Whether ``[start, start + length)`` shares a byte with the registered range."""
        return start < self.base + self.size and self.base < start + length

    def contains(self, start: int) -> bool:
        """Whether ``start`` lies in the registered range."""
        return self.base <= start < self.base + self.size


@dataclass
class Stream:
    """A stream the explorer created; ``gate`` is the number of the callback blocking it."""

    var: str
    handle: CData
    device: int
    blocked: bool = False
    gate: int | None = None
    reads: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class ProductFacts:
    """What the model needs to know about the product."""

    family: str
    va_flag: bool
    legacy_kernel: bool
    device_count: int
    unsupported: frozenset[str]
    device_syncing: frozenset[str] = frozenset()
    # Functions the library does not export: the explorer leaves their calls out (the
    # per-function cases already judge the absence), and explores the others.
    missing: frozenset[str] = frozenset()
    # Interfaces whose support on this family is disputed, and rules that do not apply to
    # the product (family, kernel, run mode, devices): clauses citing those predict nothing.
    disputed: frozenset[str] = frozenset()
    inapplicable: frozenset[str] = frozenset()
    # The driver generation and the host page size (--acl-host-page): the svm v2 driver
    # rounds registrations to whole host pages (2 MiB for VA_FLAG=1 memory).
    driver: str = "none"
    host_page: int = 4096


class World:
    """The abstract state of one example."""

    def __init__(self, product: ProductFacts, main_device: int) -> None:
        self.product = product
        self.allocations: dict[str, Allocation] = {}
        self.freed: dict[int, str] = {}
        self.freed_sizes: dict[int, int] = {}  # base -> size of the freed allocations, for reclaiming
        self.regions: dict[str, Region] = {}
        self.registrations: dict[int, Registration] = {}
        self.removed: dict[int, Sym] = {}
        self.removed_sizes: dict[int, int] = {}
        self.streams: dict[str, Stream] = {}
        self.threads: list[int | None] = [main_device, None]
        self.capabilities: dict[tuple[int, int], tuple[int, str]] = {}
        self.device_buffer: tuple[str, int] | None = None
        self.device_buffer_device = 0
        self._counter = 0
        self._markers = 0x5EED_0000_0000_0000

    # ---- names ----
    def new_var(self, prefix: str) -> str:
        """A fresh variable name for the path (``h0``, ``d1``, ``s2`` ...)."""
        self._counter += 1
        return f"{prefix}{self._counter}"

    def next_marker(self) -> int:
        """A marker value no other allocation of the example carries."""
        self._markers += 0x0101_0101_0001
        return self._markers & 0xFFFF_FFFF_FFFF_FFFF

    # ---- lookups ----
    def allocation_at(self, base: int) -> Allocation | None:
        """The live allocation starting at ``base``."""
        return next((a for a in self.allocations.values() if a.base == base), None)

    def allocation_containing(self, start: int, length: int = 1) -> Allocation | None:
        """The live allocation that holds ``[start, start + length)``."""
        return next((a for a in self.allocations.values() if a.contains(start, length)), None)

    def region_containing(self, start: int, length: int = 1) -> Region | None:
        """The pageable mapping that holds ``[start, start + length)``."""
        return next((r for r in self.regions.values() if r.contains(start, length)), None)

    def registration_containing(self, start: int) -> Registration | None:
        """The live registration ``start`` lies in (live registrations never overlap: a base is its own answer)."""
        exact = self.registrations.get(start)
        if exact is not None:
            return exact
        return next((r for r in self.registrations.values() if r.contains(start)), None)

    def registrations_inside(self, allocation: Allocation) -> list[Registration]:
        """Live registrations that share a byte with ``allocation``."""
        return [r for r in self.registrations.values() if r.touches(allocation.base, allocation.size)]

    def blocked_streams(self, device: int | None = None) -> list[Stream]:
        """Blocked streams, of one device or of all."""
        return [s for s in self.streams.values() if s.blocked and (device is None or s.device == device)]

    def readers_of(self, var: str) -> list[Stream]:
        """Blocked streams whose queued copies read allocation ``var``."""
        return [s for s in self.streams.values() if s.blocked and var in s.reads]

    # ---- effects (names from spec/state_model.yaml) ----
    def effect_add_allocation(self, req: Request, out: Output) -> None:
        """A new live allocation at the returned pointer."""
        var = req.bind
        base = integer(out, "the allocated pointer")
        self.freed.pop(base, None)
        self.freed_sizes.pop(base, None)
        self.allocations[var] = Allocation(var, base, req.size, req.interface_origin, req.cfg_kind == "va_flag",
                                           self.threads[req.thread] or 0, self.next_marker())

    def effect_drop_allocation(self, req: Request, out: Output) -> None:
        """The allocation ends; its registrations stay, stale; the removed ones inside it are forgotten."""
        allocation = self.allocation_at(req.pointer)
        if allocation is None:
            return
        for reg in self.registrations_inside(allocation):
            reg.stale = True
        self.removed = {b: s for b, s in self.removed.items() if not allocation.contains(b)}
        del self.allocations[allocation.var]
        self.freed[allocation.base] = allocation.var
        self.freed_sizes[allocation.base] = allocation.size

    def effect_add_registration(self, req: Request, out: Output) -> None:
        """A new live registration; V1 knows its device address at once."""
        v1 = req.interface == "aclrtHostRegister"
        flag = 0 if v1 else integer(req.values["flag"], "flag")
        reg = Registration(req.pointer, req.size, "v1" if v1 else "v2", v1 or bool(flag & acl.ACL_HOST_REG_MAPPED),
                           self.threads[req.thread] or 0, req.symbols["ptr"],
                           pinned=bool(flag & acl.ACL_HOST_REG_PINNED))
        if v1:
            reg.devptr, reg.devvar = _address_or_null(out, "the device address"), req.bind
        self.registrations[req.pointer] = reg
        self.removed.pop(req.pointer, None)

    def effect_drop_registration(self, req: Request, out: Output) -> None:
        """The registration ends; its base is remembered as removed (unless its memory is gone: nothing to reuse)."""
        reg = self.registrations.pop(req.pointer, None)
        if reg is not None and not reg.stale:
            self.removed[req.pointer] = reg.symbol
            self.removed_sizes[req.pointer] = reg.size

    def effect_learn_device_pointer(self, req: Request, out: Output) -> None:
        """The registration's device address is the one just answered."""
        reg = self.registrations[req.pointer]
        reg.devptr, reg.devvar = _address_or_null(out, "the device address"), req.bind

    def effect_record_capability(self, req: Request, out: Output) -> None:
        """The answer for this device and HAC type is remembered."""
        key = (integer(req.values["deviceId"], "deviceId"), integer(req.values["hacType"], "hacType"))
        self.capabilities[key] = (integer(out, "the capability"), req.bind)

    def effect_set_current_device(self, req: Request, out: Output) -> None:
        """The calling thread's current device is the one set."""
        self.threads[req.thread] = integer(req.values["deviceId"], "deviceId")

    def effect_add_stream(self, req: Request, out: Output) -> None:
        """A new idle stream on the calling thread's device."""
        self.streams[req.bind] = Stream(req.bind, _handle(out, "the stream"), self.threads[req.thread] or 0)

    def effect_block_stream(self, req: Request, out: Output) -> None:
        """A host callback now blocks the stream."""
        stream = self.streams[_stream_of(req)]
        stream.blocked, stream.gate = True, req.gate

    def effect_queue_read(self, req: Request, out: Output) -> None:
        """A copy that reads the allocation waits behind the stream's callback."""
        self.streams[_stream_of(req)].reads.add(_read_of(req))

    def effect_stream_idle(self, req: Request, out: Output) -> None:
        """The stream has no pending work."""
        stream = self.streams[_stream_of(req)]
        stream.blocked, stream.gate = False, None
        stream.reads.clear()

    def effect_drop_stream(self, req: Request, out: Output) -> None:
        """The stream is destroyed."""
        self.streams.pop(_stream_of(req), None)

    def effect_finish_device_work(self, req: Request, out: Output) -> None:
        """The gates of the device's blocked streams were opened while the call waited (those it did wait for)."""
        for stream in self.blocked_streams(self.threads[req.thread]):
            if stream.gate in req.released:
                stream.blocked = False

    def effect_add_device_buffer(self, req: Request, out: Output) -> None:
        """A device buffer that queued copies write to."""
        self.device_buffer = (req.bind, integer(out, "the device buffer"))
        self.device_buffer_device = self.threads[req.thread] or 0

    def apply(self, effects: tuple[str, ...], req: Request, out: Output) -> None:
        """Apply the effects of a prediction, in order."""
        for name in effects:
            getattr(self, f"effect_{name}")(req, out)
