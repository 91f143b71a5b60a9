"""The certification verdict, recomputed from the case outcomes of a summary.json.

Rules of certification:

- a **mandatory** rule must be PASS or NOT_APPLICABLE: any FAIL, ERROR or BLOCKED case blocks
  (a BLOCKED case could not reach its own assertion because another rule's promise broke); an
  ERROR the instrument caused (it could not observe) blocks as *unjudged*: when nothing else
  blocks, the run is NOT CERTIFIED because it is INCONCLUSIVE, not because the library failed;
- a WAIVED case blocks unless its waiver was accepted for certification (``accepted``) and may
  be: it names one rule or case, no wildcard, and its product families;
- an XPASS case is a stale waiver: reported, never a failure;
- **recommended** and **informational** rules are reported but do not decide the verdict;
- a run that lacks an outcome for a rule of the catalog (an incomplete run) is not certified.

Severities, families and titles come from the spec's catalog when one is given (``verify``
always gives the catalog of the bundle's spec hash), never from the summary being judged.
The same functions serve ``certify`` (which writes the verdict) and ``verify`` (which
recomputes it and compares).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from acl_hostmem_generated.catalog_types import Catalog, RuleEntry

from ..i18n import current, translate
from ..results.coverage import CoverageJSON, coverage, summary_coverage
from ..results.expectations import certification_problem
from ..results.outcomes import DECIDING_SEVERITY, FAILING_VALUES, OUTCOME_ORDER, unjudged, worst_value
from ..results.untrusted import as_list, as_object

CERTIFIED = "CERTIFIED"
NOT_CERTIFIED = "NOT CERTIFIED"

OUTCOMES = frozenset(OUTCOME_ORDER)
FAILING = FAILING_VALUES
aggregate = worst_value  # a rule's outcome is the worst of its cases


def waiver_accepted(case: Mapping[str, object]) -> bool:
    """Whether a WAIVED case's waiver counts as accepted for certification (recomputed, not trusted)."""
    return certification_problem(case.get("waiver")) is None


@dataclass
class RuleAssessment:
    """One rule of the summary as certification sees it."""

    rule_id: str
    title: str
    family: str
    severity: str
    doc_url: str
    doc_ref: str
    outcome: str | None
    provenance: str = ""
    evidence: list[Mapping[str, object]] = field(default_factory=list)
    failing_cases: list[str] = field(default_factory=list)
    unjudged_cases: list[str] = field(default_factory=list)  # ERROR: the instrument could not observe
    waived_cases: list[str] = field(default_factory=list)
    unaccepted_waivers: list[str] = field(default_factory=list)
    stale_cases: list[str] = field(default_factory=list)
    #: The spec's entry for the rule (its texts in every language: :mod:`conformance.i18n.spec_text`).
    texts: Mapping[str, object] = field(default_factory=dict, repr=False)

    @property
    def decides(self) -> bool:
        """Whether this rule's severity decides the verdict."""
        return self.severity == DECIDING_SEVERITY

    @property
    def conflict(self) -> bool:
        """Whether the rule is advisory: its docs and runtime-source evidence disagree."""
        return self.severity == "advisory"

    @property
    def blocking(self) -> bool:
        """Whether this rule alone makes the run NOT CERTIFIED."""
        return self.decides and bool(self.failing_cases or self.unjudged_cases or self.unaccepted_waivers
                                     or self.outcome is None)

    def why(self, lang: str | None = None) -> str:
        """A short reason for a blocking or waived rule (in ``lang``; this process's language by default)."""
        lang = lang or current()
        parts = []
        if self.failing_cases:
            parts.append(translate("{count} failing case(s)", lang).format(count=len(self.failing_cases)))
        if self.unjudged_cases:
            parts.append(translate("{count} case(s) that could not be judged", lang).format(
                count=len(self.unjudged_cases)))
        if self.unaccepted_waivers:
            parts.append(translate("{count} waived case(s) without accepted waiver", lang).format(
                count=len(self.unaccepted_waivers)))
        accepted = len(self.waived_cases) - len(self.unaccepted_waivers)
        if accepted:
            parts.append(translate("{count} case(s) under accepted waiver", lang).format(count=accepted))
        if self.outcome is None:
            parts.append(translate("no case outcome", lang))
        return translate(", ", lang).join(parts) or str(self.outcome)


