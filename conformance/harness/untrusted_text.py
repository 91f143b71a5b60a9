"""Strings the kit did not write (the library's SoC and version, waiver reasons, messages), made
safe for the place they are shown in.

Such a string can carry a newline that starts a Markdown heading ("## Verdict: **CERTIFIED**"
inside a NOT CERTIFIED certificate), a ``|`` that ends a table cell, raw HTML, an ANSI escape
that rewrites the terminal, or a bidirectional control that makes text read other than it is
stored. Each function here keeps every printable character readable and turns the rest into
something inert for its destination.
"""

from __future__ import annotations

import re
import unicodedata

#: Characters that can start inline Markdown syntax (CommonMark and GFM tables) or raw HTML. Block
#: syntax (``#``, ``-``, ``1.``) only starts a line, and no escaped text can start one: its line
#: breaks become character references.
_MD_ACTIVE = frozenset("\\`*_!|<>&~")
#: Unicode bidirectional formatting characters (embeddings, overrides, isolates, marks).
BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")


def unsafe_characters(text: str) -> list[str]:
    """The control and bidirectional characters of ``text`` (as ``U+XXXX``), which no reason or name
    the kit writes into a report may hold."""
    return [f"U+{ord(ch):04X}" for ch in str(text)
            if ch in BIDI or (unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") and ch != "\t")]


def markdown_text(text: str) -> str:
    """``text`` as inert inline Markdown: syntax characters backslash-escaped, anything that is not
    printable (line breaks, controls, bidirectional marks) as a numeric character reference, so the
    text stays on its line and in its table cell and starts nothing."""
    out = []
    text = str(text)
    for i, ch in enumerate(text):
        if ch == "_" and 0 < i < len(text) - 1 and text[i - 1].isalnum() and text[i + 1].isalnum():
            out.append(ch)  # inside a word (atlas_a2) an underscore opens no emphasis (CommonMark 6.2)
        elif ch == "]" and text[i + 1:i + 2] in ("(", "["):
            out.append("\\]")  # no link: brackets stay readable in case IDs (HM-X[size=1]) and link nothing
        elif ch == "[" and text[i + 1:i + 2] == "^":
            out.append("\\[")  # no footnote reference
        elif ch in _MD_ACTIVE:
            out.append("&amp;" if ch == "&" else "&lt;" if ch == "<" else "&gt;" if ch == ">" else "\\" + ch)
        elif ch.isprintable() and ch not in BIDI:
            out.append(ch)
        else:
            out.append(f"&#x{ord(ch):X};")
    return "".join(out)


def terminal_text(text: str) -> str:
    """``text`` for a terminal: ANSI escape sequences removed, other controls and bidirectional marks
    shown as ``\\uXXXX`` (tabs stay), so a library cannot move the cursor or recolour the kit's output."""
    cleaned = _ANSI.sub("", str(text))
    return "".join(ch if (ch.isprintable() and ch not in BIDI) or ch == "\t" else f"\\u{ord(ch):04x}"
                   for ch in cleaned)


#: What a case keeps of what the library printed, per stream: the head and the tail (F9: a library
#: that prints 50 MB per worker would otherwise land all of it in the bundle).
OUTPUT_CAP = 64 * 1024


def capped_output(text: str, cap: int = OUTPUT_CAP) -> str:
    """Captured library output for a report: at most ``cap`` characters (head and tail, with what was
    cut said in between), escape sequences removed and other controls shown, line breaks kept."""
    text = str(text)
    if len(text) > cap:
        half = cap // 2
        text = f"{text[:half]}\n[... {len(text) - 2 * half} characters cut ...]\n{text[-half:]}"
    return "\n".join(terminal_text(line) for line in text.split("\n"))
