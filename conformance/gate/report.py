"""The gate report: Markdown for people, and where gate.md/gate.json go by default."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .compare import Comparison
from .drift import drift_markdown

_TITLES = {
    "regression": "Regressions (passed before, FAIL/ERROR/BLOCKED now)",
    "fix": "Fixes (FAIL/ERROR/BLOCKED before, PASS now)",
    "new-failure": "New failing cases",
    "new": "New cases",
    "coverage-loss": "Coverage lost (judged before, NOT_APPLICABLE or absent now)",
    "removed": "Removed cases",
    "code-change": "Error-code changes on failing cases",
    "waiver-change": "Outcome changes caused by expectations (WAIVED/XPASS)",
    "other": "Other outcome changes",
}


def render_markdown(comparison: Comparison, fail_on: Sequence[str]) -> str:
    """The gate report as Markdown."""
    gated = comparison.gating(fail_on)
    out = ["# Conformance gate", "", f"**Result: {'FAIL' if gated else 'PASS'}**"]
    out.append(f" (gating on: {', '.join(fail_on)}; failed by: {', '.join(gated) or 'nothing'})")
    out += ["", "| | baseline | candidate |", "|---|---|---|"]
    for key in comparison.baseline:
        out.append(f"| {key} | {comparison.baseline.get(key)} | {comparison.candidate.get(key)} |")
    out += ["", *[f"> warning: {w}" for w in comparison.warnings]]
    out += ["", f"## Regressed rules ({len(comparison.regressed_rules)})", ""]
    out += [f"- {rule_id}" for rule_id in comparison.regressed_rules] or ["None."]
    for name, title in _TITLES.items():
        items = comparison.classes.get(name, [])
        out += ["", f"## {title} ({len(items)})", ""]
        if not items:
            out.append("None.")
            continue
        out += ["| case | rule | severity | baseline | candidate | codes |", "|---|---|---|---|---|---|"]
        for c in items:
            codes = f"{c.baseline_code or '-'} → {c.candidate_code or '-'}"
            out.append(f"| `{c.case_id}` | {c.rule_id} | {c.severity} | {c.baseline} | {c.candidate} | {codes} |")
    out += ["", *drift_markdown(comparison.drift)]
    return "\n".join(out) + "\n"


def default_outputs(candidate: Path) -> tuple[Path, Path]:
    """gate.md/gate.json next to the candidate (beside a bundle, so its checksums stay intact)."""
    candidate = Path(candidate)
    if candidate.is_file():
        return candidate.parent / "gate.md", candidate.parent / "gate.json"
    if (candidate / "SHA256SUMS").is_file():
        return candidate.parent / f"{candidate.name}.gate.md", candidate.parent / f"{candidate.name}.gate.json"
    return candidate / "gate.md", candidate / "gate.json"
