"""The preflight's probe: open the library once, before any case, and say what it is.

It runs in a process of its own, started as an executor is (:class:`conformance.session.executors.
Executor`): a neutral argv and environment, its code read from the command pipe, and its answer
sent as the start-up record on the record pipe, tagged with the judge's nonce. Nothing the
library prints on the process's stdout can stand in for the answer, and nothing in its argv
names the kit. The judge side (:func:`conformance.session.preflight.probe_library`) turns a
problem named here into its message and exit status.
"""

from __future__ import annotations

import ctypes
import os
import sys

from ..harness.loaded import brought_in, mapped_files
from ..harness.problems import Problem
from ..harness.release import read_versions
from ..i18n import N_
from .protocol import COMMAND_FD, RECORD_FD, as_int_or_none, as_object, as_text, read_frame, write_frame

#: Entry points the harness calls to open any backend; a library without them cannot be tested.
REQUIRED_SYMBOLS = ("aclInit", "aclFinalize", "aclrtGetDeviceCount", "aclrtSetDevice", "aclrtGetSocName")
SET_ENV_HINT = N_("source the set_env.sh of your CANN installation, which sets ASCEND_HOME_PATH")


def _problem(problem: Problem, message: str) -> dict[str, object]:
    return {"problem": problem.name, "message": message}


def _not_acl(lib: str, why: str) -> dict[str, object]:
    return _problem(Problem.NOT_AN_ACL_LIBRARY, f"{lib} is not an ACL runtime library ({why}).\n"
                    "Fix: pass the libascendcl.so of your CANN installation ($ASCEND_HOME_PATH/lib64/libascendcl.so).")


def probe(lib: str, device: int | None) -> dict[str, object]:
    """What opening ``lib`` showed: its facts (soc, cann_version, acl_api, device_count,
    loaded_libraries), or a problem's name and message."""
    try:
        return _probe(lib, device)
    except Exception as exc:  # noqa: BLE001 - any failure to open the backend is an initialisation problem
        return _problem(Problem.INIT_FAILED, f"opening {lib} failed: {type(exc).__name__}: {str(exc)[:200]}\n"
                        f"Fix: check the driver and device (npu-smi info), and {SET_ENV_HINT}.")


def _probe(lib: str, device: int | None) -> dict[str, object]:
    from acl_hostmem_generated import acl_bindings as acl  # the kit's own objects are mapped before the count

    before = mapped_files()
    try:
        handle = ctypes.CDLL(lib)
    except OSError as exc:
        return _not_acl(lib, f"it cannot be loaded: {str(exc).splitlines()[0][:160]}")
    missing = [name for name in REQUIRED_SYMBOLS if not hasattr(handle, name)]
    if len(missing) == len(REQUIRED_SYMBOLS):
        return _not_acl(lib, "it exports none of " + ", ".join(REQUIRED_SYMBOLS))
    if missing:
        return _problem(Problem.MISSING_SYMBOLS, f"{lib} lacks ACL entry points the harness needs: "
                        f"{', '.join(missing)}.\nFix: use the libascendcl.so of a complete CANN installation.")
    backend = acl.load(lib)
    code = backend.aclInit(None, raw=True)
    if code not in (acl.ACL_SUCCESS, acl.ACL_ERROR_REPEAT_INITIALIZE):
        return _problem(Problem.INIT_FAILED, f"aclInit failed with {code} {acl.error_name(code)} ({lib}).\n"
                        f"Fix: check the driver and device (npu-smi info), and {SET_ENV_HINT}.")
    count = int(backend.aclrtGetDeviceCount())
    chosen = device or 0
    code = backend.aclrtSetDevice(chosen, raw=True)
    if code != acl.ACL_SUCCESS:
        return _problem(Problem.INIT_FAILED, f"aclrtSetDevice({chosen}) failed with {code} {acl.error_name(code)}; "
                        f"the library sees {count} device(s).\nFix: pass --acl-device N below {count}.")
    soc = backend.aclrtGetSocName() or ""
    cann, acl_api = read_versions(backend)
    loaded = brought_in(before)  # after aclInit and a device: what the library loaded to get there
    backend.aclrtResetDevice(chosen, raw=True)
    backend.aclFinalize(raw=True)
    return {"soc": soc, "cann_version": cann, "acl_api": acl_api, "device_count": count, "loaded_libraries": loaded}


def serve(command_fd: int = COMMAND_FD, record_fd: int = RECORD_FD) -> int:
    """The probe process's whole life: the start frame, the library opened once, the answer, the end.

    Its own entry point rather than the executor's loop, so that the probe imports only what
    opening the library needs (the case machinery is 40 ms of imports, in every run)."""
    start = read_frame(command_fd)
    if start is None or start.get("t") != "start" or start.get("probe") is None:
        return 2
    asked = as_object(start["probe"])
    answer = probe(as_text(asked["lib"]), as_int_or_none(asked.get("device")))
    sys.stdout.flush()
    sys.stderr.flush()
    write_frame(record_fd, {"t": "ready", "nonce": start["nonce"], "seq": 0, "facts": answer})
    os._exit(0)  # as an executor ends: the library's destructors may hang
