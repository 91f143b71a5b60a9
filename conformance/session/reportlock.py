"""One run per report directory: the run that writes a directory holds its lock.

Two runs into one directory corrupt each other: the second clears the first's Allure results
and the first then ends with cases in ERROR. ``run`` takes the lock before it clears anything
and keeps it until its reports are rendered; the pytest process it starts inherits the right
to write there (:data:`HELD_ENV`), and a plain pytest run takes the lock itself. The lock is an
``flock`` on a file inside the directory, so it ends with the process that held it, however
that process ends.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from ..i18n import _
from .preflight import Problem, SetupError

LOCK_NAME = ".acl-run.lock"
#: Set by ``run`` for its pytest child: the directory whose lock the parent holds for it.
HELD_ENV = "ACL_REPORT_DIR_LOCKED"


class ReportDirLock:
    """The held lock of one report directory (released when the process ends, or by :meth:`release`)."""

    def __init__(self, report_dir: Path, fd: int) -> None:
        self.report_dir = report_dir
        self._fd: int | None = fd

    def release(self) -> None:
        """Let another run write the directory; the lock file goes too (it is no report)."""
        if self._fd is not None:
            (self.report_dir / LOCK_NAME).unlink(missing_ok=True)
            os.close(self._fd)
            self._fd = None


def lock_report_dir(report_dir: Path) -> ReportDirLock:
    """Take the report directory's lock; raises SetupError REPORT_DIR_IN_USE when another run holds it,
    REPORT_DIR_UNWRITABLE when the directory cannot be created or written (e.g. under /proc, or under a file)."""
    path = report_dir / LOCK_NAME
    try:
        report_dir.mkdir(parents=True, exist_ok=True)
        # O_NOFOLLOW: the lock file is never a link into somebody else's file.
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        raise SetupError(Problem.REPORT_DIR_UNWRITABLE,
                         _("the report directory {dir} cannot be created or written ({why}).\n"
                           "Fix: pass a writable directory with --acl-report-dir (or ACL_REPORT_DIR).").format(
                               dir=report_dir, why=exc.strerror or exc)) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode("ascii", errors="replace").strip()
        os.close(fd)
        raise SetupError(Problem.REPORT_DIR_IN_USE,
                         _("another run (pid {pid}) is writing {dir}.\n"
                           "Fix: wait for it, or give this run its own --acl-report-dir.").format(
                               pid=holder or _("unknown"), dir=report_dir)) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
    return ReportDirLock(report_dir, fd)


def held_by_parent(report_dir: Path) -> bool:
    """Whether the ``run`` that started this process holds the directory's lock for it."""
    held = os.environ.get(HELD_ENV)
    return held is not None and bool(held) and Path(held).resolve() == report_dir.resolve()
