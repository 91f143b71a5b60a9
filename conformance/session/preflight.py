"""Setup checks before any case runs: a mistake in the set-up is one message, not 176 failing cases.

:func:`preflight` checks, in order, what needs no library (the library path, ``--acl-product``,
``ACLSIM_FAULTS``), then opens the library in a child process (so that a backend that crashes
while loading cannot take the run with it): it must load, export the ACL entry points the
harness needs, initialise (``aclInit``, ``aclrtSetDevice``) and name a SoC of a known product
family. Each kind of mistake raises :class:`SetupError` with its own exit status
(:class:`Problem`, documented in docs/running.md) and a message of at most three lines that says what
to fix. No verdict is written for such a run.
"""

from __future__ import annotations

import ctypes
import difflib
import enum
import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from acl_hostmem_generated.catalog_types import Catalog

from ..harness.loaded import brought_in, mapped_files
from ..harness.options import Settings
from ..harness.product import family_by_id, family_for_soc
from ..harness.release import ReleaseError, judge_release, read_versions
from ..harness.resources import default_sim_lib, source_checkout
from ..harness.sanitizer import asan_runtime_missing
from .containment import run_bounded
from .selection import unknown_rule_patterns

#: Entry points the harness calls to open any backend; a library without them cannot be tested.
REQUIRED_SYMBOLS = ("aclInit", "aclFinalize", "aclrtGetDeviceCount", "aclrtSetDevice", "aclrtGetSocName")
PROBE_TIMEOUT_S = 120.0
STALE_REPORTS = ("summary.json", "junit.xml")
SET_ENV_HINT = "source the set_env.sh of your CANN installation, which sets ASCEND_HOME_PATH"


class Problem(enum.IntEnum):
    """Kinds of set-up mistake; the value is the exit status of ``run``, ``certify`` and pytest."""

    LIBRARY_NOT_FOUND = 10
    NOT_AN_ACL_LIBRARY = 11
    MISSING_SYMBOLS = 12
    INIT_FAILED = 13
    UNKNOWN_PRODUCT = 14
    UNKNOWN_SIM_FAULT = 15
    UNKNOWN_RULE = 16
    UNKNOWN_RELEASE = 17
    REPORT_DIR_IN_USE = 18


SETUP_EXIT_CODES = frozenset(int(p) for p in Problem)


class SetupError(Exception):
    """A set-up mistake found before any case ran."""

    def __init__(self, problem: Problem, message: str) -> None:
        super().__init__(message)
        self.problem = problem
        self.message = message

    def render(self) -> str:
        """The text shown to the user: at most three lines."""
        return "\n".join(f"acl-conformance: setup error: {self.message}".splitlines()[:3])


def _families(catalog: Catalog) -> str:
    return ", ".join(f["id"] for f in catalog["families"])


def check_library_path(lib: Path | None, requested: str | None) -> Path:
    """The library file to open; raises LIBRARY_NOT_FOUND naming what to set or pass."""
    if lib is not None and lib.is_file():
        return lib
    home = os.environ.get("ASCEND_HOME_PATH")
    if requested == "auto":
        if not home:
            raise SetupError(Problem.LIBRARY_NOT_FOUND, f"--acl-lib auto needs ASCEND_HOME_PATH, which is not set.\n"
                             f"Fix: {SET_ENV_HINT}, or pass --acl-lib /path/to/libascendcl.so.")
        raise SetupError(Problem.LIBRARY_NOT_FOUND, f"ASCEND_HOME_PATH={home} has no lib64/libascendcl.so.\n"
                         f"Fix: {SET_ENV_HINT} to a CANN installation, or pass --acl-lib PATH.")
    if requested:
        raise SetupError(Problem.LIBRARY_NOT_FOUND, f"--acl-lib {requested}: no such file.\n"
                         "Fix: pass the path of libascendcl.so, e.g. $ASCEND_HOME_PATH/lib64/libascendcl.so, "
                         f"or --acl-lib auto after you {SET_ENV_HINT}.")
    if lib is not None and lib == default_sim_lib() and source_checkout() is not None:
        raise SetupError(Problem.LIBRARY_NOT_FOUND, f"no --acl-lib given and the reference simulator {lib} is not "
                         "built.\nFix: run `make sim` to test the simulator, or pass --acl-lib PATH "
                         f"(real CANN: --acl-lib auto after you {SET_ENV_HINT}).")
    raise SetupError(Problem.LIBRARY_NOT_FOUND, "no ACL library given (--acl-lib or ACL_LIB).\n"
                     f"Fix: pass --acl-lib /path/to/libascendcl.so, or --acl-lib auto after you {SET_ENV_HINT}; "
                     "`acl-conformance build-sim` builds the reference simulator.")


