"""What the run's watchdog (``run``) watches besides the deadline: a judge stopped from outside, and the
scratch directory every temporary file of the run lives under (issue 34.4).

A judge stopped with SIGSTOP never ends on its own, and a judge killed with SIGKILL cannot remove
its temporary directories. The watchdog therefore:

- polls the controller and its workers (not the executors: a library that stops itself is its
  case's timeout) and, when one stays stopped for :data:`STOPPED_GRACE_S`, ends the run with
  :data:`EXIT_JUDGE_STOPPED` (verdict INTERRUPTED by SIGSTOP) and one line;
- hands the judge a scratch directory of its own as ``TMPDIR`` (the run directory, each executor's
  directory, pytest's) and removes it when the run ends, however the judge ended.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from ..executor.protocol import SCRIPT_NAME
from ..i18n import _
from ..results.vocabulary import interrupted_status
from .containment import children

#: The exit status of a run whose judge was stopped from outside: INTERRUPTED by SIGSTOP.
EXIT_JUDGE_STOPPED = interrupted_status(signal.SIGSTOP)
#: How long a judge may stay stopped before the run is ended (a debugger's or a shell's short stop passes).
STOPPED_GRACE_S = 3.0
POLL_S = 0.25


class JudgeStopped(Exception):
    """A judge process stayed stopped (SIGSTOP, SIGTSTP, a tracer) for :data:`STOPPED_GRACE_S`."""

    def __init__(self, pids: list[int]) -> None:
        super().__init__(pids)
        self.pids = pids

    def line(self) -> str:
        """The one line the run ends with."""
        return _("error: the judge (pid {pids}) was stopped from outside for "
                 "{grace:.0f} s; the run was ended and nothing was judged").format(
                     pids=", ".join(map(str, self.pids)), grace=STOPPED_GRACE_S)


def _stat(pid: int) -> tuple[str, str] | None:
    """(state, command name) of ``pid``; None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            text = handle.read(1024).decode(errors="replace")
    except OSError:
        return None
    name = text[text.find("(") + 1:text.rfind(")")]
    return text[text.rfind(")") + 2:][:1], name


def _is_executor(pid: int) -> bool:
    """An executor (sandboxed: bwrap; unsandboxed: ``python main.py``) is not a judge."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return True
    return os.path.basename(argv[0].decode(errors="replace")) == "bwrap" or SCRIPT_NAME.encode() in argv[1:2]


def judges(controller: int) -> list[int]:
    """The run's judge processes: the controller and its workers."""
    return [controller, *sorted(pid for pid in children(controller) or set() if not _is_executor(pid))]


def stopped(pid: int) -> bool:
    """Whether ``pid`` is stopped (by a signal or a tracer)."""
    stat = _stat(pid)
    return stat is not None and stat[0] in ("T", "t")


def wait_watching(proc: subprocess.Popen[bytes], limit: float) -> int:
    """``proc.wait(limit)``, raising :class:`JudgeStopped` when a judge stays stopped for :data:`STOPPED_GRACE_S`
    (subprocess.TimeoutExpired when ``limit`` passes, as ``wait`` does)."""
    started = time.monotonic()
    since: dict[int, float] = {}
    while True:
        left = limit - (time.monotonic() - started)
        if left <= 0:
            raise subprocess.TimeoutExpired(proc.args, limit)
        try:
            return proc.wait(timeout=min(POLL_S, left))
        except subprocess.TimeoutExpired:
            pass
        now = time.monotonic()
        since = {pid: since.get(pid, now) for pid in judges(proc.pid) if stopped(pid)}
        overdue = sorted(pid for pid, first in since.items() if now - first >= STOPPED_GRACE_S)
        if overdue:
            raise JudgeStopped(overdue)


def make_scratch() -> Path:
    """A directory for every temporary file of one run (the judge's ``TMPDIR``)."""
    return Path(tempfile.mkdtemp(prefix="acl-scratch-"))


def remove_scratch(path: Path) -> None:
    """Remove the run's scratch directory (whatever the judge, its workers and executors left)."""
    shutil.rmtree(path, ignore_errors=True)
