"""The result of a case whose executor died or hung, with the evidence the loss left behind.

The judge turns an executor lost during a case into the case's ERROR: ``deadline`` when the
run deadline cut the case's time and it ran out, ``timeout`` when it ran into its own hard
limit, ``crash`` otherwise. It names the ACL call the executor was in (from its call journal),
counts that call towards giving it up when it hung, and keeps what the executor printed on
stderr (capped) with the case (summary.json, and an attachment of the case's Allure result).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from ..executor.journal import call_in_flight
from ..harness.promises import promise_of_call
from ..i18n import _
from ..results.outcomes import CaseResult, Category, Outcome, crash_result
from .state import RunState

GRACE_S = 0.5


def crashed_case(state: RunState, case_id: str, rule_id: str, elapsed: float | None, limit: float | None,
                 who: str, journal: Path, stderr: str) -> CaseResult:
    """The result of a case whose executor ``who`` died after ``elapsed`` seconds (or was killed at its
    limit), its limit having been ``limit``.

    An ERROR (crash, timeout or deadline), unless the process died in a call whose promise is
    another rule's (a set-up step resting on it, or one of the calls that rule promises): then
    the case is BLOCKED by that rule, which is where the deviation lies. ``journal`` is the
    dead executor's call journal and ``stderr`` what it printed.
    """
    call, setup_rule = call_in_flight(journal)
    process = f"{who} died" if who else ""
    detail = ", ".join(part for part in (process, f"in {call}" if call else "") if part)
    hard = state.settings.case_timeout
    killed = elapsed is not None and limit is not None and elapsed >= limit - GRACE_S
    if killed and limit is not None and limit < hard - GRACE_S:
        message = (f"deadline: the run deadline (--acl-deadline {state.settings.deadline:g} s) passed while the case "
                   f"ran; its process was killed after {elapsed:.0f} s")
        result = CaseResult(case_id, rule_id, Outcome.ERROR, Category.DEADLINE,
                            f"{message} [{detail}]" if detail else message, None, round(elapsed or 0.0, 4))
    else:
        result = crash_result(case_id, rule_id, elapsed, limit if killed else hard, detail)
    if killed and call and state.hung.record(call):
        print(_("acl: {call} hung in two cases; the remaining cases that call it are not waited for").format(call=call),
              file=sys.stderr)
    root = setup_rule or promise_of_call(state.catalog, call)
    if root and root != rule_id and result.category is not Category.DEADLINE:
        result = replace(result, outcome=Outcome.BLOCKED, category=Category.BLOCKED, blocked_by=root,
                         message=f"BLOCKED by {root}: the process died in {call}, whose promise is {root}'s\n"
                                 f"{result.message}")
    return replace(result, stderr=stderr) if stderr else result
