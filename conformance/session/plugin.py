"""pytest plugin of the conformance suite (load with ``-p conformance.session.plugin``).

Roles: in a serial run one process opens the library, runs the cases and writes the
reports. With pytest-xdist every worker opens the library once (aclInit, aclrtSetDevice,
family detection) and runs cases; the controller never loads the library, receives each
case's classified result through ``report.user_properties`` and writes ``summary.json`` once.
A worker that dies (a judge stuck past its backstop, :mod:`conformance.session.backstop`) is
replaced by xdist; the controller turns the lost case into an ERROR with category ``crash`` or
``timeout`` while every other case keeps its result.

Everything a process needs lives in one :class:`~conformance.session.state.RunState` in
``config.stash``.
"""

from __future__ import annotations

import inspect
import json
import random
import sys
import types
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import pluggy
import pytest

from acl_hostmem_generated.catalog_types import Catalog
from acl_hostmem_generated.state_model import EXPLORER_RULES

from ..harness.options import add_options, raw_values, settings_from_config, single_value
from ..harness.resources import load_catalog
from ..harness.untrusted_text import capped_output
from ..harness.violations import Blocked, CallHung, HarnessError, SpecViolation
from ..results.consistency import contradictions, inconsistency_message
from ..results.environment import static_facts
from ..results.files import save_attachments
from ..results.identity import case_id_for_item
from ..results.outcomes import (
    OWN_FAILURES,
    CaseResult,
    Category,
    Finding,
    Outcome,
    PhaseResult,
    classify,
    exception_kind,
)
from .backstop import Backstop
from .console import CONSOLE_FLAG, Console, console_requested, quiet_pytest
from .containment import refuse_tracing
from .crashes import crashed_case
from .deadline import JUDGE_BACKSTOP_S, RunDeadline
from .deadline import WORKER_KEY as DEADLINE_KEY
from .executors import Executor, ExecutorError
from .hangs import HANGS_BEFORE_GIVING_UP, HungCalls
from .preflight import Problem, SetupError, preflight, remove_stale_reports
from .remote import CaseRecords, ExecutorLost, RemoteCase
from .reporter import CASE_PROPERTY, FACTS_PROPERTY, Reporter, write_reports
from .reportlock import held_by_parent, lock_report_dir
from .rundir import RUN_DIR_KEY, WorkerHandoff, WorkerNode, remove_run_dir, run_dir_for_process
from .sandbox import find_sandbox
from .selection import keep_rules, label_item, marker_names, selected_case_ids, selection_requested
from .state import (
    ATTACHMENTS,
    CODE_SUSPECT,
    FINDINGS,
    KEYBOARD_INTERRUPT,
    LOST,
    OBSERVED,
    PHASES,
    PREFLIGHT,
    REPORT_LOCK,
    RESTS_ON,
    STATE,
    SUMMARY,
    TRACE,
    CaseRule,
    RunState,
)
from .workerlog import WorkerLog, log_path

if TYPE_CHECKING:
    from ..results.expectations import ExpectationSet

# --------------------------------------------------------------------------- configuration


def pytest_addoption(parser: pytest.Parser) -> None:
    """Declare the --acl-* options, and the console ``run`` asks for."""
    add_options(parser)
    parser.getgroup("acl").addoption(CONSOLE_FLAG, action="store_true", dest="acl_console",
                                     help="print progress and one line per case that did not pass, "
                                          "not pytest's report (run passes it unless told -v)")


def _role(config: pytest.Config) -> str:
    if hasattr(config, "workerinput"):
        return "worker"
    if getattr(config.option, "dist", "no") != "no" and getattr(config.option, "numprocesses", None) != 0:
        return "controller"
    return "serial"


def _load_expectations(paths: tuple[Path, ...]) -> ExpectationSet | None:
    if not paths:
        return None
    from ..results.expectations import ExpectationError, load_expectations

    try:
        return load_expectations(list(paths))
    except ExpectationError as exc:
        print(f"acl: {exc}", file=sys.stderr)
        pytest.exit(str(exc), returncode=2)


