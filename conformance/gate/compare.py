"""Compare two conformance runs case by case and classify every difference.

A run is a certification bundle, a report directory holding summary.json, or a
summary.json file. Every case is classified by its outcome in the two runs:

- ``regression``: passed (PASS, or XPASS) in the baseline, FAIL, BLOCKED or an ERROR of the library
  (a crash, a hang) now; a rule regresses when one of its cases does or its own outcome goes from
  passed to failing on a case it judged;
- ``inconclusive``: passed in the baseline, ERROR now because the instrument could not observe
  (:func:`~conformance.results.outcomes.unjudged`): not a failure of the library, but a check that
  can no longer judge cannot find one either, so it gates by default;
- ``fix``: FAIL, ERROR or BLOCKED in the baseline, PASS now;
- ``new`` / ``new-failure``: only in the candidate (failing: FAIL, ERROR or BLOCKED);
- ``removed``: only in the baseline;
- ``coverage-loss``: judged in the baseline (any outcome but NOT_APPLICABLE) and
  NOT_APPLICABLE or absent now: a check that no longer runs cannot find a failure;
- ``code-change``: failing (FAIL, ERROR, WAIVED) in both with another observed aclError;
- ``waiver-change``: WAIVED or XPASS appears or disappears (an expectation changed the outcome);
- ``other``: any other outcome change (e.g. NOT_APPLICABLE to PASS), reported only.

Beside the classes, :attr:`Comparison.drift` lists behaviour drift (see :mod:`.drift`).

Both runs are untrusted inputs. A run that is a bundle (it holds SHA256SUMS or manifest.json)
must pass :func:`~conformance.results.integrity.check_integrity` first (SHA256SUMS, the
manifest's file digests and, given a signature check, the signature): regenerating SHA256SUMS
after an edit is not enough to pass. Every file is read through
:mod:`conformance.results.untrusted` (no link followed, no FIFO or device, size, nesting and
number caps), a plain report directory's too.

Two runs are compared only when they are of one product and one spec: the same product
family, SoC and spec hash. Otherwise every difference could come from the product or the
spec rather than the library, and :func:`compare` refuses unless told to allow it, in
which case the report says so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict

from ..harness.release import outside_contract
from ..i18n import N_, _
from ..results import untrusted, vocabulary
from ..results.integrity import bundle_of, check_integrity, integrity_problem
from ..results.outcomes import FAILING_VALUES, Outcome, unjudged
from ..results.summary import env_family, summary_problem
from ..results.summary_model import summary_record
from ..results.untrusted import JSONObject, as_object
from .drift import Drift, gating_drift, observation_drift

SCHEMA = "acl-conformance-gate/1"
PASSED = frozenset({"PASS", "XPASS"})
FAILING = FAILING_VALUES
CODED = frozenset({"FAIL", "ERROR", "WAIVED"})
EXPECTATION_OUTCOMES = frozenset({"WAIVED", "XPASS"})
# The classes, what gates by default, and their order are the kit's vocabulary (results/vocabulary.py).
GATE_CLASSES = vocabulary.GATING_CLASSES
DEFAULT_FAIL_ON = vocabulary.DEFAULT_FAIL_ON
REPORTED_CLASSES = tuple(c.name for c in vocabulary.GATE_CLASSES)
#: The facts of the identity two runs must share to be compared.
PRODUCT_FACTS = ("family", "soc", "spec_hash")


class CompareError(ValueError):
    """Two runs that cannot be compared (unreadable, not summaries, or of different products)."""


@dataclass(frozen=True)
class ComparedCase:
    """One case of one run, flattened out of summary.json."""

    case_id: str
    rule_id: str
    family: str
    severity: str
    outcome: str
    code: str | None
    outside: bool = False  # NOT_APPLICABLE because the judged release's contract does not hold it
    unjudged: bool = False  # ERROR because the instrument could not observe (not the library's failure)


@dataclass
class Change:
    """A case present in either run, with both outcomes (None where absent)."""

    case_id: str
    rule_id: str
    family: str
    severity: str
    baseline: str | None
    candidate: str | None
    baseline_code: str | None
    candidate_code: str | None

    def to_json(self) -> dict[str, object]:
        """JSON-ready dict."""
        return dict(self.__dict__)


class GateJSON(TypedDict):
    """gate.json: both runs' identities, what the gate failed on, and every change by class."""

    schema: str
    baseline: dict[str, object]
    candidate: dict[str, object]
    fail_on: list[str]
    gated_by: list[str]
    regressed_rules: list[str]
    warnings: list[str]
    counts: dict[str, int]
    classes: dict[str, list[dict[str, object]]]
    drift: list[dict[str, object]]


