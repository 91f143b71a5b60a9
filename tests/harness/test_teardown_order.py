"""Every teardown releases in the spec's order (acl_hostmem_generated.teardown), declared once.

The case context, the explorer's examples and a finding's replay script each keep their own
books of what they hold; these tests hold all three to the generated TEARDOWN, so that a
step added to spec/interfaces.yaml without an implementation, or an implementation that
releases out of order, fails here.
"""

from __future__ import annotations

from typing import Any

from acl_hostmem_generated.catalog_types import Catalog
from acl_hostmem_generated.teardown import ACQUIRES, RESOURCES, TEARDOWN
from conformance.checks.explorer.calls import Step, addr, const
from conformance.checks.explorer.example import Example
from conformance.checks.explorer.reproducer import build_program
from conformance.harness.context import AclContext, Product
from conformance.harness.resources import load_catalog

CATALOG: Catalog = load_catalog()
STEP_CALLS = [step.call for step in TEARDOWN]


def test_the_context_and_the_explorer_implement_every_step_of_the_spec_and_no_other():
    for implementation in (AclContext, Example):
        assert sorted(implementation.TEARDOWN_STEPS) == sorted(set(STEP_CALLS)), implementation
        assert all(callable(getattr(implementation, m)) for m in implementation.TEARDOWN_STEPS.values())


def test_the_spec_releases_a_registration_before_the_memory_under_it_and_destroys_streams_last():
    """The order's reasons (spec/interfaces.yaml) hold of the generated steps."""
    first = {call: STEP_CALLS.index(call) for call in STEP_CALLS}
    assert first["aclrtHostUnregister"] < first["aclrtFreeHost"]
    assert first["aclrtSynchronizeStream"] < first["aclrtFreeHost"] < first["aclrtDestroyStream"]
    assert [s.call for s in TEARDOWN if s.resource == "stream" and s.gives_back] == ["aclrtDestroyStream"]
    assert {ACQUIRES["aclrtHostRegister"], ACQUIRES["aclrtMallocHostWithCfg"]} == {"registration", "host_memory"}


class _RecordingLibrary:
    """Answers every call with success and remembers the teardown calls, in order."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.trace: Any = None
        self._next = 0x10000

    def __getattr__(self, name: str) -> Any:
        def call(*_args: Any, raw: bool = False, **_kwargs: Any) -> Any:
            if name in STEP_CALLS:
                self.calls.append(name)
            if name == "aclrtHostUnregister" and raw:
                return 1  # nothing more to drain
            if name in ("aclrtMalloc", "aclrtCreateStream"):
                self._next += 0x1000
                return self._next
            return 0 if raw else None
        return call


def test_the_case_context_releases_in_the_spec_order():
    lib = _RecordingLibrary()
    product = Product("Ascend910B1", "atlas_a2", "5.10", 1, True)
    ctx = AclContext(lib, product, device=0, timeout=5.0, catalog=CATALOG)  # type: ignore[arg-type]
    ctx.stream()
    ctx.track_host(0x200000, 4096)
    ctx.track_registration(0x200000)
    ctx.device_alloc(64)
    assert ctx.release() == []
    assert lib.calls == STEP_CALLS


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
    assert RESOURCES["registration"].per_device