def _needs_backend(config: pytest.Config) -> bool:
    option = config.option
    return not any(getattr(option, name, False) for name in ("help", "version", "collectonly", "showfixtures",
                                                              "show_fixtures_per_test", "markers"))


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> int | None:
    """Check the set-up before anything runs; a mistake ends the run with its own exit status."""
    if hasattr(config, "workerinput") or not _needs_backend(config):
        return None
    settings = settings_from_config(config)
    catalog = load_catalog()
    try:
        if not held_by_parent(settings.report_dir):
            config.stash[REPORT_LOCK] = lock_report_dir(settings.report_dir)
        config.stash[PREFLIGHT] = preflight(settings, single_value(raw_values(config)["acl_lib"]), catalog)
    except SetupError as exc:
        if exc.problem != Problem.REPORT_DIR_IN_USE:  # another run's reports are that run's
            remove_stale_reports(settings.report_dir)
        print(exc.render(), file=sys.stderr, flush=True)
        return int(exc.problem)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Register the markers, resolve the options and set up this process's state."""
    refuse_tracing()  # a judge: no process of the user (a daemon of the library) may ptrace it or read its memory
    settings = settings_from_config(config)
    catalog = load_catalog()
    config.addinivalue_line("markers", "acl_rule(rule_id): the catalog rule a generated case checks")
    for name, description in marker_names(catalog).items():
        config.addinivalue_line("markers", f"{name}: {description}")
    state = RunState(config, settings, catalog, _role(config))
    state.expectations = _load_expectations(settings.expectations)
    state.facts = dict(static_facts(settings.lib, settings.kernel, catalog.get("spec_hash", "")),
                       **config.stash.get(PREFLIGHT, {}), shuffle=settings.shuffle, explore_seed=settings.explore_seed)
    _bound_the_run(config, state)
    config.stash[STATE] = state
    if state.reporter:
        config.pluginmanager.register(Reporter(state), "acl-conformance-reporter")
        if console_requested(config):
            quiet_pytest(config)
            config.pluginmanager.register(Console(state), "acl-console")
    if state.role == "controller" and getattr(config.option, "maxworkerrestart", None) is None:
        config.option.maxworkerrestart = "1000000"  # every crashed case gets a fresh worker
    if config.pluginmanager.hasplugin("allure_pytest"):
        from .allure_listener import AllureListener  # imports allure, which a run without it lacks

        state.allure = AllureListener(lambda item: _rule_of(state, item),
                                      lambda item, rule: _case_result(state, item, rule))
        config.pluginmanager.register(state.allure, "acl-allure-listener")
        if state.reporter and getattr(config.option, "allure_report_dir", None) is None:
            config.option.allure_report_dir = str(settings.report_dir / "allure-results")


def _bound_the_run(config: pytest.Config, state: RunState) -> None:
    """Deadline, scratch directory, hung calls, the backstop of a process that runs cases and (in a
    worker) kept stderr."""
    state.run_dir, state.owns_run_dir = run_dir_for_process(config)
    state.deadline = RunDeadline.for_process(config, state.settings.deadline)
    if state.role != "controller":
        state.backstop = Backstop(lambda: _release_stderr(config))
    state.hung = HungCalls(state.run_dir / "hung")
    if state.role == "worker":
        config.pluginmanager.register(WorkerLog(log_path(state.run_dir, state.worker_id)), "acl-worker-log")
    if state.role == "controller":
        handoff = {RUN_DIR_KEY: str(state.run_dir), DEADLINE_KEY: state.deadline.at}
        config.pluginmanager.register(WorkerHandoff(handoff), "acl-worker-handoff")


