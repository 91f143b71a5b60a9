"""What one exploration shares across its examples, and how a failure is kept.

:class:`Session` holds the driver, the product, which paths are allowed, the budget and
the counters; :class:`Mismatch` is the one exception an example raises when a result
disagrees with the state model, and :class:`Failure` keeps it with the example's path and
the actions that led there.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from acl_hostmem_generated import state_model as model

from .actions import Action
from .calls import Request, Step
from .driver import Driver
from .state import ProductFacts

if TYPE_CHECKING:
    from .example import Example

# How long Hypothesis may shrink a failure before the explorer's own minimiser takes over.
SHRINK_S = 0.75


class Mismatch(Exception):
    """A result the state model does not predict."""

    def __init__(self, step: Step, problem: str, kind: str, evidence: model.Evidence, clause: str, source: str) -> None:
        super().__init__(f"{step.line()}: {problem}")
        self.step = step
        self.problem = problem
        self.kind = kind
        self.evidence = evidence
        self.clause = clause
        self.source = source


@dataclass
class Failure:
    """A mismatch with the example's path (steps) and the actions that led there."""

    path: list[Step]
    actions: list[Action]
    mismatch: Mismatch


@dataclass
class Session:
    """What every example of one exploration shares: the backend, the product, the paths allowed."""

    driver: Driver
    product: ProductFacts
    device: int
    documented_only: bool
    device_syncing: frozenset[str] = frozenset()
    budget: int = 0
    deadline: float = float("inf")
    out_of_time: bool = False
    steps: int = 0
    collect_every: int = 0  # actions between garbage collections while automatic collection is paused (0: never)
    examples: int = 0
    skipped: int = 0
    failures: list[Failure] = field(default_factory=list)
    transcript: list[str] = field(default_factory=list)
    first_failure: float | None = None
    rerunning: bool = False
    # The call being made: (example, request, prediction, gates to release, gates to watch,
    # probe), for the monitor that notices a call that never returns (see .exploration).
    in_flight: tuple[Example, Request, model.Prediction, tuple[int, ...], tuple[int, ...], bool] | None = None
    abandoned: bool = False

    def budget_is_spent(self) -> bool:
        """Whether the exploration made its budget of actions, or ran out of time, without a failure (then actions
        stop)."""
        if self.first_failure is not None:
            return False
        if time.monotonic() > self.deadline:
            self.out_of_time = True
        return self.out_of_time or 0 < self.budget <= self.steps

    def shrinking_is_over(self) -> bool:
        """Whether Hypothesis has shrunk the first failure for :data:`SHRINK_S` already."""
        return self.first_failure is not None and time.monotonic() - self.first_failure > SHRINK_S
