"""Lint of the evidence and severity policy (``python -m codegen lint``, and every load).

It rejects, each as ``file:line: field.path: message``:

- a rule, or an error condition, without evidence;
- a citation whose stance contradicts the claim with nothing of the other kind backing it;
- a severity the derived provenance does not allow (a mandatory rule backed only by the
  source, a conflict that is not advisory, ...);
- an error condition whose evidence is weaker than its rule's severity;
- a ``strict`` error code whose own evidence is weaker than its rule's severity;
- a retired rule ID in use;
- a rule with an open element (unspecified, runtime-source, driver-source or conflict) that no legal
  variant of ``faults.yaml`` covers;
- a disputed product-support entry that the support matrix does not mark unsupported;
- a driver citation in a spec whose ``sources`` names no driver commit.
"""

from __future__ import annotations

from typing import Any

from .errors import SpecIssue
from .evidence import (
    DOCUMENTED,
    SEVERITY_CAP,
    Citation,
    code_decides,
    code_level,
    derive_provenance,
    severity_allowed,
    unanswered_contradiction,
    weakest,
)
from .validate import Document

OPEN = frozenset(p for p in SEVERITY_CAP if p != DOCUMENTED)


class EvidencePolicy:
    """Checks the evidence of every rule, condition and code against the severity policy."""

    def __init__(self, docs: dict[str, Document]) -> None:
        self.docs = docs
        self.issues: list[SpecIssue] = []

    def report(self, doc: str, path: list[str | int], message: str) -> None:
        """Record an issue at ``path`` of document ``doc``."""
        self.issues.append(SpecIssue(self.docs[doc].where(path), message))

    def run(self) -> list[SpecIssue]:
        """Run every check; returns the issues found."""
        rules = self.docs["rules"].data
        retired = {r["id"]: r["reason"] for r in rules.get("retired", [])}
        open_rules: dict[str, list[str | int]] = {}
        for i, rule in enumerate(rules["rules"]):
            path: list[str | int] = ["rules", i]
            if rule["id"] in retired:
                self.report("rules", path + ["id"], f"rule ID {rule['id']!r} is retired ({retired[rule['id']]}); "
                                                    "choose a new ID")
            if self._rule(path, rule):
                open_rules[rule["id"]] = path
        self._coverage(open_rules)
        self._disputed_support()
        return self.issues

    # ---- citations -------------------------------------------------------------------

    def _citations(self, path: list[str | int], raw: list[dict[str, str]] | None) -> list[Citation]:
        out = []
        for j, item in enumerate(raw or []):
            try:
                citation = Citation.parse(item)
            except ValueError as exc:
                self.report("rules", path + [j], str(exc))
                continue
            if citation.kind != "doc" and ".." in citation.target.split("/"):
                self.report("rules", path + [j, citation.kind], f"{citation.target!r} leaves the repository ('..')")
            if citation.kind == "drv" and "driver" not in self.docs["rules"].data["sources"]:
                self.report("rules", path + [j, "drv"], "a driver citation needs the driver commit under sources: "
                                                        "{driver: {repo: hicann/driver, commit: ...}}")
            out.append(citation)
        contradicted = unanswered_contradiction(out)
        if contradicted:
            what, other = ("doc", "runtime or driver source") if contradicted == "doc" else ("source", "docs")
            self.report("rules", path, f"a {what} citation contradicts the claim and no {other} citation "
                                       "supports it: the claim is wrong, or cite what backs it")
        return out

    # ---- one rule --------------------------------------------------------------------

    def _rule(self, path: list[str | int], rule: dict[str, Any]) -> bool:
        """Check one rule; True when it has an open element that a legal variant must cover."""
        severity = rule["severity"]
        conditions = rule.get("errors", [])
        if "evidence" not in rule and not conditions:
            self.report("rules", path + ["evidence"], "the rule has no evidence: cite the doc lines or runtime "
                                                      "source lines that establish it")
            return False
        condition_provs: list[str] = []
        code_provs: list[str] = []
        for j, err in enumerate(conditions):
            epath = path + ["errors", j]
            prov = derive_provenance(self._citations(epath + ["evidence"], err["evidence"]))
            condition_provs.append(prov)
            if not severity_allowed(severity, prov):
                self._too_weak(epath + ["evidence"], "the error condition", prov, severity)
            code_provs += self._code(epath + ["code"], err.get("code"), severity)
        if "evidence" in rule:
            rule_prov = derive_provenance(self._citations(path + ["evidence"], rule["evidence"]))
            if not severity_allowed(severity, rule_prov):
                self._too_weak(path + ["severity"], "the rule", rule_prov, severity)
        else:
            rule_prov = weakest(condition_provs)  # as strong as its weakest condition (reported above)
        code_provs += self._code(path + ["code"], rule.get("code"), severity)
        return any(p in OPEN for p in [rule_prov, *condition_provs, *code_provs])

    def _too_weak(self, path: list[str | int], what: str, provenance: str, severity: str) -> None:
        if provenance == "conflict" or severity == "advisory":
            message = (f"{what} is {severity} but its evidence is {provenance}: a doc/source conflict is advisory, "
                       "and only a conflict is")
        else:
            message = (f"{what} is {severity} but its evidence is only {provenance} (allows at most "
                       f"{SEVERITY_CAP[provenance]}); {severity} needs "
                       f"{'documented' if severity == 'mandatory' else 'stronger'} evidence")
        self.report("rules", path, message)

    def _code(self, path: list[str | int], raw: dict[str, Any] | None, severity: str) -> list[str]:
        if raw is None:
            return []
        prov = derive_provenance(self._citations(path + ["evidence"], raw["evidence"]))
        if raw.get("strict") and not code_decides(severity, prov):
            self.report("rules", path + ["strict"],
                        f"strict error code {raw['name']} has {prov} evidence, weaker than the rule's severity "
                        f"({severity}); it can only be judged at {code_level(severity, prov)}: drop 'strict' "
                        "or cite documentation")
        return [prov]

    # ---- legal variants and disputed support -------------------------------------------

    def _coverage(self, open_rules: dict[str, list[str | int]]) -> None:
        covered = {rid for fault in self.docs["faults"].data["faults"] for rid in fault.get("covers", [])}
        for rid, path in open_rules.items():
            if rid not in covered:
                self.report("rules", path + ["id"], f"{rid} has unspecified, runtime-source, driver-source or "
                                                    "conflict evidence, but no legal variant in faults.yaml covers it")

    def _disputed_support(self) -> None:
        for i, iface in enumerate(self.docs["interfaces"].data["interfaces"]):
            for j, family in enumerate(iface.get("support_disputed", [])):
                if iface.get("support", {}).get(family, True):
                    self.report("interfaces", ["interfaces", i, "support_disputed", j],
                                f"{family!r} is disputed but the support matrix does not say unsupported")
