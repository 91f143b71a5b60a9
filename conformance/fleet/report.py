"""The matrix as Markdown and as one self-contained HTML page (inline style and script, no outside request)."""

from __future__ import annotations

import html
from collections.abc import Iterable

from ..gate.drift import Drift, show_value
from ..harness.untrusted_text import markdown_text
from .matrix import Cell, Matrix

SHORT = {"PASS": "PASS", "FAIL": "FAIL", "ERROR": "ERROR", "BLOCKED": "BLOCKED", "WAIVED": "WAIVED", "XPASS": "XPASS",
         "NOT_APPLICABLE": "n/a", None: "-"}


def cell_text(cell: Cell) -> str:
    """The cell in words: outcome, what it was on the previous version, drift and variance counts."""
    text = SHORT.get(cell.outcome, str(cell.outcome))
    if cell.previous:
        text += f" (was {SHORT.get(cell.previous, cell.previous)})"
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
    out = ["# Fleet compatibility matrix", "",
           f"{len(matrix.columns)} columns (product family, CANN release judged against, library version) from "
           f"{sum(len(c.sources) for c in matrix.columns)} runs; {len(matrix.rows)} rules; "
           f"{len(matrix.drift_cells)} cells with behaviour drift against the previous version. "
           "Δn: n observations changed; ~n: runs of the column disagree; (was X): outcome on the previous version; "
           "⊄R: outside the contract of CANN release R the column was judged against (with a count: that many "
           "of its cases).",
           "", "| rule | " + " | ".join(head) + " |", "|---|" + "---|" * len(head),
           "| _run verdict_ | " + " | ".join(markdown_text(verdicts_text(c.verdicts)) for c in matrix.columns) + " |"]
    for row in matrix.rows:
        cells = matrix.cells[row.rule_id]
        # A cell's words are the kit's own (known outcomes and counts only, see Column.outcome).
        out.append(f"| {markdown_text(row.rule_id)} | " + " | ".join(cell_text(cells[c.key]) for c in matrix.columns)
                   + " |")
    out += ["", f"## Behaviour drift ({len(matrix.drift_cells)} cells)", ""]
    for rule, key in matrix.drift_cells:
        out.append(f"- **{markdown_text(rule)}** on {markdown_text(key)}:")
        out += [f"  - {markdown_text(drift_line(d))}" for d in matrix.cells[rule][key].drift]
    if not matrix.drift_cells:
        out.append("None.")
    out += ["", f"## Excluded inputs ({len(matrix.excluded)})", ""]
    out += [f"- {markdown_text(e.source)}: {markdown_text(e.reason)}" for e in matrix.excluded] or ["None."]
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
    document.getElementById('shown').textContent=shown+' of '+rows.length+' rules shown';
  }
  box.addEventListener('change',apply);apply();
  document.body.setAttribute('data-drift-cells',document.querySelectorAll('td.drift').length);
})();
"""


def _cell_html(cell: Cell) -> str:
    classes = [cell.outcome or "none"] + (["drift"] if cell.drift else [])
    title = "\n".join(drift_line(d) for d in cell.drift)
    if cell.previous:
        title = f"previous version: {cell.previous}\n{title}"
    if cell.outside:
        title = f"{cell.outside} case(s) outside the CANN {cell.release} contract\n{title}"
    return (f'<td class="{" ".join(classes)}" title="{html.escape(title.strip())}">'
            f"{html.escape(cell_text(cell))}</td>")


def _items(lines: Iterable[str]) -> str:
    return "".join(f"<li>{html.escape(line)}</li>" for line in lines)


def render_html(matrix: Matrix) -> str:
    """matrix.html: one page that works offline (opened from disk, no network)."""
    e = html.escape
    head = "".join(f'<th data-column="{e(c.key)}">{e(c.title)}</th>' for c in matrix.columns)
    verdicts = "".join(f'<th class="verdict">{e(verdicts_text(c.verdicts))}</th>' for c in matrix.columns)
    body = []
    for row in matrix.rows:
        cells = "".join(_cell_html(matrix.cells[row.rule_id][c.key]) for c in matrix.columns)
        body.append(f'<tr data-rule="{e(row.rule_id)}"><td class="rule" title="{e(row.title)}">{e(row.rule_id)} '
                    f"<small>({e(row.severity)})</small></td>{cells}</tr>")
    drift = "".join(f"<li><b>{e(rule)}</b> on {e(key)}<ul>{_items(map(drift_line, matrix.cells[rule][key].drift))}"
                    "</ul></li>" for rule, key in matrix.drift_cells) or "<li>None.</li>"
    excluded = _items(f"{x.source}: {x.reason}" for x in matrix.excluded) or "<li>None.</li>"
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        "script-src 'unsafe-inline'\">"
        f"<title>Fleet compatibility matrix</title><style>{_STYLE}</style></head><body>"
        "<h1>Fleet compatibility matrix</h1>"
        f"<p>{len(matrix.columns)} columns (product family, CANN version), {len(matrix.rows)} rules, "
        f"{len(matrix.drift_cells)} cells with behaviour drift against the previous version of the same product "
        "(outlined; hover a cell for the changed observations).</p>"
        '<p><label><input type="checkbox" id="only-changes"> only rules with drift or failures</label> '
        '<span id="shown"></span></p>'
        f'<table id="matrix"><thead><tr><th class="rule">rule</th>{head}</tr>'
        f'<tr><th class="rule">run verdict</th>{verdicts}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
        f'<h2>Behaviour drift</h2><ul id="drift">{drift}</ul>'
        f'<h2>Excluded inputs</h2><ul id="excluded">{excluded}</ul>'
        f"<script>{_SCRIPT}</script></body></html>\n"
    )
