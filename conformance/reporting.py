"""Reports of a run: Allure labels and files, environment facts, and ``summary.json``.

The functions here take plain data (catalog dicts, :class:`~conformance.outcomes.CaseResult`)
so that they can be tested without pytest or a library; :mod:`conformance.plugin` calls them.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import socket
import subprocess
import time
import uuid
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

from .options import REPO_ROOT
from .outcomes import CATEGORY_TITLES, CaseResult, Category, Outcome, count, worst

SCHEMA = "acl-conformance-summary/1"
EPIC = "Host memory"
SEVERITY_TO_ALLURE = {"mandatory": "critical", "recommended": "normal", "informational": "minor"}
FAILING = (Outcome.FAIL, Outcome.ERROR)


# --------------------------------------------------------------------------- case identity


def test_name_for_rule(rule_id: str) -> str:
    """The generated test function of a rule: ``HM-ALIGN-MALLOC`` -> ``test_HM_ALIGN_MALLOC``."""
    return "test_" + rule_id.replace("-", "_")


def case_id_from_nodeid(nodeid: str, rule_ids: Iterable[str]) -> tuple[str, str] | None:
    """(case id, rule id) for a pytest node id of a generated case, or None if it is not one."""
    name = nodeid.rsplit("::", 1)[-1]
    base, _, rest = name.partition("[")
    by_name = {test_name_for_rule(r): r for r in rule_ids}
    rule = by_name.get(base)
    if rule is None:
        return None
    return (f"{rule}[{rest[:-1]}]" if rest else rule), rule


def case_id_for_item(rule_id: str, item: pytest.Item) -> str:
    """``<rule id>[<param id>]``, or the rule id for an unparametrized test."""
    callspec = getattr(item, "callspec", None)
    return f"{rule_id}[{callspec.id}]" if callspec is not None else rule_id


def case_interfaces(rule: Mapping[str, Any], params: Mapping[str, Any] | None) -> list[str]:
    """Interfaces a case exercises: the rule's, or the ``interface`` parameter when it has none."""
    if rule.get("interfaces"):
        return list(rule["interfaces"])
    if params and isinstance(params.get("interface"), str):
        return [params["interface"]]
    return []


# --------------------------------------------------------------------------- allure labels


def allure_labels(rule: Mapping[str, Any], product_family: str | None) -> list[tuple[str, str]]:
    """(label name, value) pairs of a case: epic, feature, story, severity, tags."""
    interfaces = rule.get("interfaces") or ["product support"]
    labels = [
        ("epic", EPIC),
        ("feature", interfaces[0]),
        ("story", f"{rule['id']} {rule['title']}"),
        ("severity", SEVERITY_TO_ALLURE.get(rule.get("severity", ""), "normal")),
        ("tag", rule.get("family", "")),
        ("rule", rule["id"]),
    ]
    if product_family:
        labels.append(("tag", product_family))
    return labels


def allure_marks(rule: Mapping[str, Any], product_family: str | None,
                 extra: Iterable[tuple[str, str]] = ()) -> list[pytest.MarkDecorator]:
    """allure-pytest markers for the labels and the documentation link of a case."""
    marks = [pytest.mark.allure_label(value, label_type=name)
             for name, value in [*allure_labels(rule, product_family), *extra] if value]
    if rule.get("doc_url"):
        marks.append(pytest.mark.allure_link(rule["doc_url"], link_type="link", name=rule.get("doc_ref") or "doc"))
    return marks


def categories_json() -> list[dict[str, Any]]:
    """Allure 2 ``categories.json``; Allure 3 takes the same buckets from allurerc.mjs (by label)."""
    def rule(category: Category, statuses: list[str], **regex: str) -> dict[str, Any]:
        return {"name": CATEGORY_TITLES[category], "matchedStatuses": statuses, **regex}

    return [
        rule(Category.WAIVED, ["failed", "broken"], messageRegex=r"(?s)^waived .*"),
        rule(Category.CRASH, ["broken", "failed"], messageRegex=r"(?s)^\[crash\].*"),
        rule(Category.TIMEOUT, ["broken", "failed"], messageRegex=r"(?s)^\[timeout\].*"),
        rule(Category.WRONG_ERROR_CODE, ["failed"], traceRegex=r"(?s).*WrongErrorCode.*"),
        rule(Category.SPEC_VIOLATION, ["failed"], traceRegex=r"(?s).*SpecViolation.*"),
        rule(Category.NOT_APPLICABLE, ["skipped"], messageRegex=r"(?s).*NOT_APPLICABLE.*"),
        rule(Category.HARNESS_ERROR, ["broken", "failed", "skipped"]),
    ]


