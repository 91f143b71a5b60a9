"""The inputs of a fleet merge, read one at a time and reduced to what the matrix needs.

An input is a certification bundle, a run's report directory, a summary.json, or a folder
holding bundles or report directories at any depth (the shared storage a fleet uploads to).
Every input is untrusted. A bundle (a folder with SHA256SUMS or manifest.json) must pass
:func:`~conformance.certify.verify.check_integrity` as it is read (SHA256SUMS, the manifest's
file digests, and with ``--trust`` the signature): one that fails is excluded and named, never
merged. Every summary is read through :mod:`conformance.results.untrusted` (no link followed,
no FIFO or device, size, nesting and number caps), a plain report directory's too; one that is
refused is excluded like an unreadable one, and the rest still merges. Each summary is parsed,
reduced to a :class:`RunRecord` (rule outcomes and case observations) and dropped, so memory
grows with the matrix, not with the inputs.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from ..certify.bundle import SUMS
from ..certify.verify import signature_checker
from ..gate.compare import bundle_problem, read_summary, summary_path
from ..gate.drift import CaseObservations, case_observations
from ..harness.release import outside_contract
from ..results import untrusted
from ..results.outcomes import Outcome
from ..results.summary import env_family, summary_problem
from ..results.summary_model import SummaryRecord, summary_record
from ..results.vocabulary import Verdict

UNKNOWN = "unknown"


@dataclass(frozen=True)
class RuleFacts:
    """What a row shows about a rule, taken from the first run that has it."""

    rule_id: str
    title: str
    severity: str
    family: str


@dataclass
class RunRecord:
    """One run, reduced: where it came from, its product and version, outcomes and observations."""

    source: str
    family: str
    cann_version: str
    soc: str
    spec_hash: str
    verdict: str
    outcomes: dict[str, str]
    observations: CaseObservations
    rules: list[RuleFacts] = field(default_factory=list)
    release: str = UNKNOWN  # the CANN release whose contract the run was judged against
    outside: dict[str, int] = field(default_factory=dict)  # rule -> its cases outside that contract


@dataclass(frozen=True)
class Excluded:
    """An input that was not merged, and why."""

    source: str
    reason: str


def _is_run(path: Path) -> bool:
    # present(), not is_file(): a summary that is a link or a FIFO is a run to refuse by name, not to pass over
    return any(untrusted.present(path / name) for name in ("summary.json", SUMS, "manifest.json",
                                                            "reports/summary.json"))


def expand(paths: Iterable[Path]) -> Iterator[Path]:
    """Each input as runs: the path itself when it is one, else every run below it (hidden folders skipped)."""
    for path in paths:
        path = Path(path)
        if path.is_file() or not path.is_dir() or _is_run(path):
            yield path
            continue
        found = []
        for folder, subfolders, _files in os.walk(path):
            subfolders[:] = sorted(s for s in subfolders if not s.startswith("."))
            if _is_run(Path(folder)) and Path(folder) != path:
                found.append(Path(folder))
                subfolders[:] = []  # a run's own folders (allure-results, ...) are not runs
        yield from found or [path]


def _reduce(source: str, summary: Mapping[str, object]) -> RunRecord:
    record = summary_record(summary)
    env = record.environment
    return RunRecord(
        source=source,
        family=str(env_family(env) or UNKNOWN),
        cann_version=str(env.get("cann_version") or UNKNOWN),
        soc=str(env.get("soc") or UNKNOWN),
        spec_hash=record.spec_hash or UNKNOWN,
        verdict=record.verdict or UNKNOWN,
        outcomes={rid: rule.outcome.value if rule.outcome else "None" for rid, rule in record.rules.items()},
        observations=case_observations(summary),
        rules=[RuleFacts(rid, rule.title, rule.severity, rule.family) for rid, rule in record.rules.items()],
        release=str(env.get("cann_release") or UNKNOWN),
        outside=_outside_cases(record),
    )


def _outside_cases(record: SummaryRecord) -> dict[str, int]:
    """Rule -> how many of its cases were NOT_APPLICABLE as outside the judged release's contract."""
    counts: dict[str, int] = {}
    for rule, case in record.cases():
        if case.outcome is Outcome.NOT_APPLICABLE and outside_contract(case.message):
            counts[rule.rule_id] = counts.get(rule.rule_id, 0) + 1
    return counts


def read_one(path: Path, trusted: Ed25519PublicKey | None = None) -> RunRecord | Excluded:
    """Read one input: check a bundle's integrity (and signature by ``trusted``), parse its summary, reduce it.

    Never raises for a bad input: it comes back :class:`Excluded`, with a one-line reason.
    """
    source = str(path)
    problem = bundle_problem(path, signature_checker(trusted))
    if problem:
        return Excluded(source, problem)
    try:
        summary = read_summary(path, summary_path(path))
    except (ValueError, OSError) as exc:  # UntrustedFileError is a ValueError
        return Excluded(source, f"unreadable: {exc}")
    problem = summary_problem(summary)
    if problem:  # the shape _reduce relies on: a hostile summary is excluded, not a traceback of the whole merge
        return Excluded(source, f"not a summary.json of a conformance run: {problem}")
    if summary.get("verdict") == Verdict.INTERRUPTED.value:
        return Excluded(source, "an interrupted run (verdict INTERRUPTED): it judged nothing")
    try:
        return _reduce(source, summary)
    except (AttributeError, TypeError, KeyError, ValueError) as exc:  # a deeper part of the wrong shape
        return Excluded(source, f"not a summary.json of a conformance run: {type(exc).__name__}: {str(exc)[:200]}")


def read_runs(paths: Iterable[Path], trusted: Ed25519PublicKey | None = None) -> Iterator[RunRecord | Excluded]:
    """Every input, expanded, read and reduced one after the other (bundles checked against ``trusted``)."""
    for path in expand(paths):
        yield read_one(path, trusted)
