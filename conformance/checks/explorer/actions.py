"""The explorer's actions: their fields and choices, how often each is drawn, and what it needs.

A rule step draws an action kind and one number that :func:`decode` turns into the
action's fields (every choice list is ordered simplest first, so shrinking the number
moves towards the simplest action); a burst draws the same fields from a seeded generator.
The helpers build the arguments the actions share (configurations, shifted addresses).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from acl_hostmem_generated import acl_bindings as acl
from acl_hostmem_generated import state_model as model
from acl_hostmem_generated.acl_bindings import MallocConfig

from .calls import NULL, Sym
from .state import World

#: One field of an action: a choice (a kind, an interface, a flavour) or a number (a size, a pick, a thread, a flag).
Field = str | int
#: An action as it is performed and replayed: its name and its fields.
Action = tuple[str, tuple[Field, ...]]

SIZES = (64, 100, 4096, 8192, 12288, 20000, 69632)
MANY_SIZES = (64, 100, 256, 4096, 192, 64)
DEVICE_BUFFER = 131072
MAX_ALLOCATIONS = 12
MAX_REGISTRATIONS = 6
MAX_STREAMS = 3
MAX_REGIONS = 2
BURST = 48
THREADS = (0, 0, 0, 0, 1)
PICKS = tuple(range(8))
CONFIGS = ("null", "empty", "module_id", "va_flag")
INVALID_INTERFACES = tuple(sorted(model.INVALID_ARGUMENTS))
FLAVOURS = ("v1", "v2", "v1", "v2_pinned", "v2_pinned_mapped", "v1_reserved", "v2_reserved")
FREES = ("aclrtFreeHost", "aclrtFreeHostWithDevSync")
BOOLS = (False, True)

# Each action's fields and their choices, simplest first (shrinking moves towards the first).
ACTIONS: dict[str, tuple[tuple[Field, ...], ...]] = {
    "allocate": (("malloc", "malloc", *CONFIGS), SIZES, THREADS),
    "allocate_many": ((2, 3, 4, 5, 6),),
    "free": (PICKS, FREES, THREADS),
    "free_in_use": (PICKS, THREADS),
    "free_foreign": (("interior", "freed", "pageable"), PICKS, FREES, THREADS),
    "register": (PICKS, (0, 1, 2, 3), (1, 2), FLAVOURS, BOOLS, THREADS),
    "register_again": (PICKS, FLAVOURS, THREADS),
    "device_pointer": (PICKS, BOOLS, THREADS),
    "unregister": (PICKS, BOOLS, THREADS),
    "capabilities": (tuple(range(8)), tuple(range(10)), THREADS),
    "invalid": (tuple(range(16)), tuple(range(8)), PICKS, THREADS),
    "create_stream": (),
    "block_stream": (PICKS, BOOLS, PICKS),
    "unblock_stream": (PICKS,),
    "destroy_stream": (PICKS,),
    "set_device": ((1, 0), tuple(range(8))),
    "map_pageable": ((1, 2, 3),),
}
ACTION_NAMES = tuple(ACTIONS)
# How often a step or a burst draws each action: the nine calls often, stream and device
# changes (slow on any backend: a thread per stream) now and then.
BURST_WEIGHTS: dict[str, int] = {
    "allocate": 4, "allocate_many": 1, "free": 4, "free_in_use": 1, "free_foreign": 2,
    "register": 4, "register_again": 2, "device_pointer": 2, "unregister": 3,
    "capabilities": 3, "invalid": 3, "create_stream": 1, "block_stream": 2,
    "unblock_stream": 1, "destroy_stream": 1, "set_device": 1, "map_pageable": 1,
}
# What an action needs to do anything; a burst draws only among actions that can act.
NEEDS: dict[str, Callable[[World], object]] = {
    "free": lambda w: w.allocations,
    "free_in_use": lambda w: any(s.reads for s in w.blocked_streams()),
    "free_foreign": lambda w: w.allocations or w.freed or w.regions,
    "register": lambda w: w.allocations or w.regions,
    "register_again": lambda w: w.removed,
    "device_pointer": lambda w: w.registrations or w.removed,
    "unregister": lambda w: w.registrations or w.removed,
    "block_stream": lambda w: w.streams,
    "unblock_stream": lambda w: w.blocked_streams(),
    "destroy_stream": lambda w: w.streams,
}


def decode(code: int, fields: tuple[tuple[Field, ...], ...]) -> tuple[Field, ...]:
    """The field values a number stands for (mixed radix, first field in the lowest digit; larger numbers wrap)."""
    values = []
    for choices in fields:
        code, digit = divmod(code, len(choices))
        values.append(choices[digit])
    return tuple(values)


# The action kinds a step draws from, each as often as its weight (shrinking moves towards the first).
WEIGHTED_ACTIONS = tuple(name for name in ACTION_NAMES for _ in range(BURST_WEIGHTS[name]))
LARGEST_CODE = max(math.prod(len(choices) for choices in fields) for fields in ACTIONS.values()) - 1


V2_FLAGS = {"v2": acl.ACL_HOST_REG_MAPPED, "v2_pinned": acl.ACL_HOST_REG_PINNED,
            "v2_pinned_mapped": acl.ACL_HOST_REG_PINNED | acl.ACL_HOST_REG_MAPPED,
            "v2_reserved": acl.ACL_HOST_REG_READONLY}
V1_TYPES = {"v1": acl.ACL_HOST_REGISTER_MAPPED, "v1_reserved": acl.ACL_HOST_REGISTER_IOMEMORY}


def malloc_config(kind: str, other_device: int = 0) -> tuple[MallocConfig | None, Sym]:
    """(aclrtMallocConfig or None, its symbol) for a configuration kind, valid or invalid."""
    attrs = {
        "empty": (), "module_id": ((acl.ACL_RT_MEM_ATTR_MODULE_ID, 7),), "va_flag": ((acl.ACL_RT_MEM_ATTR_VA_FLAG, 1),),
        "attrs_null": ((acl.ACL_RT_MEM_ATTR_VA_FLAG, 1),), "attrs_null_empty": (),
        "attr_reserved": ((acl.ACL_RT_MEM_ATTR_RSV, 0),),
        "attr_unknown": ((0x7FFF, 1),), "other_device": ((acl.ACL_RT_MEM_ATTR_DEVICE_ID, other_device),),
    }
    if kind == "null":
        return None, NULL
    pairs = attrs[kind]
    cfg = acl.malloc_config(*pairs, attrs_null=kind in ("attrs_null", "attrs_null_empty"))
    return cfg, Sym("cfg", cfg=(kind, *[value for pair in pairs for value in pair]))


def shifted(sym: Sym, delta: int) -> Sym:
    """An address symbol moved by ``delta`` bytes."""
    return Sym(sym.kind, sym.value + delta, sym.var, sym.page, sym.cfg)