@dataclass
class Assessment:
    """The certification view of a whole run."""

    verdict: str
    rules: list[RuleAssessment]
    missing_rules: list[str]
    expired: list[Mapping[str, object]]
    completeness_checked: bool
    coverage: CoverageJSON = field(default_factory=lambda: CoverageJSON(mandatory_cases=0, mandatory_judged=0,
                                                                         unexercised_interfaces=[]))

    @property
    def blocking(self) -> list[RuleAssessment]:
        """Mandatory rules that make the run NOT CERTIFIED."""
        return [r for r in self.rules if r.blocking]

    @property
    def waived_mandatory(self) -> list[RuleAssessment]:
        """Mandatory rules with waived cases (accepted or not)."""
        return [r for r in self.rules if r.decides and r.waived_cases]

    @property
    def stale(self) -> list[RuleAssessment]:
        """Rules with XPASS cases: waivers whose deviation is gone."""
        return [r for r in self.rules if r.stale_cases]

    @property
    def advisory_findings(self) -> list[RuleAssessment]:
        """Recommended/informational rules with failing or waived cases (reported only)."""
        return [r for r in self.rules
                if not r.decides and not r.conflict and (r.failing_cases or r.unjudged_cases or r.waived_cases)]

    @property
    def conflicts(self) -> list[RuleAssessment]:
        """Advisory rules: where the docs and the runtime source disagree (reported, never deciding)."""
        return [r for r in self.rules if r.conflict]

    @property
    def inconclusive(self) -> bool:
        """Whether the run is NOT CERTIFIED only because it could not judge: no mandatory rule failed or has a
        waiver that is not accepted, but a mandatory case could not be judged or a rule has no outcome."""
        deciding = [r for r in self.rules if r.decides]
        if self.verdict == CERTIFIED or any(r.failing_cases or r.unaccepted_waivers for r in deciding):
            return False
        return (bool(self.missing_rules) or bool(self.coverage["unexercised_interfaces"])
                or any(r.unjudged_cases or r.outcome is None for r in deciding))

    def reason(self, lang: str | None = None) -> str:
        """Why the verdict is what it is, in one line (the certificate's first lines, certify's console),
        with how many of the run's mandatory cases were judged; in ``lang`` (this process's by default)."""
        lang = lang or current()
        judged = translate(" ({judged} of {cases} mandatory cases judged)", lang).format(
            judged=self.coverage["mandatory_judged"], cases=self.coverage["mandatory_cases"])
        return self._why(lang) + judged

    def _why(self, lang: str) -> str:
        if self.verdict == CERTIFIED:
            return translate("every mandatory rule passed or does not apply", lang)
        deciding = [r for r in self.rules if r.decides]
        unjudged_cases = sum(len(r.unjudged_cases) for r in deciding)
        if self.inconclusive:
            parts = []
            if unjudged_cases:
                parts.append(translate("{cases} mandatory case(s) of {rules} rule(s) could not be judged (they "
                                       "ended ERROR because the instrument could not observe)", lang).format(
                                           cases=unjudged_cases, rules=sum(1 for r in deciding if r.unjudged_cases)))
            if self.missing_rules:
                parts.append(translate("{count} rule(s) have no outcome (an incomplete run)", lang).format(
                    count=len(self.missing_rules)))
            if self.coverage["unexercised_interfaces"]:
                parts.append(translate("no mandatory case of {interfaces} (exported by the library) lies in the "
                                       "judged release's contract, so nothing of it was judged", lang).format(
                                           interfaces=", ".join(self.coverage["unexercised_interfaces"])))
            return translate("INCONCLUSIVE: no mandatory rule failed, but {why}", lang).format(
                why=translate("; ", lang).join(parts or [translate("a rule has no case", lang)]))
        failed = [r for r in deciding if r.failing_cases]
        unaccepted = [r for r in deciding if r.unaccepted_waivers]
        parts = [translate("{count} mandatory rule(s) failed", lang).format(count=len(failed))] if failed else []
        if unaccepted:
            parts.append(translate("{count} mandatory rule(s) are waived without an accepted waiver", lang).format(
                count=len(unaccepted)))
        if unjudged_cases:
            parts.append(translate("{count} mandatory case(s) could not be judged", lang).format(count=unjudged_cases))
        return translate("; ", lang).join(parts) or translate("the run could not be certified", lang)

    def families(self) -> dict[str, dict[str, int]]:
        """Per rule family: counts of rules by certification column."""
        table: dict[str, dict[str, int]] = {}
        for rule in self.rules:
            row = table.setdefault(rule.family, dict.fromkeys(FAMILY_COLUMNS, 0))
            row[family_column(rule)] += 1
        return dict(sorted(table.items()))


