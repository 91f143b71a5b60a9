"""The state model (``spec/state_model.yaml``): typed clauses, their evidence, and its checks.

Each interface has an ordered list of clauses: a test over named facts (or one structured
error condition of a rule), an expected outcome, the checks on a successful call's outputs
and the effects on the abstract state. A clause *cites* where its prediction comes from;
:func:`evidence_of` turns a citation into the code and provenance the explorer judges by,
reading them from the cited rule (provenance derived from the rule's citations, see
:mod:`codegen.evidence`), so that codes and provenance have one home (rules.yaml).

Everything the generated model module (``acl_hostmem_generated/state_model.py``) needs is decided
here: the Python expression of each clause's test, the evidence of each clause and check,
and the explorer's rules, which join the spec's rules under the family ``explorer``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import SpecIssue, Where
from .evidence import DOCUMENTED, INFORMATIONAL, MANDATORY, UNSPECIFIED, Citation, code_level, severity_allowed, weakest
from .model import Applicability, Condition, Doc, Rule, Since

EXPLORER_FAMILY = "explorer"
EXPLORER_CHECK = "explore"


@dataclass(frozen=True)
class Cite:
    """Where a prediction comes from: a rule (optionally one of its error conditions), the
    called function's own page, or nothing (``unspecified`` says why)."""

    rule: str | None = None
    error: Condition | None = None
    doc: bool = False
    unspecified: str | None = None


@dataclass(frozen=True)
class Evidence:
    """What a citation establishes: the outcome's provenance and severity, and the code's."""

    provenance: str
    severity: str
    rule: str | None = None
    code: str | None = None
    code_provenance: str | None = None

    @property
    def documented(self) -> bool:
        """Whether a mismatch here is a mandatory finding: documented evidence of a mandatory rule."""
        return self.provenance == DOCUMENTED and self.severity == MANDATORY

    @property
    def code_documented(self) -> bool:
        """Whether the exact code decides a mandatory prediction (checked in documented paths too)."""
        return (self.documented and self.code is not None and self.code_provenance is not None
                and code_level(self.severity, self.code_provenance) == MANDATORY)

    @property
    def strict(self) -> bool:
        """Whether the exact code is checked at all (a code that is not merely unspecified)."""
        return self.code is not None and self.code_provenance != UNSPECIFIED


def evidence_of(rules: dict[str, Rule], cite: Cite) -> Evidence:
    """The evidence a citation stands for (the one place the explorer's provenance comes from).

    A rule gives the outcome its provenance (derived from the rule's citations, or from the
    cited error condition's) and its severity, and the expected code with that code's own
    provenance (the rule's code, or the condition's); the called function's page is
    documented; an uncited prediction is unspecified.
    """
    if cite.doc:
        return Evidence(DOCUMENTED, MANDATORY)
    if cite.rule is None:
        return Evidence(UNSPECIFIED, INFORMATIONAL)
    rule = rules[cite.rule]
    provenance, expect = rule.provenance, rule.expect
    if cite.error is not None:
        error = next(e for e in rule.errors if e.when == cite.error)
        provenance, expect = error.provenance, error.expect
    return Evidence(provenance, rule.severity, rule.id, expect.code if expect else None,
                    expect.provenance if expect else None)


@dataclass(frozen=True)
class ModelCheck:
    """A property of a successful call's outputs, with its evidence; skipped when ``unless`` holds."""

    name: str
    evidence: Evidence
    unless: str | None = None


@dataclass(frozen=True)
class Clause:
    """One clause of an interface: when it holds, what the call must do."""

    interface: str
    index: int
    facts: tuple[str, ...]
    condition: Condition | None
    expect: str
    evidence: Evidence
    checks: tuple[ModelCheck, ...] = ()
    effects: tuple[str, ...] = ()
    where: Where | None = None

    @property
    def test(self) -> str:
        """The clause's test as a Python expression over a facts object ``f`` ("" for the closing otherwise)."""
        parts = [f"f.{name}" for name in self.facts]
        if self.condition is not None:
            c = self.condition
            parts.append(f"f.condition({c.param!r}, {c.kind!r}, {c.value!r})")
        return " and ".join(parts)

    @property
    def source(self) -> str:
        """Where the clause is written: ``spec/state_model.yaml:123``."""
        return f"{self.where.file}:{self.where.line}" if self.where else ""


