"""A run-wide deadline (``--acl-deadline``): no run outlives it, and its summary stays complete.

The ``run`` command fixes the deadline as a wall-clock time when it starts (a plain pytest
run: when its judge starts). Rendering the HTML report comes after it. Cases get the time up to a small
reserve before it, kept for stopping the executors and writing the reports. A case that
starts after that is an ERROR (category ``deadline``) without touching the backend; while
a case runs, its hard per-case timeout is cut to the time left, so a hung call ends in
time and its case is an ERROR ``deadline`` as well. Once the time is up the judge
stops the run, and every selected case that did not run is ERROR ``deadline``.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from ..harness.violations import DeadlineReached
from ..results.outcomes import CaseResult, Category, Outcome

ENV_AT = "ACL_DEADLINE_AT"  # set by the ``run`` command: the deadline counts from its start
MIN_CASE_S = 1.0  # a case that starts just before the deadline still gets this long to fail cleanly
# Cases stop this long before the deadline, to leave time for stopping the executors and writing the reports:
# 15 % of it, at least 3 s and at most 10 s (measured: about 1.5 s on a 2-core machine).
RESERVE_MIN_S, RESERVE_MAX_S, RESERVE_SHARE = 3.0, 10.0, 0.15


@dataclass(frozen=True)
class RunDeadline:
    """The run's deadline: ``at`` (a ``time.time()`` value) and the ``--acl-deadline`` it came from."""

    at: float
    seconds: float

    @classmethod
    def for_process(cls, seconds: float) -> RunDeadline:
        """The judge's deadline: the ``run`` command's, or ``seconds`` from now."""
        handed = os.environ.get(ENV_AT)
        try:
            return cls(float(handed), seconds) if handed is not None else cls(time.time() + seconds, seconds)
        except ValueError:
            return cls(time.time() + seconds, seconds)

    @property
    def reserve(self) -> float:
        """Seconds kept at the end for stopping the executors and writing the reports."""
        return min(RESERVE_MAX_S, max(RESERVE_MIN_S, RESERVE_SHARE * self.seconds), self.seconds / 2)

    def left(self) -> float:
        """Seconds cases may still use (negative once their time passed)."""
        return self.at - self.reserve - time.time()

    def check(self) -> None:
        """Raise :class:`DeadlineReached` when the deadline has passed."""
        if self.left() <= 0:
            raise DeadlineReached(f"the run deadline (--acl-deadline {self.seconds:g} s) passed before this case "
                                  "started")

    def case_limit(self, hard_timeout: float) -> float:
        """The hard timeout of a case starting now: its own, cut to the time left."""
        return max(MIN_CASE_S, min(hard_timeout, self.left()))


def deadline_result(case_id: str, rule_id: str, deadline: RunDeadline) -> CaseResult:
    """The result of a case the run never started because its deadline passed."""
    return CaseResult(case_id, rule_id, Outcome.ERROR, Category.DEADLINE,
                      f"deadline: the run deadline (--acl-deadline {deadline.seconds:g} s) passed before this case "
                      "started", None, 0.0)
