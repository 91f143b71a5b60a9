"""``summary.json``: every rule and case of the catalog with its outcome, and the run's verdict.

The functions here take plain data (catalog dicts, :class:`~conformance.results.outcomes.CaseResult`)
so that they can be tested without pytest or a library.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, cast

from acl_hostmem_generated.catalog_types import Catalog, CitationEntry

from ..harness.untrusted_text import terminal_text
from ..i18n import LANGUAGES, _, current
from ..i18n.spec_text import rule_family_name
from .coverage import CoverageJSON, coverage, coverage_line, unexercised_interfaces
from .identity import case_interfaces
from .observations import ObservationJSON, case_observations
from .outcomes import (
    FAILING_OUTCOMES,
    CaseOutcomeJSON,
    CaseResult,
    Category,
    FindingJSON,
    Outcome,
    count,
    decides,
    unjudged,
    worst,
)
from .rootcause import RootCauseJSON, root_cause_line, root_causes
from .terminal import Style, display_width, pad
from .untrusted import JSONObject, JSONValue, as_object
from .vocabulary import EXIT_FAIL, EXIT_INCONCLUSIVE, EXIT_NOTHING_SELECTED, EXIT_PASS, Verdict, interrupted_status

if TYPE_CHECKING:  # only the type checker reads these: the annotations stay strings at run time (and the
    # expectations module, with PyYAML, loads only when a run names expectations files)
    from typing_extensions import NotRequired

    from .expectations import WaiverJSON
    from .waiver_use import UnusedJSON

# /2: cases carry their observations; /3: the BLOCKED outcome, blocked_by and root_causes
SCHEMA = "acl-conformance-summary/3"
#: The schemas every reader (gate, verify, merge) accepts: only the one this kit writes.
READABLE_SCHEMAS = frozenset({SCHEMA})
PARTIAL = Verdict.PARTIAL.value
INTERRUPTED = Verdict.INTERRUPTED.value
NOTHING_SELECTED = EXIT_NOTHING_SELECTED
OUTCOME_VALUES = frozenset(o.value for o in Outcome)


class CaseSummaryJSON(CaseOutcomeJSON):
    """A case of summary.json: its outcome and what the run recorded for it."""

    observations: dict[str, ObservationJSON]
    teardown_problem: NotRequired[str]
    stderr: NotRequired[str]
    blocked_by: NotRequired[str]
    rests_on: NotRequired[list[str]]


class RuleSummaryJSON(TypedDict):
    """A rule of summary.json (its catalog facts, its outcome) and its cases by case ID."""

    title: str
    family: str
    severity: str
    doc_url: str
    doc_ref: str
    outcome: str
    provenance: str
    evidence: list[CitationEntry]
    cases: dict[str, CaseSummaryJSON]
    message: NotRequired[str]


class RunFindingJSON(FindingJSON):
    """A finding of summary.json's run-wide ``findings``: the case and rule that noticed it."""

    case_id: str
    rule_id: str


class ExpectationsJSON(TypedDict):
    """summary.json's ``expectations``: the files a run used, the entries expired and those that did nothing."""

    files: list[str]
    expired: list[WaiverJSON]
    unused: NotRequired[list[UnusedJSON]]


class SelectionJSON(TypedDict):
    """summary.json's ``selection``: whether the run selected cases, how many, of how many."""

    partial: bool
    selected_cases: int
    spec_cases: int


class SummaryJSON(TypedDict):
    """summary.json as this kit writes it (:func:`build_summary`); ``suite_version`` and ``environment``
    are the run's facts as the library probe and the kit found them."""

    schema: str
    spec_hash: str
    suite_version: object
    environment: dict[str, object]
    command: list[str]
    totals: dict[str, int]
    by_interface: dict[str, dict[str, int]]
    by_family: dict[str, dict[str, int]]
    findings: list[RunFindingJSON]
    root_causes: list[RootCauseJSON]
    rules: dict[str, RuleSummaryJSON]
    expectations: ExpectationsJSON
    selection: SelectionJSON
    unjudged_rules: list[str]
    coverage: CoverageJSON
    verdict: str
    language: str


