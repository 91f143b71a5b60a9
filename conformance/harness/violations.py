"""The harness's verdict types: how a check says the backend broke a rule, or the harness failed.

The outcome model (:mod:`conformance.results.outcomes`) classifies a case by the type of the
exception it raised, so these types are part of the contract between checks and results.
"""

from __future__ import annotations

from _pytest.outcomes import Skipped  # what pytest.skip raises; pytest exports it only as pytest.skip.Exception


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


class MissingFunction(SpecViolation):
    """The library does not export a function of the spec that its product family supports."""


class AbsentAsDocumented(Skipped):
    """The library does not export a function its product family does not support: not applicable.

    A skip whose reason starts with NOT_APPLICABLE, so pytest, Allure and the outcome model
    all see the case as not applicable.
    """


class BackendLeak(SpecViolation):
    """After the case released everything it held, the backend still counts some of it as live."""


class DeadlineReached(HarnessError):
    """The run's deadline passed before the case could run (ERROR, category deadline)."""


class CallHung(HarnessError):
    """The call hung in earlier cases of this run; it is not called again (ERROR, category timeout).

    ``rule_id`` is the rule whose promise the call rests on (the spec's setup_promises): in a
    case of another rule the hang is that rule's deviation, and the case is BLOCKED by it.
    """

    def __init__(self, message: str, rule_id: str | None = None) -> None:
        super().__init__(message)
        self.rule_id = rule_id


class Blocked(Exception):
    """A set-up step failed that rests on another rule's promise: the case is BLOCKED by that rule.

    Not a verdict on the case's own rule: the deviation is ``rule_id``'s, and the case could
    not reach its own assertion. ``step`` says what the case was setting up, ``code`` is the
    aclError that broke it, if any.
    """

    def __init__(self, rule_id: str, step: str, detail: str, code: int | None = None) -> None:
        super().__init__(f"BLOCKED by {rule_id}: {step}: {detail}")
        self.rule_id = rule_id
        self.step = step
        self.code = code


class InstrumentFailed(HarnessError):
    """One of the harness's own instruments failed (a blocking host callback that never ran, a
    set-up copy that was refused): ERROR, category instrument, never a FAIL of the rule."""
