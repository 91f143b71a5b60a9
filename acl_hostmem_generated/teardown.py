# Generated from spec 5d3dcfc70eb619e5 by codegen; do not edit. Regenerate: python -m codegen generate
"""What the calls acquire and the order teardown gives it back in, from spec/interfaces.yaml.

The harness's case context, the explorer's examples and a finding's replay script keep their
books in one ledger (``conformance.harness.ledger``), which declares once per resource how it
is given back and releases in :data:`TEARDOWN` order, so a new call's teardown is declared in
the spec and, for a new kind of resource, once in the ledger.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Resource:
    """Something calls acquire: ``handle`` says what names it afterwards (first_argument or output)."""

    name: str
    acquired_by: tuple[str, ...]
    released_by: tuple[str, ...]  # the calls that give it back; their first argument names it
    handle: str
    per_device: bool  # given back under the device it was acquired on


@dataclass(frozen=True)
class Step:
    """``call`` on every held ``resource``; the resource's last step gives it back, an earlier one drains it."""

    resource: str
    call: str
    gives_back: bool


RESOURCES: dict[str, Resource] = {
    'registration': Resource('registration', ('aclrtHostRegister', 'aclrtHostRegisterV2'), ('aclrtHostUnregister',), 'first_argument', True),
    'host_memory': Resource('host_memory', ('aclrtMallocHost', 'aclrtMallocHostWithCfg'), ('aclrtFreeHost', 'aclrtFreeHostWithDevSync'), 'output', False),
    'device_memory': Resource('device_memory', ('aclrtMalloc',), ('aclrtFree',), 'output', False),
    'stream': Resource('stream', ('aclrtCreateStream',), ('aclrtDestroyStream', 'aclrtDestroyStreamForce'), 'output', False),
}

TEARDOWN: tuple[Step, ...] = (
    Step('registration', 'aclrtHostUnregister', True),
    Step('stream', 'aclrtSynchronizeStream', False),
    Step('host_memory', 'aclrtFreeHost', True),
    Step('device_memory', 'aclrtFree', True),
    Step('stream', 'aclrtDestroyStream', True),
)

#: Function -> the resource it acquires.
ACQUIRES: dict[str, str] = {call: r.name for r in RESOURCES.values() for call in r.acquired_by}

#: Function -> the resource it gives back.
RELEASES: dict[str, str] = {call: r.name for r in RESOURCES.values() for call in r.released_by}
