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
from typing import Any

import pytest

from ..results.allure import allure_crash_result, categories_json, environment_properties, tidy_results
from ..results.files import write_json, write_text
from ..results.identity import case_id_from_nodeid
from ..results.junit import junit_text
from ..results.outcomes import CaseResult, crash_result
from ..results.summary import build_summary
from ..results.waiver_use import unused_expectations
from .state import SUMMARY, RunState

CASE_PROPERTY = "acl_case"
RUN_COMMAND_ENV = "ACL_RUN_COMMAND"
FACTS_PROPERTY = "acl_facts"


class Reporter:
    """Hooks of the reporting process (serial run or xdist controller), bound to its state."""

    def __init__(self, state: RunState) -> None:
        self.state = state

    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        """Remember when each case started (tells a timeout from a crash when its worker dies)."""
        self.state.started[nodeid] = time.monotonic()

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Take each case's result from its teardown report, or record a crash."""
        if report.when == "teardown":
            for name, value in report.user_properties:
                if name == CASE_PROPERTY:
                    result = CaseResult.from_json(json.loads(value))
                    self.state.results[result.case_id] = result
                    report.user_properties.append(("acl_outcome", result.outcome.value))
                    if result.category:
                        report.user_properties.append(("acl_category", result.category.value))
                elif name == FACTS_PROPERTY and self.state.facts.get("product_family") is None:
                    self.state.facts = json.loads(value)
            report.user_properties[:] = [(n, v) for n, v in report.user_properties
                                         if n not in (CASE_PROPERTY, FACTS_PROPERTY)]
        elif report.when == "???":  # xdist: the worker died while running this case
            self._record_crash(report)

    def _record_crash(self, report: pytest.TestReport) -> None:
        state = self.state
        ids = case_id_from_nodeid(report.nodeid, state.rules)
        if ids is None:
            return
        case_id, rule_id = ids
        start = state.started.get(report.nodeid)
        elapsed = time.monotonic() - start if start is not None else None
        worker = getattr(getattr(getattr(report, "node", None), "gateway", None), "id", "")
        result = crash_result(case_id, rule_id, elapsed, state.settings.case_timeout,
                              f"worker {worker} died" if worker else "")
        state.results[case_id] = result
        allure_dir = getattr(state.config.option, "allure_report_dir", None)
        if allure_dir:
            data = allure_crash_result(result, state.rules[rule_id], report.nodeid, state.facts)
            write_json(Path(allure_dir) / f"{data['uuid']}-result.json", data)

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        """xdist: take the environment facts a worker learned from the library."""
        facts = getattr(node, "workeroutput", {}).get("acl_facts")
        if facts and self.state.facts.get("product_family") is None:
            self.state.facts = dict(facts)


def run_command_line() -> list[str]:
    """The command the user ran (``ACL_RUN_COMMAND`` from the ``run``/``certify`` wrapper), else pytest's."""
    wrapper = os.environ.get(RUN_COMMAND_ENV)
    return json.loads(wrapper) if wrapper else [sys.executable, *sys.argv]


def write_reports(state: RunState) -> None:
    """Write summary.json (every rule and case of the catalog) and the Allure run files."""
    settings = state.settings
    expired = [e.to_json() for e in state.expectations.expired(state.today())] if state.expectations else []
    summary = build_summary(state.catalog, state.results, environment=state.facts,
                            command=run_command_line(), expired=expired,
                            expectation_files=[str(p) for p in settings.expectations], selected=state.selected)
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