#: The message of a case an interrupted run did not reach (Allure's "not run" category matches it).
INTERRUPTED_NOT_RUN = "not run: the run was interrupted before this case ran"


def _missing_case(case_id: str, rule_id: str, interrupted: bool = False) -> CaseResult:
    if interrupted:
        return CaseResult(case_id, rule_id, Outcome.ERROR, Category.NOT_RUN, INTERRUPTED_NOT_RUN, None, 0.0)
    return CaseResult(case_id, rule_id, Outcome.ERROR, Category.HARNESS_ERROR,
                      "the case was not run (deselected, not collected, or lost)", None, 0.0)


def build_summary(catalog: Catalog, results: Mapping[str, CaseResult], *,
                  environment: Mapping[str, object], command: list[str],
                  expectation_files: Iterable[str] = (), expired: Iterable[WaiverJSON] = (),
                  selected: Collection[str] | None = None, interrupted: bool = False) -> SummaryJSON:
    """The ``summary.json`` document: every rule and every case of the catalog, nothing dropped.

    ``totals`` and ``by_interface`` count cases; ``by_family`` counts rules (by rule family).
    Cases that were reported but are not in the catalog are kept under their rule. A run that
    selected cases (``selected``: their case IDs) is partial when it left any case of the
    catalog out: it then lists only the selected cases and rules, and its verdict is PARTIAL. An
    ``interrupted`` run judged nothing: its verdict is INTERRUPTED, it names no root cause and no
    unjudged rule, and the cases it did not reach are ERROR ``not_run``.
    """
    catalog_ids = [c["case_id"] for rule in catalog["rules"] for c in rule.get("cases", [])]
    partial = selected is not None and not set(catalog_ids) <= set(selected)
    rules_out: dict[str, RuleSummaryJSON] = {}
    case_outcomes: list[Outcome] = []
    by_interface: dict[str, dict[str, int]] = {}
    by_family: dict[str, list[Outcome]] = {}
    findings: list[RunFindingJSON] = []
    for rule in catalog["rules"]:
        rid = rule["id"]
        catalog_cases = {c["case_id"]: c for c in rule.get("cases", [])
                         if not partial or c["case_id"] in selected}  # type: ignore[operator]
        seen = {cid: r for cid, r in results.items() if r.rule_id == rid}
        if partial and not catalog_cases and not seen:
            continue
        cases: dict[str, CaseSummaryJSON] = {}
        outcomes: list[Outcome] = []
        ids = list(catalog_cases) + [cid for cid in seen if cid not in catalog_cases]
        for cid in ids:
            result = seen.get(cid) or _missing_case(cid, rid, interrupted)
            outcomes.append(result.outcome)
            params = catalog_cases[cid]["params"] if cid in catalog_cases else None
            for iface in case_interfaces(rule, params):
                bucket = by_interface.setdefault(iface, count(()))
                bucket[result.outcome.value] += 1
            cases[cid] = {
                "outcome": result.outcome.value,
                "category": result.category.value if result.category else None,
                "message": result.message,
                "observed_code": result.observed_code,
                "duration_s": result.duration_s,
                "waiver": result.waiver,
                "observations": case_observations(rule, catalog_cases.get(cid), result.observations),
                "findings": [f.to_json() for f in result.findings],
            }
            for evidence in ("teardown_problem", "stderr", "blocked_by"):  # present only when there is something
                if getattr(result, evidence):
                    cases[cid][evidence] = getattr(result, evidence)
            if result.rests_on:
                cases[cid]["rests_on"] = list(result.rests_on)
            findings += [{"case_id": cid, "rule_id": rid, **f.to_json()} for f in result.findings]
        rule_outcome = worst(outcomes)
        message = ""
        if rule_outcome is None:
            rule_outcome, message = Outcome.ERROR, "no case of this rule was collected or run"
        elif rule_outcome == Outcome.NOT_APPLICABLE:  # the rule says why, as its cases do (the first one's words)
            message = next((c["message"] for c in cases.values() if c["message"]), "")
        case_outcomes.extend(outcomes)
        by_family.setdefault(rule.get("family", ""), []).append(rule_outcome)
        entry: RuleSummaryJSON = {
            "title": rule.get("title"), "family": rule.get("family"), "severity": rule.get("severity"),
            "doc_url": rule.get("doc_url"), "doc_ref": rule.get("doc_ref"), "outcome": rule_outcome.value,
            "provenance": rule.get("provenance"), "evidence": rule.get("evidence", []),
            "cases": cases,
        }
        if message:
            entry["message"] = message
        rules_out[rid] = entry
    covered = coverage(catalog, rules_out, environment)
    return {
        "schema": SCHEMA,
        "language": current(),  # of the human texts this run wrote (console, HTML report); nothing else depends on it
        "spec_hash": catalog.get("spec_hash"),
        "suite_version": environment.get("suite_version", "unknown"),
        "environment": dict(environment),
        "command": list(command),
        "totals": count(case_outcomes),
        "by_interface": by_interface,
        "by_family": {fam: count(outs) for fam, outs in by_family.items()},
        "findings": findings,
        "root_causes": [] if interrupted else root_causes(rules_out),
        "rules": rules_out,
        "expectations": {"files": [str(f) for f in expectation_files], "expired": list(expired)},
        "selection": {"partial": partial, "selected_cases": sum(len(r["cases"]) for r in rules_out.values()),
                      "spec_cases": len(catalog_ids)},
        "unjudged_rules": [] if interrupted else mandatory_standing(rules_out)[1],
        "coverage": covered,
        "verdict": (INTERRUPTED if interrupted else PARTIAL if partial
                    else run_verdict(rules_out, covered["unexercised_interfaces"])),
    }


