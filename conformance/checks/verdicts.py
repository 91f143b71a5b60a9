"""Small assertions shared by the checks, raising the harness's violation types."""

from __future__ import annotations

from typing import Any

from acl_hostmem_generated.acl_bindings import error_name

from ..harness.violations import SpecViolation, WrongErrorCode


def describe(code: int) -> str:
    """``507911 ACL_ERROR_HOST_MEMORY_NOT_REGISTERED``."""
    return f"{code} {error_name(code)}"


def succeeded(code: int, what: str) -> None:
    """The call must have succeeded."""
    if code != 0:
        raise SpecViolation(f"{what} failed with {describe(code)}", code=code)


def failed(code: int, expect: dict[str, Any] | None, what: str) -> None:
    """The call must have failed, with the expected code when the expectation is strict."""
    if code == 0:
        raise SpecViolation(f"{what} succeeded but must fail", code=code)
    if expect and expect.get("strict") and code != expect["value"]:
        raise WrongErrorCode(
            f"{what} failed with {describe(code)}, expected {expect['value']} {expect['code']} "
            f"({expect['provenance']})",
            code=code,
        )


def holds(condition: bool, message: str) -> None:
    """A plain property of the rule must hold."""
    if not condition:
        raise SpecViolation(message)
