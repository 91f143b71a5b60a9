"""One exploration: the Hypothesis run with its budget and seed, and what it found.

The state machine runs on a thread of its own while the calling thread watches the call in
flight: a call that has not returned after the per-wait timeout is a hang; the exploration
is then given up where it stands (a C call cannot be interrupted) and the hang is its
finding, with the path that led there.

Determinism: the seed is fixed (``--acl-explore-seed``, default 0), there is no example
database, no deadline and no health check that reads the clock, so the same seed against
the same backend draws the same step sequence; :attr:`Exploration.digest` fingerprints it.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import math
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

from hypothesis import HealthCheck, Phase, Verbosity, seed, settings
from hypothesis.errors import Flaky
from hypothesis.stateful import run_state_machine_as_test

from acl_hostmem_generated.acl_bindings import AclLibrary

from .actions import Action
from .driver import Driver
from .example import Example
from .machine import ExplorerMachine
from .session import Failure, Mismatch, Session
from .state import ProductFacts

# Rule steps per example, and the fewest actions an example is expected to make (a burst step
# makes up to BURST). The budget is in actions: once it is spent, the remaining examples
# are empty, which costs Hypothesis little.
TIME_LIMIT_FACTOR = 2.0
STEPS_PER_EXAMPLE = 12
ACTIONS_PER_EXAMPLE = 100
# How often the monitor looks at the call in flight, and how long it gives the release of a
# given-up example (a sane backend needs milliseconds; a wedged one may never answer).
MONITOR_POLL_S = 0.05
# The cyclic collector is paused while the explorer runs and run once per this many actions:
# the automatic collections, scanning what Hypothesis and the examples hold, cost a fifth of
# the explorer's time. Examples free their paths at teardown, so little waits for a batch
# (a 60000-action nightly exploration peaks at about 95 MB); the default budget needs none.
COLLECT_EVERY_ACTIONS = 20000
RELEASE_BOUND_S = 1.0


@dataclass
class Exploration:
    """What an exploration did and found."""

    paths: str
    seed: int
    budget: int
    missing: tuple[str, ...] = ()
    steps: int = 0
    examples: int = 0
    calls: int = 0
    skipped: int = 0
    seconds: float = 0.0
    digest: str = ""
    failure: Failure | None = None
    flaky: bool = False
    out_of_time: bool = False
    hung: bool = False

    @property
    def mismatch(self) -> Mismatch | None:
        """The mismatch found, if any."""
        return self.failure.mismatch if self.failure else None

    @property
    def calls_per_second(self) -> float:
        """ACL calls made per second of exploration."""
        return self.calls / self.seconds if self.seconds else 0.0

    def to_json(self) -> dict[str, str | int | float | bool | list[str]]:
        """The exploration's figures, for the report."""
        return {"paths": self.paths, "seed": self.seed, "budget_steps": self.budget, "steps": self.steps,
                "examples": self.examples, "calls": self.calls, "calls_left_out": self.skipped,
                "functions_missing": list(self.missing),
                "seconds": round(self.seconds, 3), "calls_per_second": round(self.calls_per_second),
                "step_digest": self.digest, "found": self.mismatch is not None, "flaky": self.flaky, "hung": self.hung,
                "stopped_by": "time" if self.out_of_time else ("finding" if self.failure else "budget")}


def hypothesis_settings(budget: int) -> settings:
    """Settings for ``budget`` actions: no database, nothing that reads the clock (the seed is set apart)."""
    per_example = min(budget, STEPS_PER_EXAMPLE)
    return settings(max_examples=max(1, math.ceil(budget / ACTIONS_PER_EXAMPLE)), stateful_step_count=per_example,
                    database=None, deadline=None, derandomize=False, print_blob=False, verbosity=Verbosity.quiet,
                    report_multiple_bugs=False, suppress_health_check=list(HealthCheck),
                    phases=(Phase.explicit, Phase.generate, Phase.shrink))


def without_source_constants() -> bool:
    """Keep Hypothesis from drawing values out of the source of every local module; whether it could be told.

    Hypothesis (6.131 on) mixes into generation the literals of every module it takes for the user's
    code: it parses each one's source (0.37 s of CPU an executor, with a cache file written for each)
    and draws from them now and then. For the explorer those modules are the kit itself, local in a
    clone and not at all in an installed wheel, so the same seed could mean other actions depending on how
    the kit was installed. The explorer's values come from the spec's model; Hypothesis has no setting
    for this, so its collector is replaced by one that finds nothing, where it is the one this was written
    against (otherwise Hypothesis keeps doing what it does, and only the cost stays).
    """
    from hypothesis.internal.conjecture import providers

    collector = getattr(providers, "_get_local_constants", None)
    empty = getattr(providers, "_local_constants", None)
    if collector is None or empty is None or len(empty) != 0:
        return False
    providers._get_local_constants = lambda: empty
    return True


