"""The matrix as Markdown and as one self-contained HTML page (inline style and script, no outside request)."""

from __future__ import annotations

import html
from collections.abc import Iterable

from ..gate.drift import Drift, show_value
from ..harness.untrusted_text import markdown_text
from ..i18n import DEFAULT, _, current
from .matrix import Cell, Matrix

SHORT = {"PASS": "PASS", "FAIL": "FAIL", "ERROR": "ERROR", "BLOCKED": "BLOCKED", "WAIVED": "WAIVED", "XPASS": "XPASS",
         "NOT_APPLICABLE": "n/a", None: "-"}


def cell_text(cell: Cell) -> str:
    """The cell in words: outcome, what it was on the previous version, drift and variance counts."""
    text = SHORT.get(cell.outcome, str(cell.outcome))
    if cell.previous:
        text += _(" (was {outcome})").format(outcome=SHORT.get(cell.previous, cell.previous))
    if cell.drift:
        text += f" Δ{len(cell.drift)}"
    if cell.variances:
        text += f" ~{cell.variances}"
    if cell.outside:
        text += f" ⊄{cell.release}" if cell.outcome == "NOT_APPLICABLE" else f" (⊄{cell.release}: {cell.outside})"
    return text


def verdicts_text(verdicts: Iterable[str]) -> str:
    """A column's run verdicts: INCONCLUSIVE (nothing failed, something could not be judged) stays apart from FAIL."""
    return " / ".join(sorted(verdicts)) or "-"


def drift_line(drift: Drift) -> str:
    """One changed observation, for people."""
    return (f"{drift.case_id} {drift.observation} ({drift.provenance}): "
            f"{show_value(drift.baseline, drift.type)} → {show_value(drift.candidate, drift.type)}")


def render_markdown(matrix: Matrix) -> str:
    """matrix.md."""
    # Family, version and rule IDs come from the runs' summaries: untrusted text.
    head = [markdown_text(c.title) for c in matrix.columns]
    out = [_("# Fleet compatibility matrix"), "",
           _("{columns} columns (product family, CANN release judged against, library version) from "
             "{runs} runs; {rules} rules; {drift} cells with behaviour drift against the previous version. "
             "Δn: n observations changed; ~n: runs of the column disagree; (was X): outcome on the previous version; "
             "⊄R: outside the contract of CANN release R the column was judged against (with a count: that many "
             "of its cases).").format(columns=len(matrix.columns), runs=sum(len(c.sources) for c in matrix.columns),
                                      rules=len(matrix.rows), drift=len(matrix.drift_cells)),
           "", f"| {_('rule')} | " + " | ".join(head) + " |", "|---|" + "---|" * len(head),
           f"| _{_('run verdict')}_ | " + " | ".join(markdown_text(verdicts_text(c.verdicts)) for c in matrix.columns)
           + " |"]
    for row in matrix.rows:
        cells = matrix.cells[row.rule_id]
        # A cell's words are the kit's own (known outcomes and counts only, see Column.outcome).
        out.append(f"| {markdown_text(row.rule_id)} | " + " | ".join(cell_text(cells[c.key]) for c in matrix.columns)
                   + " |")
    out += ["", _("## Behaviour drift ({count} cells)").format(count=len(matrix.drift_cells)), ""]
    for rule, key in matrix.drift_cells:
        out.append(_("- **{rule}** on {column}:").format(rule=markdown_text(rule), column=markdown_text(key)))
        out += [f"  - {markdown_text(drift_line(d))}" for d in matrix.cells[rule][key].drift]
    if not matrix.drift_cells:
        out.append(_("None."))
    out += ["", _("## Excluded inputs ({count})").format(count=len(matrix.excluded)), ""]
    out += [f"- {markdown_text(e.source)}: {markdown_text(e.reason)}" for e in matrix.excluded] or [_("None.")]
    return "\n".join(out) + "\n"


_STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;font-size:12px}
th,td{border:1px solid #ccc;padding:3px 6px;text-align:center;white-space:nowrap}
th.rule,td.rule{text-align:left}
thead th{position:sticky;top:0;background:#f4f4f4}
td.PASS{background:#e3f4e3}td.FAIL,td.ERROR,td.BLOCKED{background:#f8d7d7}td.WAIVED,td.XPASS{background:#fff1c9}
td.NOT_APPLICABLE,td.none{background:#eee;color:#777}
td.drift{outline:3px solid #d9480f;outline-offset:-3px;font-weight:bold}
.hidden{display:none}
"""

# Runs offline: no request, no library. It only hides rows and counts what it shows.
_SCRIPT = """
(function(){
  var box=document.getElementById('only-changes');
  function apply(){
    var rows=document.querySelectorAll('#matrix tbody tr'),shown=0;
    rows.forEach(function(r){
      var keep=!box.checked||r.querySelector('td.drift,td.FAIL,td.ERROR,td.BLOCKED');
      r.classList.toggle('hidden',!keep);if(keep){shown++;}
    });
    document.getElementById('shown').textContent=%(shown)s;
  }
  box.addEventListener('change',apply);apply();
  document.body.setAttribute('data-drift-cells',document.querySelectorAll('td.drift').length);
})();
"""


def _cell_html(cell: Cell) -> str:
    classes = [cell.outcome or "none"] + (["drift"] if cell.drift else [])
    title = "\n".join(drift_line(d) for d in cell.drift)
    if cell.previous:
        title = _("previous version: {outcome}").format(outcome=cell.previous) + f"\n{title}"
    if cell.outside:
        title = _("{count} case(s) outside the CANN {release} contract").format(
            count=cell.outside, release=cell.release) + f"\n{title}"
    return (f'<td class="{" ".join(classes)}" title="{html.escape(title.strip())}">'
            f"{html.escape(cell_text(cell))}</td>")


def _items(lines: Iterable[str]) -> str:
    return "".join(f"<li>{html.escape(line)}</li>" for line in lines)


def js_text(template: str, values: dict[str, str]) -> str:
    """A JavaScript expression for ``template`` with each ``{name}`` replaced by the expression ``values[name]``
    (``"{shown} of {total} rules shown"`` -> ``shown+' of '+rows.length+' rules shown'``), so that the page's
    script says what the catalogue says in every language."""
    import string

    parts = []
    for literal, field, _spec, _conversion in string.Formatter().parse(template):
        if literal:
            parts.append("'" + literal.replace("\\", "\\\\").replace("'", "\\'") + "'")
        if field:
            parts.append(values[field])
    return "+".join(parts) or "''"


def render_html(matrix: Matrix) -> str:
    """matrix.html: one page that works offline (opened from disk, no network), in this process's language."""
    e = html.escape
    lang = current()
    none = "<li>" + e(_("None.")) + "</li>"
    head = "".join(f'<th data-column="{e(c.key)}">{e(c.title)}</th>' for c in matrix.columns)
    verdicts = "".join(f'<th class="verdict">{e(verdicts_text(c.verdicts))}</th>' for c in matrix.columns)
    body = []
    for row in matrix.rows:
        cells = "".join(_cell_html(matrix.cells[row.rule_id][c.key]) for c in matrix.columns)
        body.append(f'<tr data-rule="{e(row.rule_id)}"><td class="rule" title="{e(row.title)}">{e(row.rule_id)} '
                    f"<small>({e(row.severity)})</small></td>{cells}</tr>")
    on = _("on")
    drift = "".join(f"<li><b>{e(rule)}</b> {e(on)} {e(key)}<ul>{_items(map(drift_line, matrix.cells[rule][key].drift))}"
                    "</ul></li>" for rule, key in matrix.drift_cells) or none
    excluded = _items(f"{x.source}: {x.reason}" for x in matrix.excluded) or none
    title = e(_("Fleet compatibility matrix"))
    said = {key: e(text) for key, text in {
        "intro": _("{columns} columns (product family, CANN version), {rules} rules, {drift} cells with behaviour "
                   "drift against the previous version of the same product (outlined; hover a cell for the changed "
                   "observations).").format(columns=len(matrix.columns), rules=len(matrix.rows),
                                             drift=len(matrix.drift_cells)),
        "only": _("only rules with drift or failures"), "rule": _("rule"), "verdict": _("run verdict"),
        "drift": _("Behaviour drift"), "excluded": _("Excluded inputs")}.items()}
    script = _SCRIPT % {"shown": js_text(_("{shown} of {total} rules shown"),
                                         {"shown": "shown", "total": "rows.length"})}
    style = _STYLE + ('body{font-family:"Noto Sans CJK SC","Noto Sans SC",system-ui,sans-serif}'
                      if lang != DEFAULT else "")
    return (
        f"<!DOCTYPE html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        "script-src 'unsafe-inline'\">"
        f"<title>{title}</title><style>{style}</style></head><body>"
        f"<h1>{title}</h1>"
        f"<p>{said['intro']}</p>"
        f'<p><label><input type="checkbox" id="only-changes"> {said["only"]}</label> '
        '<span id="shown"></span></p>'
        f'<table id="matrix"><thead><tr><th class="rule">{said["rule"]}</th>{head}</tr>'
        f'<tr><th class="rule">{said["verdict"]}</th>{verdicts}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
        f'<h2>{said["drift"]}</h2><ul id="drift">{drift}</ul>'
        f'<h2>{said["excluded"]}</h2><ul id="excluded">{excluded}</ul>'
        f"<script>{script}</script></body></html>\n"
    )
