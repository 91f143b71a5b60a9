"""``acl-conformance explain CASE [REPORT_DIR]``: the whole story of one case, on the terminal.

The console gives a failing case one line; this gives it its message, the rule and what blocked
it, its observations, the ACL call trace the executor recorded (kept in ``allure-results/``)
and the rule's evidence with its links. A report directory or bundle may come from anyone, and
much of what it holds is the library's own words: every file is read as an untrusted one (no
link followed, sizes capped) and every string is made safe for a terminal before it is printed.
"""

from __future__ import annotations

import difflib
import json
import os
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

from ..harness.untrusted_text import terminal_text
from ..i18n import DEFAULT, _, current, helptext
from ..i18n.spec_text import rule_family_name, rule_title
from .files import ARTIFACTS_DIR, artifact_folder_name
from .untrusted import UntrustedFileError, as_list, as_object, present, read_json_object, read_text

EXIT_NO_CASE = 2
TRACE_ATTACHMENT = "ACL call trace"
#: Result files of allure-results/ read at most while looking for a case's trace (a run writes one per case).
MAX_RESULT_FILES = 5000
#: Characters of a trace printed; the rest stays in the report.
MAX_TRACE_CHARS = 20000


class ExplainError(ValueError):
    """The case cannot be explained from this directory (one line, saying what to do)."""


def find_case(summary: Mapping[str, object], case_id: str) -> tuple[str, Mapping[str, object], Mapping[str, object]]:
    """``(rule id, rule record, case record)`` of ``case_id`` in a summary; ExplainError when it has none."""
    known: list[str] = []
    for rule_id, rule in as_object(summary.get("rules")).items():
        cases = as_object(as_object(rule).get("cases"))
        if case_id in cases:
            return rule_id, as_object(rule), as_object(cases[case_id])
        known += cases
    close = difflib.get_close_matches(case_id, known, n=3, cutoff=0.6)
    hint = _("; did you mean {cases}?").format(cases=_(" or ").join(close)) if close else \
        _("; the case IDs are the keys of rules.*.cases")
    raise ExplainError(_("no case {case} in this run's summary.json{hint}").format(case=case_id, hint=hint))


def call_trace(report_dir: Path, case_id: str) -> str | None:
    """The ACL call trace the run kept for ``case_id`` (its Allure attachment), or None."""
    results = report_dir / "allure-results"
    if not results.is_dir() or results.is_symlink():
        return None
    best: tuple[int, str] | None = None
    for index, entry in enumerate(sorted(os.listdir(results))):
        if index >= MAX_RESULT_FILES:
            break
        if not entry.endswith("-result.json"):
            continue
        try:
            result = read_json_object(results / entry, root=report_dir)
        except UntrustedFileError:
            continue
        if result.get("name") != case_id:
            continue
        stop = result.get("stop")
        for attachment in as_list(result.get("attachments")):
            record = as_object(attachment)
            source = str(record.get("source") or "")
            if record.get("name") == TRACE_ATTACHMENT and source and "/" not in source:
                order = stop if isinstance(stop, int) else 0
                if best is None or order >= best[0]:
                    best = (order, source)
    if best is None:
        return None
    try:
        return read_text(results / best[1], root=report_dir, errors="replace")
    except UntrustedFileError:
        return None


def _safe_lines(text: object, indent: str = "  ") -> Iterator[str]:
    for line in str(text).splitlines() or [""]:
        yield indent + terminal_text(line)


