"""The gate report: Markdown for people, and where gate.md/gate.json go by default."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..i18n import N_, _
from .compare import Comparison
from .drift import drift_markdown

_TITLES = {
    "regression": N_("Regressions (passed before, FAIL/ERROR/BLOCKED now)"),
    "fix": N_("Fixes (FAIL/ERROR/BLOCKED before, PASS now)"),
    "new-failure": N_("New failing cases"),
    "new": N_("New cases"),
    "coverage-loss": N_("Coverage lost (judged before, NOT_APPLICABLE or absent now)"),
    "removed": N_("Removed cases"),
    "code-change": N_("Error-code changes on failing cases"),
    "waiver-change": N_("Outcome changes caused by expectations (WAIVED/XPASS)"),
    "other": N_("Other outcome changes"),
}


def render_markdown(comparison: Comparison, fail_on: Sequence[str]) -> str:
    """The gate report as Markdown, in this process's language (case, rule and class IDs stay as they are)."""
    gated = comparison.gating(fail_on)
    none = _("None.")
    out = [_("# Conformance gate"), "", _("**Result: {result}**").format(result="FAIL" if gated else "PASS")]
    out.append(_(" (gating on: {classes}; failed by: {failed})").format(
        classes=", ".join(fail_on), failed=", ".join(gated) or _("nothing")))
    out += ["", _("| | baseline | candidate |"), "|---|---|---|"]
    for key in comparison.baseline:
        out.append(f"| {key} | {comparison.baseline.get(key)} | {comparison.candidate.get(key)} |")
    out += ["", *[_("> warning: {warning}").format(warning=w) for w in comparison.warnings]]
    out += ["", _("## Regressed rules ({count})").format(count=len(comparison.regressed_rules)), ""]
    out += [f"- {rule_id}" for rule_id in comparison.regressed_rules] or [none]
    for name, title in _TITLES.items():
        items = comparison.classes.get(name, [])
        out += ["", f"## {_(title)} ({len(items)})", ""]
        if not items:
            out.append(none)
            continue
        out += [_("| case | rule | severity | baseline | candidate | codes |"), "|---|---|---|---|---|---|"]
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
