"""``--help`` in the process's language: argparse's own words, where the kit's texts are already translated.

Every parser of the kit translates its own texts (descriptions, epilogs, each option's help) with
:func:`~conformance.i18n.gettext` when it is built, which is after the CLI has chosen the language.
argparse adds a few words of its own (``usage:``, the section titles, the help of ``-h``); they
come from argparse's gettext domain, which the kit does not ship, so the formatters here pass them
through the kit's catalogue instead. In English every word is the message ID: ``--help`` reads
exactly as plain argparse writes it.
"""

from __future__ import annotations

import argparse
import re
import unicodedata
from collections.abc import Iterable

from . import N_, gettext

#: argparse's own words as argparse writes them (Python 3.10+), translated where ``--help`` shows them.
USAGE = N_("usage: ")
ARGPARSE_WORDS: tuple[str, ...] = (USAGE, N_("positional arguments"), N_("options"),
                                   N_("show this help message and exit"))
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


__all__ = ["ARGPARSE_WORDS", "LANG_HELP", "columns", "wrap", "HelpFormatter", "RawDescriptionHelpFormatter"]
