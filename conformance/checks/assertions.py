"""Small assertions shared by the checks, raising the harness's violation types."""

from __future__ import annotations

from acl_hostmem_generated.acl_bindings import error_name
from acl_hostmem_generated.catalog_types import ExpectEntry

from ..harness.context import AclContext
from ..harness.violations import SpecViolation, WrongErrorCode


def describe(code: int) -> str:
    """``507911 ACL_ERROR_HOST_MEMORY_NOT_REGISTERED``."""
    return f"{code} {error_name(code)}"


def succeeded(code: int, what: str) -> None:
    """The call must have succeeded."""
    if code != 0:
        raise SpecViolation(f"{what} failed with {describe(code)}", code=code)


def failed(ctx: AclContext, code: int, expect: ExpectEntry | None, what: str) -> None:
    """The call must have failed (judged at the rule's severity); the code is judged at its own level.

    A differing code fails the case when the code's evidence reaches the rule's severity
    (``decides``); otherwise it is recorded as a finding of the code's level and the case
    keeps its outcome.
    """
    if code == 0:
        raise SpecViolation(f"{what} succeeded but must fail", code=code)
    if not expect or code == expect["value"]:
        return
    message = (f"{what} failed with {describe(code)}, expected {expect['value']} {expect['code']} "
               f"({expect['provenance']}, judged at {expect['severity']})")
    if expect["decides"]:
        raise WrongErrorCode(message, code=code)
    ctx.finding(expect["severity"], message, error_name(code))


def holds(condition: bool, message: str) -> None:
    """A plain property of the rule must hold."""
    if not condition:
        raise SpecViolation(message)
