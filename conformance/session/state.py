"""Per-process state of a run, kept in ``config.stash`` so that no global holds it."""

from __future__ import annotations

import datetime
import functools
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import pytest

from acl_hostmem_generated.catalog_types import CaseEntry, Catalog, RuleEntry

from ..harness.options import Settings
from ..results.outcomes import CaseResult, Finding, PhaseResult, apply_waiver
from ..results.summary import SummaryJSON
from .deadline import RunDeadline
from .hangs import HungCalls

if TYPE_CHECKING:  # the listener imports allure, which a run without allure-pytest lacks; expectations load
    # (with PyYAML) only when a run names expectations files
    from typing_extensions import ReadOnly

    from ..harness.attachment import Attachment
    from ..results.expectations import ExpectationSet
    from .allure_listener import AllureListener
    from .reportlock import ReportDirLock
    from .scheduler import Scheduler


class CaseRule(TypedDict):
    """What the plugin reads of a case's rule: the catalog's :class:`RuleEntry`, or the stand-in for a
    rule that the catalog lacks (``plugin._rule_of``)."""

    id: ReadOnly[str]
    title: ReadOnly[str]
    interfaces: ReadOnly[list[str]]
    family: ReadOnly[str]
    severity: ReadOnly[str]
    applies: ReadOnly[Mapping[str, object]]
    cases: ReadOnly[list[CaseEntry]]


@dataclass
class RunState:
    """Per-process state of a run, kept in ``config.stash[STATE]``."""

    config: pytest.Config
    settings: Settings
    catalog: Catalog
    role: str  # "judge": the one process that collects, schedules the executors and reports
    expectations: ExpectationSet | None = None
    executors: int = 1  # how many executor processes run cases at once
    scheduler: Scheduler | None = None  # the executors and what they run, made when the first case needs it
    facts_learned: bool = False  # the executors' facts (SoC, family, release) are in ``facts``
    results: dict[str, CaseResult] = field(default_factory=dict)
    started: dict[str, float] = field(default_factory=dict)
    facts: dict[str, object] = field(default_factory=dict)  # the run's environment facts (summary.json's)
    selected: set[str] | None = None  # case IDs of a run that selected cases; None: every case
    run_dir: Path = field(default_factory=Path)  # scratch files of the executors (session/rundir.py)
    owns_run_dir: bool = False
    # Both are set by the plugin's configure hook (session/plugin.py, _bound_the_run) before any case.
    deadline: RunDeadline = field(default_factory=lambda: RunDeadline(float("inf"), float("inf")))
    hung: HungCalls = field(default_factory=lambda: HungCalls(Path(os.devnull)))
    collected: set[str] = field(default_factory=set)  # node IDs of the selected cases (reporting process)
    allure: AllureListener | None = None  # only when allure-pytest is loaded (session/allure_listener.py)

    @functools.cached_property
    def rules(self) -> dict[str, RuleEntry]:
        """Catalog rules by id (the catalog does not change while the process runs)."""
        return {rule["id"]: rule for rule in self.catalog["rules"]}

    def today(self) -> datetime.date:
        """The date waivers are judged against."""
        return datetime.date.today()

    def waive(self, result: CaseResult, family: object, soc: object, cann: object) -> CaseResult:
        """Apply the matching expectation (if any) to a case result."""
        if self.expectations is None:
            return result
        match = self.expectations.match(result.case_id, result.rule_id, str(family or ""), str(soc or ""),
                                        str(cann or ""), self.today())  # facts: texts or None
        return apply_waiver(result, match)


STATE = pytest.StashKey[RunState]()
PHASES = pytest.StashKey[list[PhaseResult]]()
TRACE = pytest.StashKey[list[str]]()
ATTACHMENTS: pytest.StashKey[list[Attachment]] = pytest.StashKey()
RESTS_ON = pytest.StashKey[tuple[str, ...]]()
#: Set when the reporting process took a KeyboardInterrupt (a Ctrl-C, or ``run`` passing a signal on): the run
#: was interrupted, not stopped by its deadline or -x, which end pytest with the same exit status.
KEYBOARD_INTERRUPT = pytest.StashKey[bool]()
CODE_SUSPECT = pytest.StashKey[str]()  # a rule a failing call's code points at (spec setup_promises codes)
SUMMARY = pytest.StashKey[SummaryJSON]()
OBSERVED = pytest.StashKey[dict[str, object]]()
PREFLIGHT = pytest.StashKey[dict[str, object]]()
#: The report directory's lock a plain pytest run holds (``run`` holds it for its pytest child).
REPORT_LOCK: pytest.StashKey[ReportDirLock] = pytest.StashKey()
FINDINGS = pytest.StashKey[list[Finding]]()
#: The result the judge decided for a case whose executor died or did not answer.
LOST = pytest.StashKey[CaseResult]()
