"""Command line: ``python -m codegen {generate,check,lint,sim-faults,release-diff}``.

Exit codes: 0 success; 1 the generated package is stale (``check``); 2 the spec is invalid
(every problem is printed as ``file:line: field.path: message``) or the command was
misused.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from .bilingual import page_issues
from .cases import all_cases, duplicate_case_ids
from .errors import SpecError, SpecIssue, Where
from .evidence_verify import CitationVerifier
from .load import load_spec, read_documents
from .model import Spec
from .release_diff import EXIT_BAD_INPUT, ReleaseDiffError, build_report, render, write_atomically
from .render import OUTPUT_PACKAGE, render_all
from .sim_points import check_fault_points
from .validate import Document
from .writer import OutputRefused, stale_report, write_tree

EXIT_STALE = 1
EXIT_INVALID = 2


def _load(spec_dir: Path, checks_dir: Path | None = None) -> Spec:
    spec = load_spec(spec_dir, checks_dir)
    dupes = duplicate_case_ids(spec)
    if dupes:
        raise SpecError([SpecIssue(Where(str(spec_dir / "rules.yaml"), 1, "rules"), f"case ID {d!r} is produced twice")
                         for d in dupes])
    return spec


def cmd_generate(args: argparse.Namespace) -> int:
    """Render everything and replace the output tree atomically."""
    start = time.perf_counter()
    spec = _load(args.spec, args.checks)
    files = render_all(spec)
    try:
        changed = write_tree(args.out, files)
    except OutputRefused as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_INVALID
    cases = sum(len(c) for c in all_cases(spec).values())
    took = time.perf_counter() - start
    wrote = f"{len(changed)} of {len(files)} files changed" if changed else f"all {len(files)} files up to date"
    print(f"generated {args.out}/ from spec {spec.spec_hash} ({wrote}): "
          f"{len(spec.rules)} rules, {cases} cases, {len(spec.faults)} faults ({took:.2f} s)")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    """Fail (exit 1) with a diff when the output tree differs from what the spec generates."""
    spec = _load(args.spec, args.checks)
    report = stale_report(args.out, render_all(spec))
    if report:
        print(f"{args.out}/ is stale: it does not match spec {spec.spec_hash}. "
              f"Run `python -m codegen generate` and commit the result.", file=sys.stderr)
        print("\n".join(report), file=sys.stderr)
        return EXIT_STALE
    print(f"{args.out}/ is up to date with spec {spec.spec_hash}")
    return 0


def unproven_rules(spec: Spec, rules_doc: Document) -> list[str]:
    """A line per mandatory rule that no simulator fault breaks (``violates``): nothing shows its cases can
    fail, and the self-test will count it as unproven. A warning, not an error: the fault is written next."""
    proven = {rule for fault in spec.faults if not fault.legal for rule in fault.violates}
    index = {raw["id"]: i for i, raw in enumerate(rules_doc.data["rules"])}
    return [f"{rules_doc.where(['rules', index[rule.id], 'id'])}: {rule.id} is mandatory and no fault in "
            "spec/faults.yaml violates it: add one (and its switch in sim/) so that the self-test can show its "
            "cases fail" for rule in spec.rules if rule.severity == "mandatory" and rule.id not in proven
            and rule.id in index]


def cmd_lint(args: argparse.Namespace) -> int:
    """Validate the spec only; with --reference/--runtime-git/--driver-git also check every citation against them."""
    spec = _load(args.spec, args.checks)
    if args.reference or args.runtime_git or args.driver_git:
        verifier = CitationVerifier(args.reference, args.runtime_git, spec.sources.runtime_commit,
                                    args.driver_git, spec.sources.driver_commit,
                                    {r.branch: r.commit for r in spec.releases if r.branch})
        docs = read_documents(args.spec)
        issues = verifier.run(docs["rules"], docs["interfaces"])
        if args.reference:
            issues += page_issues(args.reference, docs)
        if issues:
            raise SpecError(issues)
    if not args.reference:
        print("note: the Chinese texts' quotes and the glossary's official terms were not checked against the "
              "pages (pass --reference DIR)", file=sys.stderr)
    if args.checks is None:
        print("note: the rules' check: names were not checked against the check procedures (pass --checks DIR)",
              file=sys.stderr)
    if args.sim is not None:
        problems = check_fault_points(spec, args.sim)
        if problems:
            for problem in problems:
                print(f"error: {problem}", file=sys.stderr)
            return 2
    for warning in unproven_rules(spec, read_documents(args.spec)["rules"]):
        print(f"warning: {warning}", file=sys.stderr)
    by_provenance = Counter(r.provenance for r in spec.rules)
    print(f"spec {spec.spec_hash} is valid: {len(spec.interfaces)} interfaces, {len(spec.rules)} rules "
          f"({', '.join(f'{n} {p}' for p, n in sorted(by_provenance.items()))}), "
          f"{len(spec.families)} product families, {len(spec.mutations)} faults, "
          f"{len(spec.legal_variants)} legal variants")
    return 0


def cmd_sim_faults(args: argparse.Namespace) -> int:
    """List the simulator's fault switches and the rules each one breaks."""
    spec = _load(args.spec)
    if args.json:
        rows = [{"name": f.name, "family": f.family, "violates": list(f.violates), "description": f.description,
                 "soc": f.soc, "env": dict(f.env), "legal": f.legal, "covers": list(f.covers),
                 "families": list(f.families)} for f in spec.faults]
        print(json.dumps(rows, indent=1))
        return 0
    width = max(len(f.name) for f in spec.faults)
    for f in spec.faults:
        rules = f"legal: {','.join(f.covers)}" if f.legal else ",".join(f.violates)
        print(f"{f.name:<{width}}  {f.family:<16} {rules:<34} {f.description}")
    return 0


