"""Which call hung, and not waiting for it again: the call journal of a worker and the run's hung calls.

A worker whose case hangs in a C call is killed at the case's hard timeout, so it cannot
say where it stood. Each worker therefore keeps a :class:`CallJournal`: a small file that
always holds the ACL calls in flight in that process. When the reporting process records
the worker's death it reads the journal; when the same call hung in two cases,
:class:`HungCalls` lists it in a file every worker reads before each case, and from then on
a call of it raises :class:`~conformance.harness.violations.CallHung` at once (ERROR,
category timeout) instead of costing each remaining case its full timeout. Cases that do
not call it run as usual.
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ..harness import preconditions
from ..harness.violations import CallHung

JOURNAL_BYTES = 512
HANGS_BEFORE_GIVING_UP = 2


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

    def _journaled(self, name: str, call: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(call)
        def journaled(*args: Any, **kwargs: Any) -> Any:
            ident = threading.get_ident()
            rule = preconditions.current()
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

    def watch(self, lib: Any, names: Iterable[str]) -> None:
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
    found = (main or [name for _, _, name in entries] or [None])[0]
    if found is None:
        return None, None
    call, _, rule = found.partition("@")
    return call, rule or None


class HungCalls:
    """Calls that hung in :data:`HANGS_BEFORE_GIVING_UP` cases of this run, shared through a file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.counts: dict[str, int] = {}
        self.applied: set[str] = set()

    def record(self, call: str) -> bool:
        """Reporting side: one more case hung in ``call``; True when the call is now given up."""
        self.counts[call] = self.counts.get(call, 0) + 1
        if self.counts[call] != HANGS_BEFORE_GIVING_UP:
            return False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(call + "\n")
        return True

    def given_up(self) -> list[str]:
        """The calls listed so far."""
        try:
            return [line.strip() for line in self.path.read_text(encoding="utf-8").splitlines() if line.strip()]
        except OSError:
            return []

    def apply(self, lib: Any, promise_of: Callable[[str], str | None] = lambda call: None) -> None:
        """Worker side, before each case: a call given up raises CallHung at once from now on, naming
        the rule whose promise the call rests on (``promise_of``)."""
        for call in self.given_up():
            if call in self.applied or not hasattr(lib, call):
                continue

            def refuse(*args: Any, _call: str = call, **kwargs: Any) -> Any:
                raise CallHung(f"{_call} hung in {HANGS_BEFORE_GIVING_UP} cases of this run already; "
                               "it is not called again", promise_of(_call))

            refuse.__name__ = call
            setattr(lib, call, refuse)
            self.applied.add(call)