def explain_lines(report_dir: Path, summary: Mapping[str, object], case_id: str) -> list[str]:
    """What ``explain`` prints for ``case_id`` of the run in ``report_dir`` (whose summary is ``summary``)."""
    rule_id, rule, case = find_case(summary, case_id)
    outcome = terminal_text(str(case.get("outcome")))
    category = case.get("category")
    lang = current()
    title = rule_title(rule, lang) if lang != DEFAULT else rule.get("title")  # the summary's rule: English only
    lines = [f"{terminal_text(case_id)}: {outcome}" + (f" ({terminal_text(str(category))})" if category else "")]
    lines.append(_("rule:     {rule} ({severity}, {family}): {title}").format(
        rule=terminal_text(rule_id), severity=terminal_text(str(rule.get("severity"))),
        family=terminal_text(rule_family_name(str(rule.get("family")), lang)), title=terminal_text(str(title))))
    if case.get("blocked_by"):
        lines.append(_("blocked by: {rule} (its own failure is the root cause)").format(
            rule=terminal_text(str(case.get("blocked_by")))))
    if case.get("observed_code"):
        lines.append(_("code:     {code}").format(code=terminal_text(str(case.get("observed_code")))))
    waiver = as_object(case.get("waiver"))
    if waiver:
        lines.append(_("waiver:   {waiver}").format(waiver=terminal_text(json.dumps(dict(waiver), sort_keys=True))))
    lines += ["", _("message:"), *_safe_lines(case.get("message") or _("(none)"))]
    observations = as_object(case.get("observations"))
    lines += ["", _("observations:") + ("" if observations else _(" none recorded"))]
    lines += [f"  {terminal_text(str(key))} = {terminal_text(json.dumps(value, sort_keys=True))}"
              for key, value in observations.items()]
    findings = as_list(case.get("findings"))
    if findings:
        lines += ["", _("findings: {count}").format(count=len(findings))]
        lines += [f"  {terminal_text(json.dumps(finding, sort_keys=True))[:400]}" for finding in findings[:20]]
    trace = call_trace(report_dir, case_id)
    lines += ["", _("ACL call trace:") + ("" if trace else _(" not kept (this directory has no allure-results/ "
                                                             "attachment for the case)"))]
    if trace:
        text = trace[:MAX_TRACE_CHARS] + ("\n" + _("... (cut; the whole trace is in allure-results/)")
                                          if len(trace) > MAX_TRACE_CHARS else "")
        lines += list(_safe_lines(text))
    lines += ["", _("evidence:")]
    for item in as_list(rule.get("evidence")):
        evidence = as_object(item)
        lines.append(f"  [{terminal_text(str(evidence.get('kind')))}, {terminal_text(str(evidence.get('stance')))}] "
                     f"{terminal_text(str(evidence.get('says')))}")
        if evidence.get("url"):
            lines.append(f"    {terminal_text(str(evidence.get('url')))}")
    if rule.get("doc_url"):
        lines.append("  " + _("docs: {url}").format(url=terminal_text(str(rule.get("doc_url")))))
    artifacts = report_dir / ARTIFACTS_DIR / artifact_folder_name(case_id)
    if artifacts.is_dir() and not artifacts.is_symlink():
        lines += ["", _("artifacts: {folder}").format(folder=terminal_text(str(artifacts)))]
    return lines


def main(argv: list[str]) -> int:
    """Print one case's message, observations, ACL call trace and evidence links from a run's reports."""
    parser = helptext.ArgumentParser(prog="acl-conformance explain", description=_(
        "Explain one case of a run: its outcome and message, the rule and what blocked it, its observations, "
        "the ACL call trace and the rule's evidence with links. Reads REPORT_DIR/summary.json (a run's report "
        "directory or a certification bundle) and the trace kept in REPORT_DIR/allure-results/."))
    parser.add_argument("case", metavar="CASE", help=_("a case ID as the console and summary.json print it, "
                                                      "e.g. 'HM-PAIR-REG-UNREG[api=v1]'"))
    parser.add_argument("report_dir", metavar="REPORT_DIR", nargs="?", type=Path,
                        default=Path(os.environ.get("ACL_REPORT_DIR") or "reports"),
                        help=_("the run's report directory or a bundle (default: $ACL_REPORT_DIR, else "
                               "./reports)"))
    args = parser.parse_args(argv)
    report_dir = args.report_dir.resolve()
    summary_file = report_dir / "summary.json"
    if not present(summary_file):
        print(_("explain: {summary} does not exist; give the run's report directory "
                "(the --acl-report-dir of the run) or a bundle").format(summary=summary_file), file=sys.stderr)
        return EXIT_NO_CASE
    try:
        summary = read_json_object(summary_file, root=report_dir)
        print("\n".join(explain_lines(report_dir, summary, args.case)))
    except (UntrustedFileError, ExplainError) as exc:
        print(f"explain: {exc}", file=sys.stderr)
        return EXIT_NO_CASE
    return 0
