"""The report's first screen: the verdict, the counts in the kit's outcomes and the root causes.

Allure opens on its list of cases, in its own words: BLOCKED reads "Broken", NOT_APPLICABLE
"Skipped", mandatory "Critical", and a pass-rate ring sits beside a FAIL. So the report's
``index.html`` is this page, in the kit's words, and Allure's page (``allure.html`` beside it)
is one click away: every case that did not pass links to its result there.

The page renders whatever verdict and outcome words summary.json carries (a verdict added later
needs no change here), coloured by class: a kept promise, a broken one, a partial judgement,
or no judgement at all. Every string of the summary may be the library's (its SoC name, its
messages): each is escaped, and the page runs no script and loads nothing.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping

from ..harness.untrusted_text import BIDI
from .caseline import MESSAGE_CHARS, shown
from .untrusted import as_list, as_object

ALLURE_PAGE = "allure.html"
TITLE = "ACL host-memory conformance"

#: Colour class of each verdict; a verdict not listed (one added later) is shown as "not judged".
VERDICT_CLASS = {"PASS": "kept", "CERTIFIED": "kept", "FAIL": "broken", "NOT CERTIFIED": "broken",
                 "PARTIAL": "partial"}
#: What each verdict means, in one line; a verdict not listed shows without one.
VERDICT_MEANING = {
    "PASS": "every mandatory rule that applies held",
    "FAIL": "a mandatory rule failed",
    "PARTIAL": "only a selection of the cases ran: this is no verdict on the library",
    "INTERRUPTED": "the run was stopped before it ended: the library was not judged",
    "INCONCLUSIVE": "mandatory cases could not be observed and none failed: the library was not judged",
}
#: Colour class of each case outcome; another outcome is neutral.
OUTCOME_CLASS = {"PASS": "kept", "FAIL": "broken", "ERROR": "broken", "BLOCKED": "blocked", "XPASS": "partial"}
#: How Allure's pages name the kit's words (shown so that a reader of Allure's page can translate).
ALLURE_WORDS = (("BLOCKED", "Broken (grouped under the category 'Blocked by another rule')"),
                ("ERROR", "Broken"), ("NOT_APPLICABLE", "Skipped"), ("FAIL", "Failed"), ("PASS", "Passed"),
                ("mandatory", "severity Critical"), ("recommended", "severity Normal"),
                ("informational", "severity Minor"))
#: Cases that did not pass listed on the page; the rest are in Allure's page and summary.json.
MAX_CASES = 200

_STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
main{max-width:1180px;margin:0 auto;padding:18px 28px}
h1{font-size:17px;font-weight:600;margin:0 0 10px;color:#444}
h2{font-size:16px;margin:22px 0 8px}
.verdict{display:flex;align-items:center;gap:22px;padding:14px 22px;border-radius:8px;color:#fff}
.verdict .word{font-size:40px;font-weight:800;letter-spacing:1px}
.verdict .meaning{font-size:17px}
.v-kept{background:#1a7f37}.v-broken{background:#c62828}.v-partial{background:#9a6700}.v-other{background:#44546a}
.env{margin:8px 0 4px;color:#333}
.counts{display:flex;flex-wrap:wrap;gap:8px;margin:10px 0}
.count{padding:4px 12px;border-radius:14px;font-weight:600;border:2px solid #8a96a3;background:#fff}
.o-kept{color:#1a7f37}.o-broken{color:#c62828}.o-blocked{color:#b04a00}.o-partial{color:#9a6700}
.o-other{color:#44546a}
.count.o-kept{border-color:#1a7f37}.count.o-broken{border-color:#c62828}.count.o-blocked{border-color:#b04a00}
.count.o-partial{border-color:#9a6700}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:5px 8px;border-bottom:1px solid #e1e4e8;vertical-align:top}
th{background:#eef1f4;font-weight:600}
.allure{display:inline-block;margin:12px 0;padding:7px 16px;border-radius:6px;background:#0b57d0;color:#fff;
text-decoration:none;font-weight:600}
.none{color:#555}
small{color:#555}
"""


def _e(value: object) -> str:
    """``value`` as inert HTML text: escaped, bidirectional controls shown as code points."""
    text = "".join(f"\\u{ord(ch):04x}" if ch in BIDI or (not ch.isprintable() and ch not in "\n\t") else ch
                   for ch in str(value))
    return html.escape(text, quote=True)


def verdict_class(verdict: str) -> str:
    """``kept``, ``broken``, ``partial`` or ``other`` (any verdict the kit may add later)."""
    return VERDICT_CLASS.get(verdict, "other")


def _first_line(message: object) -> str:
    first = next((line.strip() for line in str(message or "").splitlines() if line.strip()), "")
    return first if len(first) <= MESSAGE_CHARS else first[:MESSAGE_CHARS - 3] + "..."


def _case_link(case_id: str, allure_ids: Mapping[str, str]) -> str:
    target = allure_ids.get(case_id)
    href = f"{ALLURE_PAGE}#{html.escape(target, quote=True)}" if target else ALLURE_PAGE
    return f'<a href="{href}">{_e(case_id)}</a>'


def _not_passed(summary: Mapping[str, object]) -> list[tuple[str, str, str, str]]:
    """``(rule id, case id, outcome, message)`` of every case that did not pass, in the summary's order."""
    found = []
    for rule_id, rule in as_object(summary.get("rules")).items():
        for case_id, case in as_object(as_object(rule).get("cases")).items():
            record = as_object(case)
            outcome = str(record.get("outcome"))
            if shown(outcome):
                found.append((str(rule_id), str(case_id), outcome, str(record.get("message") or "")))
    return found


