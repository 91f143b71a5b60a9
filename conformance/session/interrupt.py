"""An interrupted run: verdict INTERRUPTED, the previous reports kept, nothing in history or a baseline.

A run stopped by a signal (Ctrl-C, SIGTERM, SIGHUP) judged nothing. ``run`` sets the previous
reports of its directory aside before it starts (:class:`PreviousReports`), catches the signals
(:func:`interruptions_raised`), stops its process group as a deadline does, and ends through
:func:`end_interrupted`: the one place that says INTERRUPTED, puts the previous reports back
(unless a partial report was asked for) and gives the exit status 128 + the signal.
Any watchdog that stops a run calls :func:`end_interrupted` to end it so.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

from ..i18n import _
from ..results.vocabulary import Verdict, interrupted_status
from .preflight import STALE_REPORTS

#: The signals that interrupt a run.
INTERRUPTING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
#: What a run's reports are, besides allure-report/ and history.jsonl, which only a finished run renders.
REPORT_FOLDERS = ("allure-results", "artifacts")
ASIDE = ".previous-run"


class Interrupted(BaseException):
    """A signal of :data:`INTERRUPTING` arrived (a BaseException: no ``except Exception`` swallows it)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@contextlib.contextmanager
def interruptions_raised() -> Iterator[None]:
    """Within the block, the first interrupting signal raises :class:`Interrupted`; later ones are ignored
    (a second Ctrl-C must not break off the containment of the first). The old handlers come back after."""
    raised: list[int] = []

    def handler(signum: int, frame: FrameType | None) -> None:
        if not raised:
            raised.append(signum)
            raise Interrupted(signum)

    old = {sig: signal.signal(sig, handler) for sig in INTERRUPTING}
    try:
        yield
    finally:
        for sig, previous in old.items():
            signal.signal(sig, previous)


class PreviousReports:
    """The reports an earlier run left in a report directory, set aside while this run writes its own."""

    def __init__(self, report_dir: Path) -> None:
        self.report_dir = report_dir
        self.aside = report_dir / ASIDE

    def _names(self) -> list[str]:
        return [*STALE_REPORTS, *REPORT_FOLDERS]

    def set_aside(self) -> None:
        """Move the previous reports out of the way (an earlier verdict must never pass for this run's)."""
        if self.aside.exists():  # a run killed outright left its predecessor aside: that one is older still
            self._restore_from_aside()
        self.aside.mkdir()
        for name in self._names():
            if (self.report_dir / name).exists():
                (self.report_dir / name).rename(self.aside / name)

    def _remove_current(self) -> None:
        for name in self._names():
            path = self.report_dir / name
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)

    def _restore_from_aside(self) -> None:
        self._remove_current()
        for item in self.aside.iterdir():
            item.rename(self.report_dir / item.name)
        self.aside.rmdir()

    def restore(self) -> None:
        """Put the previous reports back in place of whatever this run wrote."""
        if self.aside.is_dir():
            self._restore_from_aside()

    def discard(self) -> None:
        """This run's reports stand: the previous ones go."""
        shutil.rmtree(self.aside, ignore_errors=True)


def end_interrupted(report_dir: Path, signum: int, previous: PreviousReports | None, keep_partial: bool) -> int:
    """End a run stopped by ``signum``: say INTERRUPTED in one line, keep the previous reports (or, when
    ``keep_partial`` asks, the partial summary, its verdict INTERRUPTED) and return 128 + the signal.

    A partial summary.json is kept only when the run itself marked it interrupted; nothing is
    rendered, so nothing enters history.jsonl.
    """
    name = signal.Signals(signum).name
    summary = report_dir / "summary.json"
    kept = keep_partial and _marked_interrupted(summary)
    if kept:
        if previous is not None:
            previous.discard()
        where = _("the partial report {summary} marks the cases that did not run").format(summary=summary)
    else:
        if previous is not None:
            previous.restore()
        where = _("the previous reports of {dir} are kept").format(dir=report_dir)
    print(_("verdict: {verdict} by {signal}: the run was stopped before it ended and judged "
            "nothing; {where}").format(verdict=Verdict.INTERRUPTED.value, signal=name, where=where),
          file=sys.stderr, flush=True)
    return interrupted_status(signum)


def _marked_interrupted(summary: Path) -> bool:
    try:
        data = json.loads(summary.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("verdict") == Verdict.INTERRUPTED.value
