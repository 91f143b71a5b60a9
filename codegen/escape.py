"""Escapers: one per context a spec string can land in inside a generated file.

Every escaper is exact: the text can be recovered unchanged from its output by the rules
of the destination language (a Python literal by ``ast.literal_eval``, a C string by the C
compiler, a comment or a Markdown cell by the inverse written down in each docstring), and
no input can end the context early. The spec's lint already refuses control characters,
bidi controls and comment or docstring delimiters in prose (:mod:`codegen.prose`); the
escapers do not rely on that, so a template that receives unchecked text stays safe.

No escaper here produces a Python raw string: raw strings cannot hold every text (a
trailing backslash, the closing quotes), so prose never goes into one.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

# Markdown characters that start inline syntax anywhere in a line (emphasis, code, links,
# HTML, entities, GFM tables, strikethrough and math; `!` and `#` act only before `[` or at a
# line start, neither of which a cell can produce); each gets a backslash, which
# CommonMark defines for every ASCII punctuation character.
_MD_ACTIVE = frozenset("\\`*_[]<>|&~$")


def _unicode_escape(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def py_literal(value: Any) -> str:
    """A Python literal for plain data (str, int, bool, None, and lists, tuples, dicts of them).

    Strings use ``repr``, which escapes quotes, backslashes and every non-printable
    character, so ``ast.literal_eval`` gives the value back exactly. Other types (a float
    that slipped past validation, say) raise TypeError instead of rendering something
    approximate.
    """
    if isinstance(value, bool) or value is None or isinstance(value, int):
        return repr(value)
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (list, tuple)):
        inner = ", ".join(py_literal(v) for v in value)
        if isinstance(value, list):
            return f"[{inner}]"
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{py_literal(k)}: {py_literal(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no Python literal for {type(value).__name__}")


def py_docstring(text: str) -> str:
    """Text for the inside of a ``\"\"\"...\"\"\"`` docstring, exactly recoverable.

    Backslashes and every double quote are escaped (a text ending in a quote would otherwise
    merge with the closing ones), and so is every non-printable character, line breaks
    included; the docstring's value is ``text`` unchanged.
    """
    out = []
    for ch in str(text):
        if ch in '\\"':
            out.append("\\" + ch)
        elif ch.isprintable():
            out.append(ch)
        else:
            out.append(_unicode_escape(ch))
    return "".join(out)


def c_string(text: str) -> str:
    """A C string literal whose bytes are the UTF-8 encoding of ``text``.

    Printable ASCII stays as it is except ``"``, ``\\\\`` and ``?`` (which could start a
    trigraph such as ``??/``); every other byte, NUL included, becomes a three-digit octal
    escape, which cannot swallow a following digit. ``json.dumps`` is not a C literal: its
    ``\\u`` escapes name Unicode characters that C reads differently.
    """
    out = ['"']
    for byte in str(text).encode("utf-8", errors="surrogatepass"):
        ch = chr(byte)
        if ch in '"\\?':
            out.append("\\" + ch)
        elif 0x20 <= byte < 0x7F:
            out.append(ch)
        else:
            out.append(f"\\{byte:03o}")
    out.append('"')
    return "".join(out)


def c_comment(text: str) -> str:
    """Text for the inside of a ``/* ... */`` comment, exactly recoverable.

    A backslash goes before every backslash, before the ``/`` of ``*/`` and before the
    ``*`` of ``/*``, so no comment can end or nest; non-printable characters (line breaks
    included) become ``\\xNN``/``\\uNNNN``/``\\UNNNNNNNN``. Inverse: read left to right, a
    backslash followed by ``x``/``u``/``U`` and hex digits is that character, followed by any
    other character is that character.
    """
    out = []
    previous = ""
    for ch in str(text):
        if ch == "\\":
            out.append("\\\\")
        elif (ch == "/" and previous == "*") or (ch == "*" and previous == "/"):
            out.append("\\" + ch)
        elif ch.isprintable():
            out.append(ch)
        else:
            out.append(_unicode_escape(ch))
        previous = ch
    return "".join(out)


def md(text: str) -> str:
    """Text for a Markdown table cell (GFM), exactly recoverable.

    Every character that can start inline syntax gets a CommonMark backslash escape (``|``
    included, which GFM honours inside cells); non-printable characters, which could end
    the row, become numeric character references. Inverse: a backslash before ASCII
    punctuation is that character; ``&#xHEX;`` is the character it names.
    """
    out = []
    for ch in str(text):
        if ch in _MD_ACTIVE:
            out.append("\\" + ch)
        elif ch.isprintable():
            out.append(ch)
        else:
            out.append(f"&#x{ord(ch):X};")
    return "".join(out)


def md_code(text: str) -> str:
    """A Markdown code span showing ``text`` literally, safe in a GFM table cell.

    The fence is one backtick longer than the longest run inside; a space pads text that
    starts or ends with a backtick (CommonMark strips one such space); ``|`` is escaped,
    as GFM requires even inside code. Text a code span cannot hold (line breaks, other
    non-printables) falls back to :func:`md`.
    """
    text = str(text)
    if not text or not text.isprintable():
        return md(text)
    longest = run = 0
    for ch in text:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or (text.startswith(" ") and text.endswith(" ")) else ""
    return f"{fence}{pad}{text.replace('|', chr(92) + '|')}{pad}{fence}"


def md_url(url: str) -> str:
    """A link destination for ``[text](url)``: anything outside a URL's plain characters is percent-encoded."""
    return quote(str(url), safe=":/#?&=.-_~%+@")