@dataclass
class Comparison:
    """The classified differences between two runs."""

    baseline: dict[str, object]
    candidate: dict[str, object]
    classes: dict[str, list[Change]] = field(default_factory=dict)
    regressed_rules: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    drift: list[Drift] = field(default_factory=list)

    def gating(self, fail_on: Sequence[str]) -> list[str]:
        """Classes among ``fail_on`` that are not empty."""
        return [name for name in fail_on if self.classes.get(name) or (name == "regression" and self.regressed_rules)
                or gating_drift(name, self.drift)]

    def to_json(self, fail_on: Sequence[str]) -> GateJSON:
        """The report as a JSON-ready dict."""
        return {
            "schema": SCHEMA,
            "baseline": self.baseline,
            "candidate": self.candidate,
            "fail_on": list(fail_on),
            "gated_by": self.gating(fail_on),
            "regressed_rules": self.regressed_rules,
            "warnings": self.warnings,
            "counts": {name: len(items) for name, items in self.classes.items()} | {"drift": len(self.drift)},
            "classes": {name: [c.to_json() for c in items] for name, items in self.classes.items()},
            "drift": [d.to_json() for d in self.drift],
        }


def summary_path(run: Path) -> Path:
    """summary.json of a run given as a file, a bundle or report directory, or a dir with reports/.

    Inside a directory anything at those places counts (a link or FIFO too), so that reading it
    refuses it instead of passing over it.
    """
    run = Path(run)
    if run.is_file():
        return run
    for candidate in (run / "summary.json", run / "reports" / "summary.json"):
        if untrusted.present(candidate):
            return candidate
    raise ValueError(_("{run}: no summary.json (expected a bundle, a report directory or a summary.json)").format(
        run=run))


def flatten(summary: Mapping[str, object]) -> dict[str, ComparedCase]:
    """Every case of a summary by case ID."""
    return {case.case_id: ComparedCase(case.case_id, rule.rule_id, rule.family, rule.severity, case.outcome.value,
                                       case.observed_code,
                                       case.outcome is Outcome.NOT_APPLICABLE and outside_contract(case.message),
                                       unjudged(case.outcome.value, case.category))
            for rule, case in summary_record(summary).cases()}


def change_classes(old: ComparedCase | None, new: ComparedCase | None) -> list[str]:
    """The classes a case's change belongs to (possibly none)."""
    if old is None and new is not None:
        return ["new", "new-failure"] if new.outcome in FAILING else ["new"]
    if new is None:
        assert old is not None
        return ["removed", "coverage-loss"] if old.outcome != "NOT_APPLICABLE" else ["removed"]
    assert old is not None
    # Across releases: a case the other release's contract does not hold entered or left it.
    if old.outside and not new.outside:
        return ["entered-contract"]
    if new.outside and not old.outside:
        return ["left-contract"]
    if new.outcome == "NOT_APPLICABLE" and old.outcome != "NOT_APPLICABLE":
        return ["coverage-loss"]
    if old.outcome == new.outcome:
        return ["code-change"] if old.outcome in CODED and old.code != new.code else []
    found = []
    if old.outcome in PASSED and new.outcome in FAILING:
        found.append("inconclusive" if new.unjudged else "regression")
    elif old.outcome in FAILING and new.outcome == "PASS":
        found.append("fix")
    if (old.outcome in EXPECTATION_OUTCOMES or new.outcome in EXPECTATION_OUTCOMES) and "regression" not in found:
        found.append("waiver-change")
    if old.outcome in CODED and new.outcome in CODED and old.code != new.code:
        found.append("code-change")
    return found or ["other"]


def _identity(summary: Mapping[str, object], path: Path) -> dict[str, object]:
    env = as_object(summary.get("environment"))
    keys = ("soc", "cann_version", "library", "library_sha256")
    return {
        "path": str(path),
        "spec_hash": summary.get("spec_hash"),
        "verdict": summary.get("verdict"),
        "family": env_family(env),
        **{k: env.get(k) for k in keys},
    }


def compare_summaries(
    baseline: Mapping[str, object], candidate: Mapping[str, object], base_path: Path, cand_path: Path
) -> Comparison:
    """Classify every case of two summaries."""
    old_cases, new_cases = flatten(baseline), flatten(candidate)
    result = Comparison(_identity(baseline, base_path), _identity(candidate, cand_path))
    result.classes = {name: [] for name in REPORTED_CLASSES}
    for case_id in sorted(set(old_cases) | set(new_cases)):
        old, new = old_cases.get(case_id), new_cases.get(case_id)
        any_side = new or old
        assert any_side is not None
        change = Change(
            case_id,
            any_side.rule_id,
            any_side.family,
            any_side.severity,
            old.outcome if old else None,
            new.outcome if new else None,
            old.code if old else None,
            new.code if new else None,
        )
        for name in change_classes(old, new):
            result.classes[name].append(change)
    rules = {c.rule_id for c in result.classes["regression"]}
    old_rules, new_rules = summary_record(baseline).rules, summary_record(candidate).rules
    judged_failures = {c.rule_id for c in new_cases.values() if c.outcome in FAILING and not c.unjudged}
    for rule_id in set(old_rules) & set(new_rules) & judged_failures:
        old_outcome, new_outcome = old_rules[rule_id].outcome, new_rules[rule_id].outcome
        if old_outcome and new_outcome and old_outcome.value in PASSED and new_outcome.value in FAILING:
            rules.add(rule_id)
    result.regressed_rules = sorted(rules)
    result.drift = observation_drift(baseline, candidate)
    return result


