"""Every teardown releases through one ledger (conformance.harness.ledger) in the spec's order.

The case context, the explorer's examples and a finding's replay script keep their books
in a :class:`~conformance.harness.ledger.Ledger`, which declares once per kind of resource
(``HANDLES``) how it is given back and walks the generated TEARDOWN. These tests hold the
declarations to the generated RESOURCES, so that a kind added to spec/interfaces.yaml
without a release declaration fails here, and each holder to the spec's order and to the
records and calls it has always made.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from acl_hostmem_generated import acl_bindings as acl
from acl_hostmem_generated.catalog_types import Catalog
from acl_hostmem_generated.teardown import ACQUIRES, RELEASES, RESOURCES, TEARDOWN
from conformance.checks.explorer.calls import Request, Step, addr, const
from conformance.checks.explorer.example import Example
from conformance.checks.explorer.reproducer import build_program
from conformance.checks.explorer.state import Allocation, ProductFacts, Registration, Stream
from conformance.harness import context, ledger
from conformance.harness.context import AclContext, Product, Release
from conformance.harness.resources import load_catalog

CATALOG: Catalog = load_catalog()
STEP_CALLS = [step.call for step in TEARDOWN]


def test_every_kind_of_resource_in_the_generated_resources_has_a_release_declared():
    assert ledger.undeclared() == [], "declare how each kind is given back in conformance/harness/ledger.py HANDLES"
    assert set(ledger.HANDLES) == set(RESOURCES), "a declaration for a kind the spec does not have"
    for name, kind in ledger.HANDLES.items():
        assert kind.kept_under is None or kind.kept_under in RESOURCES, name
    # Teardown gives each kind back with one of the calls the spec says release it.
    gives_back = {step.resource: step.call for step in TEARDOWN if step.gives_back}
    assert all(RELEASES[call] == resource for resource, call in gives_back.items())


def test_a_kind_of_resource_the_spec_adds_without_a_release_declaration_is_named(monkeypatch):
    """What the test above fails on: a kind in RESOURCES that HANDLES does not declare."""
    context_kind = ledger.RESOURCES["stream"].__class__("context", ("aclrtCreateContext",), ("aclrtDestroyContext",),
                                                         "output", False)
    monkeypatch.setattr(ledger, "RESOURCES", {**RESOURCES, "context": context_kind})
    assert ledger.undeclared() == ["context"]


def test_the_spec_releases_a_registration_before_the_memory_under_it_and_destroys_streams_last():
    """The order's reasons (spec/interfaces.yaml) hold of the generated steps."""
    first = {call: STEP_CALLS.index(call) for call in STEP_CALLS}
    assert first["aclrtHostUnregister"] < first["aclrtFreeHost"]
    assert first["aclrtSynchronizeStream"] < first["aclrtFreeHost"] < first["aclrtDestroyStream"]
    assert [s.call for s in TEARDOWN if s.resource == "stream" and s.gives_back] == ["aclrtDestroyStream"]
    assert {ACQUIRES["aclrtHostRegister"], ACQUIRES["aclrtMallocHostWithCfg"]} == {"registration", "host_memory"}
    assert RELEASES["aclrtFreeHostWithDevSync"] == "host_memory"


class _RecordingLibrary:
    """Answers every call with success (or refuses the teardown calls) and remembers them, in order."""

    def __init__(self, *, refuse: bool = False, only_teardown: bool = True,
                 mapped: frozenset[int] = frozenset()) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        self.mapped = mapped  # registrations that still answer a device address after teardown
        self.trace: Any = None
        self.refuse = refuse
        self.only_teardown = only_teardown
        self._next = 0x10000
        self._drained: set[object] = set()

    @property
    def names(self) -> list[str]:
        return [name for name, _args in self.calls]

    def __getattr__(self, name: str) -> Any:
        def call(*args: Any, raw: bool = False, **kwargs: Any) -> Any:
            if name in STEP_CALLS or not self.only_teardown:
                self.calls.append((name, args))
            if name in ("aclrtHostRegister", "aclrtHostRegisterV2"):
                if self.trace is not None:
                    self.trace(name, {"ptr": args[0], "size": args[1], "flag": args[2]}, 0)
                return 0 if raw else None
            if name == "aclrtHostUnregister" and raw:
                return 1 if self.refuse or args[0] in self._drained or self._drained.add(args[0]) else 0
            if name == "aclrtHostGetDevicePointer":
                return (0, 0x5000) if args[0] in self.mapped else (1, 0)
            if name in ("aclrtMalloc", "aclrtCreateStream"):
                self._next += 0x1000
                return self._next
            if self.refuse and name in STEP_CALLS:
                raise acl.AclError(name, 107000)
            return 0 if raw else None
        return call


