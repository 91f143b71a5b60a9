"""``certify`` and ``verify`` on the command line: options, progress and exit codes.

``certify`` takes every option of ``run`` (same names, same environment twins) plus where the
bundles go and a baseline. It checks the set-up first (a mistake exits with its set-up status
before anything runs), then exits 0 for CERTIFIED, 1 for NOT CERTIFIED, 6 for NOT CERTIFIED
because the run is INCONCLUSIVE (nothing failed, something could not be judged), and 2 when no verdict
could be reached (or the signing key is unusable); ``verify BUNDLE [--trust PUBKEY]`` prints
one line per problem and exits 1 when there is any, 2 when the trusted key is unusable.
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from acl_hostmem_generated.catalog_types import Catalog

from ..harness.options import OptionError, settings_from_values
from ..harness.problems import Problem
from ..harness.resources import catalog_path, load_catalog
from ..i18n import N_, _, helptext
from ..results.signing import KeyFileError, load_private_key, load_public_key, signer
from ..results.terminal import Style
from ..results.vocabulary import (
    EXIT_FAIL,
    EXIT_INCONCLUSIVE,
    EXIT_PASS,
    Verdict,
    exit_status_text,
    interrupted_status,
    outcome_text,
)
from ..session.command import check_expectations, configure, invoked_command, report_dir_of
from ..session.interrupt import Interrupted
from ..session.preflight import SetupError, preflight
from ..session.sandbox import find_sandbox
from .runner import CertifyError, baseline_problem, certify
from .verify import verify as verify_bundle

EXIT_NO_VERDICT = 2

CERTIFY_DESCRIPTION = N_("""\
Certify an ACL library: run the whole suite in a child process, then write a bundle under
--out-dir (default: <report dir>/certification/<family>-<release judged against>-<time>/) holding the
evidence (summary.json, junit.xml, allure-results, the HTML report when it can be rendered,
run.log), manifest.json, certificate.md/.html (CERTIFIED or NOT CERTIFIED) and SHA256SUMS.
'acl-conformance verify BUNDLE' checks a bundle.

Only a complete run can be certified: selecting cases (-k, -m, --acl-rule, --lf) makes the
result NOT CERTIFIED. Arguments this command does not know go to pytest.