def cmd_release_diff(args: argparse.Namespace) -> int:
    """Report what a runtime release changed for the nine interfaces and the spec's citations.

    Bad input (an unknown release, a missing tag or directory) is one line on stderr and exit 2;
    the report file is written only on success, atomically.
    """
    try:
        report = build_report(args.spec, args.old, args.new, args.runtime_git, args.driver_git)
        text = render(report, args.json)
        if args.out is None:
            sys.stdout.write(text)
            return 0
        write_atomically(args.out, text)
    except ReleaseDiffError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    counts = report["summary"]["citations_by_status"]
    print(f"wrote {args.out}: {report['old']['label']} -> {report['new']['label']}, "
          f"{len(report['headers'])} header change(s), {report['summary']['doc_line_changes']} doc line change(s), "
          f"citations {', '.join(f'{n} {s}' for s, n in counts.items())}", file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser, with one subcommand per job."""
    parser = argparse.ArgumentParser(
        prog="python -m codegen",
        description="Generate cffi bindings, a C header, an ABI check, conformance cases and a "
        "traceability matrix from the YAML spec of the ACL host-memory interfaces.",
        epilog=f"Exit codes: 0 ok, 1 {OUTPUT_PACKAGE}/ is stale (check), 2 invalid spec.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, help_text: str, func: object, out: bool = True) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.add_argument("--spec", type=Path, default=Path("spec"), help="spec directory (default: spec)")
        if out:
            p.add_argument("--out", type=Path, default=Path(OUTPUT_PACKAGE),
                           help="output directory, the generated Python package (default: %(default)s)")
        p.set_defaults(func=func)
        return p

    checked = [add("generate", "Validate the spec and regenerate the output tree atomically.", cmd_generate),
               add("check", "Exit 1 with a diff when the output tree is stale.", cmd_check)]
    lint = add("lint", "Validate the spec (schema, cross-references, evidence and severity policy) and write nothing.",
               cmd_lint, out=False)
    for p in [*checked, lint]:
        p.add_argument("--checks", type=Path, metavar="DIR",
                       help="the directory of the check procedures (the kit's conformance/checks; the Makefile "
                            "passes it): every rule's check: must name a function of DIR/<family>.py that takes "
                            "its matrix. Without it, the names are not checked")
    lint.add_argument("--reference", type=Path, help="directory of the pinned API pages: check every doc citation "
                      "(page, anchor, lines inside the anchor's section), every quote of a Chinese text on its "
                      "zh_source line and every official glossary term on its source line")
    lint.add_argument("--runtime-git", type=Path, help="git directory of hicann/runtime: check every source citation "
                      "(file and lines exist at the pinned commit)")
    lint.add_argument("--driver-git", type=Path, help="git directory of hicann/driver: check every driver citation "
                      "(file and lines exist at the pinned driver commit)")
    lint.add_argument("--sim", type=Path, metavar="DIR", help="the simulator's sources (the kit's sim; the Makefile "
                      "passes it): check that every fault point of spec/faults.yaml is at its sites and switches "
                      "exactly the faults that declare it, and that no fault is switched outside a point")
    faults = add("sim-faults", "List the simulator fault switches and the rules they break.", cmd_sim_faults, out=False)
    faults.add_argument("--json", action="store_true", help="print JSON instead of a table")
    diff = add("release-diff", "Report what changed between two runtime revisions for the nine interfaces "
               "(headers, product support, doc lines) and where the spec's citations went.", cmd_release_diff,
               out=False)
    diff.add_argument("old", metavar="OLD", help="the older revision: a release of the spec (9.0.0, "
                      "9.2.0-beta.2), a tag (v9.0.0), 'pinned' (sources.runtime), a branch or a commit")
    diff.add_argument("new", metavar="NEW", help="the newer revision, in the same forms")
    diff.add_argument("--runtime-git", type=Path, required=True, help="git directory of hicann/runtime")
    diff.add_argument("--driver-git", type=Path, help="git directory of hicann/driver: follow driver citations too")
    diff.add_argument("--json", action="store_true", help="write JSON instead of Markdown")
    diff.add_argument("--out", type=Path, help="write the report to this file (atomically) instead of stdout")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except SpecError as exc:
        for issue in exc.issues:
            print(f"error: {issue}", file=sys.stderr)
        print(f"{len(exc.issues)} problem(s) in the spec; nothing was written.", file=sys.stderr)
        return EXIT_INVALID