def _context(lib: _RecordingLibrary) -> AclContext:
    product = Product("Ascend910B1", "atlas_a2", "5.10", 1, True)
    return AclContext(lib, product, device=0, timeout=5.0, catalog=CATALOG)  # type: ignore[arg-type]


def test_the_case_context_releases_in_the_spec_order():
    lib = _RecordingLibrary()
    ctx = _context(lib)
    ctx.stream()
    ctx.track_host(0x200000, 4096)
    ctx.track_registration(0x200000)
    ctx.device_alloc(64)
    assert ctx.release() == []
    assert lib.names == STEP_CALLS


def test_the_case_context_records_each_refused_release_with_its_promise_and_keeps_memory_under_a_stuck_one(
        monkeypatch):
    """The teardown records of a case (what, the promise a release rests on), newest first within a kind;
    the memory under a registration that could not be removed is kept, never freed."""
    monkeypatch.setattr(context, "_STUCK_HOST", [])
    monkeypatch.setattr(context, "_STUCK_EXTENTS", [])
    lib = _RecordingLibrary(refuse=True)
    ctx = _context(lib)
    first, second = ctx.stream(), ctx.stream()
    ctx.track_host(0x200000, 0x4000)
    ctx.track_host(0x400000)
    lib.aclrtHostRegisterV2(0x201000, 4096, acl.ACL_HOST_REG_PINNED)  # traced: its removal is register_pinned's
    ctx.track_registration(0x201000)
    ctx.track_registration(0x300000)
    dev1, dev2 = ctx.device_alloc(64), ctx.device_alloc(64)
    problems = ctx.release()
    assert [(p.what, p.promise) for p in problems] == [
        ("aclrtHostUnregister(0x300000)", "unregister"),
        ("aclrtHostUnregister(0x201000)", "register_pinned"),
        ("aclrtSynchronizeStream", "instrument"),
        ("aclrtSynchronizeStream", "instrument"),
        ("aclrtFreeHost(0x400000)", "free"),
        (f"aclrtFree({dev2:#x})", "instrument"),
        (f"aclrtFree({dev1:#x})", "instrument"),
        ("aclrtDestroyStream", "instrument"),
        ("aclrtDestroyStream", "instrument"),
    ]
    assert all(isinstance(p, Release) and "107000" in p.problem for p in problems)
    # Streams are given back oldest first; the block under the stuck registration is kept for good.
    assert [args[0] for name, args in lib.calls if name == "aclrtDestroyStream"] == [first, second]
    assert context._STUCK_HOST == [0x200000]
    assert [(r.start, r.end) for r in context._STUCK_EXTENTS] == [(0x300000, 0x301000), (0x201000, 0x202000)]
    assert ctx.released_extents == {0x201000: 4096}


def test_the_case_context_drains_every_registration_its_calls_made():
    lib = _RecordingLibrary(only_teardown=False)
    ctx = _context(lib)
    lib.aclrtHostRegisterV2(0x201000, 4096, acl.ACL_HOST_REG_MAPPED)
    lib.aclrtHostRegisterV2(0x202000, 4096, acl.ACL_HOST_REG_MAPPED)
    ctx.track_registration(0x202000)  # the case keeps one; it unregistered the other itself
    assert ctx.release() == []
    unregistered = [args[0] for name, args in lib.calls if name == "aclrtHostUnregister"]
    # The held one (traced), then each the calls made, again until refused (untraced): a second registration
    # of a range never outlives the case.
    assert unregistered == [0x202000, 0x201000, 0x201000, 0x202000, 0x202000]


class _Driver:
    def __init__(self, lib: _RecordingLibrary) -> None:
        self.lib = lib
        self.calls = 0
        self.blockers: dict[int, object] = {}

    def start_example(self) -> None:
        pass

    def end_example(self) -> None:
        pass

    def open_gates(self, gates: tuple[int, ...]) -> None:
        pass