@dataclass(frozen=True)
class Named:
    """A declared name of the model (fact, effect, check, invariant, state component) and its meaning."""

    name: str
    meaning: str
    touches: tuple[str, ...] = ()
    probe: str | None = None
    evidence: Evidence | None = None


@dataclass(frozen=True)
class StateModel:
    """The whole state model."""

    state: tuple[Named, ...]
    facts: tuple[Named, ...]
    effects: tuple[Named, ...]
    checks: tuple[Named, ...]
    invariants: tuple[Named, ...]
    clauses: tuple[tuple[str, tuple[Clause, ...]], ...]
    invalid_arguments: tuple[tuple[str, tuple[Condition, ...]], ...]
    rules: tuple[Rule, ...]

    @property
    def interfaces(self) -> tuple[str, ...]:
        """The interfaces the model predicts, in spec order."""
        return tuple(name for name, _ in self.clauses)

    def policy_issues(self) -> list[SpecIssue]:
        """Explorer rules whose severity their provenance (the weakest prediction they use) does not allow."""
        return [SpecIssue(r.where or Where("spec/state_model.yaml", 1, ""),
                          f"severity {r.severity!r} is not allowed for provenance {r.provenance!r} (the weakest "
                          "prediction its paths use; see codegen/evidence.py)")
                for r in self.rules if not severity_allowed(r.severity, r.provenance)]


def _cite(raw: dict[str, Any]) -> Cite:
    error = raw.get("error")
    return Cite(raw.get("rule"), _condition(error) if error else None, "doc" in raw, raw.get("unspecified"))


def _condition(raw: dict[str, Any]) -> Condition:
    rest = {k: v for k, v in raw.items() if k != "param"}
    kind, value = next(iter(rest.items()))
    return Condition(raw["param"], kind, value)


def _clauses(doc: Any, rules: dict[str, Rule], interface: str, raw: list[dict[str, Any]]) -> tuple[Clause, ...]:
    out: list[Clause] = []
    for i, item in enumerate(raw):
        where = doc.where(["interfaces", interface, i])
        if "errors_of" in item:
            rule = rules[item["errors_of"]]
            for err in rule.errors:
                out.append(Clause(interface, len(out), (), err.when, "failure",
                                  evidence_of(rules, Cite(rule.id, err.when)), where=where))
            continue
        checks = tuple(ModelCheck(c["check"], evidence_of(rules, _cite(c["cite"])), c.get("unless"))
                       for c in item.get("checks", []))
        out.append(Clause(interface, len(out), tuple(item.get("when", [])), None, item["expect"],
                          evidence_of(rules, _cite(item["cite"])), checks, tuple(item.get("effects", [])), where))
    return tuple(out)


def _explorer_rule(doc: Any, index: int, raw: dict[str, Any], clauses: list[Clause], rules: dict[str, Rule]) -> Rule:
    """An explorer rule: its provenance is the weakest of the predictions its paths may use,
    and its evidence the citations of the rules those predictions (and their checks) cite."""
    usable = [c for c in clauses if c.expect in ("success", "failure")]
    if raw["paths"] == "documented":
        usable = [c for c in usable if c.evidence.documented]
    cited: dict[str, None] = {}
    for clause in usable:
        for ev in (clause.evidence, *(k.evidence for k in clause.checks)):
            if ev.rule is not None and (raw["paths"] != "documented" or ev.documented):
                cited.setdefault(ev.rule)
    evidence: dict[tuple[str, str, str], Citation] = {}
    for rule_id in cited:
        for c in rules[rule_id].citations:
            evidence.setdefault((c.ref, c.stance, c.says), c)
    return Rule(
        id=raw["id"], title=raw["title"], statement=raw["statement"], title_zh=raw["title_zh"],
        statement_zh=raw["statement_zh"], zh_source=raw.get("zh_source"), family=EXPLORER_FAMILY, check=EXPLORER_CHECK,
        severity=raw["severity"], doc=Doc(raw["doc"]["page"], raw["doc"]["anchor"]),
        provenance=weakest(c.evidence.provenance for c in usable), evidence=tuple(evidence.values()),
        interfaces=(), applies=Applicability(),
        matrix=(("paths", (raw["paths"],)),), where=doc.where(["rules", index]),
        since=Since(raw["since"]["release"], tuple(Citation.parse(c) for c in raw["since"]["evidence"]))
        if raw.get("since") else None,
    )