def _release_stderr(config: pytest.Config) -> None:
    """Give stderr back to the process (pytest captures it while a case runs): a judge about to exit
    stuck leaves its stacks where its log keeps them."""
    capture = config.pluginmanager.getplugin("capturemanager")
    if capture is not None:
        capture.suspend_global_capture(in_=True)


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """Arm the judge's backstop for the case: its hard limit, cut to the time left before the run
    deadline, and :data:`JUDGE_BACKSTOP_S` more (the judge ends the case's own wait first)."""
    state = item.config.stash[STATE]
    backstop = state.backstop if item.get_closest_marker("acl_rule") else None
    if backstop is not None:
        backstop.arm(state.deadline.case_limit(state.settings.case_timeout) + JUDGE_BACKSTOP_S, item.nodeid)
    try:
        yield
    finally:
        if backstop is not None:
            backstop.disarm()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Label every case (markers, ID keywords) and keep the --acl-rule ones.

    It runs before pytest's own ``-k``/``-m`` selection, which then sees the labels.
    """
    state = config.stash[STATE]
    for item in items:
        rule = _rule_of(state, item)
        if rule is None:
            continue
        label_item(item, rule)
    keep_rules(items, lambda item: _rule_of(state, item), state.settings.rules, config)
    if state.settings.shuffle is not None:  # every xdist worker draws the same order from the same seed
        random.Random(state.settings.shuffle).shuffle(items)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """Serial run: remember which cases were selected (a partial run reports only those)."""
    state = session.config.stash[STATE]
    if state.role == "serial":
        _record_selection(state, [item.nodeid for item in session.items])


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: WorkerNode, ids: list[str]) -> None:
    """xdist controller: the cases a worker selected (every worker selects the same)."""
    state = node.config.stash[STATE]
    _record_selection(state, ids)


def _record_selection(state: RunState, nodeids: list[str]) -> None:
    if selection_requested(state.config, state.settings.rules):
        state.selected = selected_case_ids(nodeids, state.rules)


def _rule_of(state: RunState, item: pytest.Item) -> CaseRule | None:
    marker = item.get_closest_marker("acl_rule")
    if marker is None or not marker.args:
        return None
    return state.rules.get(marker.args[0]) or {"id": marker.args[0], "title": "(rule not in the catalog)",
                                                "interfaces": [], "family": "", "severity": "mandatory",
                                                "applies": {}, "cases": []}


# --------------------------------------------------------------------------- the executor


def _executor(state: RunState) -> Executor:
    """This process's executor, started on first use; a library that cannot be opened is remembered."""
    if state.executor is None:
        settings = state.settings
        start = {"worker_index": state.worker_index, "settings": {
            "lib": str(settings.lib) if settings.lib else None, "device": settings.device,
            "product": settings.product, "timeout": settings.timeout, "kernel": settings.kernel,
            "explore_steps": settings.explore_steps, "explore_seed": settings.explore_seed,
            "host_page": settings.host_page, "host_alloc": settings.host_alloc,
            "sync_window": settings.sync_window, "cann_release": settings.cann_release}}
        start["preload"] = executor_setups(state.config)
        state.executor = Executor(start, state.worker_id or "serial", state.run_dir,
                                  sandbox=find_sandbox(settings.sandbox_allow))
    return state.executor


def executor_setups(config: pytest.Config) -> list[str]:
    """The files of the pytest plugins that define ``acl_executor_setup()``: the executor imports each and
    calls it before the first case (how a plugin changes what runs next to the library)."""
    found = []
    for plugin in config.pluginmanager.get_plugins():
        if isinstance(plugin, types.ModuleType) and callable(getattr(plugin, "acl_executor_setup", None)):
            path = inspect.getsourcefile(plugin)
            if path:
                found.append(path)
    return sorted(found)


def _send(state: RunState, item: pytest.Item, rule: CaseRule, case_id: str
          ) -> Callable[[dict[str, object]], Mapping[str, object]]:
    """The function a RemoteCase hands its program to: bounded by the case's limit, never blocking the judge."""

    def send(program: dict[str, object]) -> Mapping[str, object]:
        executor = _executor(state)
        if state.executor_spoiled and rule["id"] not in EXPLORER_RULES:
            # The explorer's other case runs where the first one ran, as it always has: their findings
            # are one deviation's, and a fresh process for it would import Hypothesis again (0.14 s).
            executor.stop()
            state.executor_spoiled = False
        try:
            executor.ensure()
        except ExecutorError as exc:
            raise HarnessError(f"could not open {state.settings.lib}: {exc}") from None
        if executor.error:
            raise HarnessError(executor.error)
        if not state.facts_learned:
            state.facts = dict(state.facts, **executor.facts)
            state.facts_learned = True
        program = dict(program, given_up=state.hung.given_up(), hangs=HANGS_BEFORE_GIVING_UP,
                       seed=state.settings.explore_seed)
        limit = state.deadline.case_limit(state.settings.case_timeout)
        answer = executor.run(program, limit)
        for problem in answer.problems:  # shown with the case's output
            print(f"acl: {problem}", file=sys.stderr)
        if answer.record is None:
            stderr = capped_output(answer.stderr)
            result = crashed_case(state, case_id, rule["id"], limit if answer.lost == "timeout" else answer.elapsed,
                                  limit, executor.name, executor.journal, stderr)
            item.stash[LOST] = result
            if state.allure is not None:
                state.allure.executor_lost(stderr)
            raise ExecutorLost(f"[{result.category.value if result.category else ''}] {result.message}")
        record = dict(answer.record, stdout=answer.stdout, stderr=answer.stderr)
        _keep(item, RemoteCase.records(record))
        return record

    return send


