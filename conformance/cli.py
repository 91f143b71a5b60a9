"""``acl-conformance`` (or ``python -m conformance``): the command line of the conformance kit.

Subcommands are looked up in :data:`SUBCOMMANDS`, a table of ``name -> "module:attribute"``.
The attribute is either a :class:`Subcommand` (its arguments join this parser and its
``--help``) or a plain ``main(argv) -> int`` function that receives the remaining arguments
untouched. Adding a subcommand is one small module plus one line in the table; modules are
imported only when needed, so a missing or broken one does not break the others.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import i18n
from .i18n import N_, _, helptext
from .results.vocabulary import EXIT_BAD_COMMAND_LINE

PROG = "acl-conformance"


@dataclass(frozen=True)
class Subcommand:
    """One subcommand: its help line, how it declares its arguments, and what it runs.

    ``run(args, extra)`` returns the exit status; ``extra`` holds arguments the parser did
    not know (passed on to pytest by ``run``; other subcommands usually reject them). ``help`` is
    an English message ID; ``describe`` gives the description in the process's language.
    """

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, list[str]], int]
    describe: Callable[[], str] | None = None
    passthrough: bool = False


SUBCOMMANDS: dict[str, str] = {
    "run": "conformance.cli:RUN",
    "certify": "conformance.cli:CERTIFY",
    "verify": "conformance.certify.command:verify_main",
    "gate": "conformance.gate.command:main",
    "merge": "conformance.fleet.command:main",
    "selftest": "conformance.selftest.command:main",
    "report": "conformance.cli:report_main",
    "explain": "conformance.results.explain:main",
    "build-sim": "conformance.cli:build_sim_main",
    "generate": "conformance.cli:generate_main",
    "check": "conformance.cli:check_main",
    "lint": "conformance.cli:lint_main",
    "sim-faults": "conformance.cli:sim_faults_main",
}


#: One-line help of subcommands that are plain ``main(argv)`` functions (their docstrings talk to developers).
HELP_LINES: dict[str, str] = {
    "verify": N_("check a certification bundle: checksums, completeness, verdicts"),
    "gate": N_("compare two runs or bundles case by case; exit 1 on a regression"),
    "merge": N_("merge the runs or bundles of many machines into one compatibility matrix"),
    "selftest": N_("prove the suite on the simulator: no false alarm, every fault caught"),
    "explain": N_("print one case's message, observations, ACL call trace and evidence from a run's reports"),
    "report": N_("render the HTML report of a run or bundle (needs Node.js; installs the renderer)"),
    "build-sim": N_("build the reference simulator from the shipped C sources (needs make and cc)"),
    "generate": N_("regenerate the bindings, header and cases from a spec"),
    "check": N_("exit 1 when the generated package is stale against the spec"),
    "lint": N_("validate the spec and write nothing"),
    "sim-faults": N_("list the simulator's fault switches (ACLSIM_FAULTS) and the rules they break"),
}


def load_subcommand(name: str) -> Subcommand | Callable[[list[str]], int] | None:
    """The subcommand (or plain ``main``) registered as ``name``; None when its module is absent."""
    target = SUBCOMMANDS.get(name)
    if target is None:
        return None
    module_name, _colon, attribute = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return None
        raise
    return getattr(module, attribute, None)


def _run_subcommand() -> Subcommand:
    from .session import command as run_command

    return Subcommand("run", N_("run the conformance suite against a library and write the reports"),
                      run_command.configure, run_command.run_suite, describe=run_command.run_description,
                      passthrough=True)


def _certify_subcommand() -> Subcommand:
    from .certify import command as certify_command

    return Subcommand("certify", N_("run the whole suite and write a certification bundle (CERTIFIED or not)"),
                      certify_command.configure_certify, certify_command.certify_command,
                      describe=certify_command.certify_description, passthrough=True)


#: ``RUN`` and ``CERTIFY`` are built when first asked for (PEP 562), so that ``run`` never imports what only
#: ``certify`` needs (signatures, bundles), and the other subcommands neither.
_LAZY: dict[str, Callable[[], Subcommand]] = {"RUN": _run_subcommand, "CERTIFY": _certify_subcommand}


def __getattr__(name: str) -> Subcommand:
    if name in _LAZY:
        value = _LAZY[name]()
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --------------------------------------------------------------------------- small subcommands


def report_main(argv: list[str]) -> int:
    """Render the HTML report of a run or bundle (installs the pinned Allure renderer with npm)."""
    parser = helptext.ArgumentParser(prog=f"{PROG} report", description=_(
        "Render the HTML report of a run's report directory or of a certification bundle on any machine with "
        "Node.js >= 20 and npm (the pinned Allure renderer is installed on first use). A bundle is left "
        "untouched (its checksums stay valid): its report goes to BUNDLE-html/ unless --out says otherwise."))
    parser.add_argument("directory", type=Path, help=_("a report directory or bundle (holding allure-results/)"))
    parser.add_argument("--out", type=Path, help=_("where allure-report/ goes (default: the directory itself, or "
                        "BUNDLE-html/ for a bundle)"))
    from .session.command import DEFAULT_HISTORY_LIMIT

    parser.add_argument("--history-limit", type=int, default=DEFAULT_HISTORY_LIMIT, metavar="RUNS",
                        help=_("runs kept in history.jsonl (default: %(default)s)"))
    args = parser.parse_args(argv)
    from .results import untrusted
    from .results.html import ReportError, render

    source = args.directory.resolve()
    if not (source / "allure-results").is_dir():
        print(_("report: {dir} has no allure-results/ folder").format(dir=source), file=sys.stderr)
        return 2
    bundle = (source / "SHA256SUMS").is_file()
    out = (args.out or (source.with_name(source.name + "-html") if bundle else source)).resolve()
    summary_file = source / "summary.json"
    history = source / "history.jsonl"
    try:  # the directory may come from anyone: its files are read as untrusted ones (no link followed)
        carried = untrusted.read_bytes(history, root=source) if out != source and untrusted.present(history) else None
        summary = untrusted.read_json_object(summary_file, root=source) if untrusted.present(summary_file) else None
    except untrusted.UntrustedFileError as exc:
        print(f"report: {exc}", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    if carried is not None:
        (out / "history.jsonl").write_bytes(carried)
    try:
        index = render(source / "allure-results", out, summary, history_limit=args.history_limit)
    except (ReportError, OSError, subprocess.SubprocessError) as exc:
        print(f"report: {exc}", file=sys.stderr)
        return 1
    print(f"report: {index}")
    return 0


def build_sim_main(argv: list[str]) -> int:
    """Build the reference simulator from the shipped C sources (needs make and a C compiler)."""
    parser = helptext.ArgumentParser(prog=f"{PROG} build-sim", description=_(
        "Build the reference simulator (a libascendcl.so with the same ABI and switchable faults) from the "
        "C sources shipped with the kit, to try the kit or run its self-test without Ascend hardware."))
    parser.add_argument("--out", type=Path, default=Path("acl-sim"), help=_("output folder (default: %(default)s)"))
    args = parser.parse_args(argv)
    from .harness.simbuild import SimBuildError, build_simulator

    try:
        library = build_simulator(args.out)
    except SimBuildError as exc:
        print(f"build-sim: {exc}", file=sys.stderr)
        return 1
    print(_("built {library}; test it with: {prog} run --acl-lib {library}").format(library=library, prog=PROG))
    return 0


def _codegen(command: str, argv: list[str]) -> int:
    """``python -m codegen COMMAND`` with the kit's spec when --spec is not given and ./spec is absent,
    and the kit's check procedures (the generator does not know where they are)."""
    from codegen.cli import main as codegen_main

    from .harness.resources import spec_dir

    extra = [] if "--spec" in argv or Path("spec").is_dir() else ["--spec", str(spec_dir())]
    if command in ("generate", "check", "lint") and "--checks" not in argv:
        extra += ["--checks", str(Path(__file__).resolve().parent / "checks")]
    return codegen_main([command, *extra, *argv])


