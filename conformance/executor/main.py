"""The executor's loop: open the library once, then run case programs until told to stop.

Started by :class:`conformance.session.executors.Executor` as ``python main.py``: the script
(:func:`~.protocol.startup_script`) deletes itself, puts the kit on ``sys.path`` and calls
:func:`serve` with the two descriptors drawn for this executor.
"""

from __future__ import annotations

import faulthandler
import os
import sys
from collections.abc import Mapping
from pathlib import Path

from ..harness.backend import Backend, finalize_backend, open_backend
from ..harness.options import Settings
from ..harness.promises import promise_of_call
from ..harness.resources import load_catalog
from ..harness.violations import HarnessError
from .case import exception_record, module_from_file, run_case
from .journal import CallJournal, refuse_given_up
from .protocol import (
    COMMAND_FD,
    RECORD_FD,
    JSONValue,
    ProtocolError,
    as_float,
    as_int,
    as_int_or_none,
    as_list,
    as_object,
    as_text,
    as_text_or_none,
    read_frame,
    write_frame,
)


def settings_from_json(data: Mapping[str, JSONValue]) -> Settings:
    """The run's settings as the judge sent them (only what a case needs)."""
    lib = as_text_or_none(data.get("lib"))
    return Settings(lib=Path(lib) if lib else None, device=as_int_or_none(data.get("device")),
                    product=as_text_or_none(data.get("product")),
                    timeout=as_float(data["timeout"]), kernel=str(data["kernel"]), expectations=(),
                    report_dir=Path("."), explore_steps=as_int(data["explore_steps"]),
                    explore_seed=as_int(data["explore_seed"]), host_page=as_int(data["host_page"]),
                    host_alloc=str(data["host_alloc"]), sync_window=as_float(data["sync_window"]),
                    cann_release=as_text_or_none(data.get("cann_release")))


def serve(command_fd: int = COMMAND_FD, record_fd: int = RECORD_FD) -> int:
    """Answer the judge's frames; returns the exit status."""
    faulthandler.enable()  # a crash in the library leaves its Python stack on stderr, which the judge keeps
    start = read_frame(command_fd)
    if start is None or start.get("t") != "start":
        return 2
    nonce = start["nonce"]
    settings = settings_from_json(as_object(start["settings"]))
    catalog = load_catalog()
    backend: Backend | None = None
    try:
        backend = open_backend(settings, catalog, as_int(start.get("worker_index", 0)))
        journal = CallJournal(Path(as_text(start["journal"])))
        journal.watch(backend.lib, catalog["interfaces"])
        for path in as_list(start.get("preload") or None):
            module_from_file(str(path)).acl_executor_setup()
        write_frame(record_fd, {"t": "ready", "nonce": nonce, "seq": 0, "facts": backend.facts})
    except HarnessError as exc:
        write_frame(record_fd, {"t": "ready", "nonce": nonce, "seq": 0, "error": str(exc)})
    while True:
        try:
            program = read_frame(command_fd)
        except ProtocolError:
            return 2
        if program is None or program.get("t") == "stop":
            break
        seq = program.get("seq")
        if backend is None:
            record: dict[str, object] = {"setup": exception_record(HarnessError("the backend is not open"))}
        else:
            given_up = [as_text(call) for call in as_list(program.get("given_up") or None)]
            refuse_given_up(backend.lib, given_up, lambda call: promise_of_call(catalog, call),
                            as_int(program.get("hangs", 2)))
            record = run_case(backend, settings, catalog, program)
        sys.stdout.flush()
        sys.stderr.flush()
        write_frame(record_fd, dict(record, t="result", nonce=nonce, seq=seq))
    if backend is not None:
        finalize_backend(backend, settings.timeout)
        write_frame(record_fd, {"t": "stopped", "nonce": nonce})
    sys.stdout.flush()
    os._exit(0)  # no interpreter teardown: the library's destructors may hang (the judge bounds the wait)
