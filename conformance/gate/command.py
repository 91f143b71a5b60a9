"""``compare`` / ``gate`` on the command line: gate a driver release on the differences of two runs.

``python -m conformance compare BASELINE CANDIDATE [--fail-on CLASSES] [--markdown F] [--json F]``

The exit status is 1 when a class named in ``--fail-on`` (default ``regression``) is not
empty, 0 otherwise, 2 when a run cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from .compare import DEFAULT_FAIL_ON, GATE_CLASSES, compare
from .report import default_outputs, render_markdown


def parse_fail_on(text: str) -> list[str]:
    """Parse the ``--fail-on`` comma list; raises ValueError naming an unknown class."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    for name in names:
        if name not in GATE_CLASSES:
            raise ValueError(f"unknown --fail-on class {name!r} (choose from {', '.join(GATE_CLASSES)})")
    return names


def build_parser() -> argparse.ArgumentParser:
    """Command-line options of the gate."""
    parser = argparse.ArgumentParser(
        prog="python -m conformance compare",
        description="Compare two conformance runs and gate a driver release on the differences.",
    )
    parser.add_argument("baseline", type=Path, help="baseline run: bundle, report directory or summary.json")
    parser.add_argument("candidate", type=Path, help="candidate run: bundle, report directory or summary.json")
    parser.add_argument(
        "--fail-on",
        default=",".join(DEFAULT_FAIL_ON),
        help=f"comma list of classes that fail the gate: {', '.join(GATE_CLASSES)} (default: regression)",
    )
    parser.add_argument("--markdown", type=Path, help="where to write the Markdown report (default: next to CANDIDATE)")
    parser.add_argument("--json", type=Path, help="where to write the JSON report (default: next to CANDIDATE)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the gate; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        fail_on = parse_fail_on(args.fail_on)
        comparison = compare(args.baseline, args.candidate)
    except ValueError as exc:
        print(f"gate: {exc}", file=sys.stderr)
        return 2
    md_path, json_path = default_outputs(args.candidate)
    md_path, json_path = args.markdown or md_path, args.json or json_path
    for path, text in (
        (md_path, render_markdown(comparison, fail_on)),
        (json_path, json.dumps(comparison.to_json(fail_on), indent=2, sort_keys=True) + "\n"),
    ):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    gated = comparison.gating(fail_on)
    counts = ", ".join(f"{n} {name}" for name, n in comparison.to_json(fail_on)["counts"].items() if n)
    print(f"gate: {'FAIL' if gated else 'PASS'} ({counts or 'no changes'}); report: {md_path}, {json_path}")
    for rule_id in comparison.regressed_rules:
        print(f"regressed rule: {rule_id}")
    for name in gated:
        if name != "regression":
            print(f"gating class {name}: {len(comparison.classes[name])} case(s)")
    return 1 if gated else 0

