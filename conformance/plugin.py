"""pytest plugin of the conformance suite (load with ``-p conformance.plugin``).

Roles: in a serial run one process opens the library, runs the cases and writes the
reports. With pytest-xdist every worker opens the library once (aclInit, aclrtSetDevice,
family detection) and runs cases; the controller never loads the library, receives each
case's classified result through ``report.user_properties`` and writes ``summary.json`` once.
A worker that dies in a C call (SIGSEGV, or killed by pytest-timeout's thread method when a
call never returns) is replaced by xdist; the controller turns the lost case into an ERROR
with category ``crash`` or ``timeout`` while every other case keeps its result.

Everything a process needs lives in one :class:`RunState` in ``config.stash``.
"""

from __future__ import annotations

import datetime
import json
import os
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from .options import SIM_HOST_MEM_LIMIT, Settings, add_options, settings_from_config
from .outcomes import CaseResult, PhaseResult, apply_waiver, classify, crash_result, exception_kind
from .product import applicability, family_by_id, family_for_soc, not_supported_reason
from .reporting import (
    allure_crash_result,
    allure_marks,
    build_summary,
    case_id_for_item,
    case_id_from_nodeid,
    categories_json,
    environment_properties,
    static_facts,
    write_json,
    write_text,
)

CATALOG_PATH = Path(__file__).resolve().parents[1] / "generated" / "catalog.json"
CASE_PROPERTY = "acl_case"
FACTS_PROPERTY = "acl_facts"
FINALIZE_LIMIT_S = 10.0


@dataclass
class Backend:
    """The opened library of this process and what was learned from it."""

    lib: Any
    product: Any
    family: dict[str, Any]
    device: int
    facts: dict[str, Any]


@dataclass
class RunState:
    """Per-process state of a run, kept in ``config.stash[STATE]``."""

    config: pytest.Config
    settings: Settings
    catalog: dict[str, Any]
    role: str  # "serial" | "controller" | "worker"
    expectations: Any = None
    backend: Backend | None = None
    backend_error: str | None = None
    results: dict[str, CaseResult] = field(default_factory=dict)
    started: dict[str, float] = field(default_factory=dict)
    facts: dict[str, Any] = field(default_factory=dict)
    facts_sent: bool = False

    @property
    def rules(self) -> dict[str, dict[str, Any]]:
        """Catalog rules by id."""
        return {rule["id"]: rule for rule in self.catalog["rules"]}

    @property
    def reporter(self) -> bool:
        """Whether this process gathers results and writes the reports."""
        return self.role in ("serial", "controller")

    @property
    def worker_index(self) -> int:
        """xdist worker number (``gw3`` -> 3); 0 outside xdist."""
        workerid = getattr(self.config, "workerinput", {}).get("workerid", "gw0")
        digits = "".join(ch for ch in workerid if ch.isdigit())
        return int(digits) if digits else 0

    def today(self) -> datetime.date:
        """The date waivers are judged against."""
        return datetime.date.today()

    def waive(self, result: CaseResult, family: str | None, soc: str | None, cann: str | None) -> CaseResult:
        """Apply the matching expectation (if any) to a case result."""
        if self.expectations is None:
            return result
        match = self.expectations.match(result.case_id, result.rule_id, family or "", soc or "", cann or "",
                                        self.today())
        return apply_waiver(result, match)


STATE = pytest.StashKey[RunState]()
PHASES = pytest.StashKey[list[PhaseResult]]()
TRACE = pytest.StashKey[list[str]]()


# --------------------------------------------------------------------------- configuration


def pytest_addoption(parser: pytest.Parser) -> None:
    """Declare the --acl-* options."""
    add_options(parser)


def _role(config: pytest.Config) -> str:
    if hasattr(config, "workerinput"):
        return "worker"
    if getattr(config.option, "dist", "no") != "no" and getattr(config.option, "numprocesses", None) != 0:
        return "controller"
    return "serial"


