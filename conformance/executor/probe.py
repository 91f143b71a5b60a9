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


#: What the probe can say, by name: English message IDs of the catalogue with ``{fields}`` (the judge adds
#: ``{hint}``). The answer names one and carries its field values, so the judge, which owns the language,
#: words it from this table; the library's own words only ever fill a field (never format anything).
MESSAGES: dict[str, str] = {
    "unloadable": N_("{lib} is not an ACL runtime library (it cannot be loaded: {error}).\n"
                     "Fix: pass the libascendcl.so of your CANN installation "
                     "($ASCEND_HOME_PATH/lib64/libascendcl.so)."),
    "no_entry_points": N_("{lib} is not an ACL runtime library (it exports none of {symbols}).\n"
                          "Fix: pass the libascendcl.so of your CANN installation "
                          "($ASCEND_HOME_PATH/lib64/libascendcl.so)."),
    "open_failed": N_("opening {lib} failed: {error}\nFix: check the driver and device (npu-smi info), and {hint}."),
    "missing_symbols": N_("{lib} lacks ACL entry points the harness needs: {symbols}.\n"
                          "Fix: use the libascendcl.so of a complete CANN installation."),
    "init_failed": N_("aclInit failed with {code} ({lib}).\nFix: check the driver and device (npu-smi info), and "
                      "{hint}."),
    "set_device_failed": N_("aclrtSetDevice({device}) failed with {code}; the library sees {count} device(s).\n"
                            "Fix: pass --acl-device N below {count}."),
}


def _problem(problem: Problem, key: str, **values: str) -> dict[str, object]:
    """A problem's answer: its name, its message in English (older judges read that) and the message's name
    and field values (what the judge words in its language)."""
    message = MESSAGES[key].format(hint=SET_ENV_HINT, **values)
    return {"problem": problem.name, "message": message, "message_id": key, "values": values}


def probe(lib: str, device: int | None) -> dict[str, object]:
    """What opening ``lib`` showed: its facts (soc, cann_version, acl_api, device_count,
    loaded_libraries), or a problem's name and message."""
    try:
        return _probe(lib, device)
    except Exception as exc:  # noqa: BLE001 - any failure to open the backend is an initialisation problem
        return _problem(Problem.INIT_FAILED, "open_failed", lib=lib, error=f"{type(exc).__name__}: {str(exc)[:200]}")


def _probe(lib: str, device: int | None) -> dict[str, object]:
    from acl_hostmem_generated import acl_bindings as acl  # the kit's own objects are mapped before the count

    before = mapped_files()
    try:
        handle = ctypes.CDLL(lib)
    except OSError as exc:
        return _problem(Problem.NOT_AN_ACL_LIBRARY, "unloadable", lib=lib, error=str(exc).splitlines()[0][:160])
    missing = [name for name in REQUIRED_SYMBOLS if not hasattr(handle, name)]
    if len(missing) == len(REQUIRED_SYMBOLS):
        return _problem(Problem.NOT_AN_ACL_LIBRARY, "no_entry_points", lib=lib, symbols=", ".join(REQUIRED_SYMBOLS))
    if missing:
        return _problem(Problem.MISSING_SYMBOLS, "missing_symbols", lib=lib, symbols=", ".join(missing))
    backend = acl.load(lib)
    code = backend.aclInit(None, raw=True)
    if code not in (acl.ACL_SUCCESS, acl.ACL_ERROR_REPEAT_INITIALIZE):
        return _problem(Problem.INIT_FAILED, "init_failed", code=f"{code} {acl.error_name(code)}", lib=lib)
    count = int(backend.aclrtGetDeviceCount())
    chosen = device or 0
    code = backend.aclrtSetDevice(chosen, raw=True)
    if code != acl.ACL_SUCCESS:
        return _problem(Problem.INIT_FAILED, "set_device_failed", device=str(chosen),
                        code=f"{code} {acl.error_name(code)}", count=str(count))
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
