"""Every Allure call of a run, in one listener (as allure-pytest keeps its own in one class).

Registered by the plugin only when allure-pytest is loaded, so that runs without it (the
self-test's) neither build the marks nor import ``allure``. It labels each case before
allure-pytest reads its marks, titles it by its case ID with its parameters, and attaches the
call trace, the observations, the findings, the check's attachments and, for a case whose
executor was lost, what the executor printed last.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import pytest

import allure

from ..harness.untrusted_text import OUTPUT_CAP
from ..results.allure import TRACE_ATTACHMENT, allure_marks
from ..results.outcomes import CaseResult
from .selection import case_params
from .state import ATTACHMENTS, FINDINGS, OBSERVED, STATE, TRACE, CaseRule


class AllureListener:
    """Labels, titles, parameters and attachments of every case of this process."""

    def __init__(self, rule_of: Callable[[pytest.Item], CaseRule | None],
                 preliminary: Callable[[pytest.Item, CaseRule], CaseResult]) -> None:
        self.rule_of = rule_of
        self.preliminary = preliminary

    def case_started(self, item: pytest.Item, rule_id: str) -> None:
        """Title the case by its case ID and show its parameters one by one."""
        callspec = getattr(item, "callspec", None)
        allure.dynamic.title(f"{rule_id}[{callspec.id}]" if callspec is not None else rule_id)
        if callspec is None or "case" not in callspec.params:
            return
        case = callspec.params["case"]
        params = case[0] if isinstance(case, tuple) and case and isinstance(case[0], dict) else {}
        allure.dynamic.parameter("case", callspec.id, mode=allure.parameter_mode.HIDDEN)
        for name, value in params.items():
            allure.dynamic.parameter(name, value)

    def executor_lost(self, stderr: str) -> None:
        """What a lost executor printed last, as an attachment of the case's result."""
        if stderr:
            allure.attach(stderr, name=f"stderr of the executor (last {OUTPUT_CAP // 1024} KiB)",
                          attachment_type=allure.attachment_type.TEXT)

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> Iterator[None]:
        """Label the case before allure-pytest reads its marks; attach its records once it is released."""
        state = item.config.stash[STATE]
        rule = self.rule_of(item)
        if rule is not None:
            preliminary = self.preliminary(item, rule)
            extra = [("outcome", preliminary.outcome.value),
                     ("category", preliminary.category.value if preliminary.category else ""),
                     ("blocked_by", preliminary.blocked_by or "")]
            params = case_params(rule, preliminary.case_id)
            for mark in allure_marks(rule, state.facts.get("product_family"), extra, params):
                item.add_marker(mark)
        yield
        lines = item.stash.get(TRACE, None)
        if lines is None:
            return
        text = "\n".join(lines) + "\n" if lines else "(no ACL call was made)\n"
        allure.attach(text, name=TRACE_ATTACHMENT, attachment_type=allure.attachment_type.TEXT)
        observed = item.stash.get(OBSERVED, None)
        if observed:
            allure.attach(json.dumps(observed, indent=1) + "\n", name="Observations",
                          attachment_type=allure.attachment_type.JSON)
        findings = item.stash.get(FINDINGS, [])
        if findings:
            shown = "\n".join(f"[{f.severity}] {f.message}" for f in findings) + "\n"
            allure.attach(shown, name="Findings (do not decide the verdict)",
                          attachment_type=allure.attachment_type.TEXT)
        for attachment in item.stash.get(ATTACHMENTS, []):
            allure.attach(attachment.text, name=attachment.name, attachment_type=allure.attachment_type.TEXT)