def check_product(product: str | None, catalog: Catalog) -> None:
    """``--acl-product`` must name a family of the spec."""
    if product and family_by_id(catalog, product) is None:
        raise SetupError(Problem.UNKNOWN_PRODUCT, f"--acl-product {product} is not a product family of the spec.\n"
                         f"Valid IDs: {_families(catalog)}.")


def check_sim_faults(value: str | None, catalog: Catalog) -> None:
    """Every name in ``ACLSIM_FAULTS`` must be a fault of the spec (a typo would test the faithful simulator)."""
    known = [f["name"] for f in catalog.get("faults", [])]
    for name in [part for part in (value or "").replace(" ", ",").split(",") if part]:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise SetupError(Problem.UNKNOWN_SIM_FAULT, f"ACLSIM_FAULTS names an unknown fault {name!r}{hint}.\n"
                             "Fix: correct or unset ACLSIM_FAULTS; `acl-conformance sim-faults` lists the faults.")


def remove_stale_reports(report_dir: Path) -> None:
    """Delete an earlier run's verdict files, so that no old verdict is read as this run's."""
    for name in STALE_REPORTS:
        (report_dir / name).unlink(missing_ok=True)


def probe_command(lib: Path, device: int | None) -> list[str]:
    """The child process that opens the library and prints what it learned as JSON."""
    return [sys.executable, "-m", "conformance.session.preflight", str(lib), "" if device is None else str(device)]


def probe_library(lib: Path, device: int | None, timeout: float = PROBE_TIMEOUT_S) -> dict[str, object]:
    """Open ``lib`` in a child process: symbols, aclInit, device, SoC; raises SetupError on a problem."""
    proc = run_bounded(probe_command(lib, device), timeout)
    if proc.returncode is None:
        raise SetupError(Problem.INIT_FAILED, f"opening {lib} (aclInit, aclrtSetDevice) did not finish within "
                         f"{timeout:.0f} s.\nFix: check the driver and device (npu-smi info).")
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if not lines:
        detail = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1][:200]
        fix = asan_runtime_missing(lib) or "check the driver and device (npu-smi info) and that the library " \
                                           "matches them."
        raise SetupError(Problem.INIT_FAILED, f"opening {lib} killed the process that loaded it ({detail}).\n"
                         f"Fix: {fix}")
    answer = json.loads(lines[-1])
    if "problem" in answer:
        said = [line for line in proc.stderr.splitlines() if line.strip()]
        message = answer["message"]
        if said and answer["problem"] == Problem.INIT_FAILED.name:
            first, _, rest = message.partition("\n")
            message = f"{first}\nThe library said: {said[-1][:200]}\n{rest}"
        raise SetupError(Problem[answer["problem"]], message)
    facts: dict[str, object] = answer  # the probe's own answer (_answer): the facts it learned
    return facts


def check_family(facts: Mapping[str, object], product: str | None, catalog: Catalog) -> None:
    """Without ``--acl-product``, the SoC the library names must belong to a family of the spec."""
    if product is None and family_for_soc(catalog, str(facts.get("soc") or "")) is None:
        raise SetupError(Problem.UNKNOWN_PRODUCT, f"SoC {facts.get('soc')!r} matches no product family of the "
                         f"spec.\nFix: pass --acl-product ID (valid IDs: {_families(catalog)}).")