def build_state_model(doc: Any, rules: dict[str, Rule]) -> StateModel:
    """The typed state model of a validated ``state_model.yaml`` document."""
    data = doc.data
    clauses = tuple((name, _clauses(doc, rules, name, raw)) for name, raw in data["interfaces"].items())
    every = [c for _, cs in clauses for c in cs]
    invalid = tuple(
        (name, tuple(e.when for item in raw if "errors_of" in item for e in rules[item["errors_of"]].errors))
        for name, raw in data["interfaces"].items()
    )
    return StateModel(
        state=tuple(Named(s["name"], s["meaning"], tuple(s["fields"])) for s in data["state"]),
        facts=tuple(Named(f["name"], f["meaning"], tuple(f["reads"])) for f in data["facts"]),
        effects=tuple(Named(e["name"], e["meaning"], tuple(e["changes"])) for e in data["effects"]),
        checks=tuple(Named(c["name"], c["meaning"]) for c in data["checks"]),
        invariants=tuple(Named(v["name"], v["meaning"], probe=v.get("probe"),
                               evidence=evidence_of(rules, _cite(v["cite"])) if "cite" in v else None)
                         for v in data["invariants"]),
        clauses=clauses,
        invalid_arguments=tuple((name, conds) for name, conds in invalid if conds),
        rules=tuple(_explorer_rule(doc, i, r, every, rules) for i, r in enumerate(data["rules"])),
    )


