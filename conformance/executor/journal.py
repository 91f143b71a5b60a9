"""The call journal: a small file that always holds the ACL calls in flight in an executor.

An executor whose case hangs in a C call is killed at the case's limit, so it cannot say
where it stood; the judge reads the journal it leaves behind (:func:`call_in_flight`).
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, ParamSpec, TypeVar

if TYPE_CHECKING:  # the judge reads the journal too, and never needs cffi or the bindings (50 ms a process)
    from acl_hostmem_generated.acl_bindings import AclLibrary

from ..harness import promises
from ..harness.violations import CallHung

_P = ParamSpec("_P")
_R = TypeVar("_R")

JOURNAL_BYTES = 512


class CallJournal:
    """The ACL calls in flight in this process, rewritten in place before and after each call.

    A call made in a set-up step that rests on another rule's promise carries that rule
    (``name@RULE``), so that a worker dying in it leaves a case BLOCKED by that rule.
    """

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
        self.lock = threading.Lock()
        self.in_flight: dict[int, str] = {}
        self.main = threading.main_thread().ident

    def _write(self) -> None:
        entries = [("main" if ident == self.main else "thread") + ":" + name for ident, name in self.in_flight.items()]
        data = ",".join(entries).encode()[: JOURNAL_BYTES - 1]
        os.pwrite(self.fd, data.ljust(JOURNAL_BYTES, b" "), 0)

    def _journaled(self, name: str, call: Callable[_P, _R]) -> Callable[_P, _R]:
        @functools.wraps(call)
        def journaled(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            ident = threading.get_ident()
            rule = promises.current()
            with self.lock:
                self.in_flight[ident] = f"{name}@{rule}" if rule else name
                self._write()
            try:
                return call(*args, **kwargs)
            finally:
                with self.lock:
                    self.in_flight.pop(ident, None)
                    self._write()

        return journaled

    def watch(self, lib: AclLibrary, names: Iterable[str]) -> None:
        """Journal every call of ``names`` on ``lib`` (an AclLibrary: the wrappers of this instance)."""
        for name in names:
            setattr(lib, name, self._journaled(name, getattr(lib, name)))


def call_in_flight(path: Path) -> tuple[str | None, str | None]:
    """(the call a dead worker's journal shows in flight, the rule whose set-up step made it): its
    main thread's, else any; (None, None) when there is none."""
    try:
        text = path.read_bytes()[:JOURNAL_BYTES].decode(errors="replace").strip()
    except OSError:
        return None, None
    entries = [entry.partition(":") for entry in text.split(",") if ":" in entry]
    main = [name for where, _, name in entries if where == "main"]
    candidates: list[str | None] = [*main, *(name for _, _, name in entries), None]
    found = candidates[0]
    if found is None:
        return None, None
    call, _, rule = found.partition("@")
    return call, rule or None


def refuse_given_up(lib: AclLibrary, calls: Iterable[str], promise_of: Callable[[str], str | None],
                    hangs: int) -> None:
    """From now on a call of ``calls`` (each hung in ``hangs`` cases already) raises CallHung at once,
    naming the rule whose promise it rests on (``promise_of``); calls refused already stay so."""
    for call in calls:
        current = getattr(lib, call, None)
        if current is None or getattr(current, "given_up", False):
            continue

        def refuse(*args: object, _call: str = call, **kwargs: object) -> NoReturn:
            raise CallHung(f"{_call} hung in {hangs} cases of this run already; it is not called again",
                           promise_of(_call))

        refuse.__name__ = call
        refuse.given_up = True  # type: ignore[attr-defined]
        setattr(lib, call, refuse)
