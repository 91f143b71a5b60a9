"""``certify`` and ``verify`` on the command line: options, progress and exit codes.

``certify`` exits 0 for CERTIFIED, 1 for NOT CERTIFIED and 2 when no verdict could be
reached; ``verify BUNDLE`` prints one line per problem and exits 1 when there is any.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from .bundle import DEFAULT_CATALOG
from .bundle import verify as verify_bundle
from .runner import DEFAULT_OUT, CertifyError, certify


def build_parser() -> argparse.ArgumentParser:
    """Options of ``python -m conformance certify``."""
    parser = argparse.ArgumentParser(
        prog="python -m conformance certify",
        description="Certify an ACL library: run the full suite and write a certification bundle.",
        epilog="Arguments after '--' go to pytest and restrict the run (the result is then NOT CERTIFIED). "
        "'python -m conformance verify BUNDLE' checks a bundle.",
    )
    parser.add_argument("--acl-lib", type=Path, required=True, help="the libascendcl.so (or simulator) to certify")
    parser.add_argument("--out-dir", type=Path, default=DEFAULT_OUT, help="where bundles go (default: %(default)s)")
    parser.add_argument("--expectations", type=Path, action="append", default=[], help="expectations file; may repeat")
    parser.add_argument("--baseline", type=Path, help="previous bundle whose Allure history continues in this report")
    parser.add_argument("-n", "--jobs", default="auto", help="pytest-xdist workers (default: auto)")
    parser.add_argument("--catalog", type=Path, default=DEFAULT_CATALOG, help="generated/catalog.json of the spec")
    return parser


def build_verify_parser() -> argparse.ArgumentParser:
    """Options of ``python -m conformance verify``."""
    parser = argparse.ArgumentParser(prog="python -m conformance verify", description="Verify a bundle.")
    parser.add_argument("bundle", type=Path, help="a certification bundle directory")
    parser.add_argument("--catalog", type=Path, default=DEFAULT_CATALOG, help="catalog.json of the bundle's spec")
    return parser


def verify_main(argv: Sequence[str]) -> int:
    """``verify BUNDLE``: print one line per problem; exit 1 when there is any."""
    args = build_verify_parser().parse_args(argv)
    problems = verify_bundle(args.bundle, args.catalog)
    for problem in problems:
        print(problem)
    if not problems:
        print(f"{args.bundle}: verified")
    return 1 if problems else 0


def certify_main(argv: Sequence[str]) -> int:
    """Certify: exit 0 CERTIFIED, 1 NOT CERTIFIED, 2 no verdict."""
    argv = list(argv)
    pytest_args = argv[argv.index("--") + 1 :] if "--" in argv else []
    args = build_parser().parse_args(argv[: argv.index("--")] if "--" in argv else argv)
    try:
        result = certify(
            args.acl_lib,
            out_root=args.out_dir,
            expectations=args.expectations,
            baseline=args.baseline,
            jobs=args.jobs,
            pytest_args=pytest_args,
            catalog_path=args.catalog,
        )
    except (CertifyError, ValueError, OSError) as exc:
        print(f"certify: {exc}", file=sys.stderr)
        return 2
    print(f"{result.assessment.verdict}: {result.bundle}")
    for rule in result.assessment.blocking:
        print(f"  {rule.rule_id}: {rule.why()} ({rule.doc_url or rule.doc_ref})")
    for rule_id in result.assessment.missing_rules:
        print(f"  {rule_id}: no outcome (incomplete run)")
    return 0 if result.certified else 1
