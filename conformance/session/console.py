"""The run's console in the kit's words (``--acl-console``, which ``run`` passes unless told ``-v``).

pytest would print a letter per case, some 65 lines of traceback per failing case and its own
count ("13 failed" where the kit says "8 fail, 5 blocked"). In the reporting process this
plugin quiets pytest's terminal reporter and prints instead a progress line with an ETA at each
tenth of the cases and, once summary.json is written, one line per case that did not pass
(outcome, case id, the message's first line). The lines come from the summary, not from each
case as it ends: a case's outcome can still change when the run's root causes are attributed
(a FAIL that another rule's failure explains becomes BLOCKED). The count and the root causes
follow from ``run``, read from the same summary, so every number the console shows is the
summary's. The full story of a
case is in the reports and ``acl-conformance explain CASE``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import TextIO

import pytest

from ..results.caseline import case_line, shown
from ..results.identity import case_id_from_nodeid
from ..results.terminal import PercentProgress
from ..results.untrusted import as_object
from .state import SUMMARY, RunState


def quiet_pytest(config: pytest.Config) -> None:
    """Leave pytest's terminal reporter nothing to say on a run that goes as planned: no traceback, no
    short summary, no count (pytest's usage errors and internal errors still reach the terminal)."""
    config.option.tbstyle = "no"
    config.option.reportchars = "N"
    config.option.verbose = min(int(config.option.verbose or 0), -2)


class Console:
    """Hooks of the reporting process that print the run's progress and its failing cases."""

    def __init__(self, state: RunState, stream: TextIO | None = None) -> None:
        self.state = state
        self.stream = stream
        self.progress: PercentProgress | None = None
        self.counted: set[str] = set()

    def _write(self, line: str) -> None:
        reporter = self.state.config.pluginmanager.getplugin("terminalreporter")
        if self.stream is None and reporter is not None:
            reporter.write_line(line)  # the real stdout: the capture manager does not hold it
        else:
            print(line, file=self.stream or sys.stdout, flush=True)

    @pytest.hookimpl(tryfirst=True)
    def pytest_report_teststatus(self, report: pytest.TestReport) -> tuple[str, str, str]:
        """No letter per case (pytest's counts still see the category)."""
        category = report.outcome if report.when == "call" or not report.passed else ""
        return category, "", ""

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """After the kit's reporter took the case's result: the progress line, at each tenth of the cases."""
        if report.when not in ("teardown", "???"):
            return
        ids = case_id_from_nodeid(report.nodeid, self.state.rules)
        if ids is None or ids[0] not in self.state.results or ids[0] in self.counted:
            return
        self.counted.add(ids[0])
        self._step()

    def _step(self) -> None:
        if self.progress is None:
            if not self.state.collected:
                return
            self.progress = PercentProgress("run", len(self.state.collected))
        line = self.progress.line(len(self.counted))
        if line:
            self._write(line)

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self) -> None:
        """One line per case of the summary that did not pass: the cases that failed on their own first,
        then those blocked by another rule's failure (each in the summary's order)."""
        summary = self.state.config.stash.get(SUMMARY, None)
        if summary is None:
            return
        for case_id, outcome, message in sorted(_cases(summary), key=lambda case: case[1] == "BLOCKED"):
            if shown(outcome):
                self._write(case_line(case_id, outcome, message))


def _cases(summary: object) -> Iterator[tuple[str, str, str]]:
    """``(case id, outcome, message)`` of every case in a summary, in its order."""
    for rule in as_object(as_object(summary).get("rules")).values():
        for case_id, case in as_object(as_object(rule).get("cases")).items():
            record = as_object(case)
            yield str(case_id), str(record.get("outcome")), str(record.get("message") or "")


def console_requested(config: pytest.Config) -> bool:
    """Whether this run asked for the kit's console."""
    return bool(getattr(config.option, "acl_console", False))

