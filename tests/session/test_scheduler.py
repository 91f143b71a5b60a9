"""The judge's scheduler: programs run ahead of pytest on N executors, one in flight each, and every
case gets the answer to exactly the program it sends."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from conformance.results.outcomes import CaseResult, Category, Outcome
from conformance.session.executors import Answer
from conformance.session.scheduler import Dispatched, Hooks, Job, Scheduler


class FakeExecutor:
    """Answers each program after ``delay`` seconds with a record naming it; ``crash`` programs lose it."""

    def __init__(self, name: str, log: list[tuple[str, str]], delay: float = 0.05) -> None:
        self.name, self.log, self.delay = name, log, delay
        self.error: str | None = None
        self.facts: dict[str, object] = {"soc": "fake"}
        self.journal = Path("/nonexistent")
        self.running = False
        self.starts = 0
        self.killed = threading.Event()

    def ensure(self) -> None:
        if not self.running:
            self.running = True
            self.starts += 1

    def run(self, program: Mapping[str, object], limit: float) -> Answer:
        self.log.append((self.name, f"start {program['case_id']}"))
        self.killed.wait(float(program.get("delay", self.delay)))  # type: ignore[arg-type]
        self.log.append((self.name, f"end {program['case_id']}"))
        if program.get("crash") or self.killed.is_set():
            self.running = False
            return Answer(None, "crash")
        return Answer({"t": "result", "case": program["case_id"], "findings": program.get("findings", [])})

    def stop(self) -> None:
        self.log.append((self.name, "stop"))
        self.running = False

    def renew(self) -> None:
        self.log.append((self.name, "renew"))
        self.running = False

    def kill(self) -> None:
        self.killed.set()


def _hooks(log: list[tuple[str, str]]) -> Hooks:
    def lost(job: Job, answer: Answer, executor: Any, limit: float) -> CaseResult:
        log.append((executor.name, f"lost {job.case_id}"))
        return CaseResult(job.case_id, job.rule_id, Outcome.ERROR, Category.CRASH, "crash", None, 0.0)

    return Hooks(prepare=lambda job: ({"given_up": []}, 5.0), lost=lost,
                 spoils=lambda job, record: job.rule_id == "EXPLORE" and bool(record.get("findings")),
                 fresh_after_spoil=lambda job: job.rule_id != "EXPLORE", open_error=str)


def _job(case: str, rule: str = "R", **program: object) -> Job:
    return Job(f"node::{case}", rule, case, {"case_id": case, "rule_id": rule, **program})


def _scheduler(count: int, log: list[tuple[str, str]], delay: float = 0.05) -> tuple[Scheduler, list[FakeExecutor]]:
    executors = [FakeExecutor(f"e{i}", log, delay) for i in range(count)]
    return Scheduler(executors, _hooks(log)), executors  # type: ignore[arg-type]


def _take(scheduler: Scheduler, job: Job) -> Dispatched:
    return scheduler.take(job.key, job.rule_id, job.case_id, dict(job.program))


def test_programs_run_ahead_of_pytest_on_every_executor_one_in_flight_each():
    log: list[tuple[str, str]] = []
    scheduler, _ = _scheduler(2, log, delay=0.3)
    jobs = [_job(f"c{i}") for i in range(4)]
    began = time.monotonic()
    scheduler.start(jobs)
    time.sleep(0.45)  # pytest is elsewhere: the first two ran meanwhile, the next two are in flight
    answers = [_take(scheduler, job) for job in jobs]
    took = time.monotonic() - began
    scheduler.stop()
    assert [a.answer.record["case"] for a in answers if a.answer and a.answer.record] == ["c0", "c1", "c2", "c3"]
    assert took < 1.0, took  # two at a time: 0.6 s, not 1.2 s
    for name in ("e0", "e1"):  # never a second program behind one in flight
        events = [event for who, event in log if who == name and event != "stop"]
        assert all(a.startswith("start") and b.startswith("end") for a, b in zip(events[::2], events[1::2]))


def test_a_case_gets_the_answer_to_the_program_it_sends_not_the_predicted_one():
    log: list[tuple[str, str]] = []
    scheduler, _ = _scheduler(1, log)
    predicted = _job("c0")
    scheduler.start([predicted])
    sent = dict(predicted.program, kwargs={"other": 1})
    answer = scheduler.take(predicted.key, "R", "c0", sent)
    scheduler.stop()
    assert answer.answer is not None and answer.answer.record is not None
    starts = [event for _, event in log if event.startswith("start")]
    assert starts in (["start c0", "start c0"], ["start c0"])  # the predicted one may have run; its answer is dropped
    assert answer is not predicted.outcome


def test_a_program_nobody_predicted_runs_next():
    log: list[tuple[str, str]] = []
    scheduler, _ = _scheduler(1, log, delay=0.2)
    scheduler.start([_job(f"c{i}") for i in range(3)])
    answer = scheduler.take("node::fake", "R", "fake", {"case_id": "fake", "delay": 0.0})
    scheduler.stop()
    assert answer.answer is not None and answer.answer.record == {"t": "result", "case": "fake", "findings": []}
    starts = [event for _, event in log if event.startswith("start")]
    assert starts.index("start fake") <= 1, starts  # behind at most the program already in flight


def test_a_lost_executor_is_judged_before_its_next_case_and_a_spoiled_one_is_replaced():
    log: list[tuple[str, str]] = []
    scheduler, (executor,) = _scheduler(1, log)
    jobs = [_job("crash", crash=True), _job("after-crash"), _job("explore", "EXPLORE", findings=[["a", "b", "c"]]),
            _job("explore-2", "EXPLORE"), _job("after-explore")]
    scheduler.start(jobs)
    outcomes = [_take(scheduler, job) for job in jobs]
    scheduler.stop()
    assert outcomes[0].lost is not None and outcomes[0].lost.category is Category.CRASH
    events = [event for _, event in log]
    assert events.index("lost crash") < events.index("start after-crash")
    # The explorer's other case runs where the first one ran; the next case of another rule gets a fresh executor
    # (in the same slot: forked from its server).
    assert events.index("start explore-2") < events.index("renew") < events.index("start after-explore")
    assert events.index("renew") < events.index("stop")  # the slot itself ends with the run
    assert executor.starts == 3  # the first, after the crash, after the spoiling exploration


def test_stop_ends_a_program_in_flight_at_once():
    log: list[tuple[str, str]] = []
    scheduler, _ = _scheduler(2, log, delay=30.0)
    scheduler.start([_job("long-0"), _job("long-1"), _job("never")])
    time.sleep(0.2)
    began = time.monotonic()
    scheduler.stop()
    assert time.monotonic() - began < 5.0
    assert "start never" not in [event for _, event in log]
