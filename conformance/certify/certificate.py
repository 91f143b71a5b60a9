"""The certificate of a certification bundle, as Markdown and as self-contained HTML.

Both carry the verdict in a machine-readable marker (``<!-- acl-verdict: ... -->`` in
Markdown, ``<meta name="acl-verdict" ...>`` in HTML) that ``verify`` reads back. The HTML
page has inline CSS only: no scripts, fonts, images or other external requests.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..harness.untrusted_text import markdown_text
from ..results.rootcause import root_cause_line
from ..results.summary import SummaryJSON, env_family
from ..results.untrusted import as_list, as_object
from .verdict import FAMILY_COLUMNS, Assessment, RuleAssessment

POLICY = (
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
ADVISORY_NOTE = (
    "The documentation and the runtime or driver source disagree on these behaviours. They never decide the "
    "verdict; PASS means the library follows the documentation, FAIL that it takes the source's side (or "
    "neither). Both citations are listed."
)
ROOT_CAUSE_NOTE = (
    "Each rule that failed on its own cases, or whose promise broke in the set-up of other cases, once: fix "
    "these first. The cases they BLOCKED could not reach their own assertion and are not counted as their "
    "own rules' failures."
)
_SOURCE_NAMES = {"doc": "documentation", "src": "runtime source", "drv": "driver source"}
COLUMN_TITLES = {
    "passed": "passed",
    "not_applicable": "not applicable",
    "failed": "failed",
    "unjudged": "could not be judged",
    "waived": "waived (not accepted)",
    "waived_accepted": "waived (accepted)",
    "stale": "stale waiver",
    "advisory_issue": "advisory issue",
}
_MD_MARKER = re.compile(r"<!-- acl-verdict: (CERTIFIED|NOT CERTIFIED) -->")
_HTML_MARKER = re.compile(r'<meta name="acl-verdict" content="(CERTIFIED|NOT CERTIFIED)">')
_MD_VISIBLE = re.compile(r"(?im)^#*\s*verdict\b.*$")
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


def verdict_heading(verdict: str) -> str:
    """The visible verdict line of certificate.md."""
    return f"## Verdict: **{verdict}**"


def reason_line(assessment: Assessment) -> str:
    """The line under the verdict that says why (``verify`` recomputes it): an INCONCLUSIVE run says so here."""
    return f"Why: {assessment.reason()}."


def fact_lines_markdown(manifest: Mapping[str, object]) -> list[str]:
    """The identity lines of certificate.md, exactly as rendered."""
    return [f"- **{key}:** {_md(value)}" for key, value in facts(manifest)]


def fact_lines_html(manifest: Mapping[str, object]) -> list[str]:
    """The identity entries of certificate.html, exactly as rendered."""
    return [f"<dt>{html.escape(key)}</dt><dd>{html.escape(value)}</dd>" for key, value in facts(manifest)]


def _case_lines(rule: RuleAssessment, case_ids: list[str], summary: SummaryJSON) -> list[str]:
    rule_entry = (summary.get("rules") or {}).get(rule.rule_id)
    cases: Mapping[str, Mapping[str, object]] = (rule_entry.get("cases") or {}) if rule_entry is not None else {}
    lines = []
    for case_id in case_ids:
        case = cases.get(case_id, {})
        code = case.get("observed_code")
        text = f"{case_id}: {case.get('outcome')} ({case.get('category') or '-'})"
        if code:
            text += f", observed {code}"
        if case.get("message"):
            text += f": {str(case['message']).splitlines()[0][:200]}"
        waiver = case.get("waiver")
        if isinstance(waiver, dict):
            state = "accepted" if waiver.get("accepted") else "not accepted"
            text += f" [waiver {state}: {waiver.get('reason')}; {waiver.get('tracking') or 'no tracking'}"
            text += f"; expires {waiver.get('expires') or 'never'}; {waiver.get('where') or ''}]"
        lines.append(text)
    return lines


def _rule_item(rule: RuleAssessment, case_ids: list[str], summary: SummaryJSON) -> tuple[str, str, list[str]]:
    label = f"{rule.rule_id} ({rule.severity}, {rule.family}): {rule.title} - {rule.why()}"
    return label, rule.doc_url, _case_lines(rule, case_ids, summary)


def root_cause_section(summary: SummaryJSON) -> Section:
    """The certificate's first section: the run's root causes, each once."""
    items = [(root_cause_line(c), "", [f"blocked rules: {', '.join(c['blocked_rules'])}"] if c.get("blocked_rules")
              else []) for c in summary.get("root_causes") or [] if isinstance(c, dict)]
    return Section("Root causes", ROOT_CAUSE_NOTE, items)


def sections(assessment: Assessment, summary: SummaryJSON) -> list[Section]:
    """The lists of the certificate after the root causes and the family table, in order."""
    blocking = [_rule_item(r, r.failing_cases + r.unjudged_cases + r.unaccepted_waivers, summary)
                for r in assessment.blocking]
    accepted = [
        _rule_item(r, r.waived_cases, summary)
        for r in assessment.waived_mandatory
        if not r.unaccepted_waivers and not r.failing_cases and not r.unjudged_cases
    ]
    stale = [_rule_item(r, r.stale_cases, summary) for r in assessment.stale]
    advisory = [_rule_item(r, r.failing_cases + r.unjudged_cases + r.waived_cases, summary)
                for r in assessment.advisory_findings]
    conflicts = [_conflict_item(r, summary) for r in assessment.conflicts]
    findings = [(f"{f.get('case_id')} ({f.get('severity')})", "", [str(f.get("message", ""))])
                for f in summary.get("findings") or [] if isinstance(f, dict)]
    expired = [
        (f"{e.get('rule') or e.get('case')} expired {e.get('expires')} ({e.get('where')})", "", [str(e.get("reason"))])
        for e in assessment.expired
    ]
    missing: list[tuple[str, str, list[str]]] = [(rid, "", []) for rid in assessment.missing_rules]
    return [
        Section("Failing, unjudged or waived mandatory rules", "These decide the verdict.", blocking),
        Section("Mandatory rules under accepted waivers", "Do not block certification.", accepted),
        Section("Rules without an outcome", "The run is incomplete.", missing),
        Section("Stale waivers (XPASS)", "The waived deviation is gone: remove the expectation.", stale),
        Section("Expired expectations", "No longer applied: renew or remove them.", expired),
        Section("Recommended and informational findings", "Reported only; do not decide the verdict.", advisory),
        Section("Advisory: documentation and runtime or driver source disagree", ADVISORY_NOTE, conflicts),
        Section("Findings below the rule's severity",
                "Cases that met their rule but answered another error code than one known only from the runtime "
                "source; reported at the code's own severity, they do not decide the verdict.", findings),
    ]


def _conflict_item(rule: RuleAssessment, summary: SummaryJSON) -> tuple[str, str, list[str]]:
    side = {"PASS": "follows the documentation", "NOT_APPLICABLE": "not applicable here"}.get(
        str(rule.outcome), "takes the runtime source's side (or neither)")
    label = f"{rule.rule_id}: {rule.title} - {rule.outcome}, {side}"
    details = [f"{_SOURCE_NAMES.get(str(e.get('kind')), 'source')} {e.get('ref')}"
               f"{' (contradicts the docs)' if e.get('stance') == 'contradicts' else ''}: {e.get('says')} "
               f"<{e.get('url')}>" for e in rule.evidence]
    return label, rule.doc_url, details + _case_lines(rule, rule.failing_cases, summary)


def release_text(env: Mapping[str, object]) -> str:
    """Which release's contract the run was judged against, and why (a newer release than known is said)."""
    release = env.get("release")
    if not isinstance(release, dict) or not release.get("name"):
        return "no release (the spec knows none)"
    how = {"library": f"the library reports {release.get('reported')!r}",
           "acl-api": f"inferred from the library's {release.get('reported')}",
           "override": f"chosen with --acl-cann-release (the library reports {release.get('reported')!r})"}
    text = f"CANN {release['name']} ({how.get(str(release.get('source')), 'unknown source')})"
    if release.get("newer_than_known"):
        text += ("; the library's release is newer than every release the spec knows, so it is judged by the "
                 "newest known contract")
    return text