def product_differences(baseline: Mapping[str, object], candidate: Mapping[str, object]) -> list[str]:
    """How the two runs' products differ: family, SoC, spec hash (empty when comparable)."""
    old, new = _identity(baseline, Path()), _identity(candidate, Path())
    return [f"{key} {old.get(key)} vs {new.get(key)}" for key in PRODUCT_FACTS if old.get(key) != new.get(key)]


def read_summary(run: Path, path: Path) -> JSONObject:
    """The summary.json ``path`` of ``run`` read as an untrusted file (inside ``run`` when it is a folder).

    Raises :class:`~conformance.results.untrusted.UntrustedFileError` (a ValueError, one line).
    """
    run = Path(run)
    return untrusted.read_json_object(path, root=None if path == run else run)


#: Checks a bundle's signature, returning its problems: :func:`conformance.certify.verify.signature_checker`.
SignatureCheck = Callable[[Path], list[str]]


def bundle_problem(run: Path, signature_check: SignatureCheck | None = None) -> str | None:
    """Why the run ``run`` may not be read (one line) when it is, or is in, a bundle that fails its integrity
    check (with ``signature_check``: also its signature, and then it must be a bundle); None otherwise."""
    bundle = bundle_of(run)
    if bundle is None:  # a plain report directory: nothing to check, unless a signature is required
        return None if signature_check is None else _("not a bundle: it carries no signature to check")
    return integrity_problem(check_integrity(bundle, signature_check))


#: The two sides of a comparison, as its one-line refusals name them.
ROLES = {"baseline": N_("baseline"), "candidate": N_("candidate")}


def _load(run: Path, path: Path, role: str, signature_check: SignatureCheck | None = None) -> JSONObject:
    said = _(ROLES[role])
    problem = bundle_problem(run, signature_check)
    if problem:
        raise CompareError(f"{said} {run}: {problem}")
    try:
        summary = read_summary(run, path)
    except ValueError as exc:
        raise CompareError(f"{said}: {exc}") from None
    problem = summary_problem(summary)
    if problem:
        raise CompareError(f"{said} {path}: {problem}")
    if summary.get("verdict") == vocabulary.Verdict.INTERRUPTED.value:  # judged nothing: no baseline, no candidate
        raise CompareError(_("{role} {path}: an interrupted run (verdict INTERRUPTED) judged nothing; run it to the "
                             "end").format(role=said, path=path))
    return summary


def compare(baseline: Path, candidate: Path, *, allow_different_product: bool = False,
            allow_different_release: bool = False, signature_check: SignatureCheck | None = None) -> Comparison:
    """Compare two runs given as bundles, report directories or summary.json files.

    Raises :class:`CompareError` (one line) for a bundle that fails its integrity check (with
    ``signature_check``, also its signature, and then both runs must be bundles), a run that
    cannot be read or is not a summary, and for runs of different products or specs unless
    ``allow_different_product``, with which the differences head the report's warnings.
    """
    try:
        base_path, cand_path = summary_path(baseline), summary_path(candidate)
    except ValueError as exc:
        raise CompareError(str(exc)) from None
    old = _load(Path(baseline), base_path, "baseline", signature_check)
    new = _load(Path(candidate), cand_path, "candidate", signature_check)
    differences = product_differences(old, new)
    if differences and not allow_different_product:
        raise CompareError(_("the runs are of different products or specs ({differences}); a gate compares one "
                             "product with itself (pass --allow-different-product to compare anyway)").format(
                                 differences="; ".join(differences)))
    releases = [as_object(s.get("environment")).get("cann_release") for s in (old, new)]
    if releases[0] != releases[1] and not allow_different_release:
        raise CompareError(_("the runs are judged against different CANN releases ({baseline} and {candidate}); "
                             "their contracts differ (pass --allow-different-release to compare anyway: cases that "
                             "entered or left the contract are listed as such)").format(
                                 baseline=releases[0], candidate=releases[1]))
    result = compare_summaries(old, new, base_path, cand_path)
    if releases[0] != releases[1]:
        result.warnings.insert(0, f"compared across releases {releases[0]} and {releases[1]}: cases outside one "
                                  "of the contracts are listed as entered-contract or left-contract")
    if differences:
        result.warnings.insert(0, f"compared across different products or specs ({'; '.join(differences)}): "
                                  "differences may come from the product or the spec, not the library")
    return result