def check_rules(patterns: Sequence[str], catalog: Catalog) -> None:
    """Every ``--acl-rule`` must match a rule of the spec (a typo would silently run nothing)."""
    unknown = unknown_rule_patterns(patterns, catalog)
    if unknown:
        close = difflib.get_close_matches(unknown[0], [r["id"] for r in catalog["rules"]], n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise SetupError(Problem.UNKNOWN_RULE, f"--acl-rule {unknown[0]} matches no rule of the spec{hint}.\n"
                         "Fix: use a rule ID as printed in the reports (acl_hostmem_generated/traceability.md "
                         "lists them).")


def preflight(settings: Settings, requested_lib: str | None, catalog: Catalog) -> dict[str, object]:
    """Every set-up check; returns the facts learned from the library (soc, cann_version, device_count)."""
    check_rules(settings.rules, catalog)
    check_product(settings.product, catalog)
    check_sim_faults(os.environ.get("ACLSIM_FAULTS"), catalog)
    lib = check_library_path(settings.lib, requested_lib)
    facts = probe_library(lib, settings.device)
    check_family(facts, settings.product, catalog)
    check_release(facts, settings.cann_release, catalog)
    return facts


def check_release(facts: Mapping[str, object], override: str | None, catalog: Catalog) -> None:
    """The run can be judged against a release the spec knows (its own exit status when not)."""
    try:
        judge_release(catalog, _text(facts.get("cann_version")), override, _text(facts.get("acl_api")))
    except ReleaseError as exc:
        raise SetupError(Problem.UNKNOWN_RELEASE, f"{exc}.\nFix: certify a library of a release the spec knows, "
                         "or name the release with --acl-cann-release.") from exc


# --------------------------------------------------------------------------- the child process


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _answer(**data: object) -> None:
    print(json.dumps(data), flush=True)


def _not_acl(lib: str, why: str) -> None:
    _answer(problem=Problem.NOT_AN_ACL_LIBRARY.name, message=f"{lib} is not an ACL runtime library ({why}).\n"
            "Fix: pass the libascendcl.so of your CANN installation ($ASCEND_HOME_PATH/lib64/libascendcl.so).")


def _probe(lib: str, device: str) -> None:
    """Child side of :func:`probe_library`: print one JSON line (facts, or problem and message)."""
    from acl_hostmem_generated import acl_bindings as acl  # the kit's own objects are mapped before the count

    before = mapped_files()
    try:
        handle = ctypes.CDLL(lib)
    except OSError as exc:
        _not_acl(lib, f"it cannot be loaded: {str(exc).splitlines()[0][:160]}")
        return
    missing = [name for name in REQUIRED_SYMBOLS if not hasattr(handle, name)]
    if len(missing) == len(REQUIRED_SYMBOLS):
        _not_acl(lib, "it exports none of " + ", ".join(REQUIRED_SYMBOLS))
        return
    if missing:
        _answer(problem=Problem.MISSING_SYMBOLS.name, message=f"{lib} lacks ACL entry points the harness needs: "
                f"{', '.join(missing)}.\nFix: use the libascendcl.so of a complete CANN installation.")
        return
    backend = acl.load(lib)
    code = backend.aclInit(None, raw=True)
    if code not in (acl.ACL_SUCCESS, acl.ACL_ERROR_REPEAT_INITIALIZE):
        _answer(problem=Problem.INIT_FAILED.name, message=f"aclInit failed with {code} {acl.error_name(code)} "
                f"({lib}).\nFix: check the driver and device (npu-smi info), and {SET_ENV_HINT}.")
        return
    count = int(backend.aclrtGetDeviceCount())
    chosen = int(device) if device else 0
    code = backend.aclrtSetDevice(chosen, raw=True)
    if code != acl.ACL_SUCCESS:
        _answer(problem=Problem.INIT_FAILED.name, message=f"aclrtSetDevice({chosen}) failed with {code} "
                f"{acl.error_name(code)}; the library sees {count} device(s).\nFix: pass --acl-device N below {count}.")
        return
    soc = backend.aclrtGetSocName() or ""
    cann, acl_api = read_versions(backend)
    loaded = brought_in(before)  # after aclInit and a device: what the library loaded to get there
    backend.aclrtResetDevice(chosen, raw=True)
    backend.aclFinalize(raw=True)
    _answer(soc=soc, cann_version=cann, acl_api=acl_api, device_count=count, loaded_libraries=loaded)


def main(argv: Sequence[str]) -> int:
    """``python -m conformance.session.preflight LIB [DEVICE]`` (the child process)."""
    try:
        _probe(argv[0], argv[1] if len(argv) > 1 else "")
    except Exception as exc:  # noqa: BLE001 - any failure to open the backend is an initialisation problem
        _answer(problem=Problem.INIT_FAILED.name, message=f"opening {argv[0]} failed: {type(exc).__name__}: "
                f"{str(exc)[:200]}\nFix: check the driver and device (npu-smi info), and {SET_ENV_HINT}.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