def generate_main(argv: list[str]) -> int:
    """Regenerate the bindings, header and cases from a spec (python -m codegen generate)."""
    return _codegen("generate", argv)


def check_main(argv: list[str]) -> int:
    """Exit 1 when the generated files are stale (python -m codegen check)."""
    return _codegen("check", argv)


def lint_main(argv: list[str]) -> int:
    """Validate the spec and write nothing (python -m codegen lint)."""
    return _codegen("lint", argv)


def sim_faults_main(argv: list[str]) -> int:
    """List the simulator's fault switches (ACLSIM_FAULTS names) and the rules they break."""
    return _codegen("sim-faults", argv)


# --------------------------------------------------------------------------- entry point


def build_parser(names: Sequence[str] | None = None) -> tuple[argparse.ArgumentParser, dict[str, Subcommand]]:
    """The top-level parser with every available subcommand."""
    parser = helptext.ArgumentParser(
        prog=PROG,
        description=_("Conformance kit for the CANN runtime's host-memory interfaces: run the spec's cases "
                      "against a libascendcl.so (or the reference simulator), certify a release, compare two runs."),
        epilog=_("'acl-conformance COMMAND --help' explains a command. Also: python -m conformance.\n"
                 "--lang zh|en (every command; certify also takes zh,en): the language of what a person reads,\n"
                 "--help included [ACL_LANG; default: from the locale, LANG=zh_CN.UTF-8 gives zh]."),
        formatter_class=helptext.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    loaded: dict[str, Subcommand] = {}
    for name in names or SUBCOMMANDS:
        command = load_subcommand(name)
        if command is None:
            continue
        if not isinstance(command, Subcommand):
            doc = (getattr(command, "__doc__", None) or "").strip().splitlines()
            sub.add_parser(name, help=_(HELP_LINES[name]) if name in HELP_LINES else (doc[0] if doc else name),
                           add_help=False)
            continue
        child = sub.add_parser(name, help=_(command.help), description=command.describe() if command.describe
                               else _(command.help), prog=f"{PROG} {name}",
                               formatter_class=helptext.RawDescriptionHelpFormatter)
        command.configure(child)
        child.add_argument("--lang", metavar="LANG", help=_(helptext.LANG_HELP))  # taken by main() before parsing
        loaded[name] = command
    return parser, loaded


def _known_options(parser: argparse.ArgumentParser, name: str) -> list[str]:
    """The long options the subcommand ``name`` of ``parser`` declares."""
    for action in parser._actions:  # argparse names its subparsers no other way
        if isinstance(action, argparse._SubParsersAction) and name in action.choices:
            return [o for o in action.choices[name]._option_string_actions if o.startswith("--")]
    return []


def misspelt_option(extra: Sequence[str], known: Sequence[str]) -> str | None:
    """What is wrong with the first argument of ``extra`` that reads as a misspelt option of the kit, or None.

    Arguments the kit does not know go to pytest, which would answer a typo with its usage text and
    exit 4; an unknown ``--acl-*`` option, or one close to a kit option, is the kit's, so it is said
    here in one line with the nearest known option.
    """
    for arg in extra:
        if arg == "--":
            break
        if not arg.startswith("--"):
            continue
        name = arg.split("=", 1)[0]
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.6 if name.startswith("--acl") else 0.85)
        if name.startswith("--acl") or close:
            return _("unknown option {name}").format(name=name) + (
                _(" (did you mean {name}?)").format(name=close[0]) if close else "")
    return None


