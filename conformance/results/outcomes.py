"""The outcome model: exactly one outcome and at most one category per case.

Outcomes form a closed set (as in the Vulkan CTS): a case is PASS, FAIL, BLOCKED,
NOT_APPLICABLE, WAIVED, XPASS or ERROR; NOT_APPLICABLE is never counted as a pass. BLOCKED
means a set-up step that rests on another rule's promise failed: the case names that rule
(``blocked_by``), which is the root cause, and never counts as a pass either. Categories
say why a case did not pass. Everything here is pure and works on plain data, so that the judge and the
commands that read a run's files later classify identically.
"""

from __future__ import annotations

import copy
import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Protocol, TypedDict

from ..harness import violations
from ..i18n import N_

NA_PREFIX = "NOT_APPLICABLE"


class Outcome(str, enum.Enum):
    """The outcome of a case or rule."""

    PASS = "PASS"
    FAIL = "FAIL"
    BLOCKED = "BLOCKED"
    NOT_APPLICABLE = "NOT_APPLICABLE"
    WAIVED = "WAIVED"
    XPASS = "XPASS"
    ERROR = "ERROR"


class Category(str, enum.Enum):
    """Why a case did not pass."""

    SPEC_VIOLATION = "spec_violation"
    WRONG_ERROR_CODE = "wrong_error_code"
    CRASH = "crash"
    TIMEOUT = "timeout"
    NOT_APPLICABLE = "not_applicable"
    HARNESS_ERROR = "harness_error"
    WAIVED = "waived"
    MISSING_SYMBOL = "missing_symbol"
    LEAK = "leak"
    DEADLINE = "deadline"
    BLOCKED = "blocked"
    INSTRUMENT = "instrument"
    INCONSISTENT = "inconsistent"  # a PASS its own observations contradict (see results/consistency.py)
    NOT_RUN = "not_run"  # the run ended (interrupted, or lost the case) before the case ran


# Worst first: a rule's outcome is the first of these that any of its cases has.
SEVERITY_ORDER: tuple[Outcome, ...] = (
    Outcome.ERROR, Outcome.FAIL, Outcome.BLOCKED, Outcome.WAIVED, Outcome.XPASS, Outcome.PASS, Outcome.NOT_APPLICABLE,
)
#: Outcomes that keep a mandatory rule from passing (a WAIVED one is judged by certification).
FAILING_OUTCOMES = frozenset({Outcome.FAIL, Outcome.ERROR, Outcome.BLOCKED})
#: The same as the strings summary.json carries, for the stages that read summaries.
FAILING_VALUES = frozenset(o.value for o in FAILING_OUTCOMES)
#: A rule's own failure: BLOCKED is the failure of the rule that blocked it, not of the rule itself.
OWN_FAILURES = frozenset({Outcome.FAIL, Outcome.ERROR})
OWN_FAILURE_VALUES = frozenset(o.value for o in OWN_FAILURES)
#: Every outcome, worst first, as strings.
OUTCOME_ORDER: tuple[str, ...] = tuple(o.value for o in SEVERITY_ORDER)
#: ERROR categories that say the instrument could not observe, not that the library misbehaved: the
#: harness failed, the case was not run, the run's deadline came, or a PASS its own observations
#: contradict. A mandatory case so ended leaves its rule unjudged (verdict INCONCLUSIVE), not failed;
#: an ERROR of any other category (the library crashed, a call hung) fails it.
UNOBSERVED = frozenset({Category.INSTRUMENT, Category.HARNESS_ERROR, Category.NOT_RUN, Category.DEADLINE,
                        Category.INCONSISTENT})
UNOBSERVED_VALUES = frozenset(c.value for c in UNOBSERVED)
#: Severities in order of weight; only the first decides a run's verdict and a certification.
SEVERITIES: tuple[str, ...] = ("mandatory", "recommended", "advisory", "informational")
DECIDING_SEVERITY = SEVERITIES[0]

CATEGORY_TITLES: dict[Category, str] = {
    Category.SPEC_VIOLATION: N_("Spec violation"),
    Category.WRONG_ERROR_CODE: N_("Wrong error code"),
    Category.CRASH: N_("Crash"),
    Category.TIMEOUT: N_("Timeout"),
    Category.NOT_APPLICABLE: N_("Not applicable"),
    Category.HARNESS_ERROR: N_("Harness error"),
    Category.WAIVED: N_("Waived"),
    Category.MISSING_SYMBOL: N_("Missing function"),
    Category.LEAK: N_("Backend leak"),
    Category.DEADLINE: N_("Run deadline reached"),
    Category.BLOCKED: N_("Blocked by another rule"),
    Category.INSTRUMENT: N_("Harness instrument failed"),
    Category.INCONSISTENT: N_("Outcome contradicted by its observations"),
    Category.NOT_RUN: N_("Not run"),
}
#: Categories a waiver never turns into WAIVED: a call that must return and did not.
UNWAIVABLE = frozenset({Category.TIMEOUT, Category.INCONSISTENT})


