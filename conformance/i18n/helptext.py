"""``--help`` and command-line mistakes in the process's language: argparse's own words, where the kit's
texts are already translated.

Every parser of the kit translates its own texts (descriptions, epilogs, each option's help) with
:func:`~conformance.i18n.gettext` when it is built, which is after the CLI has chosen the language.
argparse adds words of its own (``usage:``, the section titles, the help of ``-h``, its error
messages); they come from argparse's gettext domain, which the kit does not ship, so the formatters
and the parser class here pass them through the kit's catalogue instead. In English every word is
the message ID: ``--help`` and the errors read exactly as plain argparse writes them.
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from collections.abc import Iterable
from typing import NoReturn

from . import N_, gettext

#: argparse's own words as argparse writes them (Python 3.10+), translated where ``--help`` shows them.
USAGE = N_("usage: ")
ARGPARSE_WORDS: tuple[str, ...] = (USAGE, N_("positional arguments"), N_("options"),
                                   N_("show this help message and exit"))
#: argparse's error messages a mistaken command line meets, as argparse formats them (``%s``, ``%(name)s``).
ERROR = N_("%(prog)s: error: %(message)s\n")
ARGPARSE_ERRORS: tuple[str, ...] = (
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at least one argument"),
    N_("expected at most one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
)
#: The help of ``--lang``, which every subcommand of the CLI declares.
LANG_HELP = N_("language of what a person reads: zh or en (certify also takes zh,en) [ACL_LANG; default: from LANG]")


#: Characters a terminal shows two columns wide (CJK ideographs, punctuation and full-width forms); Chinese
#: text may break between any two of them, and has no spaces to break at.
_WIDE_CHARS = "\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
_WIDE = re.compile(f"[{_WIDE_CHARS}]")
#: What a line may break around: a space, one wide character, or a run of anything else (a word).
_TOKEN = re.compile(f" |[{_WIDE_CHARS}]|[^ {_WIDE_CHARS}]+")
#: Punctuation that never starts a line in Chinese typesetting: it stays at the end of the line before.
_NO_LINE_START = frozenset("，。、；：？！）》」』】,.;:?!)]")


def columns(text: str) -> int:
    """How many terminal columns ``text`` takes (a wide character two)."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def wrap(text: str, width: int) -> list[str]:
    """``text`` (whitespace collapsed, as argparse does) in lines of at most ``width`` terminal columns,
    broken at spaces and between wide characters; a word longer than ``width`` keeps a line of its own,
    and punctuation that may not start a line stays on the line before, past ``width``."""
    lines: list[str] = []
    line = ""
    for token in _TOKEN.findall(" ".join(text.split())):
        if token == " ":
            line += " " if line else ""
            continue
        if line.strip() and columns(line.rstrip() + token) > width and token not in _NO_LINE_START:
            lines.append(line.rstrip())
            line = ""
        line += token
    if line.strip():
        lines.append(line.rstrip())
    return lines


def _pattern(message: str) -> re.Pattern[str]:
    """A regular expression that matches ``message`` as argparse fills it in, one group per placeholder."""
    parts = re.split(r"(%s|%\(\w+\)[sr])", message)
    return re.compile("".join(
        "(.*?)" if part == "%s" else f"(?P<{part[2:-2]}>.*?)" if part.startswith("%(") else re.escape(part)
        for part in parts) + "$", re.DOTALL)


def argparse_error(message: str) -> str:
    """An error message argparse wrote in English, in the process's language (itself when it is none of
    :data:`ARGPARSE_ERRORS`); the values in it (option names, choices) stay as written."""
    for template in ARGPARSE_ERRORS:
        found = _pattern(template).match(message)
        if found is None:
            continue
        said = gettext(template)
        values = found.groupdict()
        if values:
            if "message" in values:  # "argument --x: invalid int value: 'y'": the inner message too
                values["message"] = argparse_error(values["message"])
            return re.sub(r"%\((\w+)\)r", r"%(\1)s", said) % values  # the values are already repr()'d
        return said.replace("%s", found.group(1)) if found.groups() else said
    return message


class _Localised(argparse.HelpFormatter):
    """argparse's words (usage prefix, section titles, ``-h``'s help) in the process's language."""

    def add_usage(self, usage: str | None, actions: Iterable[argparse.Action],
                  groups: Iterable[argparse._MutuallyExclusiveGroup], prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, gettext(USAGE) if prefix is None else prefix)

    def start_section(self, heading: str | None) -> None:
        super().start_section(gettext(heading) if heading else heading)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if isinstance(action, argparse._HelpAction) and action.help:  # the only help argparse writes itself
            return gettext(action.help)
        return action.help

    def _split_lines(self, text: str, width: int) -> list[str]:
        # argparse wraps by characters; a Chinese help would run twice as wide as the terminal.
        return wrap(text, width) if _WIDE.search(text) else super()._split_lines(text, width)


class HelpFormatter(_Localised):
    """argparse's default layout (paragraphs re-wrapped), in the process's language."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if not _WIDE.search(text):
            return super()._fill_text(text, width, indent)
        return "\n".join(indent + line for line in wrap(text, width - len(indent)))


class RawDescriptionHelpFormatter(_Localised, argparse.RawDescriptionHelpFormatter):
    """A description and epilog kept as written (tables, lists), in the process's language."""


class ArgumentParser(argparse.ArgumentParser):
    """An argparse parser whose ``--help`` and error messages are in the process's language."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def error(self, message: str) -> NoReturn:
        """Print the usage and ``message`` (argparse's English, translated) to stderr; exit 2, as argparse does."""
        self.print_usage(sys.stderr)
        self.exit(2, gettext(ERROR) % {"prog": self.prog, "message": argparse_error(message)})


__all__ = ["ARGPARSE_ERRORS", "ARGPARSE_WORDS", "LANG_HELP", "ArgumentParser", "HelpFormatter",
           "RawDescriptionHelpFormatter", "argparse_error", "columns", "wrap"]
