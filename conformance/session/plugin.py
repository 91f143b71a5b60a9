"""pytest plugin of the conformance suite (load with ``-p conformance.session.plugin``).

One process, the judge, collects the cases, classifies every result and writes the reports;
it never loads the library. It drives ``--acl-executors`` executor processes (pytest-xdist's
``-n``, when given to a plain pytest run, means the same: the run itself does not distribute),
which open the library and run the case programs that :mod:`conformance.session.scheduler`
dispatches ahead of pytest. A case whose executor dies or hangs is decided by the judge (an
ERROR crash or timeout, or BLOCKED by the rule whose call it died in); every other case keeps
its result. That is the run's one crash and hang path.

Everything a process needs lives in one :class:`~conformance.session.state.RunState` in
``config.stash``.
"""

from __future__ import annotations

import inspect
import json
import os
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
from ..i18n import _
from ..results.consistency import contradictions, inconsistency_message
from ..results.environment import static_facts
from ..results.files import save_attachments
from ..results.identity import case_id_for_item
from ..results.outcomes import (
    CaseResult,
    Category,
    Finding,
    Outcome,
    PhaseResult,
    classify,
    exception_kind,
)
from .console import Console, console_requested, quiet_pytest
from .containment import refuse_tracing
from .crashes import crashed_case
from .deadline import RunDeadline
from .executor_case import CaseRecords, ExecutorCase, ExecutorLost
from .executors import Answer, Executor, ExecutorError, ExecutorFamily
from .hangs import HANGS_BEFORE_GIVING_UP, HungCalls
from .judge_flags import CONSOLE_FLAG, EXECUTORS_FLAG
from .preflight import Problem, SetupError, preflight, remove_stale_reports
from .reporter import CASE_PROPERTY, Reporter, write_reports
from .reportlock import held_by_parent, lock_report_dir
from .rundir import remove_run_dir, run_dir_for_process
from .sandbox import find_sandbox
from .scheduler import Dispatched, Hooks, Job, Scheduler, predicted_program
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

if TYPE_CHECKING:
    from ..results.expectations import ExpectationSet

# --------------------------------------------------------------------------- configuration


def pytest_addoption(parser: pytest.Parser) -> None:
    """Declare the --acl-* options, the number of executors, and the console ``run`` asks for."""
    add_options(parser)
    group = parser.getgroup("acl")
    group.addoption(CONSOLE_FLAG, action="store_true", dest="acl_console",
                    help=_("print progress and one line per case that did not pass, not pytest's report (run "
                           "passes it unless told -v)"))
    group.addoption(EXECUTORS_FLAG, dest="acl_executors", default="1", metavar="N",
                    help=_("executor processes that run cases at once: a number or 'auto' (default: 1; "
                           "pytest-xdist's -n N means the same here)"))


def executor_count(config: pytest.Config) -> int:
    """How many executors the judge runs: ``--acl-executors``, or xdist's ``-n`` taken over (the judge
    schedules its executors itself; a run under xdist's controller would be a second crash path)."""
    option = config.option
    taken = getattr(option, "numprocesses", None)
    if taken:  # xdist resolved "auto" already
        option.numprocesses, option.dist, option.tx = 0, "no", []
        return max(1, int(taken))
    value = str(getattr(option, "acl_executors", "1") or "1")
    if value == "auto":
        return max(1, os.cpu_count() or 1)
    try:
        return max(1, int(value))
    except ValueError:
        raise pytest.UsageError(_("{flag} takes a number or 'auto', not {value}").format(
            flag=EXECUTORS_FLAG, value=repr(value))) from None


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


#: The catalog the preflight read, for pytest_configure.
CATALOG = pytest.StashKey[Catalog]()


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> int | None:
    """Check the set-up before anything runs; a mistake ends the run with its own exit status."""
    if not _needs_backend(config):
        return None
    settings = settings_from_config(config)
    catalog = config.stash[CATALOG] = load_catalog()
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
    catalog = config.stash.get(CATALOG, None) or load_catalog()  # read once: the preflight read it already
    config.addinivalue_line("markers", "acl_rule(rule_id): the catalog rule a generated case checks")
    for name, description in marker_names(catalog).items():
        config.addinivalue_line("markers", f"{name}: {description}")
    config.addinivalue_line("markers", "acl_check(check, expect=..., case=...): the check procedure a generated "
                                       "case runs, and its expectation or the parameter that holds both")
    state = RunState(config, settings, catalog, "judge")
    state.executors = executor_count(config)
    state.expectations = _load_expectations(settings.expectations)
    state.facts = dict(static_facts(settings.lib, settings.kernel, catalog.get("spec_hash", "")),
                       **config.stash.get(PREFLIGHT, {}), shuffle=settings.shuffle, explore_seed=settings.explore_seed)
    _bound_the_run(config, state)
    config.stash[STATE] = state
    config.pluginmanager.register(Reporter(state), "acl-conformance-reporter")
    if console_requested(config):
        quiet_pytest(config)
        config.pluginmanager.register(Console(state), "acl-console")
    if config.pluginmanager.hasplugin("allure_pytest"):
        from .allure_listener import AllureListener  # imports allure, which a run without it lacks

        state.allure = AllureListener(lambda item: _rule_of(state, item),
                                      lambda item, rule: _case_result(state, item, rule))
        config.pluginmanager.register(state.allure, "acl-allure-listener")
        if getattr(config.option, "allure_report_dir", None) is None:
            config.option.allure_report_dir = str(settings.report_dir / "allure-results")