#: The one subcommand whose document carries several languages at once (``--lang zh,en``).
SEVERAL_LANGUAGES = frozenset({"certify"})


def take_language(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """``--lang VALUE`` / ``--lang=VALUE`` taken out of ``argv`` (before a ``--``), and the rest.

    The language is the whole command line's, chosen once before any subcommand parses: plain
    ``main(argv)`` subcommands never see the option, and every message they print is already in it.
    """
    value: str | None = None
    rest: list[str] = []
    args = list(argv)
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            rest += args[index:]
            break
        if arg == "--lang":
            if index + 1 >= len(args):
                raise i18n.LanguageError("--lang: give one of " + ", ".join(i18n.LANGUAGES))
            value = args[index + 1]
            index += 2
            continue
        if arg.startswith("--lang="):
            value = arg.split("=", 1)[1]
        else:
            rest.append(arg)
        index += 1
    return value, rest


def choose_language(argv: Sequence[str]) -> list[str]:
    """Choose the process's language (--lang, ACL_LANG, the locale) and pass it on to the processes it
    starts (ACL_LANG); returns ``argv`` without ``--lang``. A value naming no language raises LanguageError."""
    value, rest = take_language(argv)
    several = bool(rest) and rest[0] in SEVERAL_LANGUAGES
    langs = i18n.resolve(value, several=several)
    i18n.choose(langs[0], also=langs[1:])
    os.environ[i18n.ENV] = langs[0]  # the judge, its self-test runs and renderers speak it too
    return rest


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` and run the chosen subcommand; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        argv = choose_language(argv)
    except i18n.LanguageError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return EXIT_BAD_COMMAND_LINE
    wanted = [argv[0]] if argv and argv[0] in SUBCOMMANDS else None
    if wanted:
        command = load_subcommand(argv[0])
        if command is not None and not isinstance(command, Subcommand):
            return int(command(argv[1:]) or 0)
    parser, loaded = build_parser(wanted)
    args, extra = parser.parse_known_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    command = loaded[args.command]
    if extra and not command.passthrough:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")  # argparse's words: the parser translates them
    typo = misspelt_option(extra, _known_options(parser, args.command))
    if typo:
        print(_("{prog} {command}: {typo}; `{prog} {command} --help` lists the options").format(
            prog=PROG, command=args.command, typo=typo), file=sys.stderr)
        return EXIT_BAD_COMMAND_LINE
    if "--" in extra:
        extra = [arg for arg in extra if arg != "--"]
    return command.run(args, extra)
