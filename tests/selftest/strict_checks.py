"""A pytest plugin that makes the checks too strict: every expected code decides its case.

Used by the self-test's own tests: codes the docs do not give (judged at their own, lower
level) now fail mandatory cases, so a legal variant that answers another code must show up
as a false alarm and the self-test must fail. The checks run in the executor, so the
change is made there (``acl_executor_setup``).
"""

from __future__ import annotations

from typing import Any


def acl_executor_setup() -> None:
    """In the executor, before any case: every check module's ``failed`` lets each code decide."""
    from conformance.checks import assertions, invalid_argument, pairing, va_identity

    original = assertions.failed

    def strict_failed(ctx: Any, code: int, expect: dict[str, Any] | None, what: str) -> None:
        original(ctx, code, dict(expect, decides=True) if expect else expect, what)

    for module in (invalid_argument, pairing, va_identity):
        module.failed = strict_failed