def _load_expectations(paths: tuple[Path, ...]) -> Any:
    if not paths:
        return None
    try:
        from . import expectations as expectations_module
    except ImportError:
        print("acl: conformance.expectations is not available; expectations ignored", file=sys.stderr)
        return None
    try:
        return expectations_module.load_expectations(list(paths))
    except expectations_module.ExpectationError as exc:
        print(f"acl: {exc}", file=sys.stderr)
        pytest.exit(str(exc), returncode=2)


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Register the marker, resolve the options and set up this process's state."""
    config.addinivalue_line("markers", "acl_rule(rule_id): the catalog rule a generated case checks")
    settings = settings_from_config(config)
    catalog = json.loads(CATALOG_PATH.read_text(encoding="utf-8"))
    state = RunState(config, settings, catalog, _role(config))
    state.expectations = _load_expectations(settings.expectations)
    state.facts = static_facts(settings.lib, settings.kernel, catalog.get("spec_hash", ""))
    config.stash[STATE] = state
    if state.reporter:
        config.pluginmanager.register(Reporter(state), "acl-conformance-reporter")
    if state.role == "controller" and getattr(config.option, "maxworkerrestart", None) is None:
        config.option.maxworkerrestart = "1000000"  # every crashed case gets a fresh worker
    if state.reporter and getattr(config.option, "allure_report_dir", None) is None \
            and config.pluginmanager.hasplugin("allure_pytest"):
        config.option.allure_report_dir = str(settings.report_dir / "allure-results")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Give every generated case a hard timeout (thread method, so a hung C call is killed)."""
    state = config.stash[STATE]
    for item in items:
        if item.get_closest_marker("acl_rule") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(state.settings.case_timeout, method="thread"))


def _rule_of(state: RunState, item: pytest.Item) -> dict[str, Any] | None:
    marker = item.get_closest_marker("acl_rule")
    if marker is None or not marker.args:
        return None
    return state.rules.get(marker.args[0]) or {"id": marker.args[0], "title": "(rule not in the catalog)",
                                                "interfaces": [], "family": "", "severity": "mandatory",
                                                "applies": {}, "cases": []}


# --------------------------------------------------------------------------- the backend


def _open_backend(state: RunState) -> Backend:
    """Open the library once per process: aclInit, aclrtSetDevice, family detection."""
    from conformance.context import HarnessError, Product
    from generated import acl_bindings as acl

    if state.backend is not None:
        return state.backend
    if state.backend_error is not None:
        raise HarnessError(state.backend_error)
    settings = state.settings
    try:
        os.environ.setdefault("ACLSIM_HOST_MEM_LIMIT", str(SIM_HOST_MEM_LIMIT))
        if not settings.lib.is_file():
            raise HarnessError(f"{settings.lib} does not exist (build the simulator with `make sim`, or "
                               "pass --acl-lib)")
        lib = acl.load(settings.lib)
        code = lib.aclInit(None, raw=True)
        if code not in (acl.ACL_SUCCESS, acl.ACL_ERROR_REPEAT_INITIALIZE):
            raise HarnessError(f"aclInit failed: {code} {acl.error_name(code)}")
        count = int(lib.aclrtGetDeviceCount())
        device = settings.device if settings.device is not None else state.worker_index % max(count, 1)
        lib.aclrtSetDevice(device)
        soc = lib.aclrtGetSocName() or ""
        family = family_by_id(state.catalog, settings.product) if settings.product else family_for_soc(
            state.catalog, soc)
        if family is None:
            wanted = f"--acl-product {settings.product}" if settings.product else f"SoC {soc!r}"
            raise HarnessError(f"{wanted} matches no product family of the catalog; pass --acl-product "
                               "FAMILY_ID (ids: " + ", ".join(f["id"] for f in state.catalog["families"]) + ")")
        try:
            cann = lib.aclsysGetVersionStr("runtime")
        except Exception:  # noqa: BLE001 - a version string is a nice-to-have
            cann = None
        product = Product(soc, family["id"], settings.kernel, count, bool(family["va_flag"]), bool(family["rc_form"]))
    except HarnessError as exc:
        state.backend_error = str(exc)
        raise
    except Exception as exc:  # noqa: BLE001 - every case reports why the backend is unusable
        state.backend_error = f"could not open {settings.lib}: {type(exc).__name__}: {exc}"
        raise HarnessError(state.backend_error) from exc
    facts = dict(state.facts, soc=soc, product_family=family["id"], product_name=family["name"],
                 cann_version=cann, device_count=count)
    state.facts = facts
    state.backend = Backend(lib, product, family, device, facts)
    return state.backend


def _finalize_backend(state: RunState) -> None:
    """aclFinalize in a helper thread, bounded so that a hanging backend cannot wedge the session."""
    backend = state.backend
    if backend is None:
        return
    done = threading.Event()

    def finalize() -> None:
        try:
            backend.lib.aclFinalize(raw=True)
        finally:
            done.set()

    threading.Thread(target=finalize, name="aclFinalize", daemon=True).start()
    limit = min(FINALIZE_LIMIT_S, state.settings.timeout)
    if not done.wait(limit):
        print(f"acl: aclFinalize did not return within {limit:.1f} s; leaving it", file=sys.stderr)
    state.backend = None


# --------------------------------------------------------------------------- the fixture


def _check_applicable(ctx: Any, state: RunState, rule: dict[str, Any], backend: Backend) -> None:
    """Skip (NOT_APPLICABLE) or fail the case before it runs, per the catalog."""
    from conformance.context import SpecViolation

    verdict = applicability(state.catalog, rule, backend.family, state.settings.kernel)
    if verdict.unsupported:
        from conformance import support

        for interface in verdict.unsupported:
            problem = support.fails_cleanly(ctx, interface)
            if problem:
                raise SpecViolation(problem)
        pytest.skip(not_supported_reason(state.catalog, verdict.unsupported[0], backend.family))
    if verdict.skip_reason:
        pytest.skip(f"NOT_APPLICABLE: {verdict.skip_reason}")


@pytest.fixture
def acl(request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh :class:`~conformance.context.AclContext` for one case, released at teardown."""
    from conformance.context import AclContext, HarnessError

    state = request.config.stash[STATE]
    item = request.node
    rule = _rule_of(state, item)
    if rule is None:
        raise HarnessError("the case has no @pytest.mark.acl_rule marker")
    backend = _open_backend(state)
    ctx = AclContext(backend.lib, backend.product, device=backend.device, timeout=state.settings.timeout,
                     catalog=state.catalog)
    _allure_parameters(item, rule["id"])
    try:
        _check_applicable(ctx, state, rule, backend)
        yield ctx
    finally:
        problems = ctx.release()
        item.stash[TRACE] = [entry.line() for entry in ctx.trace]
        if problems:
            raise HarnessError("teardown could not release everything (leak?): " + "; ".join(problems))