def explore(lib: AclLibrary, product: ProductFacts, device: int, *, paths: str, budget: int, seed_value: int,
            timeout: float) -> Exploration:
    """Run the state machine against ``lib``; the shortest failing path, if any, is in the result."""
    without_source_constants()
    driver = Driver(lib, timeout)
    # Generation stops after 2x the per-wait timeout whatever the budget, so that the case
    # (killed at 3x + 5 s) has time left to shrink a finding; the default budget takes far less.
    session = Session(driver, product, device, documented_only=paths == "documented",
                      device_syncing=product.device_syncing, budget=budget,
                      deadline=time.monotonic() + TIME_LIMIT_FACTOR * timeout)
    result = Exploration(paths, seed_value, budget, tuple(sorted(product.missing)))

    def factory() -> ExplorerMachine:
        return ExplorerMachine(session)

    raised: list[BaseException] = []

    def run() -> None:
        try:
            # The explorer's main thread is this one: it starts on the case's device, as the case's thread does.
            lib.aclrtSetDevice(device, raw=True)
            run_state_machine_as_test(seed(seed_value)(factory),  # type: ignore[arg-type]  # any machine factory
                                      settings=hypothesis_settings(budget))
        except Mismatch:
            pass
        except Flaky:
            result.flaky = True
        except BaseException as exc:  # noqa: BLE001 - re-raised on the calling thread
            raised.append(exc)

    started = time.perf_counter()
    tracing, lib.trace = lib.trace, None
    worker = threading.Thread(target=run, name="explorer", daemon=True)
    try:
        with collected_in_batches(session):
            worker.start()
            hang = _watch_for_hang(worker, session, timeout)
    finally:
        lib.trace = tracing
        driver.close()
    if raised:
        raise raised[0]
    result.seconds = time.perf_counter() - started
    result.steps, result.examples, result.calls, result.skipped = (session.steps, session.examples, driver.calls,
                                                                   session.skipped)
    result.digest = hashlib.sha256("\n".join(session.transcript).encode()).hexdigest()[:16]
    result.out_of_time = session.out_of_time
    if hang is not None:
        result.failure, result.hung = hang, True
    elif session.failures:
        result.failure = session.failures[-1]
    return result


@contextlib.contextmanager
def collected_in_batches(session: Session) -> Iterator[None]:
    """Pause automatic garbage collection; the session collects every COLLECT_EVERY_ACTIONS actions, scanning
    only objects made since the exploration began."""
    was_enabled = gc.isenabled()
    gc.disable()
    gc.freeze()  # what exists already (the test session, the imported modules) is not scanned again
    session.collect_every = COLLECT_EVERY_ACTIONS
    try:
        yield
    finally:
        session.collect_every = 0
        gc.unfreeze()
        if was_enabled:
            gc.enable()


def _release(example: Example, session: Session) -> None:
    """Release a given-up example's holdings from a fresh thread, on the exploration's device."""
    session.driver.lib.aclrtSetDevice(session.device, raw=True)
    example.teardown()


def _watch_for_hang(worker: threading.Thread, session: Session, timeout: float) -> Failure | None:
    """Wait for the exploration; the failure of its call in flight if one stays in flight for ``timeout`` s.

    The exploration thread marks each call it makes (:attr:`Session.in_flight`, a new tuple per
    call), so the same mark seen for ``timeout`` seconds is one call that does not return.
    """
    seen, since = None, time.monotonic()
    while worker.is_alive():
        worker.join(MONITOR_POLL_S)
        current = session.in_flight
        if current is not seen:
            seen, since = current, time.monotonic()
        elif current is not None and time.monotonic() - since >= timeout:
            session.abandoned = True
            example, req, prediction, release_gates, watch, probe = current
            failure: Failure | None = example.hung(req, prediction, release_gates, watch, probe,
                                                   seconds=time.monotonic() - since)
            release = threading.Thread(target=_release, args=(example, session), name="explorer-release", daemon=True)
            release.start()
            release.join(RELEASE_BOUND_S)
            return failure
    return None


class Rerun:
    """Runs chosen action sequences again, outside Hypothesis, to shorten a failure."""

    def __init__(self, lib: AclLibrary, product: ProductFacts, device: int, *, paths: str, timeout: float) -> None:
        self.driver = Driver(lib, timeout)
        self.session = Session(self.driver, product, device, documented_only=paths == "documented",
                               device_syncing=product.device_syncing, rerunning=True)

    def run(self, actions: list[Action]) -> Failure | None:
        """Perform ``actions`` in a fresh example; the failure it meets, if any."""
        machine = ExplorerMachine(self.session)
        try:
            for name, fields in actions:
                machine.act(name, fields)
        except Mismatch:
            return self.session.failures[-1]
        finally:
            machine.teardown()
        return None

    def close(self) -> None:
        """Stop the driver's threads."""
        self.driver.close()
