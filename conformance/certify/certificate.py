"""The certificate of a certification bundle, as Markdown and as self-contained HTML.

Both carry the verdict in a machine-readable marker (``<!-- acl-verdict: ... -->`` in
Markdown, ``<meta name="acl-verdict" ...>`` in HTML) that ``verify`` reads back. The HTML
page has inline CSS only: no scripts, fonts, images or other external requests.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..harness.untrusted_text import markdown_text
from ..i18n import DEFAULT, LANGUAGES, N_, translate
from ..i18n.spec_text import rule_family_name, rule_title
from ..results.rootcause import root_cause_line
from ..results.summary import SummaryJSON, env_family
from ..results.untrusted import as_list, as_object
from .verdict import FAMILY_COLUMNS, Assessment, RuleAssessment

POLICY = N_(
    "Only mandatory rules decide the verdict: each must be PASS or NOT_APPLICABLE; a BLOCKED case (its set-up "
    "rested on another rule's promise, which broke) counts against the verdict like a failure. "
    "A rule is mandatory only where the API documentation promises the behaviour; behaviour shown only by the "
    "runtime or driver source is recommended, and where the documentation and the source disagree the rule is "
    "advisory. "
    "A WAIVED mandatory rule counts against the verdict unless its waiver is accepted for certification. "
    "XPASS cases are stale waivers: reported, not failures. "
    "Recommended, advisory and informational rules, and error codes known only from the source, are reported "
    "but do not decide the verdict. "
    "A run without an outcome for every rule of the spec is not certified."
)
ADVISORY_NOTE = N_(
    "The documentation and the runtime or driver source disagree on these behaviours. They never decide the "
    "verdict; PASS means the library follows the documentation, FAIL that it takes the source's side (or "
    "neither). Both citations are listed."
)
ROOT_CAUSE_NOTE = N_(
    "Each rule that failed on its own cases, or whose promise broke in the set-up of other cases, once: fix "
    "these first. The cases they BLOCKED could not reach their own assertion and are not counted as their "
    "own rules' failures."
)
TITLE = N_("ACL host-memory conformance certificate")
_SOURCE_NAMES = {"doc": N_("documentation"), "src": N_("runtime source"), "drv": N_("driver source")}
COLUMN_TITLES = {
    "passed": N_("passed"),
    "not_applicable": N_("not applicable"),
    "failed": N_("failed"),
    "unjudged": N_("could not be judged"),
    "waived": N_("waived (not accepted)"),
    "waived_accepted": N_("waived (accepted)"),
    "stale": N_("stale waiver"),
    "advisory_issue": N_("advisory issue"),
}
ENGLISH_ONLY = (DEFAULT,)
_MD_MARKER = re.compile(r"<!-- acl-verdict: (CERTIFIED|NOT CERTIFIED) -->")
_HTML_MARKER = re.compile(r'<meta name="acl-verdict" content="(CERTIFIED|NOT CERTIFIED)">')
# The languages of a certificate other than English alone (which carries no marker, as before languages).
_MD_LANGUAGES = re.compile(r"<!-- acl-languages: ([a-z,]+) -->")
_HTML_LANGUAGES = re.compile(r'<meta name="acl-languages" content="([a-z,]+)">')
_MD_VISIBLE = re.compile(r"(?im)^#*\s*(?:verdict\b|结论).*$")
_HTML_VISIBLE = re.compile(r'<p class="verdict[^"]*">([^<]*)</p>')


@dataclass(frozen=True)
class Section:
    """One titled list of items (rules, expectations) in the certificate."""

    title: str
    note: str
    items: list[tuple[str, str, list[str]]]  # (label, link, detail lines)


def verdict_in_markdown(text: str) -> str | None:
    """The verdict marker of certificate.md, or None."""
    match = _MD_MARKER.search(text)
    return match.group(1) if match else None


def verdict_in_html(text: str) -> str | None:
    """The verdict marker of certificate.html, or None."""
    match = _HTML_MARKER.search(text)
    return match.group(1) if match else None


def visible_verdicts_markdown(text: str) -> list[str]:
    """Every verdict heading a reader of certificate.md sees (``## Verdict: **...**``), as written."""
    return [m.group(0).strip() for m in _MD_VISIBLE.finditer(text)]


def visible_verdicts_html(text: str) -> list[str]:
    """The text of every verdict box of certificate.html."""
    return [html.unescape(m.group(1)).strip() for m in _HTML_VISIBLE.finditer(text)]


def _languages(match: re.Match[str] | None) -> tuple[str, ...]:
    if match is None:
        return ENGLISH_ONLY
    langs = tuple(dict.fromkeys(lang for lang in match.group(1).split(",") if lang))
    return langs if langs and all(lang in LANGUAGES for lang in langs) else ENGLISH_ONLY


def languages_in_markdown(text: str) -> tuple[str, ...]:
    """The languages certificate.md says it carries, in their order (English alone without a marker)."""
    return _languages(_MD_LANGUAGES.search(text))


def languages_in_html(text: str) -> tuple[str, ...]:
    """The languages certificate.html says it carries, in their order."""
    return _languages(_HTML_LANGUAGES.search(text))


def verdict_heading(verdict: str, lang: str = DEFAULT) -> str:
    """The visible verdict line of certificate.md (the verdict word itself stays as ``verify`` reads it)."""
    return translate("## Verdict: **{verdict}**", lang).format(verdict=verdict)


def reason_line(assessment: Assessment, lang: str = DEFAULT) -> str:
    """The line under the verdict that says why (``verify`` recomputes it): an INCONCLUSIVE run says so here."""
    return translate("Why: {reason}.", lang).format(reason=assessment.reason(lang))


def fact_lines_markdown(manifest: Mapping[str, object], lang: str = DEFAULT) -> list[str]:
    """The identity lines of certificate.md in ``lang``, exactly as rendered."""
    return [f"- **{key}:** {_md(value)}" for key, value in facts(manifest, lang)]


def fact_lines_html(manifest: Mapping[str, object], lang: str = DEFAULT) -> list[str]:
    """The identity entries of certificate.html in ``lang``, exactly as rendered."""
    return [f"<dt>{html.escape(key)}</dt><dd>{html.escape(value)}</dd>" for key, value in facts(manifest, lang)]


def _case_lines(rule: RuleAssessment, case_ids: list[str], summary: SummaryJSON, lang: str) -> list[str]:
    rule_entry = (summary.get("rules") or {}).get(rule.rule_id)
    cases: Mapping[str, Mapping[str, object]] = (rule_entry.get("cases") or {}) if rule_entry is not None else {}
    lines = []
    for case_id in case_ids:
        case = cases.get(case_id, {})
        code = case.get("observed_code")
        text = f"{case_id}: {case.get('outcome')} ({case.get('category') or '-'})"
        if code:
            text += translate(", observed {code}", lang).format(code=code)
        if case.get("message"):  # the case's own words (library strings among them): never translated
            text += f": {str(case['message']).splitlines()[0][:200]}"
        waiver = case.get("waiver")
        if isinstance(waiver, dict):
            state = translate("accepted", lang) if waiver.get("accepted") else translate("not accepted", lang)
            text += translate(" [waiver {state}: {reason}; {tracking}; expires {expires}; {where}]", lang).format(
                state=state, reason=waiver.get("reason"), tracking=waiver.get("tracking") or translate(
                    "no tracking", lang), expires=waiver.get("expires") or translate("never", lang),
                where=waiver.get("where") or "")
        lines.append(text)
    return lines


def _title(rule: RuleAssessment, lang: str) -> str:
    return rule_title(rule.texts, lang) or rule.title


def _rule_item(rule: RuleAssessment, case_ids: list[str], summary: SummaryJSON,
               lang: str) -> tuple[str, str, list[str]]:
    label = (f"{rule.rule_id} ({rule.severity}, {rule_family_name(rule.family, lang)}): {_title(rule, lang)} - "
             f"{rule.why(lang)}")
    return label, rule.doc_url, _case_lines(rule, case_ids, summary, lang)


def root_cause_section(summary: SummaryJSON, lang: str = DEFAULT) -> Section:
    """The certificate's first section: the run's root causes, each once."""
    items = [(root_cause_line(c, lang), "", [translate("blocked rules: {rules}", lang).format(
        rules=", ".join(c["blocked_rules"]))] if c.get("blocked_rules") else [])
        for c in summary.get("root_causes") or [] if isinstance(c, dict)]
    return Section(translate("Root causes", lang), translate(ROOT_CAUSE_NOTE, lang), items)


def sections(assessment: Assessment, summary: SummaryJSON, lang: str = DEFAULT) -> list[Section]:
    """The lists of the certificate after the root causes and the family table, in order."""
    blocking = [_rule_item(r, r.failing_cases + r.unjudged_cases + r.unaccepted_waivers, summary, lang)
                for r in assessment.blocking]
    accepted = [
        _rule_item(r, r.waived_cases, summary, lang)
        for r in assessment.waived_mandatory
        if not r.unaccepted_waivers and not r.failing_cases and not r.unjudged_cases
    ]
    stale = [_rule_item(r, r.stale_cases, summary, lang) for r in assessment.stale]
    advisory = [_rule_item(r, r.failing_cases + r.unjudged_cases + r.waived_cases, summary, lang)
                for r in assessment.advisory_findings]
    conflicts = [_conflict_item(r, summary, lang) for r in assessment.conflicts]
    findings = [(f"{f.get('case_id')} ({f.get('severity')})", "", [str(f.get("message", ""))])
                for f in summary.get("findings") or [] if isinstance(f, dict)]
    expired = [
        (translate("{what} expired {expires} ({where})", lang).format(
            what=e.get("rule") or e.get("case"), expires=e.get("expires"), where=e.get("where")), "",
         [str(e.get("reason"))])
        for e in assessment.expired
    ]
    missing: list[tuple[str, str, list[str]]] = [(rid, "", []) for rid in assessment.missing_rules]
    return [
        Section(translate("Failing, unjudged or waived mandatory rules", lang),
                translate("These decide the verdict.", lang), blocking),
        Section(translate("Mandatory rules under accepted waivers", lang),
                translate("Do not block certification.", lang), accepted),
        Section(translate("Rules without an outcome", lang), translate("The run is incomplete.", lang), missing),
        Section(translate("Stale waivers (XPASS)", lang),
                translate("The waived deviation is gone: remove the expectation.", lang), stale),
        Section(translate("Expired expectations", lang), translate("No longer applied: renew or remove them.", lang),
                expired),
        Section(translate("Recommended and informational findings", lang),
                translate("Reported only; do not decide the verdict.", lang), advisory),
        Section(translate("Advisory: documentation and runtime or driver source disagree", lang),
                translate(ADVISORY_NOTE, lang), conflicts),
        Section(translate("Findings below the rule's severity", lang),
                translate("Cases that met their rule but answered another error code than one known only from the "
                          "runtime source; reported at the code's own severity, they do not decide the verdict.",
                          lang), findings),
    ]


def _conflict_item(rule: RuleAssessment, summary: SummaryJSON, lang: str) -> tuple[str, str, list[str]]:
    side = {"PASS": translate("follows the documentation", lang),
            "NOT_APPLICABLE": translate("not applicable here", lang)}.get(
        str(rule.outcome), translate("takes the runtime source's side (or neither)", lang))
    label = f"{rule.rule_id}: {_title(rule, lang)} - {rule.outcome}, {side}"
    contradicts = translate(" (contradicts the docs)", lang)
    other = N_("source")
    details = [f"{translate(_SOURCE_NAMES.get(str(e.get('kind')), other), lang)} {e.get('ref')}"
               f"{contradicts if e.get('stance') == 'contradicts' else ''}: {e.get('says')} "
               f"<{e.get('url')}>" for e in rule.evidence]
    return label, rule.doc_url, details + _case_lines(rule, rule.failing_cases, summary, lang)


def release_text(env: Mapping[str, object], lang: str = DEFAULT) -> str:
    """Which release's contract the run was judged against, and why (a newer release than known is said)."""
    release = env.get("release")
    if not isinstance(release, dict) or not release.get("name"):
        return translate("no release (the spec knows none)", lang)
    reported = repr(release.get("reported"))
    how = {"library": translate("the library reports {reported}", lang).format(reported=reported),
           "acl-api": translate("inferred from the library's {reported}", lang).format(
               reported=release.get("reported")),
           "override": translate("chosen with --acl-cann-release (the library reports {reported})", lang).format(
               reported=reported)}
    text = translate("CANN {name} ({how})", lang).format(
        name=release["name"], how=how.get(str(release.get("source")), translate("unknown source", lang)))
    if release.get("newer_than_known"):
        text += translate("; the library's release is newer than every release the spec knows, so it is judged by "
                          "the newest known contract", lang)
    return text


def _loaded_text(loaded: object, lang: str) -> str:
    """The shared objects the library mapped by the time a device was set: name and sha256 prefix each."""
    if not isinstance(loaded, list):
        return translate("not recorded", lang)
    no_hash = translate("no hash", lang)
    shown = [f"{Path(str(entry[0])).name} ({str(entry[1])[:12] if entry[1] else no_hash})"
             for entry in loaded if isinstance(entry, list) and len(entry) == 2]
    return f"{len(shown)}: " + ", ".join(shown) if shown else translate("none besides the library", lang)


def facts(manifest: Mapping[str, object], lang: str = DEFAULT) -> list[tuple[str, str]]:
    """The identity lines of the certificate (what was certified, with what), in ``lang``."""
    env = as_object(manifest.get("environment"))
    library = as_object(manifest.get("library"))
    # First, so that a run whose library was not sandboxed says so before anything else (older bundles lack it).
    sandbox = [(translate("Library sandbox", lang), str(env["sandbox"]))] if env.get("sandbox") is not None else []
    return sandbox + [
        (translate("Judged against", lang), release_text(env, lang)),
        (translate("Product family", lang), str(env_family(env))),
        ("SoC", str(env.get("soc"))),
        (translate("CANN version", lang), str(env.get("cann_version"))),
        (translate("Library", lang), f"{library.get('path')} (sha256 {library.get('sha256')})"),
        (translate("Libraries it loaded", lang), _loaded_text(env.get("loaded_libraries"), lang)),
        (translate("Spec hash", lang), str(manifest.get("spec_hash"))),
        (translate("Suite version", lang), str(manifest.get("suite_version"))),
        (translate("Host / kernel", lang), f"{env.get('host')} / {env.get('os_kernel')}"),
        (translate("Missing functions", lang), ", ".join(map(str, as_list(env.get("missing_functions"))))
         or translate("none (every function is exported)", lang)),
        (translate("Created (UTC)", lang), str(manifest.get("created_utc"))),
        (translate("Command", lang), " ".join(map(str, as_list(manifest.get("command"))))),
    ]


def render_markdown(assessment: Assessment, summary: SummaryJSON, manifest: Mapping[str, object],
                    langs: Sequence[str] = ENGLISH_ONLY) -> str:
    """certificate.md: one part per language of ``langs``, in that order (``certify --lang zh,en``)."""
    out = [f"<!-- acl-verdict: {assessment.verdict} -->"]
    if tuple(langs) != ENGLISH_ONLY:
        out.append(f"<!-- acl-languages: {','.join(langs)} -->")
    for index, lang in enumerate(langs):
        if index:
            out += ["", "---", ""]
        out += _markdown_part(assessment, summary, manifest, lang)
    return "\n".join(out) + "\n"


def _markdown_part(assessment: Assessment, summary: SummaryJSON, manifest: Mapping[str, object],
                   lang: str) -> list[str]:
    out = [
        f"# {translate(TITLE, lang)}",
        "",
        verdict_heading(assessment.verdict, lang),
        "",
        _md(reason_line(assessment, lang)),
        "",
        translate(POLICY, lang),
        "",
    ]
    out += fact_lines_markdown(manifest, lang)
    out += _markdown_section(root_cause_section(summary, lang), lang)
    columns = [translate(COLUMN_TITLES[c], lang) for c in FAMILY_COLUMNS]
    heading, family_word = translate("Rule families", lang), translate("family", lang)
    out += ["", f"## {heading}", "", f"| {family_word} | " + " | ".join(columns) + " |"]
    out.append("|---" * (len(FAMILY_COLUMNS) + 1) + "|")
    for family, row in assessment.families().items():
        out.append(f"| {rule_family_name(family, lang)} | " + " | ".join(str(row[c]) for c in FAMILY_COLUMNS) + " |")
    for section in sections(assessment, summary, lang):
        out += _markdown_section(section, lang)
    return out


def _markdown_section(section: Section, lang: str) -> list[str]:
    out = ["", f"## {section.title}", "", f"_{section.note}_", ""]
    if not section.items:
        out.append(translate("None.", lang))
    doc = translate("doc", lang)
    for label, link, details in section.items:
        out.append(f"- {_md(label)}" + (f" ([{doc}]({link}))" if link else ""))
        out += [f"  - {_md(line)}" for line in details]
    return out


def _md(text: str) -> str:
    return markdown_text(text)


_CSS = """
body{font-family:system-ui,sans-serif;margin:2em;max-width:72em;color:#222}
h1{font-size:1.5em}.verdict{font-size:1.6em;padding:.4em .8em;display:inline-block;border-radius:.3em}
.ok{background:#d9f2dd;color:#135c22}.bad{background:#fadbd8;color:#8a1c12}
table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.25em .6em;text-align:right}
td:first-child,th:first-child{text-align:left}dt{font-weight:bold;float:left;width:11em}dd{margin-left:12em}
li ul{font-size:.9em;color:#444}.note{font-style:italic;color:#555}
"""
# A Chinese page names the CJK fonts first: a system-ui face without Chinese glyphs would leave
# the browser to pick any fallback (the rendering test checks that none is missing).
_CSS_CJK = 'body{font-family:"Noto Sans CJK SC","Noto Sans SC","Source Han Sans SC",system-ui,sans-serif}'


def render_html(assessment: Assessment, summary: SummaryJSON, manifest: Mapping[str, object],
                langs: Sequence[str] = ENGLISH_ONLY) -> str:
    """certificate.html: one self-contained page (inline CSS, no scripts or external resources), one part per
    language of ``langs``."""
    e = html.escape
    several = tuple(langs) != ENGLISH_ONLY
    title = " / ".join(translate(TITLE, lang) for lang in langs)
    css = _CSS + (_CSS_CJK if any(lang != DEFAULT for lang in langs) else "")
    out = [
        "<!DOCTYPE html>",
        f'<html lang="{e(langs[0])}"><head><meta charset="utf-8">',
        f'<meta name="acl-verdict" content="{assessment.verdict}">',
    ]
    if several:
        out.append(f'<meta name="acl-languages" content="{e(",".join(langs))}">')
    out += [f"<title>{e(title)}</title>", f"<style>{css}</style></head><body>"]
    for index, lang in enumerate(langs):
        if several:
            out.append(("<hr>" if index else "") + f'<section lang="{e(lang)}">')
        out += _html_part(assessment, summary, manifest, lang)
        if several:
            out.append("</section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _html_part(assessment: Assessment, summary: SummaryJSON, manifest: Mapping[str, object],
               lang: str) -> list[str]:
    e = html.escape
    css_class = "ok" if assessment.verdict == "CERTIFIED" else "bad"
    out = [
        f"<h1>{e(translate(TITLE, lang))}</h1>",
        f'<p class="verdict {css_class}">{e(assessment.verdict)}</p>',
        f'<p class="reason">{e(reason_line(assessment, lang))}</p>',
        f"<p>{e(translate(POLICY, lang))}</p><dl>",
    ]
    out += fact_lines_html(manifest, lang)
    out.append("</dl>")
    out += _html_section(root_cause_section(summary, lang), lang)
    heading, family_word = translate("Rule families", lang), translate("family", lang)
    out += [f"<h2>{e(heading)}</h2><table><tr><th>{e(family_word)}</th>"]
    out += [f"<th>{e(translate(COLUMN_TITLES[c], lang))}</th>" for c in FAMILY_COLUMNS] + ["</tr>"]
    for family, row in assessment.families().items():
        out.append(f"<tr><td>{e(rule_family_name(family, lang))}</td>"
                   + "".join(f"<td>{row[c]}</td>" for c in FAMILY_COLUMNS) + "</tr>")
    out.append("</table>")
    for section in sections(assessment, summary, lang):
        out += _html_section(section, lang)
    return out


def _html_section(section: Section, lang: str) -> list[str]:
    e = html.escape
    out = [f"<h2>{e(section.title)}</h2>", f'<p class="note">{e(section.note)}</p>']
    if not section.items:
        return out + ["<p>" + e(translate("None.", lang)) + "</p>"]
    out.append("<ul>")
    doc = translate("doc", lang)
    for label, link, details in section.items:
        web = link.startswith(("https://", "http://"))
        anchor = f' (<a href="{e(link)}">{e(doc)}</a>)' if web else ""
        out.append(f"<li>{e(label)}{anchor}")
        if details:
            out.append("<ul>" + "".join(f"<li>{e(line)}</li>" for line in details) + "</ul>")
        out.append("</li>")
    out.append("</ul>")
    return out