@dataclass(frozen=True)
class PhaseResult:
    """What one pytest phase (setup, call, teardown) produced, reduced to plain data."""

    when: str
    outcome: str  # passed | failed | skipped
    exception: str | None = None  # "SpecViolation", "WrongErrorCode", "HarnessError", other type name
    message: str = ""
    code: int | None = None
    duration_s: float = 0.0
    blocked_by: str | None = None  # the rule whose promise failed (a Blocked exception)


class FindingJSON(TypedDict):
    """A :class:`Finding` as JSON (summary.json's ``findings``)."""

    severity: str
    message: str
    code: str | None


class CaseOutcomeJSON(TypedDict):
    """What every JSON form of a case's result holds: its outcome, why, and what it observed."""

    outcome: str
    category: str | None
    message: str
    observed_code: str | None
    duration_s: float
    waiver: dict[str, object] | None
    findings: list[FindingJSON]


class CaseResultJSON(CaseOutcomeJSON):
    """A :class:`CaseResult` as JSON: what a worker hands the controller (a report's user property)."""

    case_id: str
    rule_id: str
    observations: dict[str, object]
    teardown_problem: str
    stderr: str
    blocked_by: str | None
    rests_on: list[str]


class SupportsToJson(Protocol):
    """A waiver that writes itself as JSON (an :class:`~.expectations.Expectation`)."""

    def to_json(self) -> Mapping[str, object]:
        """The waiver as summary.json records it."""
        ...


@dataclass(frozen=True)
class Finding:
    """Something a case noticed that does not decide its outcome.

    The typical finding is an error code that differs from one known only from the runtime
    source: the call failed as the rule demands, but with another code than the source
    shows, judged at the code's own severity (recommended, advisory or informational).
    """

    severity: str
    message: str
    code: str | None = None

    def to_json(self) -> FindingJSON:
        """JSON-ready dict."""
        return {"severity": self.severity, "message": self.message, "code": self.code}

    @classmethod
    def from_json(cls, data: FindingJSON) -> Finding:
        """Inverse of :meth:`to_json`."""
        return cls(str(data.get("severity", "informational")), str(data.get("message", "")), data.get("code"))


@dataclass(frozen=True)
class CaseResult:
    """The final result of one case, as it lands in summary.json."""

    case_id: str
    rule_id: str
    outcome: Outcome
    category: Category | None
    message: str
    observed_code: str | None
    duration_s: float
    waiver: dict[str, object] | None = None
    observations: dict[str, object] = field(default_factory=dict)
    teardown_problem: str = ""
    stderr: str = ""
    findings: tuple[Finding, ...] = ()
    blocked_by: str | None = None  # BLOCKED: the rule whose promise failed
    rests_on: tuple[str, ...] = ()  # rules a failing explorer path rests on (re-attributed in the report)

    def to_json(self) -> CaseResultJSON:
        """JSON-ready dict (enum members become their values)."""
        return {
            "case_id": self.case_id, "rule_id": self.rule_id, "outcome": self.outcome.value,
            "category": self.category.value if self.category else None, "message": self.message,
            "observed_code": self.observed_code, "duration_s": self.duration_s,
            "waiver": copy.deepcopy(self.waiver), "observations": copy.deepcopy(self.observations),
            "teardown_problem": self.teardown_problem, "stderr": self.stderr,
            "findings": [f.to_json() for f in self.findings], "blocked_by": self.blocked_by,
            "rests_on": list(self.rests_on),
        }

    @classmethod
    def from_json(cls, data: CaseResultJSON) -> CaseResult:
        """Inverse of :meth:`to_json`."""
        return cls(
            case_id=data["case_id"], rule_id=data["rule_id"], outcome=Outcome(data["outcome"]),
            category=Category(data["category"]) if data.get("category") else None,
            message=data.get("message", ""), observed_code=data.get("observed_code"),
            duration_s=float(data.get("duration_s", 0.0)), waiver=data.get("waiver"),
            observations=dict(data.get("observations") or {}),
            teardown_problem=data.get("teardown_problem", ""), stderr=data.get("stderr", ""),
            findings=tuple(Finding.from_json(f) for f in data.get("findings") or ()),
            blocked_by=data.get("blocked_by"), rests_on=tuple(data.get("rests_on") or ()),
        )