exit status of certify: 0 CERTIFIED, 1 NOT CERTIFIED, 6 NOT CERTIFIED because the run is
INCONCLUSIVE, 2 no verdict (bad arguments, the run wrote no summary, or the bundle does not
verify); the set-up statuses as for run:
{exit_codes}
{outcomes}""")


def certify_description() -> str:
    """``certify --help``'s description in the process's language, the exit statuses and outcomes filled in."""
    return _(CERTIFY_DESCRIPTION).format(exit_codes=exit_status_text(), outcomes=outcome_text())


def configure_certify(parser: argparse.ArgumentParser) -> None:
    """The options of ``run`` plus the bundle's location, a baseline and the catalog."""
    configure(parser)
    parser.add_argument("--out-dir", type=Path, help=_("where bundles go (default: <report dir>/certification)"))
    parser.add_argument("--baseline", type=Path, metavar="BUNDLE",
                        help=_("previous bundle (or report directory) whose report history continues in this "
                               "report. It is an untrusted input: a bundle must verify first (SHA256SUMS, the "
                               "manifest's file digests, and with --trust its signature), or certify refuses it "
                               "(exit 2) before anything runs; a link, FIFO or device in its history is refused, "
                               "never followed"))
    parser.add_argument("--trust", type=Path, metavar="PUBKEY",
                        help=_("require the --baseline bundle to carry a valid signature by this Ed25519 public "
                               "key (PEM), as verify --trust does"))
    parser.add_argument("--catalog", type=Path, default=None,
                        help=_("catalog.json of the spec (default: the installed kit's)"))
    parser.add_argument("--sign", type=Path, metavar="KEY", help=_("sign manifest.json with this Ed25519 private "
                        "key (PEM, e.g. from `openssl genpkey -algorithm ed25519`); check it with verify --trust"))
    parser.add_argument("--acl-allow-unsandboxed", action="store_true",
                        help=_("certify even where the library cannot be sandboxed (no bubblewrap, no "
                               "namespaces); the certificate then says 'not sandboxed' in its first lines"))
    # Names of earlier versions, kept so that existing scripts keep working.


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``certify`` on its own (the CLI adds the same options to its subcommand)."""
    parser = helptext.ArgumentParser(prog="acl-conformance certify", description=certify_description(),
                                     formatter_class=helptext.RawDescriptionHelpFormatter)
    configure_certify(parser)
    return parser


def _setup_problem(args: argparse.Namespace, catalog: Catalog) -> int | None:
    """Run the set-up checks in this process; print and return the exit status of a mistake."""
    from ..harness.options import OPTIONS, env_value, single_value

    values = {spec.dest: getattr(args, spec.dest, None) or env_value(spec) for spec in OPTIONS}
    try:
        settings = settings_from_values(values)
        preflight(settings, single_value(values["acl_lib"]), catalog)
    except OptionError as exc:
        print(f"certify: {exc}", file=sys.stderr)
        return EXIT_NO_VERDICT
    except SetupError as exc:
        print(exc.render(), file=sys.stderr)
        return int(exc.problem)
    return None


def refuse_unsandboxed(args: argparse.Namespace) -> int | None:
    """Without a sandbox for the library, certify refuses (one line) unless --acl-allow-unsandboxed."""
    from ..harness.options import OPTIONS, env_value

    allow = next(spec for spec in OPTIONS if spec.dest == "acl_sandbox_allow")
    paths = getattr(args, "acl_sandbox_allow", None) or env_value(allow) or []
    if getattr(args, "acl_allow_unsandboxed", False) or find_sandbox(tuple(map(str, paths))) is not None:
        return None
    print(_("certify: not sandboxed: bubblewrap (bwrap) is missing or cannot create namespaces here, so the library "
            "would run with the kit's rights. Fix: install bubblewrap, or pass --acl-allow-unsandboxed."),
          file=sys.stderr)
    return int(Problem.NOT_SANDBOXED)


def certify_command(args: argparse.Namespace, extra: list[str]) -> int:
    """Certify: exit 0 CERTIFIED, 1 NOT CERTIFIED, 6 NOT CERTIFIED as INCONCLUSIVE, 2 no verdict, or a set-up
    status."""
    catalog_file = args.catalog or catalog_path()
    catalog = load_catalog(Path(catalog_file))
    try:
        key = load_private_key(args.sign) if getattr(args, "sign", None) else None
        trusted = load_public_key(args.trust) if getattr(args, "trust", None) else None
    except KeyFileError as exc:
        print(f"certify: {exc}", file=sys.stderr)
        return EXIT_NO_VERDICT
    if getattr(args, "baseline", None):  # before the set-up checks: refused before anything runs
        problem = baseline_problem(args.baseline, trusted)
        if problem:
            print(f"certify: {problem}", file=sys.stderr)
            return EXIT_NO_VERDICT
    elif trusted is not None:
        print(_("certify: --trust checks the signature of a --baseline bundle; no --baseline given"), file=sys.stderr)
        return EXIT_NO_VERDICT
    status = check_expectations(args)
    if status is None:
        status = refuse_unsandboxed(args)
    if status is None:
        status = _setup_problem(args, catalog)
    if status is not None:
        return status
    style = Style.for_stream(sys.stdout)
    out_root = args.out_dir or report_dir_of(args) / "certification"
    try:
        Path(out_root).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        option = "--out-dir" if args.out_dir else "--acl-report-dir"
        print(SetupError(Problem.REPORT_DIR_UNWRITABLE, _("the certification directory {dir} cannot be created "
                         "({why}).\nFix: pass a writable directory with {option}.").format(
                             dir=out_root, why=exc.strerror or exc, option=option)).render(),
              file=sys.stderr)
        return int(Problem.REPORT_DIR_UNWRITABLE)
    try:
        result = certify(args, extra, out_root=out_root, catalog_path=Path(catalog_file),
                         command=invoked_command(), signing_key=key, baseline_trust=trusted)
    except (Interrupted, KeyboardInterrupt) as stop:
        signum = stop.signum if isinstance(stop, Interrupted) else signal.SIGINT
        print(_("certify: {verdict} by {signal}: nothing was certified (the run and its staging directory are "
                "gone)").format(verdict=Verdict.INTERRUPTED.value, signal=signal.Signals(signum).name), file=sys.stderr)
        return interrupted_status(signum)
    except CertifyError as exc:
        print(f"certify: {exc}", file=sys.stderr)
        return exc.status if exc.status is not None else EXIT_NO_VERDICT
    except (ValueError, OSError) as exc:
        print(f"certify: {exc}", file=sys.stderr)
        return EXIT_NO_VERDICT
    if result.problems:
        print(_("certify: the bundle {bundle} does not verify:").format(bundle=result.bundle), file=sys.stderr)
        for line in result.problems:
            print(f"  {line}", file=sys.stderr)
        return EXIT_NO_VERDICT
    print(f"{style.word(result.assessment.verdict)}: {result.bundle}")
    print(f"  {result.assessment.reason()}")
    for rule in result.assessment.blocking:
        print(f"  {rule.rule_id}: {rule.why()} ({rule.doc_url or rule.doc_ref})")
    for rule_id in result.assessment.missing_rules:
        print("  " + _("{rule}: no outcome (incomplete run)").format(rule=rule_id))
    if not result.html:
        print(_("HTML report not rendered; render it later with: acl-conformance report {bundle}").format(
            bundle=result.bundle))
    if result.certified:
        return EXIT_PASS
    return EXIT_INCONCLUSIVE if result.assessment.inconclusive else EXIT_FAIL


def build_verify_parser() -> argparse.ArgumentParser:
    """Options of ``verify``."""
    parser = helptext.ArgumentParser(prog="acl-conformance verify", description=_(
        "Verify a certification bundle by recomputing what it claims: checksums and the manifest's file list "
        "(no changed, missing or extra file), completeness, severities from the bundle's spec, the facts of "
        "manifest, summary and certificate, waivers from bundled expectations files, the Allure results case "
        "for case, and every verdict. Exit status 1 when there is a problem, 2 for an unusable --trust key."))
    parser.add_argument("bundle", type=Path, help=_("a certification bundle directory"))
    parser.add_argument("--catalog", type=Path, default=None, help=_("catalog.json of the bundle's spec "
                        "(default: the installed kit's)"))
    parser.add_argument("--trust", type=Path, metavar="PUBKEY", help=_("require a valid signature by this "
                        "Ed25519 public key (PEM). A signature binds the bundle to its signer; it cannot show "
                        "that the signer ran the suite honestly"))
    return parser


def verify_main(argv: Sequence[str]) -> int:
    """``verify BUNDLE``: print one line per problem; exit 1 when there is any, 2 for an unusable key."""
    args = build_verify_parser().parse_args(argv)
    try:
        trusted = load_public_key(args.trust) if args.trust else None
    except KeyFileError as exc:
        print(f"verify: {exc}", file=sys.stderr)
        return EXIT_NO_VERDICT
    problems = verify_bundle(args.bundle, args.catalog or catalog_path(), trusted)
    for problem in problems:
        print(problem)
    if not problems:
        signed = signer(args.bundle)
        how = _("signature by the trusted key {key}").format(key=signed) if trusted else (
            _("signed by key {key}, not checked (pass --trust PUBKEY)").format(key=signed) if signed
            else _("not signed"))
        print(_("{bundle}: verified ({how})").format(bundle=args.bundle, how=how))
    return 1 if problems else 0
