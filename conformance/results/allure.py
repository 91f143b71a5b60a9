"""Allure output of a run: labels and links of each case, categories, environment, crash results.

allure-pytest writes the results of cases that ran; :func:`allure_crash_result` writes the
result of a case whose process died, since no worker was left to write it.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from .outcomes import CATEGORY_TITLES, CaseResult, Category

EPIC = "Host memory"
SEVERITY_TO_ALLURE = {"mandatory": "critical", "recommended": "normal", "informational": "minor"}


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


def environment_properties(facts: Mapping[str, Any]) -> str:
    """Allure ``environment.properties`` text (keys sorted, values escaped)."""
    lines = []
    for key in sorted(facts):
        value = "" if facts[key] is None else str(facts[key])
        value = value.replace("\\", "\\\\").replace("\n", "\\n")
        lines.append(f"{key}={value}")
    return "\n".join(lines) + "\n"