def allure_crash_result(result: CaseResult, rule: Mapping[str, Any], nodeid: str,
                        environment: Mapping[str, Any]) -> dict[str, Any]:
    """An Allure result for a case whose process died (no worker was left to write one)."""
    now = int(time.time() * 1000)
    case = next((c for c in rule.get("cases", []) if c["case_id"] == result.case_id), {})
    params = case.get("params") or {}
    labels = allure_labels(rule, environment.get("product_family"))
    labels += [("outcome", result.outcome.value), ("category", result.category.value if result.category else ""),
               ("framework", "pytest")]
    return {
        "uuid": str(uuid.uuid4()),
        "historyId": hashlib.md5(nodeid.encode()).hexdigest(),
        "testCaseId": hashlib.md5(nodeid.encode()).hexdigest(),
        "name": result.case_id,
        "fullName": nodeid,
        "status": "broken",
        "statusDetails": {"message": f"[{result.category.value if result.category else ''}] {result.message}"},
        "stage": "finished",
        "start": now - int(result.duration_s * 1000),
        "stop": now,
        "labels": [{"name": n, "value": v} for n, v in labels if v],
        "links": [{"type": "link", "url": rule["doc_url"], "name": rule.get("doc_ref")}] if rule.get("doc_url") else [],
        "parameters": [{"name": name, "value": repr(value)} for name, value in params.items()],
    }


# --------------------------------------------------------------------------- environment


def sha256_of(path: Path) -> str | None:
    """Hex sha256 of a file, or None when it cannot be read."""
    try:
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        return digest.hexdigest()
    except OSError:
        return None


def suite_version(root: Path = REPO_ROOT) -> str:
    """``git describe --always --dirty`` of the kit, or ``unknown``."""
    try:
        out = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=root, capture_output=True,
                             text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else "unknown"


def static_facts(lib: Path, kernel: str, spec_hash: str) -> dict[str, Any]:
    """Facts known without opening the library."""
    return {
        "library": str(lib),
        "library_sha256": sha256_of(lib),
        "soc": None,
        "product_family": None,
        "product_name": None,
        "cann_version": None,
        "os_kernel": kernel,
        "spec_hash": spec_hash,
        "suite_version": suite_version(),
        "device_count": None,
        "python": platform.python_version(),
        "host": socket.gethostname(),
    }


def environment_properties(facts: Mapping[str, Any]) -> str:
    """Allure ``environment.properties`` text (keys sorted, values escaped)."""
    lines = []
    for key in sorted(facts):
        value = "" if facts[key] is None else str(facts[key])
        value = value.replace("\\", "\\\\").replace("\n", "\\n")
        lines.append(f"{key}={value}")
    return "\n".join(lines) + "\n"


