"""A case as the judge runs it: the program goes to the executor, the records come back.

:class:`ExecutorCase` is what the generated cases' ``acl`` fixture yields. ``acl.run(check,
**kwargs)`` hands the check procedure's name and arguments to the executor and turns the
record that comes back into what pytest and the outcome model see: the exception the
check raised (rebuilt from its kind, message and code), what the case printed (capped),
its trace, observations, findings and attachments. A teardown problem is raised from the
fixture's teardown, as before the split.
"""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytest

from ..executor.protocol import CHECK_PACKAGE
from ..harness.attachment import Attachment
from ..harness.untrusted_text import capped_output
from ..harness.violations import (
    BackendLeak,
    Blocked,
    CallHung,
    CallTimeout,
    DeadlineReached,
    HarnessError,
    InstrumentFailed,
    MissingFunction,
    SpecViolation,
    WrongErrorCode,
)
from ..results.outcomes import Finding

if TYPE_CHECKING:
    from .state import CaseRule

#: The exception types a record may name by kind; any other kind is an ERROR of the harness.
KINDS: dict[str, type[BaseException]] = {cls.__name__: cls for cls in (
    Blocked, InstrumentFailed, MissingFunction, BackendLeak, DeadlineReached, CallHung, CallTimeout,
    WrongErrorCode, SpecViolation, HarnessError)}
MESSAGE_LIMIT = 16 * 1024
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")


class RemoteException(Exception):
    """An exception of a type the harness does not classify, raised in the executor (ERROR)."""

    code: int | None = None


class ExecutorLost(Exception):
    """The executor died or did not answer during the case; its result is decided by the judge."""


def _text(value: object) -> str:
    return str(value)[:MESSAGE_LIMIT] if value is not None else ""


def _code(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _each(value: object) -> Iterable[object]:
    """The items of a record's field, as ``value or ()`` iterates them (none of a value that is no collection)."""
    return value if isinstance(value, Iterable) else ()


def rebuild(record: Mapping[str, object]) -> BaseException:
    """The exception an executor's record describes, of the type its kind names."""
    kind, message = str(record.get("kind")), _text(record.get("message"))
    if kind == "skip":
        return pytest.skip.Exception(message)
    cls = KINDS.get(kind)
    code = _code(record.get("code"))
    if cls is Blocked:
        exc = Blocked(_text(record.get("rule_id")) or "?", _text(record.get("step")), "", code)
        exc.args = (message,)
        return exc
    if cls is CallHung:
        return CallHung(message, _text(record.get("rule_id")) or None)
    if cls is not None and issubclass(cls, SpecViolation):
        return cls(message, code)
    if cls is not None:
        return cls(message)
    name = str(record.get("type") or kind)
    name = name if _NAME.fullmatch(name) else "RemoteException"
    rebuilt: RemoteException = type(name, (RemoteException,), {})(message)
    rebuilt.code = code
    return rebuilt


class ExecutorCase:
    """One case's handle in the judge: run its check in the executor, then keep what came back."""

    def __init__(self, rule: CaseRule, case_id: str,
                 send: Callable[[dict[str, object]], Mapping[str, object]]) -> None:
        self.rule = rule
        self.case_id = case_id
        self.send = send
        self.record: Mapping[str, object] | None = None
        self.teardown: BaseException | None = None

    def run(self, check: str | Callable[..., object], **kwargs: object) -> None:
        """Run the check procedure ``check`` with ``(ctx, **kwargs)`` in the executor; raise what it raised.

        ``check`` is ``"family:function"`` (a procedure of ``conformance/checks/<family>.py``, as the
        generated cases name them), or a function of the judge's own (a test's fake), whose file the
        executor imports.
        """
        if isinstance(check, str):
            family, _, function = check.partition(":")
            program: dict[str, object] = {"check": f"{CHECK_PACKAGE}.{family}:{function}"}
        else:
            program = {"check": f"{check.__module__}:{check.__name__}"}
            if not check.__module__.startswith(CHECK_PACKAGE):
                program["check_file"] = inspect.getsourcefile(check) or ""
        program.update(rule_id=self.rule["id"], case_id=self.case_id, kwargs=kwargs)
        record = self.send(program)
        self.record = record
        stdout, stderr, teardown = record.get("stdout"), record.get("stderr"), record.get("teardown")
        if stdout:  # the judge's send puts the executor's output (text) here
            sys.stdout.write(capped_output(str(stdout)))
        if stderr:
            sys.stderr.write(capped_output(str(stderr)))
        if isinstance(teardown, Mapping):
            self.teardown = rebuild(teardown)
        for phase in ("setup", "call"):
            raised = record.get(phase)
            if isinstance(raised, Mapping):
                raise rebuild(raised)

    @staticmethod
    def records(record: Mapping[str, object]) -> CaseRecords:
        """What a case's record holds for the report, each field checked for its shape."""
        trace = [_text(line) for line in _each(record.get("trace")) if isinstance(line, str)]
        recorded = record.get("observed")
        observed = dict(recorded) if isinstance(recorded, Mapping) else {}
        findings = [Finding(_text(f[0]), _text(f[1]), _text(f[2]) or None)
                    for f in _each(record.get("findings")) if isinstance(f, list) and len(f) == 3]
        attachments = [Attachment(a[0][:200], a[1]) for a in _each(record.get("attachments"))
                       if isinstance(a, list) and len(a) == 2 and isinstance(a[0], str) and isinstance(a[1], str)]
        rests_on = tuple(_text(r) for r in _each(record.get("rests_on")) if isinstance(r, str))
        return CaseRecords(trace, observed, findings, attachments, rests_on)


@dataclass(frozen=True)
class CaseRecords:
    """What the report keeps of a case's record: trace, observations, findings, attachments, rests-on."""

    trace: list[str]
    observed: dict[str, object]
    findings: list[Finding]
    attachments: list[Attachment]
    rests_on: tuple[str, ...]