def _bound_the_run(config: pytest.Config, state: RunState) -> None:
    """Deadline, scratch directory (the executors' call journals) and hung calls."""
    state.run_dir, state.owns_run_dir = run_dir_for_process(config)
    state.deadline = RunDeadline.for_process(state.settings.deadline)
    state.hung = HungCalls(state.run_dir / "hung")


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
    if state.settings.shuffle is not None:
        random.Random(state.settings.shuffle).shuffle(items)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """Remember which cases were selected (a partial run reports only those)."""
    state = session.config.stash[STATE]
    if selection_requested(state.config, state.settings.rules):
        state.selected = selected_case_ids([item.nodeid for item in session.items], state.rules)


#: An item's rule, once looked up: every phase and listener of every case asks for it, and pytest finds a
#: marker by walking the item's parents.
_RULE = pytest.StashKey[tuple["CaseRule | None"]]()


def _rule_of(state: RunState, item: pytest.Item) -> CaseRule | None:
    known = item.stash.get(_RULE, None)
    if known is not None:
        return known[0]
    marker = item.get_closest_marker("acl_rule")
    rule: CaseRule | None = None
    if marker is not None and marker.args:
        rule = state.rules.get(marker.args[0]) or {"id": marker.args[0], "title": "(rule not in the catalog)",
                                                   "interfaces": [], "family": "", "severity": "mandatory",
                                                   "applies": {}, "cases": []}
    item.stash[_RULE] = (rule,)
    return rule


# --------------------------------------------------------------------------- the executor


def _start_message(state: RunState, index: int) -> dict[str, object]:
    """What executor ``index`` is told when it starts: the settings it opens the library with, its
    index (which device it pins when the run names none) and the plugin files it imports first."""
    settings = state.settings
    return {"worker_index": index, "settings": {
        "lib": str(settings.lib) if settings.lib else None, "device": settings.device,
        "product": settings.product, "timeout": settings.timeout, "kernel": settings.kernel,
        "explore_steps": settings.explore_steps, "explore_seed": settings.explore_seed,
        "host_page": settings.host_page, "host_alloc": settings.host_alloc,
        "sync_window": settings.sync_window, "cann_release": settings.cann_release},
        "preload": executor_setups(state.config)}


def _scheduler(state: RunState) -> Scheduler:
    """The run's scheduler and its executors (each started when it first gets a case)."""
    if state.scheduler is None:
        sandbox = find_sandbox(state.settings.sandbox_allow)
        family = ExecutorFamily()
        executors = [Executor(_start_message(state, index), f"executor-{index}", state.run_dir, sandbox=sandbox,
                              family=family) for index in range(state.executors)]
        state.scheduler = Scheduler(executors, _hooks(state))
    return state.scheduler


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


def _hooks(state: RunState) -> Hooks:
    """What the run decides for its scheduler (each is called in an executor's thread, never pytest's)."""

    def prepare(job: Job) -> tuple[dict[str, object], float] | None:
        if state.deadline.left() <= 0:
            return None
        extra: dict[str, object] = {"given_up": state.hung.given_up(), "hangs": HANGS_BEFORE_GIVING_UP,
                                    "seed": state.settings.explore_seed}
        return extra, state.deadline.case_limit(state.settings.case_timeout)

    def lost(job: Job, answer: Answer, executor: Executor, limit: float) -> CaseResult:
        return crashed_case(state, job.case_id, job.rule_id, limit if answer.lost == "timeout" else answer.elapsed,
                            limit, executor.name, executor.journal, capped_output(answer.stderr))

    def spoils(job: Job, record: Mapping[str, object]) -> bool:
        # An exploration that met a deviation leaves the library as its history made it, which no teardown
        # knows how to undo (a mapping the driver kept after a successful unregister, say). The judge has not
        # classified the case yet when the executor's next case is due: any exception other than a skip, or
        # any finding, counts (a superset of the FAIL and ERROR that the judge will decide).
        if job.rule_id not in EXPLORER_RULES:
            return False
        raised = [record.get(phase) for phase in ("setup", "call", "teardown")]
        return bool(record.get("findings")) or any(isinstance(r, Mapping) and r.get("kind") != "skip" for r in raised)

    def fresh_after_spoil(job: Job) -> bool:
        # The explorer's other case runs where the first one ran, as it always has: their findings are one
        # deviation's, and a fresh process for it would import Hypothesis again (0.14 s).
        return job.rule_id not in EXPLORER_RULES

    def open_error(exc: ExecutorError) -> str:
        return f"could not open {state.settings.lib}: {exc}"

    return Hooks(prepare, lost, spoils, fresh_after_spoil, open_error)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtestloop(session: pytest.Session) -> Iterator[None]:
    """Dispatch the programs of the selected generated cases before pytest reaches them; stop every
    executor when the loop ends (however it ends)."""
    state = session.config.stash[STATE]
    if not session.config.option.collectonly and _needs_backend(session.config):
        jobs = []
        for item in session.items:
            rule = _rule_of(state, item)
            if rule is None:
                continue
            case_id = case_id_for_item(rule["id"], item)
            program = predicted_program(item, rule["id"], case_id)
            if program is not None:
                jobs.append(Job(item.nodeid, rule["id"], case_id, program))
        if jobs:
            _scheduler(state).start(jobs)
    try:
        yield
    finally:
        if state.scheduler is not None:
            state.scheduler.stop()


