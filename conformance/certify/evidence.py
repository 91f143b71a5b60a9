"""The Allure results of a bundle against its summary.json, case for case.

Every case that ran has an Allure result written while it ran (by allure-pytest, or by the
reporter for a case whose process died), so a summary edited after the run disagrees
with them: a case flipped to PASS is still ``failed`` in Allure, a deleted result leaves a
case without one. A case's ID is read from the result's ``rule`` label and its hidden
``case`` parameter (the pytest parameter ID), or from its name.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path

from ..results import untrusted
from ..results.identity import case_id_from_nodeid
from ..results.untrusted import JSONObject, as_list, as_object

#: Allure statuses a summary outcome can come with. An ERROR is ``broken`` (a crash, a
#: harness error), ``failed`` or ``skipped`` (a skip without a NOT_APPLICABLE reason).
STATUSES: dict[str, frozenset[str]] = {
    "PASS": frozenset({"passed"}),
    "XPASS": frozenset({"passed"}),
    "FAIL": frozenset({"failed", "broken"}),
    "BLOCKED": frozenset({"broken", "failed", "skipped"}),
    "WAIVED": frozenset({"failed", "broken"}),
    "NOT_APPLICABLE": frozenset({"skipped"}),
    "ERROR": frozenset({"broken", "failed", "skipped"}),
}
NOT_RUN = "the case was not run"
MAX_RESULT_BYTES = 4 << 20


def _labels(result: Mapping[str, object], name: str) -> list[str]:
    return [str(label.get("value")) for label in as_list(result.get("labels")) if isinstance(label, dict)
            and label.get("name") == name]


def case_of(result: Mapping[str, object], known: dict[str, str]) -> str | None:
    """The case ID an Allure result belongs to, or None; ``known`` maps case ID -> rule ID."""
    name = str(result.get("name") or "")
    if name in known:
        return name
    rules = _labels(result, "rule")
    for parameter in as_list(result.get("parameters")):
        if isinstance(parameter, dict) and parameter.get("name") == "case" and rules:
            try:
                param_id = ast.literal_eval(str(parameter.get("value")))
            except (ValueError, SyntaxError):
                param_id = parameter.get("value")
            return f"{rules[0]}[{param_id}]"
    found = case_id_from_nodeid(name, set(known.values()))
    if found is not None:
        return found[0]
    return rules[0] if rules and rules[0] in known else None


def read_results(directory: Path, problems: list[str], root: Path | None = None) -> list[tuple[str, JSONObject]]:
    """(file name, result) of every ``*-result.json``; unreadable ones are added to ``problems``.

    Each is read as an untrusted file inside ``root`` (by default the folder above ``directory``,
    the bundle): a link, FIFO, device, oversized or too deeply nested result is a problem.
    """
    found: list[tuple[str, JSONObject]] = []
    if directory.is_symlink():
        problems.append(f"{directory.name}: is a symbolic link (not followed)")
        return found
    for path in sorted(directory.glob("*-result.json")):
        rel = f"{directory.name}/{path.name}"
        try:
            raw = untrusted.read_bytes(path, root=directory.parent if root is None else root,
                                       limit=MAX_RESULT_BYTES)
        except untrusted.UntrustedFileError as exc:  # e.g. "is 5000000 bytes, more than the 4194304 accepted"
            problems.append(f"{rel}: unreadable: {exc.reason}")
            continue
        try:
            data = untrusted.loads_json(raw, rel)
        except untrusted.UntrustedFileError as exc:
            problems.append(f"{rel}: unreadable: {exc.reason}")
            continue
        if not isinstance(data, dict):
            problems.append(f"{rel}: not an Allure result (not a JSON object)")
            continue
        found.append((rel, data))
    return found


def ran(case: Mapping[str, object]) -> bool:
    """Whether the summary says the case ran (a case never run has no Allure result)."""
    return not (case.get("outcome") == "ERROR" and str(case.get("message", "")).startswith(NOT_RUN))


def check_allure(bundle: Path, summary: Mapping[str, object]) -> list[str]:
    """Problems where the Allure results and summary.json disagree, case for case."""
    problems: list[str] = []
    cases: dict[str, Mapping[str, object]] = {}
    owner: dict[str, str] = {}
    for rule_id, rule in as_object(summary.get("rules")).items():  # summary_problem checked the shape
        for cid, case in as_object(as_object(rule).get("cases")).items():
            cases[cid], owner[cid] = as_object(case), rule_id
    seen: dict[str, list[str]] = {}
    for rel, result in read_results(bundle / "allure-results", problems):
        case_id = case_of(result, owner)
        if case_id is None or case_id not in cases:
            problems.append(f"{rel}: result {str(result.get('name'))[:120]!r} is of no case in summary.json")
            continue
        status = str(result.get("status"))
        seen.setdefault(case_id, []).append(status)
        outcome = str(cases[case_id].get("outcome"))
        if status not in STATUSES.get(outcome, frozenset()):
            problems.append(f"{rel}: case {case_id} is {status} in Allure but {outcome} in summary.json")
        labelled = _labels(result, "outcome")
        # The label is set before teardown; an ERROR or a leak found at teardown comes after it.
        decided_late = outcome == "ERROR" or cases[case_id].get("category") == "leak"
        if labelled and labelled[0] != outcome and not decided_late:
            problems.append(f"{rel}: case {case_id} is labelled {labelled[0]} in Allure but {outcome} in summary.json")
    for case_id, case in sorted(cases.items()):
        if ran(case) and case_id not in seen:
            problems.append(f"allure-results: no result for case {case_id} ({case.get('outcome')} in summary.json)")
    return problems
