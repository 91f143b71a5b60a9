"""What a prose field of the spec may contain.

Prose (titles, statements, meanings, summaries, descriptions) lands in Python docstrings
and literals, C comments, Markdown cells and JSON. The escapers of :mod:`codegen.escape`
make any text safe there; lint adds a second wall and keeps generated files readable by
refusing text that has no business in prose:

- invisible or line-breaking characters: controls (C0, DEL, C1), format characters (the
  bidi controls of "Trojan Source", zero-width joiners, the BOM), line and paragraph
  separators, spaces other than the ASCII space, surrogates, private-use and unassigned
  code points;
- the delimiters that end the contexts prose is placed in: ``\"\"\"`` and ``'''`` (Python
  docstrings and string blocks) and ``/*`` and ``*/`` (C comments).

The schema marks prose with the custom keyword ``prose: true`` (``common#/$defs/text``);
:func:`prose_keyword` implements it for the validator.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Any

from jsonschema.exceptions import ValidationError

DELIMITERS: dict[str, str] = {
    '"""': "closes a Python docstring",
    "'''": "closes a Python string block",
    "/*": "opens a C comment",
    "*/": "closes a C comment",
}
_REFUSED_CATEGORIES = {
    "Cc": "control character",
    "Cf": "invisible format character (bidi control, zero-width or BOM)",
    "Cs": "surrogate",
    "Co": "private-use character",
    "Cn": "unassigned code point",
    "Zl": "line separator",
    "Zp": "paragraph separator",
    "Zs": "space other than the ASCII space",
}


def refused_character(ch: str) -> str | None:
    """Why ``ch`` may not appear in prose, or None when it may."""
    if ch == " ":
        return None
    return _REFUSED_CATEGORIES.get(unicodedata.category(ch))


def _describe(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" {name}" if name else "")


def prose_problem(text: str) -> str | None:
    """The first reason ``text`` is not acceptable prose, or None; the message never quotes the text."""
    for index, ch in enumerate(text):
        why = refused_character(ch)
        if why is not None:
            return f"character {_describe(ch)} at offset {index} is a {why}, which prose may not contain"
    found = [(index, delimiter) for delimiter in DELIMITERS if (index := text.find(delimiter)) >= 0]
    if not found:
        return None
    index, delimiter = min(found)
    return f"contains {delimiter} at offset {index}, which {DELIMITERS[delimiter]}; prose may not contain " \
           f"{', '.join(DELIMITERS)}"


def prose_keyword(validator: Any, enabled: Any, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    """The ``prose`` keyword of the spec schemas: the string must pass :func:`prose_problem`."""
    if enabled and validator.is_type(instance, "string"):
        problem = prose_problem(instance)
        if problem is not None:
            yield ValidationError(problem)
