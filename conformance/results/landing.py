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
from ..i18n import DEFAULT, N_, _, current
from .caseline import MESSAGE_CHARS, shown
from .untrusted import as_list, as_object

ALLURE_PAGE = "allure.html"
TITLE = N_("ACL host-memory conformance")

#: Colour class of each verdict; a verdict not listed (one added later) is shown as "not judged".
VERDICT_CLASS = {"PASS": "kept", "CERTIFIED": "kept", "FAIL": "broken", "NOT CERTIFIED": "broken",
                 "PARTIAL": "partial"}
#: What each verdict means, in one line; a verdict not listed shows without one.
VERDICT_MEANING = {
    "PASS": N_("every mandatory rule that applies held"),
    "FAIL": N_("a mandatory rule failed"),
    "PARTIAL": N_("only a selection of the cases ran: this is no verdict on the library"),
    "INTERRUPTED": N_("the run was stopped before it ended: the library was not judged"),
    "INCONCLUSIVE": N_("mandatory cases could not be observed and none failed: the library was not judged"),
}
#: Colour class of each case outcome; another outcome is neutral.
OUTCOME_CLASS = {"PASS": "kept", "FAIL": "broken", "ERROR": "broken", "BLOCKED": "blocked", "XPASS": "partial"}
#: How Allure's pages name the kit's words (shown so that a reader of Allure's page can translate).
ALLURE_WORDS = (("BLOCKED", N_("Broken (grouped under the category 'Blocked by another rule')")),
                ("ERROR", N_("Broken")), ("NOT_APPLICABLE", N_("Skipped")), ("FAIL", N_("Failed")),
                ("PASS", N_("Passed")), ("mandatory", N_("severity Critical")), ("recommended", N_("severity Normal")),
                ("informational", N_("severity Minor")))
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
# A Chinese page names the CJK fonts first (the rendering test checks that no glyph falls back to nothing).
_STYLE_CJK = 'body{font-family:"Noto Sans CJK SC","Noto Sans SC","Source Han Sans SC",system-ui,sans-serif}'


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
                 allure_ids: Mapping[str, str], titles: Mapping[str, str]) -> str:
    causes = [as_object(c) for c in as_list(summary.get("root_causes"))]
    if not causes:
        return '<p class="none">' + _e(_("No root cause: no rule failed.")) + "</p>"
    lang = current()
    first_case: dict[str, str] = {}
    for rule_id, case_id, outcome, _message in failing:
        if outcome != "BLOCKED":
            first_case.setdefault(rule_id, case_id)
    rows = []
    for cause in causes:
        rule_id = str(cause.get("rule"))
        case = first_case.get(rule_id)
        title = titles.get(rule_id) if lang != DEFAULT else None  # the spec's zh title, else the summary's
        blocks = _("{cases} of {rules} rule(s)").format(cases=cause.get("blocked_cases") or 0,
                                                          rules=len(as_list(cause.get("blocked_rules"))))
        rows.append(f"<tr><td><b>{_e(rule_id)}</b></td><td>{_e(cause.get('severity') or '')}</td>"
                    f"<td>{_e(title or cause.get('title') or '')}</td><td>{_e(cause.get('failing_cases') or 0)}</td>"
                    f"<td>{_e(blocks)}</td><td>{_case_link(case, allure_ids) if case else ''}</td></tr>")
    head = "".join(f"<th>{_e(word)}</th>" for word in (
        _("rule"), _("severity"), _("what it promises"), _("failing cases"), _("cases it blocks"),
        _("first failing case")))
    return f"<table id=\"root-causes\"><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def landing_html(summary: Mapping[str, object] | None, allure_ids: Mapping[str, str] | None = None,
                 titles: Mapping[str, str] | None = None, families: Mapping[str, str] | None = None) -> str:
    """The report's ``index.html`` for a run's summary (None: the run left no summary.json), in this process's
    language; ``titles`` and ``families`` are the rules' titles and the product families' names in it (the
    spec's, :mod:`conformance.i18n.spec_text`)."""
    allure_ids = allure_ids or {}
    summary = summary or {}
    lang = current()
    verdict = str(summary.get("verdict") or "UNKNOWN")
    meaning = _(VERDICT_MEANING[verdict]) if verdict in VERDICT_MEANING else (
        "" if summary else _("the run left no summary.json"))
    env = as_object(summary.get("environment"))
    facts = [_("library {library}").format(library=env.get("library")), f"SoC {env.get('soc')}",
             _("product family {family}").format(family=_family_shown(env.get("product_family"), families or {})),
             f"CANN {env.get('cann_version')}"] if env else []
    if env.get("cann_release"):
        facts.append(_("judged against the CANN {release} contract").format(release=env.get("cann_release")))
    selection = as_object(summary.get("selection"))
    if selection.get("partial"):
        facts.append(_("{selected} of {cases} cases selected").format(selected=selection.get("selected_cases"),
                                                                      cases=selection.get("spec_cases")))
    counts = "".join(f'<span class="count o-{OUTCOME_CLASS.get(str(k), "other")}">{_e(n)} {_e(k)}</span>'
                     for k, n in as_object(summary.get("totals")).items() if n)
    failing = sorted(_not_passed(summary), key=lambda case: case[2] == "BLOCKED")  # root causes' own cases first
    listed = "".join(f'<tr><td class="o-{OUTCOME_CLASS.get(outcome, "other")}"><b>{_e(outcome)}</b></td>'
                     f"<td>{_case_link(case_id, allure_ids)}</td><td>{_e(_first_line(message))}</td></tr>"
                     for _rule, case_id, outcome, message in failing[:MAX_CASES])
    more = ('<p class="none">' + _e(_("... and {count} more: see summary.json or")).format(
        count=len(failing) - MAX_CASES) + " <code>acl-conformance explain CASE</code>.</p>") \
        if len(failing) > MAX_CASES else ""
    words = "".join(f"<tr><td>{_e(kit)}</td><td>{_e(_(allure))}</td></tr>" for kit, allure in ALLURE_WORDS)
    title = _(TITLE)
    said = {  # every word of the page in this process's language, escaped once
        "head": _("{title}: verdict {verdict}").format(title=title, verdict=verdict),
        "no_case": _("no case ran"), "root_causes": _("Root causes"),
        "open_allure": _("Open every case in the Allure report"),
        "allure_has": _("(ACL call traces, categories, history)"),
        "not_passed": _("Cases that did not pass ({count})").format(count=len(failing)), "none": _("None."),
        "words": _("The kit's words on Allure's page"), "kit_says": _("the kit says"),
        "allure_shows": _("Allure shows"),
    }
    e = {key: _e(text) for key, text in said.items()}
    e["words"] = e["words"].replace("&#x27;", "'")  # element text: an apostrophe needs no escape (as it always read)
    cases_head = "".join(f"<th>{_e(word)}</th>" for word in (_("outcome"), _("case"), _("message")))
    facts_line = _e(_(", ").join(str(f) for f in facts))
    return (
        f"<!DOCTYPE html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
        f'<meta name="acl-verdict" content="{_e(verdict)}">'
        f"<title>{e['head']}</title>"
        f"<style>{_STYLE}{_STYLE_CJK if lang != DEFAULT else ''}</style></head><body><main>"
        f"<h1>{_e(title)}</h1>"
        f'<div id="verdict" class="verdict v-{verdict_class(verdict)}"><span class="word">{_e(verdict)}</span>'
        f'<span class="meaning">{_e(meaning)}</span></div>'
        f'<p class="env">{facts_line}</p>'
        f'<div id="counts" class="counts">{counts or "<span class=count>" + e["no_case"] + "</span>"}</div>'
        f"<h2>{e['root_causes']}</h2>{_root_causes(summary, failing, allure_ids, titles or {})}"
        f'<a class="allure" href="{ALLURE_PAGE}">{e["open_allure"]}</a> '
        f"<small>{e['allure_has']}</small>"
        f"<h2>{e['not_passed']}</h2>"
        + (f'<table id="cases"><thead><tr>{cases_head}</tr></thead>'
           f"<tbody>{listed}</tbody></table>{more}" if failing else f'<p class="none">{e["none"]}</p>')
        + f"<h2>{e['words']}</h2>"
        f'<table id="words"><thead><tr><th>{e["kit_says"]}</th><th>{e["allure_shows"]}</th></tr></thead>'
        f"<tbody>{words}</tbody></table>"
        "</main></body></html>\n"
    )


def _family_shown(family: object, names: Mapping[str, str]) -> str:
    """A product family as the page names it: the spec's name in the page's language and its ID, or the ID."""
    name = names.get(str(family))
    return f"{name} ({family})" if name else str(family)


def allure_case_ids(test_results: object) -> dict[str, str]:
    """Case ID -> the id of its result on Allure's page, from the ``test-results.json`` Allure 3 writes."""
    found: dict[str, str] = {}
    for key, result in as_object(as_object(test_results).get("byId")).items():
        name = as_object(result).get("name")
        if isinstance(name, str) and key.isalnum():
            found[name] = key
    return found
