"""``merge`` on the command line: many runs or bundles in, one compatibility matrix out.

``python -m conformance merge INPUT... [--out DIR] [--rules PATTERNS] [--trust PUBKEY]`` writes
``DIR/matrix.json``, ``DIR/matrix.md`` and ``DIR/matrix.html``. The exit status is 0 when
every input was merged, 1 when an input was excluded (a bundle that fails its integrity check
or, with ``--trust``, its signature; an unreadable or refused summary; the matrix is still
written without it), 2 when nothing could be merged or the trusted key is unusable.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from ..harness.resources import catalog_path
from ..i18n import _, helptext
from ..results.signing import KeyFileError, load_public_key
from .inputs import read_runs
from .matrix import Matrix, build_matrix
from .report import render_html, render_markdown

DEFAULT_OUT = Path("reports") / "fleet"
CATALOG = catalog_path()


def spec_families(catalog: Path = CATALOG) -> list[str]:
    """Product family IDs in the spec's order (the matrix's column order); empty when unknown."""
    try:
        return [f["id"] for f in json.loads(catalog.read_text(encoding="utf-8"))["families"]]
    except (OSError, ValueError, KeyError):
        return []


def build_parser() -> argparse.ArgumentParser:
    """Options of ``python -m conformance merge``."""
    parser = helptext.ArgumentParser(
        prog="python -m conformance merge",
        description=_("Merge conformance runs from many machines (product families x CANN versions) into one "
                      "compatibility matrix: rows are rules, columns are (product family, CANN version); each cell "
                      "holds the outcome and the behaviour drift against the previous CANN version of the same "
                      "product."),
        epilog=_("Every input is untrusted: a bundle is merged only when SHA256SUMS and the file digests of its "
                 "manifest.json match (and, with --trust, its signature), a summary only when it is a regular file "
                 "inside its input within the size and nesting limits. Exit status: 0 all inputs merged, 1 an input "
                 "was excluded (tampered, unsigned or unreadable), 2 nothing merged or an unusable --trust key."),
    )
    parser.add_argument("inputs", nargs="+", type=Path, metavar="INPUT",
                        help=_("a bundle, a report directory, a summary.json, or a folder of bundles/report "
                               "directories"))
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=_("output folder (default: %(default)s)"))
    parser.add_argument("--rules", default="", metavar="PATTERNS",
                        help=_("comma list of rule ID globs to keep as rows (default: every rule)"))
    parser.add_argument("--trust", type=Path, metavar="PUBKEY",
                        help=_("merge only bundles with a valid signature by this Ed25519 public key (PEM), as "
                               "verify --trust checks it; other inputs are excluded"))
    return parser


def write_outputs(matrix: Matrix, out: Path) -> list[Path]:
    """Write matrix.json, matrix.md and matrix.html into ``out``; returns their paths."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in (("matrix.json", json.dumps(matrix.to_json(), indent=1) + "\n"),
                       ("matrix.md", render_markdown(matrix)), ("matrix.html", render_html(matrix))):
        path = out / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Merge the inputs into a matrix; returns the exit status."""
    args = build_parser().parse_args(argv)
    start = time.perf_counter()
    patterns = [p.strip() for p in args.rules.split(",") if p.strip()]
    try:
        trusted = load_public_key(args.trust) if args.trust else None
    except KeyFileError as exc:
        print(f"merge: {exc}", file=sys.stderr)
        return 2
    matrix = build_matrix(read_runs(args.inputs, trusted), spec_families(), patterns)
    for item in matrix.excluded:
        print(_("merge: excluded {source}: {reason}").format(source=item.source, reason=item.reason), file=sys.stderr)
    if not matrix.columns:
        print(_("merge: no input could be merged"), file=sys.stderr)
        return 2
    written = write_outputs(matrix, args.out)
    runs = sum(len(c.sources) for c in matrix.columns)
    print(_("merge: {runs} runs -> {columns} columns x {rules} rules, {drift} drift cells, {excluded} excluded "
            "({seconds:.2f} s); {files}").format(
        runs=runs, columns=len(matrix.columns), rules=len(matrix.rows), drift=len(matrix.drift_cells),
        excluded=len(matrix.excluded), seconds=time.perf_counter() - start, files=", ".join(str(p) for p in written)))
    if len(matrix.spec_hashes) > 1:
        print(_("merge: warning: the runs use {count} different specs ({specs})").format(
            count=len(matrix.spec_hashes), specs=", ".join(matrix.spec_hashes)), file=sys.stderr)
    return 1 if matrix.excluded else 0
