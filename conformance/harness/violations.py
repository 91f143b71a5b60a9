"""The harness's verdict types: how a check says the backend broke a rule, or the harness failed.

The outcome model (:mod:`conformance.results.outcomes`) classifies a case by the name of the
exception it raised, so these names are part of the contract between checks and results.
"""

from __future__ import annotations


class SpecViolation(AssertionError):
    """The backend behaved against a rule of the spec; ``code`` is the aclError it gave, if any."""

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        self.code = code


class WrongErrorCode(SpecViolation):
    """The backend failed as the spec says, but with another aclError than documented."""


class CallTimeout(SpecViolation):
    """A call did not return within its bound: the backend hangs, or waits where it must not."""


class HarnessError(RuntimeError):
    """The harness itself could not set a case up (not a verdict on the backend)."""
