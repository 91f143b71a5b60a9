"""Per-call cost of the generated wrappers against raw cffi ABI-mode calls, and the explorer's rate.

Each scenario does the same observable work three ways, interleaved so that machine load
hits them alike, and keeps the fastest of many repetitions:

- ``raw``: the raw cffi ABI-mode call as cffi's documentation writes it: the function
  looked up on the opened library, a new output cell per call (``ffi.new``), outputs read;
  it gives what the wrapper gives (a fresh output every call, safe from any thread);
- ``bare``: the same call with everything prepared once (the function object fetched, one
  output cell reused, pointers passed as the cdata they came back as) -- the floor, with
  neither guarantee;
- ``wrapper``: the generated wrapper (``lib.aclrtMallocHost(64)``), tracing off.
"""

from __future__ import annotations

import statistics
import time
import timeit
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROUNDS = 15
NUMBER = 20000


@dataclass(frozen=True)
class Scenario:
    """One call (or short call sequence) written three ways."""

    name: str
    bare: str
    raw: str
    wrapper: str


SCENARIOS = (
    Scenario("aclrtGetDeviceCount", "f_count(u32); u32[0]",
             "c = ffi.new('uint32_t *'); raw.aclrtGetDeviceCount(c); c[0]", "lib.aclrtGetDeviceCount()"),
    Scenario("aclrtSetDevice", "f_set(0)", "raw.aclrtSetDevice(0)", "lib.aclrtSetDevice(0)"),
    Scenario("aclrtMallocHost + aclrtFreeHost", "f_malloc(pp, 64); p = pp[0]; f_free(p)",
             "c = ffi.new('void **'); raw.aclrtMallocHost(c, 64); p = c[0]; raw.aclrtFreeHost(p)",
             "p = lib.aclrtMallocHost(64); lib.aclrtFreeHost(p)"),
    Scenario("aclrtHostRegister + aclrtHostGetDevicePointer + aclrtHostUnregister",
             "f_reg(vpage, 4096, 0, pp); d = pp[0]; f_dev(vpage, pp, 0); e = pp[0]; f_unreg(vpage)",
             "c = ffi.new('void **'); raw.aclrtHostRegister(vpage, 4096, 0, c); d = c[0]; c = ffi.new('void **'); "
             "raw.aclrtHostGetDevicePointer(vpage, c, 0); e = c[0]; raw.aclrtHostUnregister(vpage)",
             "d = lib.aclrtHostRegister(page, 4096, 0); e = lib.aclrtHostGetDevicePointer(page, 0); "
             "lib.aclrtHostUnregister(page)"),
    Scenario("aclrtHostMemMapCapabilities", "f_cap(0, 2, cap); cap[0]",
             "c = ffi.new('aclrtHostMemMapCapability *'); raw.aclrtHostMemMapCapabilities(0, 2, c); c[0]",
             "lib.aclrtHostMemMapCapabilities(0, 2)"),
)


def _namespace(lib_path: Path) -> dict[str, Any]:
    from acl_hostmem_generated import acl_bindings as acl

    lib = acl.load(lib_path)
    lib.aclInit(None, raw=True)
    lib.aclrtSetDevice(0)
    raw = ffi_lib = lib.lib
    base = lib.aclrtMallocHost(8192)
    page = -(-base // 4096) * 4096
    ffi = acl.ffi
    return {"lib": lib, "raw": ffi_lib, "ffi": ffi, "page": page, "vpage": ffi.cast("void *", page),
            "u32": ffi.new("uint32_t *"), "pp": ffi.new("void **"), "cap": ffi.new("aclrtHostMemMapCapability *"),
            "f_count": raw.aclrtGetDeviceCount, "f_set": raw.aclrtSetDevice, "f_malloc": raw.aclrtMallocHost,
            "f_free": raw.aclrtFreeHost, "f_reg": raw.aclrtHostRegister, "f_dev": raw.aclrtHostGetDevicePointer,
            "f_unreg": raw.aclrtHostUnregister, "f_cap": raw.aclrtHostMemMapCapabilities}


def wrapper_costs(lib_path: Path, rounds: int = ROUNDS, number: int = NUMBER) -> dict[str, dict[str, float]]:
    """Per scenario: ns per run of each way, and the wrapper's ratio to the two raw ways."""
    namespace = _namespace(lib_path)
    out: dict[str, dict[str, float]] = {}
    for scenario in SCENARIOS:
        best = {"bare": float("inf"), "raw": float("inf"), "wrapper": float("inf")}
        for _ in range(rounds):
            for way in best:
                seconds = timeit.timeit(getattr(scenario, way), globals=namespace, number=number)
                best[way] = min(best[way], seconds / number * 1e9)
        out[scenario.name] = {**{f"{k}_ns": round(v, 1) for k, v in best.items()},
                              "wrapper_over_raw": round(best["wrapper"] / best["raw"], 2),
                              "wrapper_over_bare": round(best["wrapper"] / best["bare"], 2)}
    return out


def geometric_mean(values: list[float]) -> float:
    """The geometric mean (the fair average of ratios)."""
    return statistics.geometric_mean(values)


def explorer_rate(lib_path: Path, steps: int, paths: str = "all") -> dict[str, float]:
    """One exploration against the library: actions, ACL calls, and calls per second of wall and of CPU time.

    CPU time counts every thread of the process, so calls per CPU second is the rate per core
    whatever else the machine is doing.
    """
    import json

    from conformance.checks.explorer.exploration import explore
    from conformance.checks.explorer.finding import product_facts
    from conformance.harness.backend import open_backend
    from conformance.harness.context import AclContext
    from conformance.harness.options import settings_from_values
    from conformance.harness.resources import catalog_path

    catalog = json.loads(catalog_path().read_text(encoding="utf-8"))
    settings = settings_from_values({"acl_lib": str(lib_path), "acl_device": 0})
    backend = open_backend(settings, catalog, 0)
    ctx = AclContext(backend.lib, backend.product, device=0, timeout=settings.timeout, catalog=catalog)
    ctx.lib.trace = None
    cpu = time.process_time()
    result = explore(ctx.lib, product_facts(ctx), 0, paths=paths, budget=steps, seed_value=0, timeout=10.0)
    cpu = time.process_time() - cpu
    return {"explorer_actions": result.steps, "explorer_calls": result.calls,
            "explorer_wall_s": round(result.seconds, 3), "explorer_calls_per_s": round(result.calls / result.seconds),
            "explorer_calls_per_cpu_s": round(result.calls / cpu), "explorer_found": result.mismatch is not None}