def summary_verdict(summary: Mapping[str, object]) -> str:
    """The verdict a summary's outcomes call for: INTERRUPTED for a run that says it was stopped (it judged
    nothing, so no outcome can make it more), PARTIAL for a partial run, else :func:`run_verdict`."""
    if summary.get("verdict") == INTERRUPTED:
        return INTERRUPTED
    if as_object(summary.get("selection")).get("partial"):
        return PARTIAL
    rules = as_object(summary.get("rules"))
    return run_verdict({rid: rule for rid, rule in rules.items() if isinstance(rule, Mapping)},
                       unexercised_interfaces(summary))


VERDICT_EXIT = {Verdict.PASS.value: EXIT_PASS, Verdict.FAIL.value: EXIT_FAIL,
                Verdict.INCONCLUSIVE.value: EXIT_INCONCLUSIVE}


def exit_status(summary: SummaryJSON) -> int:
    """The exit status of a run's verdict: 0 PASS, 1 FAIL, 6 INCONCLUSIVE; a PARTIAL run takes the status of
    what its selected mandatory rules decide; 5 when nothing was selected."""
    if summary.get("verdict") == INTERRUPTED:
        return interrupted_status(signal.SIGINT)  # the pytest process knows only its KeyboardInterrupt
    if (summary.get("selection") or {}).get("partial") and not summary["selection"].get("selected_cases"):
        return NOTHING_SELECTED
    return VERDICT_EXIT[run_verdict(summary.get("rules") or {}, unexercised_interfaces(summary))]


def mandatory_standing(rules: Mapping[str, Mapping[str, object]]) -> tuple[list[str], list[str]]:
    """The mandatory rules that failed and those that could not be judged, by rule ID, each in order.

    A mandatory rule fails when one of its cases is FAIL or BLOCKED, or ERROR for something the library did
    (it crashed, a call hung). It is unjudged when it did not fail but one of its cases ended ERROR because
    the instrument could not observe (:func:`~.outcomes.unjudged`), or when it has no case at all.
    """
    failing: list[str] = []
    unjudged_rules: list[str] = []
    for rule_id, rule in rules.items():
        if not decides(rule.get("severity")):
            continue
        cases = [c for c in as_object(rule.get("cases")).values()
                 if isinstance(c, Mapping) and c.get("outcome") in OUTCOME_VALUES]
        if any(Outcome(c["outcome"]) in FAILING_OUTCOMES and not unjudged(c["outcome"], c.get("category"))
               for c in cases):
            failing.append(rule_id)
        elif not cases or any(unjudged(c["outcome"], c.get("category")) for c in cases):
            unjudged_rules.append(rule_id)
    return failing, unjudged_rules


