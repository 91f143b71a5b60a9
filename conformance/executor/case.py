"""One case program in the executor: context, applicability, the check, teardown, leak check.

What the judge's fixture did in-process before the split, now run next to the library; the
outcome is decided by the judge from what :func:`run_case` returns.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Mapping
from types import ModuleType

from _pytest.outcomes import Skipped as SkipRaised  # what pytest.skip raises, without importing pytest

from acl_hostmem_generated.catalog_types import CaseEntry, Catalog, RuleEntry

from ..harness.backend import Backend
from ..harness.context import AclContext, Release
from ..harness.options import Settings
from ..harness.product import applicability, not_supported_reason
from ..harness.simstats import leaked, leaked_counters
from ..harness.support import fails_cleanly
from ..harness.violations import BackendLeak, Blocked, CallHung, HarnessError, InstrumentFailed, SpecViolation
from ..results.outcomes import exception_kind
from .protocol import CHECK_PACKAGE, JSONValue, as_int, as_object, as_text_or_none


class Skipped(Exception):
    """A case that does not apply (its reason starts with NOT_APPLICABLE)."""


def check_function(name: str, path: str | None = None) -> Callable[..., object]:
    """The check procedure ``module:function``: one of :data:`CHECK_PACKAGE`, or one defined in the
    Python file ``path`` that the judge names; raises HarnessError."""
    module_name, _, function = name.partition(":")
    if not function.isidentifier():
        raise HarnessError(f"a case program names {name!r}, which is no check procedure")
    if module_name == CHECK_PACKAGE or module_name.startswith(CHECK_PACKAGE + "."):
        module = importlib.import_module(module_name)
    elif path:
        module = module_from_file(path)
    else:
        raise HarnessError(f"a case program names {name!r} without the file that defines it")
    found: object = getattr(module, function, None)
    if not callable(found):
        raise HarnessError(f"{name} is no check procedure")
    return found


def module_from_file(path: str) -> ModuleType:
    """The Python module in the file ``path``, imported once under a private name."""
    key = f"_judge_checks_{abs(hash(path))}"
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, path)
    if spec is None or spec.loader is None:
        raise HarnessError(f"{path} is no Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    spec.loader.exec_module(module)
    return module


def exception_record(exc: BaseException) -> dict[str, object]:
    """What the judge needs of an exception to classify it: kind, type, message, code, rule, step."""
    if isinstance(exc, (SkipRaised, Skipped)):
        return {"kind": "skip", "type": type(exc).__name__, "message": str(getattr(exc, "msg", None) or exc)}
    code = getattr(exc, "code", None)
    return {"kind": exception_kind(exc), "type": type(exc).__name__, "message": str(exc),
            "code": code if isinstance(code, int) and not isinstance(code, bool) else None,
            "rule_id": getattr(exc, "rule_id", None) if isinstance(exc, (Blocked, CallHung)) else None,
            "step": getattr(exc, "step", None) if isinstance(exc, Blocked) else None}


def _check_applicable(ctx: AclContext, catalog: Catalog, rule: RuleEntry,
                      case: CaseEntry | None, backend: Backend) -> None:
    """Skip (NOT_APPLICABLE) or fail the case before it runs, per the catalog."""
    product = backend.product
    verdict = applicability(catalog, rule, backend.family, product.machine, case)
    if verdict.unsupported:
        for interface in verdict.probe:
            problem = fails_cleanly(ctx, interface)
            if problem:
                # The support matrix is the support rule's promise: this case's rule is not what broke.
                owner = ctx.promise_of("supported")
                if owner == rule["id"]:
                    raise SpecViolation(problem)
                raise Blocked(owner, "the support matrix", problem)
        raise Skipped(not_supported_reason(catalog, verdict.unsupported[0], backend.family, product.release))
    if verdict.skip_reason:
        raise Skipped(f"NOT_APPLICABLE: {verdict.skip_reason}")


def teardown_verdict(ctx: AclContext, problems: list[Release], leak: bool = False) -> Exception:
    """What a failed release makes of the case: its own rule's leak, BLOCKED by the rule that
    promises the release, or an ERROR of the harness's instruments."""
    text = "; ".join(f"{p.what}: {p.problem}" for p in problems)
    rules = [ctx.promise_of(p.promise) for p in problems if p.promise != "instrument"]
    if ctx.rule_id in rules:
        return BackendLeak(("leak: " if leak else "teardown could not release what the case held: ") + text)
    if rules:
        return Blocked(rules[0], "teardown" if not leak else "after teardown", text)
    if leak:
        return InstrumentFailed(f"the harness's instruments leaked: {text}")
    return HarnessError("teardown could not release everything (leak?): " + text)


def run_case(backend: Backend, settings: Settings, catalog: Catalog, program: Mapping[str, JSONValue]
             ) -> dict[str, object]:
    """Run one case program; the records of what happened (nothing here decides its outcome)."""
    rules = {rule["id"]: rule for rule in catalog["rules"]}
    rule = rules.get(str(program.get("rule_id")))
    if rule is None:
        return {"setup": exception_record(HarnessError(f"rule {program.get('rule_id')!r} is not in the catalog"))}
    case = next((c for c in rule.get("cases", []) if c["case_id"] == program.get("case_id")), None)
    before = backend.counters.read() if backend.counters else None
    ctx = AclContext(backend.lib, backend.product, device=backend.device, timeout=settings.timeout,
                     catalog=catalog, observations=rule.get("observations", []),
                     explore_steps=settings.explore_steps,
                     explore_seed=as_int(program.get("seed", settings.explore_seed)),
                     rule_id=rule["id"], needs=rule.get("needs", []), sync_window=settings.sync_window)
    record: dict[str, object] = {"setup": None, "call": None, "teardown": None}
    try:
        try:
            _check_applicable(ctx, catalog, rule, case, backend)
        except BaseException as exc:  # noqa: BLE001 - every exception is a record for the judge
            record["setup"] = exception_record(exc)
        else:
            try:
                check = check_function(str(program.get("check")), as_text_or_none(program.get("check_file")))
                check(ctx, **as_object(program.get("kwargs") or None))
            except BaseException as exc:  # noqa: BLE001
                record["call"] = exception_record(exc)
    finally:
        record["teardown"] = _teardown(ctx, backend, before)
    record.update(
        trace=[entry.line() for entry in ctx.trace],
        calls=[{"function": e.function, "args": e.args, "result": e.result, "thread": e.thread, "at_ms": e.at_ms}
               for e in ctx.trace],
        observed=ctx.observed.to_json(),
        findings=[[n.severity, n.message, n.code] for n in ctx.findings],
        attachments=[[a.name, a.text] for a in ctx.attachments],
        rests_on=list(ctx.rests_on))
    return record


def _teardown(ctx: AclContext, backend: Backend, before: dict[str, int] | None) -> dict[str, object] | None:
    """Release what the case held, then ask the simulator's counters what it still holds."""
    try:
        problems = ctx.release()
        if problems:
            raise teardown_verdict(ctx, problems)
        if before is not None and backend.counters is not None:
            after = backend.counters.read()
            kept = leaked(before, after)
            if "live_registrations" in leaked_counters(before, after):
                ctx.leaked_registrations()
            if kept:
                raise teardown_verdict(ctx, [Release("after the case released everything", promise,
                                                     f"the backend still holds {what} (aclsimGetStats)")
                                             for what, promise in kept], leak=True)
    except BaseException as exc:  # noqa: BLE001
        return exception_record(exc)
    return None
