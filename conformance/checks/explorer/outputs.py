"""The checks of the state model on a successful call's outputs.

Each check ``spec/state_model.yaml`` declares is a function here, registered in
:data:`CHECKS` under its name (``tests/explorer`` checks that every one exists). A check
sees the state before the call, the request, the call's output and what the driver
observed while it ran, and returns a message when the property fails, plus the record the
reproducers need to judge it again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from acl_hostmem_generated import acl_bindings as acl

from .calls import CheckRecord, Output, Request, integer
from .state import World

CAPABILITY_VALUES = tuple(sorted(acl.ENUMS["aclrtHostMemMapCapability"].values()))


@dataclass
class Observation:
    """What the driver saw while a call ran.

    ``watched`` gates were to be opened if the call took too long (``watchdog_fired`` when
    it did); ``released`` are the gates opened while the call ran because it may wait for
    them (empty when it returned first); ``open_at_return`` those open when it returned.
    """

    watched: tuple[int, ...] = ()
    watchdog_fired: bool = False
    released: tuple[int, ...] = ()
    open_at_return: frozenset[int] = frozenset()
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)


Verdict = tuple[str | None, CheckRecord]
CheckFunction = Callable[[World, Request, Output, Observation], Verdict]


def _aligned_64(world: World, req: Request, out: Output, obs: Observation) -> Verdict:
    pointer = integer(out, "the pointer")
    bad = None if pointer % 64 == 0 else f"the pointer {pointer:#x} is not 64-byte aligned"
    return bad, CheckRecord("aligned_64", of=req.bind)


def _disjoint(world: World, req: Request, out: Output, obs: Observation) -> Verdict:
    pointer = integer(out, "the pointer")
    live = [a for a in world.allocations.values() if a.base < pointer + req.size and pointer < a.end]
    bad = f"[{pointer:#x}, +{req.size}) overlaps {live[0].var} [{live[0].base:#x}, +{live[0].size})" if live else None
    others = tuple((a.var, a.size) for a in world.allocations.values())
    return bad, CheckRecord("disjoint", of=req.bind, size=req.size, live=others)


def _device_pointer_non_null(world: World, req: Request, out: Output, obs: Observation) -> Verdict:
    return ("the device address is NULL" if not out else None), CheckRecord("device_pointer_non_null",
                                                                             of=req.bind)


def _device_pointer_is_host(world: World, req: Request, out: Output, obs: Observation) -> Verdict:
    bad = None if out == req.pointer else (f"the device address {integer(out, 'the device address'):#x} is not the "
                                           f"host address {req.pointer:#x}")
    return bad, CheckRecord("device_pointer_is_host", of=req.bind, host=req.symbols["ptr"])


def _device_pointer_recorded(world: World, req: Request, out: Output, obs: Observation) -> Verdict:
    reg = world.registrations[req.pointer]
    bad = None if out == reg.devptr else (f"the device address {integer(out, 'the device address'):#x} is not "
                                          f"{integer(reg.devptr, 'the recorded device address'):#x}, the one the "
                                          f"registration produced")
    return bad, CheckRecord("device_pointer_recorded", of=req.bind, equals=reg.devvar)


def _capability_member(world: World, req: Request, out: Output, obs: Observation) -> Verdict:
    bad = None if out in CAPABILITY_VALUES else f"the answer {out} is not a member of aclrtHostMemMapCapability"
    return bad, CheckRecord("capability_member", of=req.bind, values=CAPABILITY_VALUES)


def _capability_recorded(world: World, req: Request, out: Output, obs: Observation) -> Verdict:
    first, var = world.capabilities[(integer(req.values["deviceId"], "deviceId"),
                                      integer(req.values["hacType"], "hacType"))]
    bad = None if out == first else f"the answer {out} differs from the first answer {first}"
    return bad, CheckRecord("capability_recorded", of=req.bind, equals=var)


def _status(expected: int, name: str) -> CheckFunction:
    def check(world: World, req: Request, out: Output, obs: Observation) -> Verdict:
        bad = None if out == expected else f"the stream reports status {out}, not {expected}"
        return bad, CheckRecord(name, of=req.bind, equals=expected)

    return check


def _returned_promptly(world: World, req: Request, out: Output, obs: Observation) -> Verdict:
    bad = None
    if obs.watchdog_fired:
        bad = (f"the call had not returned {obs.seconds:.2f} s after it started while streams of the device were "
               "blocked: it waits for the device")
    return bad, CheckRecord("returned_promptly", gates=obs.watched)


def _waited_for(kind: str, gates: Callable[[World, Request], tuple[int, ...]]) -> CheckFunction:
    def check(world: World, req: Request, out: Output, obs: Observation) -> Verdict:
        closed = [g for g in gates(world, req) if g not in obs.open_at_return]
        bad = None
        if closed:
            bad = (f"the call returned while gate{closed[0]} still blocked a stream ({kind}): it did not wait for it")
        return bad, CheckRecord(f"waited_for_{kind}", gates=gates(world, req))

    return check


def _reader_gates(world: World, req: Request) -> tuple[int, ...]:
    allocation = world.allocation_at(req.pointer)
    device = world.threads[req.thread]
    if allocation is None:
        return ()
    return tuple(s.gate for s in world.readers_of(allocation.var) if s.device == device and s.gate is not None)


def _device_gates(world: World, req: Request) -> tuple[int, ...]:
    return tuple(s.gate for s in world.blocked_streams(world.threads[req.thread]) if s.gate is not None)


CHECKS: dict[str, CheckFunction] = {
    "aligned_64": _aligned_64,
    "disjoint": _disjoint,
    "device_pointer_non_null": _device_pointer_non_null,
    "device_pointer_is_host": _device_pointer_is_host,
    "device_pointer_recorded": _device_pointer_recorded,
    "capability_member": _capability_member,
    "capability_recorded": _capability_recorded,
    "status_not_ready": _status(acl.ACL_STREAM_STATUS_NOT_READY, "status_not_ready"),
    "status_complete": _status(acl.ACL_STREAM_STATUS_COMPLETE, "status_complete"),
    "returned_promptly": _returned_promptly,
    "waited_for_readers": _waited_for("readers", _reader_gates),
    "waited_for_device": _waited_for("device", _device_gates),
}
"""Check name (as in spec/state_model.yaml) → its function."""