def run_verdict(rules: Mapping[str, Mapping[str, object]], unexercised: Collection[str] = ()) -> str:
    """The verdict of a run from its rules' case outcomes (:func:`mandatory_standing`): FAIL when a mandatory
    rule failed, else INCONCLUSIVE when one could not be judged or an interface the library exports was
    ``unexercised`` (:mod:`.coverage`), else PASS.

    Waivers do not count here (certification judges them); ``verify`` recomputes this.
    """
    failing, unjudged_rules = mandatory_standing(rules)
    if failing:
        return Verdict.FAIL.value
    return Verdict.INCONCLUSIVE.value if unjudged_rules or unexercised else Verdict.PASS.value


def summary_problem(summary: object) -> str | None:
    """Why ``summary`` is not structurally a summary.json (one line), or None.

    Checks the shape that every reader relies on: the schema name, a ``rules`` object of
    rule objects, each with a ``cases`` object of case objects carrying a known outcome.
    """
    if not isinstance(summary, Mapping):
        return "not a JSON object"
    if summary.get("schema") not in READABLE_SCHEMAS:
        return f"not a conformance summary (schema is {str(summary.get('schema'))[:60]!r}, not {SCHEMA!r})"
    rules = summary.get("rules")
    if not isinstance(rules, Mapping):
        return "'rules' is not an object"
    if not isinstance(summary.get("environment"), Mapping):
        return "'environment' is not an object"
    if "language" in summary and summary["language"] not in LANGUAGES:  # older summaries have none
        return f"'language' {str(summary['language'])[:20]!r} is not one of {', '.join(LANGUAGES)}"
    for rule_id, rule in rules.items():
        if not isinstance(rule, Mapping) or not isinstance(rule.get("cases"), Mapping):
            return f"rule {str(rule_id)[:80]!r} is not an object with a 'cases' object"
        for case_id, case in rule["cases"].items():
            if not isinstance(case, Mapping) or case.get("outcome") not in OUTCOME_VALUES:
                return f"case {str(case_id)[:120]!r} is not an object with a known outcome"
    return None


def load_json(path: Path) -> JSONObject:
    """Read a JSON object from ``path``; raises ValueError naming the file when it is not one."""
    try:
        data: JSONValue = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: cannot read JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a JSON object")
    return data


def load_catalog_file(path: Path) -> Catalog:
    """A catalog named on a command line (``--catalog``), as :func:`load_json` reads it.

    It is the verifier's own (of the spec it checked out), not the bundle's, so its shape is
    the generator's and is not checked again.
    """
    return cast("Catalog", load_json(path))


def load_own_summary(path: Path) -> SummaryJSON:
    """The summary.json that this kit's own run wrote (certify's staging folder, the bundle it just made),
    as :func:`load_json` reads it.

    Its shape is the writer's (:func:`build_summary`) and is not checked again, as a catalog named on
    the command line is not; a summary from elsewhere is read raw and checked (``verify``, ``gate``).
    """
    return cast("SummaryJSON", load_json(path))


def env_family(environment: Mapping[str, object]) -> str | None:
    """The product family of a run's environment (``product_family``; "family" alone means a rule family)."""
    value = environment.get("product_family")
    return str(value) if value is not None else None


