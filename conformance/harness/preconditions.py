"""Set-up steps that rest on another rule's promise, and the harness's own instruments.

A case's set-up (the allocation it registers, the registration whose double unregister it
tests, the blocked stream a sync case watches) is not what the case judges. When such a
step fails, the deviation belongs to the rule that promises the step, so the case is
BLOCKED by that rule instead of failing its own (:class:`~.violations.Blocked`). The
harness's instruments (host callbacks, set-up copies, device memory) are not promises of
any rule of the spec: when one fails the case is an ERROR naming the instrument.

The rule whose promise the calling thread's current step rests on is also kept in a
thread-local marker, so that a worker that dies inside such a step (a crash or a hang in a
set-up call) is reported as BLOCKED by that rule, not as a crash of the case's own rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from acl_hostmem_generated.acl_bindings import AclError

from .promises import MARK, current
from .violations import Blocked, DeadlineReached, HarnessError, InstrumentFailed, MissingFunction, SpecViolation


def _detail(exc: BaseException) -> tuple[str, int | None]:
    code = getattr(exc, "code", None)
    return str(exc), code if isinstance(code, int) else None


@contextmanager
def resting_on(rule_id: str, step: str) -> Iterator[None]:
    """Run a set-up step that rests on ``rule_id``'s promise: its failure raises Blocked.

    A missing function stays what it is (the case's own FAIL or NOT_APPLICABLE), and a step
    blocked by an earlier rule keeps that rule.
    """
    outer = current()
    MARK.rule = rule_id
    try:
        yield
    except (Blocked, MissingFunction, DeadlineReached):
        raise
    except (SpecViolation, AclError, HarnessError) as exc:
        detail, code = _detail(exc)
        raise Blocked(rule_id, step, detail, code) from exc
    finally:
        MARK.rule = outer


@contextmanager
def instrument(name: str, step: str) -> Iterator[None]:
    """Run a step of one of the harness's instruments: its failure is an ERROR naming the instrument."""
    try:
        yield
    except (Blocked, MissingFunction, InstrumentFailed, DeadlineReached):
        raise
    except (SpecViolation, AclError, HarnessError) as exc:
        detail, _code = _detail(exc)
        raise InstrumentFailed(f"the harness's {name} failed: {step}: {detail}") from exc