def _allure_parameters(item: pytest.Item, rule_id: str) -> None:
    """Title the case by its case ID and show its parameters one by one in Allure."""
    try:
        import allure
    except ImportError:
        return
    callspec = getattr(item, "callspec", None)
    allure.dynamic.title(f"{rule_id}[{callspec.id}]" if callspec is not None else rule_id)
    if callspec is None or "case" not in callspec.params:
        return
    case = callspec.params["case"]
    params = case[0] if isinstance(case, tuple) and case and isinstance(case[0], dict) else {}
    allure.dynamic.parameter("case", callspec.id, mode=allure.parameter_mode.HIDDEN)
    for name, value in params.items():
        allure.dynamic.parameter(name, value)


# --------------------------------------------------------------------------- per-case results


def _phase(report: pytest.TestReport, call: pytest.CallInfo[Any]) -> PhaseResult:
    exc = call.excinfo.value if call.excinfo is not None else None
    message, kind, code = "", None, None
    if exc is not None:
        kind = exception_kind(exc)
        message = str(getattr(exc, "msg", None) or exc) if report.skipped else str(exc)
        raw_code = getattr(exc, "code", None)
        code = raw_code if isinstance(raw_code, int) else None
    elif report.failed:
        message = str(report.longrepr)
    return PhaseResult(report.when, report.outcome, kind, message, code, report.duration)


