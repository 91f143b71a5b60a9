"""The reporting side of a run (serial process or xdist controller): gather results, write reports.

Workers attach each case's classified result to its teardown report; the reporter takes it
from there, turns a worker that died into an ERROR (crash or timeout) for the case it was
running, and at the end writes ``summary.json`` and the Allure run files once.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

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
from .crashes import crashed_case, write_crash_allure
from .deadline import deadline_result
from .seal import emit as emit_seal
from .state import KEYBOARD_INTERRUPT, SUMMARY, RunState

if TYPE_CHECKING:
    from .rundir import WorkerNode

CASE_PROPERTY = "acl_case"
RUN_COMMAND_ENV = "ACL_RUN_COMMAND"
FACTS_PROPERTY = "acl_facts"


class Reporter:
    """Hooks of the reporting process (serial run or xdist controller), bound to its state."""

    def __init__(self, state: RunState) -> None:
        self.state = state

    def pytest_runtest_logstart(self, nodeid: str, location: tuple[str, int | None, str]) -> None:
        """Remember when each case started and its hard limit (tell a timeout from a crash when its worker dies)."""
        self.state.started[nodeid] = time.monotonic()
        if self.state.deadline is not None:
            self.state.limits[nodeid] = self.state.deadline.case_limit(self.state.settings.case_timeout)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Take each case's result from its teardown report, or record a crash."""
        if report.when == "teardown":
            for name, value in report.user_properties:
                if name == CASE_PROPERTY:
                    result = CaseResult.from_json(json.loads(str(value)))
                    self.state.results[result.case_id] = result
                    report.user_properties.append(("acl_outcome", result.outcome.value))
                    if result.category:
                        report.user_properties.append(("acl_category", result.category.value))
                elif name == FACTS_PROPERTY and self.state.facts.get("product_family") is None:
                    # The worker's facts add to the controller's (its preflight saw what the library loaded).
                    self.state.facts = {**self.state.facts, **json.loads(str(value))}
            report.user_properties[:] = [(n, v) for n, v in report.user_properties
                                         if n not in (CASE_PROPERTY, FACTS_PROPERTY)]
        elif str(report.when) == "???":  # xdist: the worker died while running this case
            self._record_crash(report)
        self._stop_when_time_is_up()

    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        """Remember that the run was interrupted: its summary's verdict is then INTERRUPTED. A run stopped by its
        deadline or -x ends through a subclass of KeyboardInterrupt (pytest's and xdist's ``Interrupted``): that
        is no interruption, and its summary stays complete."""
        if excinfo.type is KeyboardInterrupt:
            self.state.config.stash[KEYBOARD_INTERRUPT] = True

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """Keep the session: a run whose deadline passed is stopped through it."""
        self.session = session

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """Serial run: the selected cases (those the deadline may leave unstarted)."""
        self.state.collected.update(item.nodeid for item in session.items)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: WorkerNode, ids: list[str]) -> None:
        """xdist: the selected cases, as the workers collected them."""
        self.state.collected.update(ids)

    def _stop_when_time_is_up(self) -> None:
        """After the deadline, stop dispatching: the cases not started yet are ERROR deadline in the summary."""
        deadline = self.state.deadline
        if deadline is None or deadline.left() > 0:
            return
        reason = f"the run deadline (--acl-deadline {deadline.seconds:g} s) passed"
        dsession = self.state.config.pluginmanager.getplugin("dsession")
        if dsession is not None and not getattr(dsession, "shouldstop", False):
            dsession.shouldstop = reason
            if hasattr(dsession, "_max_worker_restart"):
                # xdist would boot a replacement for a worker killed at the deadline only to stop it again;
                # it reads no public setting after start, so its own attribute says "no more restarts".
                dsession._max_worker_restart = 0
        elif dsession is None and getattr(self, "session", None) is not None:
            self.session.shouldstop = reason

    def _record_crash(self, report: pytest.TestReport) -> None:
        state = self.state
        ids = case_id_from_nodeid(report.nodeid, state.rules)
        if ids is None:
            return
        case_id, rule_id = ids
        start = state.started.get(report.nodeid)
        elapsed = time.monotonic() - start if start is not None else None
        worker = getattr(getattr(getattr(report, "node", None), "gateway", None), "id", "")
        limit = state.limits.get(report.nodeid, state.settings.case_timeout)
        result = crashed_case(state, case_id, rule_id, elapsed, limit, worker)
        state.results[case_id] = result
        allure_dir = getattr(state.config.option, "allure_report_dir", None)
        if allure_dir:
            write_crash_allure(result, state.rules[rule_id], report.nodeid, state.facts, Path(allure_dir))

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: WorkerNode, error: object) -> None:
        """xdist: take the environment facts a worker learned from the library."""
        facts = getattr(node, "workeroutput", {}).get("acl_facts")
        if facts and self.state.facts.get("product_family") is None:
            self.state.facts = {**self.state.facts, **facts}


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