FAMILY_COLUMNS = ("passed", "not_applicable", "failed", "unjudged", "waived", "waived_accepted", "stale",
                  "advisory_issue")


def family_column(rule: RuleAssessment) -> str:
    """The column of the per-family table a rule is counted in."""
    if not rule.decides:
        issue = rule.failing_cases or rule.unjudged_cases or rule.waived_cases
        return "advisory_issue" if issue else _plain_column(rule.outcome)
    if rule.failing_cases:
        return "failed"
    if rule.unjudged_cases or rule.outcome is None:
        return "unjudged"
    if rule.unaccepted_waivers:
        return "waived"
    if rule.waived_cases:
        return "waived_accepted"
    if rule.stale_cases:
        return "stale"
    return _plain_column(rule.outcome)


def _plain_column(outcome: str | None) -> str:
    return "not_applicable" if outcome == "NOT_APPLICABLE" else ("stale" if outcome == "XPASS" else "passed")


def assess_rule(rule_id: str, rule: Mapping[str, object], spec_rule: RuleEntry | None = None) -> RuleAssessment:
    """Recompute one rule's certification status from its case outcomes.

    ``spec_rule`` is the catalog's entry for the rule: its severity, family, title and doc
    link win over what the summary says. Without it a rule is taken as mandatory unless
    the summary says otherwise.
    """
    cases = as_object(rule.get("cases"))
    facts: Mapping[str, object] = spec_rule or rule
    result = RuleAssessment(
        rule_id=rule_id,
        title=str(facts.get("title", "")),
        family=str(facts.get("family", "unknown")),
        severity=str(facts.get("severity", "mandatory")),
        doc_url=str(facts.get("doc_url") or ""),
        doc_ref=str(facts.get("doc_ref") or ""),
        outcome=aggregate([str(c.get("outcome")) for c in cases.values() if isinstance(c, dict)]),
        provenance=str(facts.get("provenance") or ""),
        evidence=[e for e in as_list(facts.get("evidence")) if isinstance(e, dict)],
        texts=facts,
    )
    for case_id, case in sorted(cases.items()):
        outcome = case.get("outcome") if isinstance(case, dict) else None
        if isinstance(case, dict) and unjudged(outcome, case.get("category")):
            result.unjudged_cases.append(case_id)
        elif outcome in FAILING or outcome not in OUTCOMES:
            result.failing_cases.append(case_id)
        elif outcome == "WAIVED":
            result.waived_cases.append(case_id)
            if not isinstance(case, dict) or not waiver_accepted(case):  # a WAIVED case is an object
                result.unaccepted_waivers.append(case_id)
        elif outcome == "XPASS":
            result.stale_cases.append(case_id)
    return result


def catalog_rule_ids(catalog: Catalog) -> list[str]:
    """Every rule ID of a generated catalog.json."""
    return [str(rule["id"]) for rule in catalog.get("rules", [])]


def assess(summary: Mapping[str, object], catalog: Catalog | None = None) -> Assessment:
    """The certification verdict of a run; with ``catalog`` (same spec hash) also its completeness."""
    checked = catalog is not None and catalog.get("spec_hash") == summary.get("spec_hash")
    spec_rules = {r["id"]: r for r in catalog["rules"]} if catalog is not None and checked else {}
    rules = [assess_rule(rid, rule, spec_rules.get(rid))
             for rid, rule in sorted(as_object(summary.get("rules")).items()) if isinstance(rule, dict)]
    missing: list[str] = []
    if checked and catalog is not None:
        present = {r.rule_id for r in rules if r.outcome is not None}
        missing = [rid for rid in catalog_rule_ids(catalog) if rid not in present]
    # Recomputed from the spec when it is at hand (verify always has it), never taken from the summary then.
    covered = (coverage(catalog, as_object(summary.get("rules")), as_object(summary.get("environment")))
               if checked and catalog is not None else summary_coverage(summary))
    certified = (not any(r.blocking for r in rules) and not missing and bool(rules)
                 and not covered["unexercised_interfaces"])
    expired = [e for e in as_list(as_object(summary.get("expectations")).get("expired")) if isinstance(e, Mapping)]
    return Assessment(CERTIFIED if certified else NOT_CERTIFIED, rules, missing, expired, checked, covered)
