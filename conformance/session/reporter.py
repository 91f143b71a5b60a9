"""The reporting side of the judge: gather results, write reports.

The plugin attaches each case's classified result to its teardown report (a lost executor's
case included: the judge decided it); the reporter takes it from there, and at the end writes
``summary.json`` and the Allure run files once.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from ..harness.loaded import mapped_files
from ..results.allure import categories_json, environment_properties, tidy_results
from ..results.files import write_json, write_text
from ..results.identity import case_id_from_nodeid
from ..results.junit import junit_text
from ..results.outcomes import CaseResult
from ..results.rootcause import attribute_findings
from ..results.summary import build_summary
from ..results.waiver_use import unused_expectations
from .deadline import deadline_result
from .judge_flags import RUN_COMMAND_ENV
from .seal import emit as emit_seal
from .state import KEYBOARD_INTERRUPT, SUMMARY, RunState

CASE_PROPERTY = "acl_case"


class Reporter:
    """Hooks of the judge's reporting, bound to its state."""

    def __init__(self, state: RunState) -> None:
        self.state = state

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Take each case's result from its teardown report."""
        if report.when == "teardown":
            for name, value in report.user_properties:
                if name == CASE_PROPERTY:
                    result = CaseResult.from_json(json.loads(str(value)))
                    self.state.results[result.case_id] = result
                    report.user_properties.append(("acl_outcome", result.outcome.value))
                    if result.category:
                        report.user_properties.append(("acl_category", result.category.value))
            report.user_properties[:] = [(n, v) for n, v in report.user_properties if n != CASE_PROPERTY]
        self._stop_when_time_is_up()

    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        """Remember that the run was interrupted: its summary's verdict is then INTERRUPTED. A run stopped by its
        deadline or -x ends through a subclass of KeyboardInterrupt (pytest's ``Interrupted``): that
        is no interruption, and its summary stays complete."""
        if excinfo.type is KeyboardInterrupt:
            self.state.config.stash[KEYBOARD_INTERRUPT] = True

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """Keep the session: a run whose deadline passed is stopped through it."""
        self.session = session

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """The selected cases (those the deadline may leave unstarted)."""
        self.state.collected.update(item.nodeid for item in session.items)

    def _stop_when_time_is_up(self) -> None:
        """After the deadline, stop dispatching: the cases not started yet are ERROR deadline in the summary."""
        deadline = self.state.deadline
        if deadline is None or deadline.left() > 0:
            return
        if getattr(self, "session", None) is not None:
            self.session.shouldstop = f"the run deadline (--acl-deadline {deadline.seconds:g} s) passed"


def run_command_line() -> list[str]:
    """The command the user ran (``ACL_RUN_COMMAND`` from the ``run``/``certify`` wrapper), else pytest's."""
    wrapper = os.environ.get(RUN_COMMAND_ENV)
    return json.loads(wrapper) if wrapper else [sys.executable, *sys.argv]


def _unstarted_after_deadline(state: RunState) -> None:
    """Selected cases without a result once the deadline passed: ERROR deadline (not "not run")."""
    if state.deadline is None or state.deadline.left() > 0:
        return
    for nodeid in state.collected:
        ids = case_id_from_nodeid(nodeid, state.rules)
        if ids is not None and ids[0] not in state.results:
            state.results[ids[0]] = deadline_result(ids[0], ids[1], state.deadline)


def write_reports(state: RunState, interrupted: bool = False) -> None:
    """Write summary.json (every rule and case of the catalog) and the Allure run files; an ``interrupted``
    run's summary is marked so (verdict INTERRUPTED, the cases it did not reach ``not_run``)."""
    settings = state.settings
    _unstarted_after_deadline(state)
    # The judge's own word that it never mapped the library (its executors did).
    state.facts["judge_mapped_library"] = bool(settings.lib) and str(settings.lib) in mapped_files()
    state.results = attribute_findings(state.catalog, state.results)
    expired = [e.to_json() for e in state.expectations.expired(state.today())] if state.expectations else []
    summary = build_summary(state.catalog, state.results, environment=state.facts,
                            command=run_command_line(), expired=expired,
                            expectation_files=[str(p) for p in settings.expectations], selected=state.selected,
                            interrupted=interrupted)
    if state.expectations:
        summary["expectations"]["unused"] = unused_expectations(state.expectations.entries, state.catalog,
                                                                state.results.values(), state.facts, state.today())
    write_json(settings.report_dir / "summary.json", summary)
    write_text(settings.report_dir / "junit.xml", junit_text(summary, state.catalog))
    allure_dir = getattr(state.config.option, "allure_report_dir", None)
    if allure_dir:
        write_text(Path(allure_dir) / "environment.properties", environment_properties(state.facts))
        write_json(Path(allure_dir) / "categories.json", categories_json())
        tidy_results(Path(allure_dir), state.results)
    state.config.stash[SUMMARY] = summary
    emit_seal(settings.report_dir)  # certify compares the directory with these digests before it seals