def format_summary(summary: SummaryJSON, report_location: str | None = None, style: Style | None = None) -> str:
    """A short human summary: rules per rule family, case totals, verdict, report location (in this process's
    language; IDs, outcome and verdict words stay as they are)."""
    style = style or Style()
    lang = current()
    title = _("ACL host-memory conformance")
    lines = ["", title, "=" * display_width(title)]
    env = summary.get("environment", {})
    shown = {key: terminal_text(str(env.get(key))) for key in ("library", "soc", "product_family", "cann_version")}
    lines.append(_("library  {library}  ({soc}, {family}, CANN {version})").format(
        library=shown["library"], soc=shown["soc"], family=shown["product_family"], version=shown["cann_version"]))
    if env.get("cann_release"):
        lines.append(_("judged against the CANN {release} contract").format(release=env.get("cann_release")))
    # Each count column is as wide as the kit always printed it, or its header and a space where a language's
    # word is wider (a Chinese character takes two columns).
    columns = [("PASS", _("pass"), 6), ("FAIL", _("fail"), 6), ("ERROR", _("error"), 6), ("BLOCKED", _("blocked"), 8),
               ("WAIVED", _("waived"), 7), ("XPASS", _("xpass"), 6), ("NOT_APPLICABLE", _("n/a"), 5)]
    widths = {key: max(width, display_width(word) + 1) for key, word, width in columns}
    rules_word = _("rules")
    rules_width = max(6, display_width(rules_word) + 1)
    header = (pad(_("rule family"), 18) + pad(rules_word, rules_width, right=True)
              + "".join(pad(word, widths[key], right=True) for key, word, _width in columns))
    lines += ["", header, "-" * display_width(header)]
    def red(counts: Mapping[str, int], name: str) -> str:
        n, width = counts.get(name, 0), widths[name]
        return style.paint(f"{n:>{width}}", "red") if n and name in ("FAIL", "ERROR", "BLOCKED") else f"{n:>{width}}"

    for family, counts in summary.get("by_family", {}).items():
        total = sum(counts.values())
        lines.append(f"{pad(rule_family_name(family, lang), 18)}{total:>{rules_width}}"
                     + "".join(red(counts, key) for key, _word, _width in columns))
    totals = summary.get("totals", {})
    lines.append("")
    lines.append(_("cases: ") + _(", ").join(f"{n} {k.lower()}" for k, n in totals.items() if n))
    if "coverage" in summary:
        lines.append(coverage_line(summary))
    causes = summary.get("root_causes") or []
    if causes:
        lines.append(_("root causes (each failing rule once; BLOCKED cases count against the rule that blocked "
                       "them):"))
    for cause in causes[:20]:
        lines.append(f"  {root_cause_line(cause)}")
    if len(causes) > 20:
        lines.append("  " + _("... and {count} more (see summary.json)").format(count=len(causes) - 20))
    findings = summary.get("findings") or []
    if findings:
        lines.append(_("findings (do not decide the verdict): {count}").format(count=len(findings)))
    expired = summary.get("expectations", {}).get("expired", [])
    if expired:
        lines.append(_("expired expectations: {count} (renew or remove them)").format(count=len(expired)))
    for entry in summary.get("expectations", {}).get("unused", []):
        lines.append(style.paint(_("warning: expectation {where} ({what}) {why}").format(
            where=entry["where"], what=entry.get("case") or entry.get("rule"), why=entry["why"]), "yellow"))
    lines.append("")
    verdict = str(summary.get("verdict"))
    selection = summary.get("selection") or {}
    note = ""
    decided = run_verdict(summary.get("rules") or {})
    if selection.get("partial"):
        said = {Verdict.FAIL.value: _("a selected mandatory rule failed"),
                Verdict.INCONCLUSIVE.value: _("a selected mandatory rule could not be judged")}
        note = _(" ({selected} of {cases} cases selected; {decided})").format(
            selected=selection.get("selected_cases"), cases=selection.get("spec_cases"),
            decided=said.get(decided, _("nothing selected failed")))
    elif verdict == Verdict.INCONCLUSIVE.value:
        unjudged_rules = summary.get("unjudged_rules") or []
        why = [_("{count} could not be judged: their cases ended ERROR because the instrument could not observe")
               .format(count=len(unjudged_rules))] if unjudged_rules else []
        if unexercised_interfaces(summary):
            why.append(_("an interface the library exports had no mandatory case in the judged release's contract"))
        note = _(" (no mandatory rule failed, but {why}; this is not a pass)").format(why=_("; and ").join(why))
    lines.append(_("verdict: {verdict}{note}").format(verdict=style.word(verdict), note=note))
    if report_location:
        lines.append(_("report:  {location}").format(location=report_location))
    return "\n".join(lines)