def _loaded_text(loaded: object) -> str:
    """The shared objects the library mapped by the time a device was set: name and sha256 prefix each."""
    if not isinstance(loaded, list):
        return "not recorded"
    shown = [f"{Path(str(entry[0])).name} ({str(entry[1])[:12] if entry[1] else 'no hash'})"
             for entry in loaded if isinstance(entry, list) and len(entry) == 2]
    return f"{len(shown)}: " + ", ".join(shown) if shown else "none besides the library"


def facts(manifest: Mapping[str, object]) -> list[tuple[str, str]]:
    """The identity lines of the certificate (what was certified, with what)."""
    env = as_object(manifest.get("environment"))
    library = as_object(manifest.get("library"))
    # First, so that a run whose library was not sandboxed says so before anything else (older bundles lack it).
    sandbox = [("Library sandbox", str(env["sandbox"]))] if env.get("sandbox") is not None else []
    return sandbox + [
        ("Judged against", release_text(env)),
        ("Product family", str(env_family(env))),
        ("SoC", str(env.get("soc"))),
        ("CANN version", str(env.get("cann_version"))),
        ("Library", f"{library.get('path')} (sha256 {library.get('sha256')})"),
        ("Libraries it loaded", _loaded_text(env.get("loaded_libraries"))),
        ("Spec hash", str(manifest.get("spec_hash"))),
        ("Suite version", str(manifest.get("suite_version"))),
        ("Host / kernel", f"{env.get('host')} / {env.get('os_kernel')}"),
        ("Missing functions", ", ".join(map(str, as_list(env.get("missing_functions"))))
         or "none (every function is exported)"),
        ("Created (UTC)", str(manifest.get("created_utc"))),
        ("Command", " ".join(map(str, as_list(manifest.get("command"))))),
    ]