def _code_name(code: int) -> str:
    from generated.acl_bindings import error_name

    return f"{code} {error_name(code)}"


def _case_result(state: RunState, item: pytest.Item, rule: dict[str, Any]) -> CaseResult:
    result = classify(item.stash.get(PHASES, []), case_id_for_item(rule["id"], item), rule["id"], _code_name)
    facts = state.facts
    return state.waive(result, facts.get("product_family"), facts.get("soc"), facts.get("cann_version"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Iterator[None]:
    """Classify each phase; on teardown attach the case's final result to the report."""
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    state = item.config.stash[STATE]
    rule = _rule_of(state, item)
    if rule is None:
        return
    item.stash.setdefault(PHASES, []).append(_phase(report, call))
    if report.when == "teardown":
        report.user_properties.append((CASE_PROPERTY, json.dumps(_case_result(state, item, rule).to_json())))
        if state.backend is not None and not state.facts_sent:
            report.user_properties.append((FACTS_PROPERTY, json.dumps(state.facts)))
            state.facts_sent = True


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    """Label the case for Allure, and attach its ACL call trace once the context is released."""
    state = item.config.stash[STATE]
    rule = _rule_of(state, item)
    if rule is not None:
        preliminary = _case_result(state, item, rule)
        extra = [("outcome", preliminary.outcome.value),
                 ("category", preliminary.category.value if preliminary.category else "")]
        for mark in allure_marks(rule, state.facts.get("product_family"), extra):
            item.add_marker(mark)
    yield
    lines = item.stash.get(TRACE, None)
    if lines is None:
        return
    try:
        import allure
    except ImportError:
        return
    text = "\n".join(lines) + "\n" if lines else "(no ACL call was made)\n"
    allure.attach(text, name="ACL call trace", attachment_type=allure.attachment_type.TEXT)


# --------------------------------------------------------------------------- the reporting process


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
                elif name == FACTS_PROPERTY and self.state.facts.get("soc") is None:
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
        if facts and self.state.facts.get("soc") is None:
            self.state.facts = dict(facts)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Workers hand their facts over and finalize; the reporting process writes the reports."""
    state = session.config.stash[STATE]
    if state.role == "worker":
        session.config.workeroutput["acl_facts"] = state.facts  # type: ignore[attr-defined]
    if state.role in ("worker", "serial"):
        _finalize_backend(state)
    if state.reporter and not session.config.option.collectonly:
        _write_reports(state)


def _write_reports(state: RunState) -> None:
    settings = state.settings
    expired = [e.to_json() for e in state.expectations.expired(state.today())] if state.expectations else []
    summary = build_summary(state.catalog, state.results, environment=state.facts,
                            command=[sys.executable, *sys.argv], expired=expired,
                            expectation_files=[str(p) for p in settings.expectations])
    write_json(settings.report_dir / "summary.json", summary)
    allure_dir = getattr(state.config.option, "allure_report_dir", None)
    if allure_dir:
        write_text(Path(allure_dir) / "environment.properties", environment_properties(state.facts))
        write_json(Path(allure_dir) / "categories.json", categories_json())
    state.config.stash[SUMMARY] = summary


SUMMARY = pytest.StashKey[dict[str, Any]]()


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """One line per run: where summary.json is and the verdict."""
    summary = config.stash.get(SUMMARY, None)
    if summary is None:
        return
    totals = ", ".join(f"{n} {k.lower()}" for k, n in summary["totals"].items() if n)
    path = config.stash[STATE].settings.report_dir / "summary.json"
    terminalreporter.write_line(f"acl conformance: {totals}; verdict {summary['verdict']} ({path})")
