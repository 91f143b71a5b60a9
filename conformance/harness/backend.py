"""The backend of a process: open one ACL library, initialise it, learn what product it is.

Each process that runs cases opens the library once (the functions it does not export,
aclInit, aclrtSetDevice, family detection from aclrtGetSocName) and finalizes it once,
with a bound, at the end.
"""

from __future__ import annotations

import os
import sys
import threading
from dataclasses import dataclass
from typing import TypedDict

from acl_hostmem_generated import acl_bindings as acl
from acl_hostmem_generated.acl_bindings import AclLibrary
from acl_hostmem_generated.catalog_types import Catalog, FamilyEntry

from .context import Product
from .options import SIM_HOST_MEM_LIMIT, Settings
from .product import family_by_id, family_for_soc
from .release import ReleaseJSON, judge_release, read_versions
from .simstats import SimCounters, open_counters
from .symbols import missing_functions, stand_in_for_missing
from .violations import HarnessError

FINALIZE_LIMIT_S = 10.0


class BackendFacts(TypedDict):
    """What opening the library taught, as the executor reports it to the judge."""

    soc: str
    product_family: str
    product_name: str
    cann_version: str | None
    device_count: int
    run_mode: str
    missing_functions: list[str]
    driver: str
    host_page: int
    host_alloc: str
    release: ReleaseJSON | None
    cann_release: str | None


@dataclass
class Backend:
    """The opened library of this process and what was learned from it."""

    lib: AclLibrary
    product: Product
    family: FamilyEntry
    device: int
    facts: BackendFacts
    missing: tuple[str, ...] = ()  # functions of the spec the library does not export
    counters: SimCounters | None = None  # the simulator's live counters, when the backend is the simulator


def open_backend(settings: Settings, catalog: Catalog, worker_index: int) -> Backend:
    """aclInit, aclrtSetDevice and family detection; raises HarnessError saying what is wrong.

    The device is ``--acl-device`` or, by default, the executor's index modulo the
    device count, so that parallel workers spread over the devices.
    """
    try:
        os.environ.setdefault("ACLSIM_HOST_MEM_LIMIT", str(SIM_HOST_MEM_LIMIT))
        if settings.lib is None or not settings.lib.is_file():
            raise HarnessError(f"the ACL library {settings.lib} does not exist (pass --acl-lib)")
        lib = acl.load(settings.lib)
        missing = missing_functions(lib.lib, catalog["interfaces"])
        if "aclInit" in missing:
            raise HarnessError(f"{settings.lib} does not export aclInit: not an ACL library")
        code = lib.aclInit(None, raw=True)
        if code not in (acl.ACL_SUCCESS, acl.ACL_ERROR_REPEAT_INITIALIZE):
            raise HarnessError(f"aclInit failed: {code} {acl.error_name(code)}")
        count = int(lib.aclrtGetDeviceCount())
        device = settings.device if settings.device is not None else worker_index % max(count, 1)
        lib.aclrtSetDevice(device)
        soc = lib.aclrtGetSocName() or ""
        family = family_by_id(catalog, settings.product) if settings.product else family_for_soc(catalog, soc)
        if family is None:
            wanted = f"--acl-product {settings.product}" if settings.product else f"SoC {soc!r}"
            raise HarnessError(f"{wanted} matches no product family of the catalog; pass --acl-product "
                               "FAMILY_ID (ids: " + ", ".join(f["id"] for f in catalog["families"]) + ")")
        cann, acl_api = read_versions(lib)
        judged = judge_release(catalog, cann, settings.cann_release, acl_api)
        stand_in_for_missing(lib, missing, catalog, family)
        run_mode = _run_mode(lib, missing)
        product = Product(soc, family["id"], settings.kernel, count, bool(family["va_flag"]), run_mode,
                          family.get("driver", "none"), settings.host_page, settings.host_alloc,
                          judged.name if judged else None)
    except HarnessError:
        raise
    except Exception as exc:  # noqa: BLE001 - every case reports why the backend is unusable
        raise HarnessError(f"could not open {settings.lib}: {type(exc).__name__}: {exc}") from exc
    facts: BackendFacts = {
             "soc": soc, "product_family": family["id"], "product_name": family["name"], "cann_version": cann,
             "device_count": count, "run_mode": run_mode, "missing_functions": list(missing),
             "driver": product.driver, "host_page": product.host_page, "host_alloc": product.host_alloc,
             "release": judged.to_json() if judged else None, "cann_release": judged.name if judged else None}
    return Backend(lib, product, family, device, facts, missing, open_counters(settings.lib))


def _run_mode(lib: AclLibrary, missing: tuple[str, ...]) -> str:
    """"host" (EP form) or "device" (RC / Control-CPU-open form), as aclrtGetRunMode answers."""
    if "aclrtGetRunMode" in missing:
        raise HarnessError("the library does not export aclrtGetRunMode; the form of the product (RC or EP) "
                           "decides which rules apply")
    code, mode = lib.aclrtGetRunMode(raw=True)
    if code != acl.ACL_SUCCESS:
        raise HarnessError(f"aclrtGetRunMode failed: {code} {acl.error_name(code)}; the form of the product "
                           "(RC or EP) decides which rules apply")
    return "device" if mode == acl.ACL_DEVICE else "host"


def finalize_backend(backend: Backend, timeout: float) -> None:
    """aclFinalize in a helper thread, bounded so that a hanging backend cannot wedge the session."""
    done = threading.Event()

    def finalize() -> None:
        try:
            backend.lib.aclFinalize(raw=True)
        finally:
            done.set()

    threading.Thread(target=finalize, name="aclFinalize", daemon=True).start()
    limit = min(FINALIZE_LIMIT_S, timeout)
    if not done.wait(limit):
        print(f"acl: aclFinalize did not return within {limit:.1f} s; leaving it", file=sys.stderr)