def render_markdown(assessment: Assessment, summary: SummaryJSON, manifest: Mapping[str, object]) -> str:
    """certificate.md."""
    out = [
        f"<!-- acl-verdict: {assessment.verdict} -->",
        "# ACL host-memory conformance certificate",
        "",
        verdict_heading(assessment.verdict),
        "",
        _md(reason_line(assessment)),
        "",
        POLICY,
        "",
    ]
    out += fact_lines_markdown(manifest)
    out += _markdown_section(root_cause_section(summary))
    out += ["", "## Rule families", "", "| family | " + " | ".join(COLUMN_TITLES[c] for c in FAMILY_COLUMNS) + " |"]
    out.append("|---" * (len(FAMILY_COLUMNS) + 1) + "|")
    for family, row in assessment.families().items():
        out.append(f"| {family} | " + " | ".join(str(row[c]) for c in FAMILY_COLUMNS) + " |")
    for section in sections(assessment, summary):
        out += _markdown_section(section)
    return "\n".join(out) + "\n"


def _markdown_section(section: Section) -> list[str]:
    out = ["", f"## {section.title}", "", f"_{section.note}_", ""]
    if not section.items:
        out.append("None.")
    for label, link, details in section.items:
        out.append(f"- {_md(label)}" + (f" ([doc]({link}))" if link else ""))
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


def render_html(assessment: Assessment, summary: SummaryJSON, manifest: Mapping[str, object]) -> str:
    """certificate.html: one self-contained page (inline CSS, no scripts or external resources)."""
    e = html.escape
    css_class = "ok" if assessment.verdict == "CERTIFIED" else "bad"
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta name="acl-verdict" content="{assessment.verdict}">',
        "<title>ACL host-memory conformance certificate</title>",
        f"<style>{_CSS}</style></head><body>",
        "<h1>ACL host-memory conformance certificate</h1>",
        f'<p class="verdict {css_class}">{e(assessment.verdict)}</p>',
        f'<p class="reason">{e(reason_line(assessment))}</p>',
        f"<p>{e(POLICY)}</p><dl>",
    ]
    out += fact_lines_html(manifest)
    out.append("</dl>")
    out += _html_section(root_cause_section(summary))
    out += ["<h2>Rule families</h2><table><tr><th>family</th>"]
    out += [f"<th>{e(COLUMN_TITLES[c])}</th>" for c in FAMILY_COLUMNS] + ["</tr>"]
    for family, row in assessment.families().items():
        out.append(f"<tr><td>{e(family)}</td>" + "".join(f"<td>{row[c]}</td>" for c in FAMILY_COLUMNS) + "</tr>")
    out.append("</table>")
    for section in sections(assessment, summary):
        out += _html_section(section)
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _html_section(section: Section) -> list[str]:
    e = html.escape
    out = [f"<h2>{e(section.title)}</h2>", f'<p class="note">{e(section.note)}</p>']
    if not section.items:
        return out + ["<p>None.</p>"]
    out.append("<ul>")
    for label, link, details in section.items:
        anchor = f' (<a href="{e(link)}">doc</a>)' if link.startswith(("https://", "http://")) else ""
        out.append(f"<li>{e(label)}{anchor}")
        if details:
            out.append("<ul>" + "".join(f"<li>{e(line)}</li>" for line in details) + "</ul>")
        out.append("</li>")
    out.append("</ul>")
    return out
