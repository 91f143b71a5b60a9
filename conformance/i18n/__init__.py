"""The languages a person reads the kit in: English (the message IDs) and Chinese.

Every human text the kit prints or writes is an English message ID passed through
:func:`gettext` (imported as ``_``); the Chinese texts live in one gettext catalogue,
``locale/zh/LC_MESSAGES/acl_conformance.po``, written and reviewed in the repository (nothing
is machine-translated at run time). English needs no catalogue: the message ID is the text, so
English output is what it was before the catalogue existed.

The language of a process is chosen once, early (:func:`choose`): ``--lang``, else
``ACL_LANG``, else the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``: ``zh_CN.UTF-8`` gives
zh), else English. Machine-readable outputs (summary.json keys, outcome names, exit codes,
JUnit structure) never pass through here.
"""

from __future__ import annotations

import functools
import gettext as _gettext
import io
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

#: The languages the kit speaks, English first (the message IDs are English).
LANGUAGES: tuple[str, ...] = ("en", "zh")
DEFAULT = "en"
#: The environment twin of ``--lang``.
ENV = "ACL_LANG"
#: Locale variables in the order POSIX consults them for messages.
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
DOMAIN = "acl_conformance"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


class LanguageError(ValueError):
    """A --lang or ACL_LANG value that names no language the kit speaks."""


def _normalise(word: str) -> str | None:
    word = word.strip().lower().replace("-", "_")
    if not word:
        return None
    base = word.split(".")[0].split("@")[0].split("_")[0]
    return base if base in LANGUAGES else None


def parse(value: str, *, several: bool = False, source: str = "--lang") -> tuple[str, ...]:
    """The languages a ``--lang`` value names (``zh``, ``en``, ``zh_CN``; ``zh,en`` when ``several``);
    ``source`` names where the value came from in the one-line refusal."""
    shown = f"{source}={value}" if source == ENV else f"{source} {value}"
    words = [w for w in value.split(",") if w.strip()]
    if not words:
        raise LanguageError(f"{source}: give one of {', '.join(LANGUAGES)}")
    if len(words) > 1 and not several:
        raise LanguageError(f"{shown}: this command writes one language; give one of {', '.join(LANGUAGES)}")
    langs: list[str] = []
    for word in words:
        lang = _normalise(word)
        if lang is None:
            raise LanguageError(f"{shown}: {word.strip()} is not a language of the kit"
                                f" (choose from {', '.join(LANGUAGES)})")
        if lang not in langs:
            langs.append(lang)
    return tuple(langs)


def from_locale(env: Mapping[str, str] | None = None) -> str:
    """The language the locale asks for: the first set of LC_ALL, LC_MESSAGES, LANG; zh* gives zh."""
    env = os.environ if env is None else env
    for name in LOCALE_VARIABLES:
        value = env.get(name, "")
        if value:
            return _normalise(value) or DEFAULT
    return DEFAULT


def resolve(option: str | None = None, env: Mapping[str, str] | None = None, *,
            several: bool = False) -> tuple[str, ...]:
    """The languages chosen: ``option`` (``--lang``), else ``ACL_LANG``, else the locale."""
    env = os.environ if env is None else env
    if option:
        return parse(option, several=several)
    if env.get(ENV):
        return parse(env[ENV], several=several, source=ENV)
    return (from_locale(env),)


@functools.cache
def catalogue(lang: str) -> _gettext.NullTranslations:
    """The translations of ``lang``: English is the identity; others are read from their ``.po`` file."""
    if lang == DEFAULT:
        return _gettext.NullTranslations()
    po_path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not po_path.is_file():
        return _gettext.NullTranslations()
    # Babel compiles the reviewed .po into gettext's binary form in memory: no .mo in git.
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path.open("rb") as handle:
        messages = read_po(handle, locale=lang)
    buffer = io.BytesIO()
    write_mo(buffer, messages)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


_current: str | None = None
_languages: tuple[str, ...] = ()


def choose(lang: str, *, also: Sequence[str] = ()) -> None:
    """Make ``lang`` this process's language (:func:`gettext` answers in it from now on).

    ``also`` names further languages of a document that carries several (``certify --lang zh,en``):
    :func:`languages` returns ``lang`` first, then these.
    """
    global _current, _languages
    for each in (lang, *also):
        if each not in LANGUAGES:
            raise LanguageError(f"not a language of the kit: {each}")
    _current = lang
    _languages = tuple(dict.fromkeys((lang, *also)))


def current() -> str:
    """This process's language: the one chosen, else what ``ACL_LANG`` or the locale ask for.

    A process the CLI started (the judge of ``run``, a self-test run) inherits ``ACL_LANG`` from
    it and so speaks its language without being told; a value that names no language leaves
    English (the CLI has already refused it in one line).
    """
    global _current
    if _current is None:
        try:
            _current = resolve()[0]
        except LanguageError:
            _current = DEFAULT
    return _current


def reset() -> None:
    """Forget the language chosen: the next :func:`current` asks ``ACL_LANG`` and the locale again."""
    global _current, _languages
    _current, _languages = None, ()


def languages() -> tuple[str, ...]:
    """The languages of a document that may carry several (the certificate): those chosen, else :func:`current`."""
    return _languages or (current(),)


def translate(message: str, lang: str) -> str:
    """``message`` (an English message ID) in ``lang``; the ID itself where the catalogue lacks it."""
    if lang == DEFAULT:
        return message
    return catalogue(lang).gettext(message)


def gettext(message: str) -> str:
    """``message`` in this process's language (the usual ``_``)."""
    return translate(message, current())


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural form of a message for ``count``, in this process's language."""
    lang = current()
    if lang == DEFAULT:
        return singular if count == 1 else plural
    return catalogue(lang).ngettext(singular, plural, count)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it now: a table of English texts
    (declared once, also read by the generated docs) that is translated where it is shown."""
    return message


def both(message: str, langs: Sequence[str] = LANGUAGES) -> dict[str, str]:
    """``message`` in each of ``langs`` (a bilingual certificate's two texts)."""
    return {lang: translate(message, lang) for lang in langs}


_ = gettext
