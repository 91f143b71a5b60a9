"""``gate`` on the command line: gate a driver release on the differences of two runs.

``acl-conformance gate BASELINE CANDIDATE [--fail-on CLASSES] [--allow-different-product]
[--expectations F]... [--markdown F] [--json F]``

The exit status is 1 when a class named in ``--fail-on`` (default: :data:`~.compare.DEFAULT_FAIL_ON`)
is not empty (for ``drift`` classes: holds drift no expectation accepts), 0 otherwise, and 2
when the runs cannot be compared: a run or an expectations file that cannot be read, a run
that is not a summary, runs of different product families, SoCs or specs (unless
``--allow-different-product``), or an empty or unknown ``--fail-on``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from ..i18n import _, helptext
from ..results.expectations import ExpectationError, load_expectations
from ..results.signing import KeyFileError, check_signature, load_public_key
from ..results.vocabulary import gate_class_text
from .compare import DEFAULT_FAIL_ON, GATE_CLASSES, Comparison, compare
from .drift import DRIFT_CLASSES, accept_known_drift, gating_drift, is_drift_class
from .report import default_outputs, render_markdown


def parse_fail_on(text: str) -> list[str]:
    """Parse the ``--fail-on`` comma list; raises ValueError for an unknown class or an empty list.

    An empty list would gate on nothing, so that every candidate passes: it is refused.
    """
    parts = [part.strip() for part in text.split(",")]
    choices = ", ".join((*GATE_CLASSES, *DRIFT_CLASSES))
    if not any(parts):
        raise ValueError(_("--fail-on {text} names no class (choose from {choices})").format(
            text=repr(text), choices=choices))
    for name in parts:
        if name not in GATE_CLASSES and not is_drift_class(name):
            raise ValueError(_("unknown --fail-on class {name} (choose from {choices})").format(
                name=repr(name), choices=choices))
    return list(dict.fromkeys(parts))


def accept_drift(comparison: Comparison, paths: Sequence[Path], today: datetime.date) -> None:
    """Mark the drift that the ``observation:`` entries of the expectations files accept for the candidate."""
    if not paths:
        return
    try:
        expectations = load_expectations(paths)
    except ExpectationError as exc:
        raise ValueError(str(exc)) from None
    product = comparison.candidate
    family, soc, cann_version = (str(product.get(key) or "") for key in ("family", "soc", "cann_version"))
    comparison.drift = accept_known_drift(comparison.drift, expectations, family, soc, cann_version, today)
    comparison.warnings += [f"{e.where}: the acceptance of {e.observation!r} drift expired on {e.expires}"
                            for e in expectations.expired(today) if e.observation is not None]


def build_parser() -> argparse.ArgumentParser:
    """Command-line options of the gate."""
    parser = helptext.ArgumentParser(
        prog="acl-conformance gate",
        description=_("Compare two conformance runs and gate a driver release on the differences."),
        epilog=gate_class_text() + "\n" + _("exit status: 0 no gating class is empty, 1 a class of --fail-on is "
                                            "not empty, 2 the runs cannot be compared (unreadable, not summaries, "
                                            "different products or specs)"),
        formatter_class=helptext.RawDescriptionHelpFormatter,
    )
    parser.add_argument("baseline", type=Path, help=_("baseline run: bundle, report directory or summary.json"))
    parser.add_argument("candidate", type=Path, help=_("candidate run: bundle, report directory or summary.json"))
    parser.add_argument(
        "--fail-on",
        default=",".join(DEFAULT_FAIL_ON),
        help=_("comma list of classes that fail the gate: {classes}; drift (any behaviour drift not accepted by an "
               "expectation) or drift:documented|runtime-source|unspecified (default: {default})").format(
                   classes=", ".join(GATE_CLASSES), default=",".join(DEFAULT_FAIL_ON)),
    )
    parser.add_argument(
        "--allow-different-product",
        action="store_true",
        help=_("compare runs of different product families, SoCs or specs (refused by default); the report says "
               "so"),
    )
    parser.add_argument(
        "--trust", type=Path, metavar="PUBKEY",
        help=_("Ed25519 public key (PEM): both runs must be bundles signed by it (as verify --trust checks)"),
    )
    parser.add_argument(
        "--allow-different-release",
        action="store_true",
        help=_("compare runs judged against different CANN releases (refused by default, exit 2); cases outside "
               "one of the two contracts are listed as entered-contract or left-contract, never as coverage loss"),
    )
    parser.add_argument("--expectations", type=Path, action="append", default=[],
                        help=_("expectations file whose 'observation:' entries accept known drift; may repeat"))
    parser.add_argument("--markdown", type=Path,
                        help=_("where to write the Markdown report (default: next to CANDIDATE)"))
    parser.add_argument("--json", type=Path, help=_("where to write the JSON report (default: next to CANDIDATE)"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the gate; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        fail_on = parse_fail_on(args.fail_on)
        check = None
        if args.trust:
            trusted = load_public_key(args.trust)
            check = lambda bundle: check_signature(bundle, trusted)  # noqa: E731 - one line, one use
        comparison = compare(args.baseline, args.candidate, allow_different_product=args.allow_different_product,
                             allow_different_release=args.allow_different_release, signature_check=check)
        accept_drift(comparison, args.expectations, datetime.date.today())
    except (ValueError, KeyFileError) as exc:
        print(f"gate: {exc}", file=sys.stderr)
        return 2
    md_path, json_path = default_outputs(args.candidate)
    md_path, json_path = args.markdown or md_path, args.json or json_path
    try:
        for path, text in (
            (md_path, render_markdown(comparison, fail_on)),
            (json_path, json.dumps(comparison.to_json(fail_on), indent=2, sort_keys=True) + "\n"),
        ):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    except OSError as exc:
        print(_("gate: cannot write the report: {problem}").format(problem=exc), file=sys.stderr)
        return 2
    gated = comparison.gating(fail_on)
    counts = ", ".join(f"{n} {name}" for name, n in comparison.to_json(fail_on)["counts"].items() if n)
    print(_("gate: {result} ({counts}); report: {markdown}, {json}").format(
        result="FAIL" if gated else "PASS", counts=counts or _("no changes"), markdown=md_path, json=json_path))
    for rule_id in comparison.regressed_rules:
        print(_("regressed rule: {rule}").format(rule=rule_id))
    for warning in comparison.warnings:
        print(_("warning: {warning}").format(warning=warning))
    for name in gated:
        if is_drift_class(name):
            drifts = gating_drift(name, comparison.drift)
            print(_("gating class {name}: {count} observation(s) changed").format(name=name, count=len(drifts)))
            for d in drifts:
                print(f"  {d.rule_id} {d.case_id} {d.observation} ({d.provenance}): {d.baseline} -> {d.candidate}")
        elif name != "regression":
            print(_("gating class {name}: {count} case(s)").format(name=name, count=len(comparison.classes[name])))
    return 1 if gated else 0