#: The harness's violation types the classifier knows, subclasses before their bases.
VIOLATIONS: tuple[type[BaseException], ...] = (
    violations.Blocked, violations.InstrumentFailed, violations.MissingFunction, violations.BackendLeak,
    violations.DeadlineReached, violations.CallHung, violations.CallTimeout, violations.WrongErrorCode,
    violations.SpecViolation, violations.HarnessError)


def exception_kind(exc: BaseException) -> str:
    """The kind the classifier keys on: the first of :data:`VIOLATIONS` that ``exc`` is an instance of
    (by type, not by name), else the name of its own type."""
    return next((kind.__name__ for kind in VIOLATIONS if isinstance(exc, kind)), type(exc).__name__)


_FAILURES: dict[str, tuple[Outcome, Category]] = {
    "Blocked": (Outcome.BLOCKED, Category.BLOCKED),
    "InstrumentFailed": (Outcome.ERROR, Category.INSTRUMENT),
    "MissingFunction": (Outcome.FAIL, Category.MISSING_SYMBOL),
    "BackendLeak": (Outcome.FAIL, Category.LEAK),
    "DeadlineReached": (Outcome.ERROR, Category.DEADLINE),
    "CallHung": (Outcome.ERROR, Category.TIMEOUT),
}


def _failure(phase: PhaseResult) -> tuple[Outcome, Category]:
    if phase.exception in _FAILURES:
        return _FAILURES[phase.exception]
    if phase.exception == "CallTimeout":
        return Outcome.FAIL, Category.TIMEOUT
    if phase.exception == "WrongErrorCode":
        return Outcome.FAIL, Category.WRONG_ERROR_CODE
    if phase.exception == "SpecViolation":
        return Outcome.FAIL, Category.SPEC_VIOLATION
    return Outcome.ERROR, Category.HARNESS_ERROR


def classify(phases: Iterable[PhaseResult], case_id: str, rule_id: str,
             code_name: Callable[[int], str | None] | None = None,
             findings: Iterable[Finding] = ()) -> CaseResult:
    """Combine the phases of one case into its result (before waivers).

    A skip whose reason starts with ``NOT_APPLICABLE`` is NOT_APPLICABLE; any other skip is a
    harness error (a case must never vanish as a silent skip). A failing teardown turns a
    passing case into an ERROR and is appended to the message of a failing one.
    """
    phases = list(phases)
    duration = sum(p.duration_s for p in phases)
    namer = code_name or (lambda c: str(c))
    primary: tuple[Outcome, Category | None, str, int | None] = (Outcome.PASS, None, "", None)
    blocked_by: str | None = None
    outcome: Outcome
    category: Category | None
    teardown_note = "".join(f"teardown: {p.message}" for p in phases
                            if p.when == "teardown" and p.outcome == "failed")
    for phase in phases:
        if phase.when == "teardown":
            continue
        if phase.outcome == "skipped":
            if phase.message.startswith(NA_PREFIX):
                primary = (Outcome.NOT_APPLICABLE, Category.NOT_APPLICABLE, phase.message, None)
            else:
                primary = (Outcome.ERROR, Category.HARNESS_ERROR,
                           f"skipped without a NOT_APPLICABLE reason: {phase.message}", None)
            break
        if phase.outcome == "failed":
            outcome, category = _failure(phase)
            if phase.blocked_by and phase.blocked_by != rule_id and outcome is not Outcome.BLOCKED:
                # A call given up (it hung before) whose promise is another rule's.
                outcome, category = Outcome.BLOCKED, Category.BLOCKED
            blocked_by = phase.blocked_by if outcome is Outcome.BLOCKED else None
            primary = (outcome, category, phase.message, phase.code)
            break
    outcome, category, message, code = primary
    teardown = next((p for p in phases if p.when == "teardown" and p.outcome == "failed"), None)
    if teardown is not None and teardown.exception in _FAILURES and outcome in (Outcome.PASS, Outcome.NOT_APPLICABLE):
        # A verdict reached at teardown (a backend leak, a release that another rule promises and
        # that failed): the case's outcome, not a harness error.
        outcome, category = _FAILURES[teardown.exception]
        return CaseResult(case_id, rule_id, outcome, category, teardown.message, None, round(duration, 4),
                          findings=tuple(findings), blocked_by=teardown.blocked_by)
    if teardown_note:
        if outcome in (Outcome.PASS, Outcome.NOT_APPLICABLE):
            outcome, category, message = Outcome.ERROR, Category.HARNESS_ERROR, teardown_note
        else:
            message = f"{message}\n{teardown_note}" if message else teardown_note
    observed = namer(code) if code is not None else None
    unreleased = teardown_note if teardown is not None and teardown.exception not in _FAILURES else ""
    return CaseResult(case_id, rule_id, outcome, category, message, observed, round(duration, 4),
                      teardown_problem=unreleased, findings=tuple(findings), blocked_by=blocked_by)


