"""Not waiting for a call again that hung twice: the run's hung calls.

A case that hangs in a C call costs its full limit, after which the judge kills its executor
and reads the call journal the executor left (:mod:`conformance.executor.journal`). Each
hang is one line of a file that every judge process of the run appends to; once the same
call hung in :data:`HANGS_BEFORE_GIVING_UP` cases, the judge hands it to the executor with
every later case program, and from then on a call of it raises
:class:`~conformance.harness.violations.CallHung` at once (ERROR, category timeout) instead
of costing each remaining case its full limit. Cases that do not call it run as usual.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

HANGS_BEFORE_GIVING_UP = 2
#: A line of the file is a call's name; more than this is no ACL function's.
NAME_LIMIT = 128


class HungCalls:
    """Calls that hung in :data:`HANGS_BEFORE_GIVING_UP` cases of this run, shared through a file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def record(self, call: str) -> bool:
        """One more case hung in ``call``; True when the call is now given up."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            os.write(fd, call[:NAME_LIMIT].encode() + b"\n")  # one write: appends from two judges never mix
        finally:
            os.close(fd)
        return self._counts()[call[:NAME_LIMIT]] == HANGS_BEFORE_GIVING_UP

    def _counts(self) -> Counter[str]:
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return Counter()
        return Counter(line.strip() for line in text.splitlines() if line.strip())

    def given_up(self) -> list[str]:
        """The calls that hung in enough cases, sorted."""
        return sorted(call for call, count in self._counts().items() if count >= HANGS_BEFORE_GIVING_UP)