def _keep(item: pytest.Item, kept: CaseRecords) -> None:
    """What the case's record holds for the report, stashed before any report hook reads it."""
    item.stash[TRACE] = kept.trace
    item.stash[OBSERVED] = kept.observed
    item.stash[FINDINGS] = kept.findings
    item.stash[ATTACHMENTS] = kept.attachments
    item.stash[RESTS_ON] = kept.rests_on


# --------------------------------------------------------------------------- the fixture


@pytest.fixture
def acl(request: pytest.FixtureRequest) -> Iterator[RemoteCase]:
    """A :class:`~conformance.session.remote.RemoteCase` for one case: its check runs in the executor."""
    state = request.config.stash[STATE]
    item = request.node
    rule = _rule_of(state, item)
    if rule is None:
        raise HarnessError("the case has no @pytest.mark.acl_rule marker")
    state.deadline.check()  # before the backend is touched: it may be what hangs
    case_id = case_id_for_item(rule["id"], item)
    case = RemoteCase(rule, case_id, _send(state, item, rule, case_id))
    if state.allure is not None:
        state.allure.case_started(item, rule["id"])
    yield case
    if case.teardown is not None:
        raise case.teardown


# --------------------------------------------------------------------------- per-case results


def _phase(report: pytest.TestReport, call: pytest.CallInfo[None]) -> PhaseResult:
    exc = call.excinfo.value if call.excinfo is not None else None
    message, kind, code, blocked_by = "", None, None, None
    if exc is not None:
        kind = exception_kind(exc)
        message = str(getattr(exc, "msg", None) or exc) if report.skipped else str(exc)
        raw_code = getattr(exc, "code", None)
        code = raw_code if isinstance(raw_code, int) else None
        blocked_by = exc.rule_id if isinstance(exc, (Blocked, CallHung)) else None
    elif report.failed:
        message = str(report.longrepr)
    return PhaseResult(report.when, report.outcome, kind, message, code, report.duration, blocked_by)


def _code_suspect(call: pytest.CallInfo[None], catalog: Catalog, rule_id: str) -> str | None:
    """The rule a case's failure may rest on because of the code a call answered (spec setup_promises
    codes: FEATURE_NOT_SUPPORT is the support matrix's, MEMORY_ALLOCATION the exhaustion rule's), or None."""
    exc = call.excinfo.value if call.excinfo is not None else None
    code = getattr(exc, "code", None) if isinstance(exc, SpecViolation) else None
    return _promise_of_code(catalog, code, rule_id) if isinstance(code, int) and code else None


def _promise_of_code(catalog: Catalog, code: int, rule_id: str) -> str | None:
    """The rule whose promise a call answering ``code`` breaks, when it is not ``rule_id``; else None."""
    step = (catalog.get("promise_codes") or {}).get(str(code))
    rule = (catalog.get("setup_promises") or {}).get(step) if step else None
    return rule if rule and rule != rule_id else None


def _code_name(code: int) -> str:
    from acl_hostmem_generated.acl_bindings import error_name

    return f"{code} {error_name(code)}"