def _send(state: RunState, item: pytest.Item, rule: CaseRule, case_id: str
          ) -> Callable[[dict[str, object]], Mapping[str, object]]:
    """The function a ExecutorCase hands its program to: the scheduler's answer for it, bounded by the case's
    limit, and turned into the record pytest sees (or the case decided by the judge when it was lost)."""

    def send(program: dict[str, object]) -> Mapping[str, object]:
        dispatched = _scheduler(state).take(item.nodeid, rule["id"], case_id, program)
        _learn_facts(state, dispatched)
        if dispatched.error:
            raise HarnessError(dispatched.error)
        if dispatched.not_started or dispatched.answer is None:
            state.deadline.check()
            raise HarnessError("the case was not started")  # only a deadline leaves a case unstarted
        answer = dispatched.answer
        for problem in answer.problems:  # shown with the case's output
            print(f"acl: {problem}", file=sys.stderr)
        if dispatched.lost is not None:
            result = dispatched.lost
            item.stash[LOST] = result
            if state.allure is not None:
                state.allure.executor_lost(result.stderr or "")
            raise ExecutorLost(f"[{result.category.value if result.category else ''}] {result.message}")
        assert answer.record is not None
        record = dict(answer.record, stdout=answer.stdout, stderr=answer.stderr)
        _keep(item, ExecutorCase.records(record))
        return record

    return send


def _learn_facts(state: RunState, dispatched: Dispatched) -> None:
    """The run's facts gain what the first executor learned from the library (SoC, family, release)."""
    if not state.facts_learned and dispatched.facts:
        state.facts = dict(state.facts, **dispatched.facts)
        state.facts_learned = True


def _keep(item: pytest.Item, kept: CaseRecords) -> None:
    """What the case's record holds for the report, stashed before any report hook reads it."""
    item.stash[TRACE] = kept.trace
    item.stash[OBSERVED] = kept.observed
    item.stash[FINDINGS] = kept.findings
    item.stash[ATTACHMENTS] = kept.attachments
    item.stash[RESTS_ON] = kept.rests_on


# --------------------------------------------------------------------------- the fixture


@pytest.fixture
def acl(request: pytest.FixtureRequest) -> Iterator[ExecutorCase]:
    """A :class:`~conformance.session.executor_case.ExecutorCase` for one case: its check runs in the executor."""
    state = request.config.stash[STATE]
    item = request.node
    rule = _rule_of(state, item)
    if rule is None:
        raise HarnessError("the case has no @pytest.mark.acl_rule marker")
    state.deadline.check()  # before the backend is touched: it may be what hangs
    case_id = case_id_for_item(rule["id"], item)
    case = ExecutorCase(rule, case_id, _send(state, item, rule, case_id))
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
    """The executors are stopped (the run loop's end stops them; a session that never reached it has none);
    the judge writes the reports."""
    state = session.config.stash[STATE]
    if state.scheduler is not None:
        state.scheduler.stop()
    if not session.config.option.collectonly:
        write_reports(state, interrupted=session.config.stash.get(KEYBOARD_INTERRUPT, False))
    if state.owns_run_dir:
        remove_run_dir(state.run_dir)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config) -> None:
    """One line per run: where summary.json is and the verdict."""
    summary = config.stash.get(SUMMARY, None)
    if summary is None or console_requested(config):  # run prints the summary's count itself
        return
    totals = ", ".join(f"{n} {k.lower()}" for k, n in summary["totals"].items() if n)  # outcome names: as written
    path = config.stash[STATE].settings.report_dir / "summary.json"
    terminalreporter.write_line(_("acl conformance: {totals}; verdict {verdict} ({path})").format(
        totals=totals, verdict=summary["verdict"], path=path))


def pytest_unconfigure(config: pytest.Config) -> None:
    """A plain pytest run lets the next run have its report directory."""
    lock = config.stash.get(REPORT_LOCK, None)
    if lock is not None:
        lock.release()