def crash_result(case_id: str, rule_id: str, elapsed_s: float | None, hard_timeout_s: float | None,
                 detail: str = "") -> CaseResult:
    """Result of a case whose process died: a timeout when it ran into the hard limit, else a crash."""
    timed_out = elapsed_s is not None and hard_timeout_s is not None and elapsed_s >= hard_timeout_s - 0.5
    if timed_out:
        message = f"timeout: the case did not finish within {hard_timeout_s:.0f} s; its process was killed"
        category = Category.TIMEOUT
    else:
        message = "crash: the process running the case died (e.g. SIGSEGV in the backend)"
        category = Category.CRASH
    if detail:
        message = f"{message} [{detail}]"
    return CaseResult(case_id, rule_id, Outcome.ERROR, category, message, None, round(elapsed_s or 0.0, 4))


def unwaivable_reason(result: CaseResult) -> str | None:
    """Why no waiver may turn this FAIL into WAIVED, or None.

    A call that must return and did not (a timeout) leaves the backend wedged, and a case
    whose teardown could not release what it held leaves it dirty for every later case:
    neither is a known deviation that can be accepted.
    """
    if result.category in UNWAIVABLE:
        return "a call that must return timed out"
    if result.teardown_problem:
        return "its teardown could not release the case's resources"
    return None


def apply_waiver(result: CaseResult, waiver: SupportsToJson | Mapping[str, object] | None) -> CaseResult:
    """FAIL + matching waiver -> WAIVED; PASS + waiver -> XPASS (stale); others unchanged.

    A FAIL with an :func:`unwaivable_reason` stays FAIL, its message saying which waiver was refused.
    """
    if waiver is None:
        return result
    data = dict(waiver) if isinstance(waiver, Mapping) else dict(waiver.to_json())
    refused = unwaivable_reason(result) if result.outcome is Outcome.FAIL else None
    if refused:
        return replace(result, message=f"not waivable ({refused}); waiver {data.get('where', '')} ignored\n"
                                       f"{result.message}")
    if result.outcome is Outcome.FAIL:
        reason = data.get("reason", "")
        original = result.category.value if result.category else "failure"
        message = f"waived ({original}): {reason} [{data.get('where', '')}]\n{result.message}"
        data["waived_category"] = original
        return replace(result, outcome=Outcome.WAIVED, category=Category.WAIVED, message=message, waiver=data)
    if result.outcome is Outcome.PASS:
        message = f"passed, but waived by {data.get('where', '')}: the waiver is stale and can be dropped"
        return replace(result, outcome=Outcome.XPASS, message=message, waiver=data)
    return result


def worst(outcomes: Iterable[Outcome]) -> Outcome | None:
    """The worst outcome by :data:`SEVERITY_ORDER` (None for no outcomes)."""
    present = set(outcomes)
    return next((o for o in SEVERITY_ORDER if o in present), None)


def worst_value(outcomes: Iterable[str]) -> str | None:
    """:func:`worst` of outcomes given as summary.json's strings; unknown strings are left out."""
    found = worst(Outcome(o) for o in outcomes if o in OUTCOME_ORDER)
    return found.value if found else None


def unjudged(outcome: object, category: object) -> bool:
    """Whether a case of summary.json's ``outcome`` and ``category`` ended without a judgement on the library
    (ERROR of an :data:`UNOBSERVED` category); any other failing outcome is a judgement against it."""
    return outcome == Outcome.ERROR.value and category in UNOBSERVED_VALUES


def decides(severity: object) -> bool:
    """Whether a rule of ``severity`` decides the verdict (a rule without one is mandatory)."""
    return (severity or DECIDING_SEVERITY) == DECIDING_SEVERITY


def count(outcomes: Iterable[Outcome]) -> dict[str, int]:
    """Outcome -> number, every outcome listed (zeros included), in :data:`SEVERITY_ORDER`."""
    totals = {o.value: 0 for o in SEVERITY_ORDER}
    for outcome in outcomes:
        totals[outcome.value] += 1
    return totals
