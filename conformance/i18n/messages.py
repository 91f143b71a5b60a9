"""The message IDs the code uses, as Babel's extractor finds them, against the catalogue of a language.

A message exists in one language only when the code passes an English ID to ``_``, ``gettext``,
``ngettext``, ``translate`` or ``N_`` that the ``.po`` file does not translate, or when the ``.po``
file translates an ID no code uses any more. :func:`problems` names both; the test of the
catalogue (tests/i18n) fails on any.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from . import DOMAIN, LANGUAGES, LOCALE_DIR

PACKAGE = Path(__file__).resolve().parents[1]
#: The calls whose first (string) argument is a message ID; ngettext's second is its plural.
KEYWORDS: dict[str, tuple[int, ...] | None] = {"_": None, "gettext": None, "N_": None, "translate": (1,),
                                               "ngettext": (1, 2)}


def used_ids(package: Path = PACKAGE) -> dict[str, str]:
    """Every message ID the code of ``package`` uses, with the first place it is used (``file:line``)."""
    from babel.messages.extract import extract_from_dir

    found: dict[str, str] = {}
    mapping = [("**.py", "python")]
    for filename, lineno, message, _comments, _context in extract_from_dir(
            str(package), method_map=mapping, keywords=KEYWORDS, strip_comment_tags=True):
        for msgid in message if isinstance(message, tuple) else (message,):
            if msgid:
                found.setdefault(msgid, f"{package.name}/{filename}:{lineno}")
    return found


def po_path(lang: str) -> Path:
    """The reviewed catalogue of ``lang``."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def translated(lang: str) -> dict[str, str]:
    """The ``.po`` file of ``lang`` as msgid -> msgstr (the plural's forms joined by a newline)."""
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    out: dict[str, str] = {}
    for message in catalog:
        if not message.id:
            continue
        ids = tuple(message.id) if isinstance(message.id, (tuple, list)) else (str(message.id),)
        strings = tuple(message.string) if isinstance(message.string, (tuple, list)) else (str(message.string or ""),)
        text = "\n".join(strings) if all(strings) else ""
        for msgid in ids:
            out[msgid] = text
    return out


def problems(lang: str, package: Path = PACKAGE) -> Iterator[str]:
    """One line per message ID that exists in one language only: used but not translated, or translated
    but no longer used."""
    used = used_ids(package)
    have = translated(lang)
    po = po_path(lang).relative_to(PACKAGE.parent)
    for msgid, where in sorted(used.items(), key=lambda item: item[1]):
        if not have.get(msgid, "").strip():
            yield f"{where}: {msgid!r} has no {lang} text in {po}"
    for msgid in sorted(set(have) - set(used)):
        yield f"{po}: {msgid!r} is used nowhere in the code"


def missing(lang: str, package: Path = PACKAGE) -> list[str]:
    """The used message IDs ``lang`` lacks, in the order the code uses them (a translator's work list)."""
    have = translated(lang)
    return [msgid for msgid in used_ids(package) if not have.get(msgid, "").strip()]


__all__ = ["KEYWORDS", "LANGUAGES", "missing", "problems", "translated", "used_ids"]
