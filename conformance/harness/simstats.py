"""The reference simulator's live counters (``aclsimGetStats``), read around every case.

When the backend exports ``aclsimGetStats`` (the simulator does, a real libascendcl.so
does not), the harness reads its counters before a case and again after the case's
teardown released everything the case held. A counter that grew is a resource the backend
kept although the case gave it back: a leak, which FAILs the case's rule. The declaration
below is the simulator's own introspection interface (``sim/aclsim.h``), not part of the
spec, so it lives here rather than in the generated bindings.
"""

from __future__ import annotations

import re
from pathlib import Path

import cffi

from .resources import shipped_dir
from .symbols import exported

#: Counters that must not grow across a case, what each counts, and the set-up promise (spec
#: setup_promises) whose release gives them back: a leak of one is that rule's deviation.
COUNTERS = {
    "live_host_allocs": ("host allocation(s)", "free"),
    "live_host_bytes": ("byte(s) of host memory", "free"),
    "live_registrations": ("registration(s)", "unregister"),
    "live_streams": ("stream(s)", "instrument"),
    "live_device_allocs": ("device allocation(s)", "instrument"),
}
def stats_declaration(header: Path | None = None) -> str:
    """The ``aclsimStats`` struct and ``aclsimGetStats`` as cffi declarations, read from the simulator's
    own header (``sim/aclsim.h``): the layout is declared once, in C."""
    text = (header or shipped_dir("sim") / "aclsim.h").read_text(encoding="utf-8")
    found = re.search(r"typedef struct \{(?P<body>[^}]*)\} aclsimStats;", text)
    if found is None:
        raise RuntimeError("sim/aclsim.h declares no aclsimStats struct")
    fields = re.findall(r"^\s*(uint64_t\s+[a-z_]+);", found.group("body"), re.MULTILINE)
    return "typedef struct { " + " ".join(f"{field};" for field in fields) + " } aclsimStats;" \
        " int aclsimGetStats(aclsimStats *out);"


_CDEF = stats_declaration()
#: The simulator's introspection function (a cffi library's functions are attributes it looks up by name).
_GET_STATS = "aclsimGetStats"


class SimCounters:
    """``aclsimGetStats`` of an opened simulator library."""

    def __init__(self, path: Path) -> None:
        self.ffi = cffi.FFI()
        self.ffi.cdef(_CDEF)
        self.lib = self.ffi.dlopen(str(path))  # the library is already loaded: this shares its handle
        self.out = self.ffi.new("aclsimStats *")

    def read(self) -> dict[str, int]:
        """The current counters; empty when the call fails."""
        if getattr(self.lib, _GET_STATS)(self.out) != 0:
            return {}
        return {name: int(getattr(self.out, name)) for name in COUNTERS}


def open_counters(path: Path) -> SimCounters | None:
    """The counters of the backend at ``path`` when it is the simulator (it exports aclsimGetStats), else None."""
    counters = SimCounters(path)
    return counters if exported(counters.lib, _GET_STATS) else None


def leaked(before: dict[str, int], after: dict[str, int]) -> list[tuple[str, str]]:
    """What grew from ``before`` to ``after`` and the promise that gives it back, e.g.
    ``[("1 host allocation(s)", "free"), ("4096 byte(s) of host memory", "free")]``."""
    return [(f"{after[name] - before[name]} {what}", promise) for name, (what, promise) in COUNTERS.items()
            if name in before and name in after and after[name] > before[name]]


def leaked_counters(before: dict[str, int], after: dict[str, int]) -> list[str]:
    """The names of the counters that grew from ``before`` to ``after``."""
    return [name for name in COUNTERS if name in before and name in after and after[name] > before[name]]
