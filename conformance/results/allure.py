"""Allure output of a run: labels and links of each case, categories, environment.

allure-pytest writes the result of every case, a case whose executor was lost included (the
judge, which decided it, is still there to write it).
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

from ..i18n import N_, current, translate
from ..i18n.spec_text import rule_title
from .files import write_json
from .identity import tested_interface
from .outcomes import CATEGORY_TITLES, CaseResult, Category, Outcome
from .untrusted import as_list

EPIC = N_("Host memory")
TRACE_ATTACHMENT = "ACL call trace"
SEVERITY_TO_ALLURE = {"mandatory": "critical", "recommended": "normal", "informational": "minor"}


def allure_labels(rule: Mapping[str, object], product_family: object,
                  params: Mapping[str, object] | None = None) -> list[tuple[str, str]]:
    """(label name, value) pairs of a case: epic, feature (the interface it tests), story, severity, tags; the
    epic and the rule's title in this process's language (the Allure report's groups read in it)."""
    lang = current()
    labels = [
        ("epic", translate(EPIC, lang)),
        ("feature", tested_interface(rule, params)),
        ("story", f"{rule['id']} {rule_title(rule, lang)}"),
        ("severity", SEVERITY_TO_ALLURE.get(str(rule.get("severity", "")), "normal")),
        ("tag", str(rule.get("family", ""))),
        ("rule", str(rule["id"])),
    ]
    if product_family:
        labels.append(("tag", str(product_family)))
    return labels


def allure_marks(rule: Mapping[str, object], product_family: object,
                 extra: Iterable[tuple[str, str]] = (), params: Mapping[str, object] | None = None,
                 ) -> list[pytest.MarkDecorator]:
    """allure-pytest markers for the labels and the documentation link of a case."""
    marks = [pytest.mark.allure_label(value, label_type=name)
             for name, value in [*allure_labels(rule, product_family, params), *extra] if value]
    if rule.get("doc_url"):
        marks.append(pytest.mark.allure_link(rule["doc_url"], link_type="link", name=rule.get("doc_ref") or "doc"))
    return marks


def categories_json() -> list[dict[str, str | list[str]]]:
    """Allure 2 ``categories.json``; Allure 3 takes the same buckets from allurerc.mjs (by label)."""
    def rule(category: Category, statuses: list[str], **regex: str) -> dict[str, str | list[str]]:
        return {"name": CATEGORY_TITLES[category], "matchedStatuses": statuses, **regex}

    return [
        rule(Category.BLOCKED, ["broken", "failed"], messageRegex=r"(?s)^BLOCKED by .*"),
        rule(Category.INSTRUMENT, ["broken"], messageRegex=r"(?s).*the harness's .* failed.*"),
        rule(Category.INCONSISTENT, ["broken"], messageRegex=r"(?s)^inconsistent: .*"),
        rule(Category.WAIVED, ["failed", "broken"], messageRegex=r"(?s)^waived .*"),
        rule(Category.CRASH, ["broken", "failed"], messageRegex=r"(?s)^\[crash\].*"),
        rule(Category.TIMEOUT, ["broken", "failed"], messageRegex=r"(?s)^\[timeout\].*"),
        rule(Category.WRONG_ERROR_CODE, ["failed"], traceRegex=r"(?s).*WrongErrorCode.*"),
        rule(Category.SPEC_VIOLATION, ["failed"], traceRegex=r"(?s).*SpecViolation.*"),
        rule(Category.NOT_APPLICABLE, ["skipped"], messageRegex=r"(?s).*NOT_APPLICABLE.*"),
        rule(Category.NOT_RUN, ["broken", "skipped"], messageRegex=r"(?s)^not run: .*"),
        rule(Category.HARNESS_ERROR, ["broken", "failed", "skipped"]),
    ]


def environment_properties(facts: Mapping[str, object]) -> str:
    """Allure ``environment.properties`` text (keys sorted, values escaped)."""
    lines = []
    for key in sorted(facts):
        if key == "loaded_libraries":  # a list with hashes: summary.json and the certificate carry it
            value = f"{len(as_list(facts[key]))} shared objects (summary.json)"
        else:
            value = "" if facts[key] is None else str(facts[key])
        value = value.replace("\\", "\\\\").replace("\n", "\\n")
        lines.append(f"{key}={value}")
    return "\n".join(lines) + "\n"


def _attachment_text(results_dir: Path, data: Mapping[str, object], name: str) -> str | None:
    for attachment in as_list(data.get("attachments")):  # allure-pytest's result: a list of objects
        if isinstance(attachment, Mapping) and attachment.get("name") == name and attachment.get("source"):
            try:
                return (results_dir / str(attachment["source"])).read_text(encoding="utf-8")
            except OSError:
                return None
    return None


def tidy_results(results_dir: Path, results: Mapping[str, CaseResult]) -> int:
    """Replace pytest's failure text in each case's Allure result by the case's message and ACL call trace.

    allure-pytest stores pytest's traceback (the test frame and the whole parametrize list);
    a reader needs the classified message and the calls the case made. Returns the number of
    results rewritten.
    """
    changed = 0
    for path in sorted(results_dir.glob("*-result.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        result = results.get(allure_case_id(data) or "")
        if result is None:
            continue
        data["name"] = result.case_id
        if result.outcome is Outcome.BLOCKED:
            # A case the report blocked after it ran (an explorer finding resting on a failing rule) or
            # whose set-up was refused: not a pass and not the case's own failure.
            data["status"] = "broken"
            labels = [label for label in data.get("labels") or []
                      if label.get("name") not in ("outcome", "category", "blocked_by")]
            data["labels"] = labels + [{"name": "outcome", "value": "BLOCKED"},
                                       {"name": "category", "value": "blocked"},
                                       {"name": "blocked_by", "value": str(result.blocked_by)}]
        if result.category is Category.INCONSISTENT:
            # pytest saw a pass; the judge did not believe it (its observations contradict it).
            data["status"] = "broken"
            labels = [label for label in data.get("labels") or [] if label.get("name") not in ("outcome", "category")]
            data["labels"] = labels + [{"name": "outcome", "value": "ERROR"},
                                       {"name": "category", "value": Category.INCONSISTENT.value}]
        if data.get("status") != "passed":
            trace = _attachment_text(results_dir, data, TRACE_ATTACHMENT)
            details = {"message": result.message or result.outcome.value}
            if result.category in (Category.CRASH, Category.TIMEOUT):  # the buckets of categories_json
                details["message"] = f"[{result.category.value}] {details['message']}"
            if trace:
                details["trace"] = "ACL call trace:\n" + trace
            data["statusDetails"] = details
        write_json(path, data)
        changed += 1
    return changed


def allure_case_id(data: Mapping[str, object]) -> str | None:
    """The case ID of an Allure result: its ``rule`` label and hidden ``case`` parameter (the param ID)."""
    rule = next((label["value"] for label in as_list(data.get("labels"))
                 if isinstance(label, Mapping) and label.get("name") == "rule"), None)
    if rule is None:
        return None
    raw = next((p.get("value") for p in as_list(data.get("parameters"))
                if isinstance(p, Mapping) and p.get("name") == "case"), None)
    if raw is None:
        return str(rule)
    try:
        param_id = ast.literal_eval(raw) if isinstance(raw, str) else raw  # literal_eval refuses a non-text too
    except (ValueError, SyntaxError):
        param_id = raw
    return f"{rule}[{param_id}]"