def write_text(path: Path, text: str) -> None:
    """Write a file atomically (temp file + rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def write_json(path: Path, data: Any) -> None:
    """Write JSON atomically, indented, keys in insertion order."""
    write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


# --------------------------------------------------------------------------- summary


def _missing_case(case_id: str, rule_id: str) -> CaseResult:
    return CaseResult(case_id, rule_id, Outcome.ERROR, Category.HARNESS_ERROR,
                      "the case was not run (deselected, not collected, or lost)", None, 0.0)


def build_summary(catalog: Mapping[str, Any], results: Mapping[str, CaseResult], *,
                  environment: Mapping[str, Any], command: list[str],
                  expectation_files: Iterable[str] = (), expired: Iterable[dict[str, Any]] = ()) -> dict[str, Any]:
    """The ``summary.json`` document: every rule and every case of the catalog, nothing dropped.

    ``totals`` and ``by_interface`` count cases; ``by_family`` counts rules (by rule family).
    Cases that were reported but are not in the catalog are kept under their rule.
    """
    rules_out: dict[str, Any] = {}
    case_outcomes: list[Outcome] = []
    by_interface: dict[str, dict[str, int]] = {}
    by_family: dict[str, list[Outcome]] = {}
    verdict = "PASS"
    for rule in catalog["rules"]:
        rid = rule["id"]
        catalog_cases = {c["case_id"]: c for c in rule.get("cases", [])}
        seen = {cid: r for cid, r in results.items() if r.rule_id == rid}
        cases: dict[str, Any] = {}
        outcomes: list[Outcome] = []
        ids = list(catalog_cases) + [cid for cid in seen if cid not in catalog_cases]
        for cid in ids:
            result = seen.get(cid) or _missing_case(cid, rid)
            outcomes.append(result.outcome)
            params = catalog_cases.get(cid, {}).get("params")
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
            }
        rule_outcome = worst(outcomes)
        message = ""
        if rule_outcome is None:
            rule_outcome, message = Outcome.ERROR, "no case of this rule was collected or run"
        case_outcomes.extend(outcomes)
        by_family.setdefault(rule.get("family", ""), []).append(rule_outcome)
        if rule.get("severity") == "mandatory" and rule_outcome in FAILING:
            verdict = "FAIL"
        entry = {
            "title": rule.get("title"), "family": rule.get("family"), "severity": rule.get("severity"),
            "doc_url": rule.get("doc_url"), "doc_ref": rule.get("doc_ref"), "outcome": rule_outcome.value,
            "cases": cases,
        }
        if message:
            entry["message"] = message
        rules_out[rid] = entry
    return {
        "schema": SCHEMA,
        "spec_hash": catalog.get("spec_hash"),
        "suite_version": environment.get("suite_version", "unknown"),
        "environment": dict(environment),
        "command": list(command),
        "totals": count(case_outcomes),
        "by_interface": by_interface,
        "by_family": {fam: count(outs) for fam, outs in by_family.items()},
        "rules": rules_out,
        "expectations": {"files": [str(f) for f in expectation_files], "expired": list(expired)},
        "verdict": verdict,
    }


def format_summary(summary: Mapping[str, Any], report_location: str | None = None) -> str:
    """A short human summary: rules per rule family, case totals, verdict, report location."""
    lines = ["", "ACL host-memory conformance", "=" * 27]
    env = summary.get("environment", {})
    lines.append(f"library  {env.get('library')}  ({env.get('soc')}, {env.get('product_family')}, "
                 f"CANN {env.get('cann_version')})")
    header = f"{'rule family':<18}{'rules':>6}{'pass':>6}{'fail':>6}{'error':>6}{'waived':>7}{'xpass':>6}{'n/a':>5}"
    lines += ["", header, "-" * len(header)]
    for family, counts in summary.get("by_family", {}).items():
        total = sum(counts.values())
        lines.append(f"{family:<18}{total:>6}{counts['PASS']:>6}{counts['FAIL']:>6}{counts['ERROR']:>6}"
                     f"{counts['WAIVED']:>7}{counts['XPASS']:>6}{counts['NOT_APPLICABLE']:>5}")
    totals = summary.get("totals", {})
    lines.append("")
    lines.append("cases: " + ", ".join(f"{n} {k.lower()}" for k, n in totals.items() if n))
    bad = [(rid, r) for rid, r in summary.get("rules", {}).items() if r["outcome"] in ("FAIL", "ERROR")]
    for rid, rule in bad[:20]:
        lines.append(f"  {rule['outcome']:<6} {rid} ({rule['severity']}) {rule['title']}")
    if len(bad) > 20:
        lines.append(f"  ... and {len(bad) - 20} more (see summary.json)")
    expired = summary.get("expectations", {}).get("expired", [])
    if expired:
        lines.append(f"expired expectations: {len(expired)} (renew or remove them)")
    lines.append("")
    lines.append(f"verdict: {summary.get('verdict')}")
    if report_location:
        lines.append(f"report:  {report_location}")
    return "\n".join(lines)
