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
from collections.abc import Iterable

from . import N_, gettext

#: argparse's own words as argparse writes them (Python 3.10+), translated where ``--help`` shows them.
USAGE = N_("usage: ")
ARGPARSE_WORDS: tuple[str, ...] = (USAGE, N_("positional arguments"), N_("options"),
                                   N_("show this help message and exit"))
#: The help of ``--lang``, which every subcommand of the CLI declares.
LANG_HELP = N_("language of what a person reads: zh or en (certify also takes zh,en) [ACL_LANG; default: from LANG]")


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


class HelpFormatter(_Localised):
    """argparse's default layout (paragraphs re-wrapped), in the process's language."""


class RawDescriptionHelpFormatter(_Localised, argparse.RawDescriptionHelpFormatter):
    """A description and epilog kept as written (tables, lists), in the process's language."""


__all__ = ["ARGPARSE_WORDS", "LANG_HELP", "HelpFormatter", "RawDescriptionHelpFormatter"]