def test_an_explorer_example_gives_back_what_the_model_and_the_backend_hold_in_the_spec_order():
    """Every range a register call touched is unregistered under every device (even a refused one), then
    the spec's order; each stream and the device buffer under its own device; the main device last."""
    lib = _RecordingLibrary(only_teardown=False)
    example, session = _example(lib)
    world = example.world
    example._remember(Request("aclrtMallocHost", size=8192), 0, 0x200000)
    world.allocations["h1"] = Allocation("h1", 0x200000, 8192, "malloc", False, 0, 1)
    example._remember(Request("aclrtHostRegisterV2", pointer=0x200000, size=4096), 0, None)
    world.registrations[0x200000] = Registration(0x200000, 4096, "v2", True, 0, addr("h1"))
    example._remember(Request("aclrtHostRegister", pointer=0x600000, size=4096), 107000, None)  # refused
    example._remember(Request("aclrtMallocHost", size=64), 0, 0x700000)
    example._remember(Request("aclrtFreeHostWithDevSync", pointer=0x700000), 0, None)  # given back
    world.streams["s1"] = Stream("s1", "stream-1", 1)  # type: ignore[arg-type]
    world.device_buffer, world.device_buffer_device = ("b1", 0x900000), 1
    lib.calls.clear()
    example.teardown()
    calls = [(name, args[0] if args else None) for name, args in lib.calls]
    assert calls == [
        # A base that unregisters is drained (a second registration must not outlive the example).
        ("aclrtSetDevice", 0), ("aclrtHostUnregister", 0x200000), ("aclrtHostUnregister", 0x200000),
        ("aclrtHostUnregister", 0x600000), ("aclrtHostUnregister", 0x600000),
        ("aclrtSetDevice", 1), ("aclrtHostUnregister", 0x200000), ("aclrtHostUnregister", 0x600000),
        ("aclrtSynchronizeStream", "stream-1"),
        ("aclrtFreeHost", 0x200000),
        ("aclrtSetDevice", 1), ("aclrtFree", 0x900000),
        ("aclrtSetDevice", 1), ("aclrtDestroyStream", "stream-1"),
        ("aclrtSetDevice", 0),
    ]
    # The exploration's figures count the host memory step as one call, as they always have.
    assert session.driver.calls == 13


def _example(lib: _RecordingLibrary) -> tuple[Example, Any]:
    product = ProductFacts("atlas_a2", True, False, 2, frozenset())
    session = SimpleNamespace(driver=_Driver(lib), product=product, device=0, examples=0)
    return Example(session), session  # type: ignore[arg-type]


def test_an_explorer_example_keeps_a_block_under_a_registration_no_device_removes(monkeypatch):
    monkeypatch.setattr(context, "_STUCK_EXTENTS", [])
    lib = _RecordingLibrary(only_teardown=False, refuse=True, mapped=frozenset({0x201000}))
    example, _session = _example(lib)
    world = example.world
    for base, size in ((0x200000, 8192), (0x700000, 64)):
        example._remember(Request("aclrtMallocHost", size=size), 0, base)
    world.allocations["h1"] = Allocation("h1", 0x200000, 8192, "malloc", False, 0, 1)
    example._remember(Request("aclrtHostRegisterV2", pointer=0x201000, size=4096), 0, None)
    lib.calls.clear()
    example.teardown()
    assert example.stuck == {0x201000}
    assert [args[0] for name, args in lib.calls if name == "aclrtFreeHost"] == [0x700000]
    assert [(r.start, r.end) for r in context._STUCK_EXTENTS] == [(0x201000, 0x202000)]


def test_a_replay_script_releases_what_its_steps_acquired_in_the_spec_order():
    path = [
        Step("call", "aclrtCreateStream", binds=(("stream", "s1"),)),
        Step("call", "aclrtMallocHost", args=(("size", const(4096)),), binds=(("hostPtr", "h1"),)),
        Step("call", "aclrtHostRegisterV2", args=(("ptr", addr("h1")), ("size", const(4096)), ("flag", const(1)))),
        Step("call", "aclrtMalloc", args=(("size", const(64)), ("policy", const(0))), binds=(("devPtr", "d1"),)),
        Step("call", "aclrtSetDevice", args=(("deviceId", const(1)),)),
    ]
    program = build_program(path, rule="HM-EXPLORE-ALL", problem="p", header="h", device=0, faults="",
                            catalog=CATALOG)
    calls = [call.split("(")[0] for call in program.teardown]
    # The registration is removed under each device the steps used; then the order of the spec.
    assert calls == ["aclrtSetDevice", "aclrtHostUnregister", "aclrtSetDevice", "aclrtHostUnregister",
                     "aclrtSynchronizeStream", "aclrtFreeHost", "aclrtFree", "aclrtDestroyStream"]
    assert program.teardown[1] == "aclrtHostUnregister(v['h1'], raw=True)"
    assert RESOURCES["registration"].per_device


@pytest.mark.parametrize("kind", sorted(RESOURCES))
def test_each_kind_is_declared_with_a_promise_the_catalog_knows(kind):
    promise = ledger.HANDLES[kind].promise
    assert promise == "instrument" or promise in (CATALOG.get("setup_promises") or {}), kind
