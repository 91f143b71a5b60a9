"""``python -m conformance``: the command line of the conformance kit.

Subcommands are looked up in :data:`SUBCOMMANDS`, a table of ``name -> "module:attribute"``.
The attribute is either a :class:`Subcommand` (its arguments join this parser and its
``--help``) or a plain ``main(argv) -> int`` function that receives the remaining arguments
untouched. Adding a subcommand is one small module plus one line in the table; modules are
imported only when needed, so a missing or broken one does not break the others.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .session import command as run_command


@dataclass(frozen=True)
class Subcommand:
    """One subcommand: its help line, how it declares its arguments, and what it runs.

    ``run(args, extra)`` returns the exit status; ``extra`` holds arguments the parser did
    not know (passed on to pytest by ``run``; other subcommands usually reject them).
    """

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, list[str]], int]
    description: str = ""
    passthrough: bool = False


SUBCOMMANDS: dict[str, str] = {
    "run": "conformance.cli:RUN",
    "certify": "conformance.certify.command:certify_main",
    "verify": "conformance.certify.command:verify_main",
    "gate": "conformance.gate.command:main",
    "compare": "conformance.gate.command:main",
    "merge": "conformance.fleet.command:main",
    "selftest": "conformance.selftest.command:main",
}


def load_subcommand(name: str) -> Subcommand | Callable[[list[str]], int] | None:
    """The subcommand (or plain ``main``) registered as ``name``; None when its module is absent."""
    target = SUBCOMMANDS.get(name)
    if target is None:
        return None
    module_name, _, attribute = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return None
        raise
    return getattr(module, attribute, None)


RUN = Subcommand("run", "run the conformance suite and write the reports", run_command.configure, run_command.run_suite,
                 description=run_command.RUN_DESCRIPTION, passthrough=True)


# --------------------------------------------------------------------------- entry point


def build_parser(names: Sequence[str] | None = None) -> tuple[argparse.ArgumentParser, dict[str, Subcommand]]:
    """The top-level parser with every available subcommand."""
    parser = argparse.ArgumentParser(
        prog="python -m conformance",
        description="Conformance kit for the CANN runtime's host-memory interfaces.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    loaded: dict[str, Subcommand] = {}
    for name in names or SUBCOMMANDS:
        command = load_subcommand(name)
        if command is None:
            continue
        if not isinstance(command, Subcommand):
            doc = (getattr(command, "__doc__", None) or "").strip().splitlines()
            sub.add_parser(name, help=doc[0] if doc else name, add_help=False)
            continue
        child = sub.add_parser(name, help=command.help, description=command.description or command.help,
                               formatter_class=argparse.RawDescriptionHelpFormatter)
        command.configure(child)
        loaded[name] = command
    return parser, loaded


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` and run the chosen subcommand; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
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
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    return command.run(args, extra)