class StateModelReferences:
    """Cross-reference checks of the state model against itself, the interfaces and the rules."""

    def __init__(self, doc: Any, rules: dict[str, dict[str, Any]], functions: set[str]) -> None:
        self.doc = doc
        self.rules = rules
        self.functions = functions
        self.issues: list[SpecIssue] = []

    def report(self, path: list[str | int], message: str) -> None:
        """Record an issue at ``path`` of the state model."""
        self.issues.append(SpecIssue(self.doc.where(path), message))

    def run(self) -> list[SpecIssue]:
        """Every check; returns the issues found."""
        data = self.doc.data
        declared = {kind: {item["name"] for item in data[kind]} for kind in ("facts", "effects", "checks")}
        components = {s["name"] for s in data["state"]}
        for kind in ("state", "facts", "effects", "checks", "invariants"):
            self._unique(kind, [item["name"] for item in data[kind]])
        for kind, field in (("facts", "reads"), ("effects", "changes")):
            for i, item in enumerate(data[kind]):
                for j, name in enumerate(item[field]):
                    if name not in components:
                        self.report([kind, i, field, j], f"unknown state component {name!r}")
        used: dict[str, set[str]] = {"facts": set(), "effects": set(), "checks": set()}
        for interface, clauses in data["interfaces"].items():
            if interface not in self.functions:
                self.report(["interfaces", interface], f"unknown interface {interface!r}")
            self._clauses(interface, clauses, declared, used)
        for i, inv in enumerate(data["invariants"]):
            if "cite" in inv:
                self._cite(["invariants", i, "cite"], inv["cite"], "failure")
            elif inv["probe"] not in data["interfaces"]:
                self.report(["invariants", i, "probe"], f"probe {inv['probe']!r} has no clauses")
        for kind in ("facts", "effects", "checks"):
            for i, item in enumerate(data[kind]):
                if item["name"] not in used[kind]:
                    self.report([kind, i, "name"], f"{kind[:-1]} {item['name']!r} is declared but no clause uses it")
        for i, rule in enumerate(data["rules"]):
            if rule["id"] in self.rules:
                self.report(["rules", i, "id"], f"rule id {rule['id']!r} is taken by rules.yaml")
        self._unique("rules", [r["id"] for r in data["rules"]], key="id")
        return self.issues

    def _unique(self, kind: str, names: list[str], key: str = "name") -> None:
        seen: set[str] = set()
        for i, name in enumerate(names):
            if name in seen:
                self.report([kind, i, key], f"duplicate {kind} entry {name!r}")
            seen.add(name)

    def _clauses(self, interface: str, clauses: list[dict[str, Any]], declared: dict[str, set[str]],
                 used: dict[str, set[str]]) -> None:
        for i, clause in enumerate(clauses):
            path: list[str | int] = ["interfaces", interface, i]
            if "errors_of" in clause:
                self._errors_of(path + ["errors_of"], interface, clause["errors_of"])
                if i == len(clauses) - 1:
                    self.report(path, "the last clause must hold always (no `when`)")
                continue
            if i == len(clauses) - 1 and clause.get("when"):
                self.report(path, "the last clause must hold always (no `when`)")
            if i < len(clauses) - 1 and not clause.get("when"):
                self.report(path, "only the last clause may omit `when` (the clauses after it could never hold)")
            for j, fact in enumerate(clause.get("when", [])):
                self._declared(path + ["when", j], "facts", fact, declared, used)
            for j, effect in enumerate(clause.get("effects", [])):
                self._declared(path + ["effects", j], "effects", effect, declared, used)
            for j, check in enumerate(clause.get("checks", [])):
                self._declared(path + ["checks", j, "check"], "checks", check["check"], declared, used)
                if "unless" in check:
                    self._declared(path + ["checks", j, "unless"], "facts", check["unless"], declared, used)
                self._cite(path + ["checks", j, "cite"], check["cite"], "success")
            expect = clause["expect"]
            if expect in ("any", "skip", "failure") and clause.get("effects"):
                self.report(path + ["effects"], f"a clause that expects {expect} changes nothing")
            if expect in ("skip", "failure") and clause.get("checks"):
                self.report(path + ["checks"], f"a clause that expects {expect} has no outputs to check")
            self._cite(path + ["cite"], clause["cite"], expect)

    def _declared(self, path: list[str | int], kind: str, name: str, declared: dict[str, set[str]],
                  used: dict[str, set[str]]) -> None:
        if name not in declared[kind]:
            self.report(path, f"unknown {kind[:-1]} {name!r} (declare it under {kind})")
        used[kind].add(name)

    def _cite(self, path: list[str | int], cite: dict[str, Any], expect: str) -> None:
        rule_id = cite.get("rule")
        if rule_id is None:
            return
        rule = self.rules.get(rule_id)
        if rule is None:
            self.report(path + ["rule"], f"cites unknown rule {rule_id!r}")
            return
        error = cite.get("error")
        if error is not None:
            if not any(dict(e["when"]) == dict(error) for e in rule.get("errors", [])):
                self.report(path + ["error"], f"{rule_id} has no error condition {dict(error)!r}")
            if expect != "failure":
                self.report(path + ["error"], "only a failure clause can cite an error condition")
        elif expect == "success" and (rule.get("expect") or {}).get("code"):
            self.report(path + ["rule"], f"{rule_id} expects the call to fail with a code; a success clause "
                        "cannot cite it")

    def _errors_of(self, path: list[str | int], interface: str, rule_id: str) -> None:
        rule = self.rules.get(rule_id)
        if rule is None:
            self.report(path, f"unknown rule {rule_id!r}")
        elif not rule.get("errors"):
            self.report(path, f"{rule_id} has no structured error conditions")
        elif rule.get("interfaces") and rule["interfaces"][0] != interface:
            # (A rule with errors but no interface is reported with the rules.)
            self.report(path, f"the error conditions of {rule_id} are about {rule['interfaces'][0]}, not {interface}")