def _root_causes(summary: Mapping[str, object], failing: Iterable[tuple[str, str, str, str]],
                 allure_ids: Mapping[str, str]) -> str:
    causes = [as_object(c) for c in as_list(summary.get("root_causes"))]
    if not causes:
        return '<p class="none">No root cause: no rule failed.</p>'
    first_case: dict[str, str] = {}
    for rule_id, case_id, outcome, _ in failing:
        if outcome != "BLOCKED":
            first_case.setdefault(rule_id, case_id)
    rows = []
    for cause in causes:
        rule_id = str(cause.get("rule"))
        case = first_case.get(rule_id)
        rows.append(f"<tr><td><b>{_e(rule_id)}</b></td><td>{_e(cause.get('severity') or '')}</td>"
                    f"<td>{_e(cause.get('title') or '')}</td><td>{_e(cause.get('failing_cases') or 0)}</td>"
                    f"<td>{_e(cause.get('blocked_cases') or 0)} of {len(as_list(cause.get('blocked_rules')))} rule(s)"
                    f"</td><td>{_case_link(case, allure_ids) if case else ''}</td></tr>")
    return ("<table id=\"root-causes\"><thead><tr><th>rule</th><th>severity</th><th>what it promises</th>"
            "<th>failing cases</th><th>cases it blocks</th><th>first failing case</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


def landing_html(summary: Mapping[str, object] | None, allure_ids: Mapping[str, str] | None = None) -> str:
    """The report's ``index.html`` for a run's summary (None: the run left no summary.json)."""
    allure_ids = allure_ids or {}
    summary = summary or {}
    verdict = str(summary.get("verdict") or "UNKNOWN")
    meaning = VERDICT_MEANING.get(verdict, "" if summary else "the run left no summary.json")
    env = as_object(summary.get("environment"))
    facts = [f"library {env.get('library')}", f"SoC {env.get('soc')}", f"product family {env.get('product_family')}",
             f"CANN {env.get('cann_version')}"] if env else []
    if env.get("cann_release"):
        facts.append(f"judged against the CANN {env.get('cann_release')} contract")
    selection = as_object(summary.get("selection"))
    if selection.get("partial"):
        facts.append(f"{selection.get('selected_cases')} of {selection.get('spec_cases')} cases selected")
    counts = "".join(f'<span class="count o-{OUTCOME_CLASS.get(str(k), "other")}">{_e(n)} {_e(k)}</span>'
                     for k, n in as_object(summary.get("totals")).items() if n)
    failing = sorted(_not_passed(summary), key=lambda case: case[2] == "BLOCKED")  # root causes' own cases first
    listed = "".join(f'<tr><td class="o-{OUTCOME_CLASS.get(outcome, "other")}"><b>{_e(outcome)}</b></td>'
                     f"<td>{_case_link(case_id, allure_ids)}</td><td>{_e(_first_line(message))}</td></tr>"
                     for _, case_id, outcome, message in failing[:MAX_CASES])
    more = (f'<p class="none">... and {len(failing) - MAX_CASES} more: see summary.json or '
            f"<code>acl-conformance explain CASE</code>.</p>") if len(failing) > MAX_CASES else ""
    words = "".join(f"<tr><td>{_e(kit)}</td><td>{_e(allure)}</td></tr>" for kit, allure in ALLURE_WORDS)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
        f'<meta name="acl-verdict" content="{_e(verdict)}">'
        f"<title>{_e(TITLE)}: verdict {_e(verdict)}</title><style>{_STYLE}</style></head><body><main>"
        f"<h1>{_e(TITLE)}</h1>"
        f'<div id="verdict" class="verdict v-{verdict_class(verdict)}"><span class="word">{_e(verdict)}</span>'
        f'<span class="meaning">{_e(meaning)}</span></div>'
        f'<p class="env">{_e(", ".join(str(f) for f in facts))}</p>'
        f'<div id="counts" class="counts">{counts or "<span class=count>no case ran</span>"}</div>'
        f'<h2>Root causes</h2>{_root_causes(summary, failing, allure_ids)}'
        f'<a class="allure" href="{ALLURE_PAGE}">Open every case in the Allure report</a> '
        "<small>(ACL call traces, categories, history)</small>"
        f"<h2>Cases that did not pass ({len(failing)})</h2>"
        + (f'<table id="cases"><thead><tr><th>outcome</th><th>case</th><th>message</th></tr></thead>'
           f"<tbody>{listed}</tbody></table>{more}" if failing else '<p class="none">None.</p>')
        + "<h2>The kit's words on Allure's page</h2>"
        f'<table id="words"><thead><tr><th>the kit says</th><th>Allure shows</th></tr></thead>'
        f"<tbody>{words}</tbody></table>"
        "</main></body></html>\n"
    )


def allure_case_ids(test_results: object) -> dict[str, str]:
    """Case ID -> the id of its result on Allure's page, from the ``test-results.json`` Allure 3 writes."""
    found: dict[str, str] = {}
    for key, result in as_object(as_object(test_results).get("byId")).items():
        name = as_object(result).get("name")
        if isinstance(name, str) and key.isalnum():
            found[name] = key
    return found