def _case_result(state: RunState, item: pytest.Item, rule: CaseRule) -> CaseResult:
    lost = item.stash.get(LOST, None)
    if lost is not None:  # the executor died or hung: the judge decided the case already
        facts = state.facts
        return state.waive(lost, facts.get("product_family"), facts.get("soc"), facts.get("cann_version"))
    phases: list[PhaseResult] = item.stash.get(PHASES, [])
    findings: list[Finding] = item.stash.get(FINDINGS, [])
    result = classify(phases, case_id_for_item(rule["id"], item), rule["id"], _code_name, findings=findings)
    rests_on: tuple[str, ...] = item.stash.get(RESTS_ON, ())
    suspect = item.stash.get(CODE_SUSPECT, None)
    if suspect and suspect not in rests_on:
        rests_on += (suspect,)
    result = replace(result, observations=item.stash.get(OBSERVED, {}), rests_on=rests_on)
    if result.outcome is Outcome.PASS:
        spec_rule = state.rules.get(result.rule_id)  # a rule not in the catalog declares no observation
        case = next((c for c in spec_rule["cases"] if c["case_id"] == result.case_id), None) if spec_rule else None
        found = contradictions(spec_rule, case, result.observations) if spec_rule else []
        if found:
            result = replace(result, outcome=Outcome.ERROR, category=Category.INCONSISTENT,
                             message=inconsistency_message(found))
    facts = state.facts
    return state.waive(result, facts.get("product_family"), facts.get("soc"), facts.get("cann_version"))


@pytest.hookimpl(hookwrapper=True, trylast=True, specname="pytest_runtest_makereport")
def cap_library_output(item: pytest.Item, call: pytest.CallInfo[None]
                       ) -> Generator[None, pluggy.Result[pytest.TestReport], None]:
    """Cap what the library printed before any reporter (Allure, JUnit) reads it: innermost, so first."""
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    report.sections = [(title, capped_output(text)) for title, text in report.sections]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]
                              ) -> Generator[None, pluggy.Result[pytest.TestReport], None]:
    """Classify each phase; on teardown attach the case's final result to the report."""
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    state = item.config.stash[STATE]
    rule = _rule_of(state, item)
    if rule is None:
        return
    item.stash.setdefault(PHASES, []).append(_phase(report, call))
    suspect = _code_suspect(call, state.catalog, rule["id"]) if report.when == "call" else None
    if suspect:
        item.stash[CODE_SUSPECT] = suspect
    if report.when == "teardown":
        result = _case_result(state, item, rule)
        report.user_properties.append((CASE_PROPERTY, json.dumps(result.to_json())))
        if result.rule_id in EXPLORER_RULES and result.outcome in OWN_FAILURES:
            # An exploration that met a deviation leaves the library as its history made it, which no
            # teardown knows how to undo (a mapping the driver kept after a successful unregister,
            # say): the next case of another rule gets a fresh executor (see _send).
            state.executor_spoiled = True
        if state.facts_learned and not state.facts_sent:
            report.user_properties.append((FACTS_PROPERTY, json.dumps(state.facts)))
            state.facts_sent = True


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    """Once the context is released, keep the check's attachments beside the reports."""
    yield
    state = item.config.stash[STATE]
    rule = _rule_of(state, item)
    attachments = item.stash.get(ATTACHMENTS, [])
    if attachments and rule is not None and item.stash.get(TRACE, None) is not None:
        save_attachments(state.settings.report_dir, case_id_for_item(rule["id"], item), attachments)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Workers hand their facts over and finalize; the reporting process writes the reports."""
    state = session.config.stash[STATE]
    if state.role == "worker":
        session.config.workeroutput["acl_facts"] = state.facts  # type: ignore[attr-defined]
    if state.role in ("worker", "serial") and state.executor is not None:
        state.executor.stop()
        state.executor = None
    if state.reporter and not session.config.option.collectonly:
        write_reports(state, interrupted=session.config.stash.get(KEYBOARD_INTERRUPT, False))
    if state.owns_run_dir:
        remove_run_dir(state.run_dir)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config) -> None:
    """One line per run: where summary.json is and the verdict."""
    summary = config.stash.get(SUMMARY, None)
    if summary is None or console_requested(config):  # run prints the summary's count itself
        return
    totals = ", ".join(f"{n} {k.lower()}" for k, n in summary["totals"].items() if n)
    path = config.stash[STATE].settings.report_dir / "summary.json"
    terminalreporter.write_line(f"acl conformance: {totals}; verdict {summary['verdict']} ({path})")


def pytest_unconfigure(config: pytest.Config) -> None:
    """A plain pytest run lets the next run have its report directory."""
    lock = config.stash.get(REPORT_LOCK, None)
    if lock is not None:
        lock.release()
