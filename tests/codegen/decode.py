"""Read spec strings back out of generated files, by the rules of each file's language.

The inverses of :mod:`codegen.escape`, written independently of it: a Python module's
string constants (via ``ast``), a JSON document's strings, the comments and string
literals of C source (a small lexer), and the text of a Markdown file with its escapes
undone. The property tests use them to show that spec text survives generation exactly.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

_C_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
                     "\\": "\\", '"': '"', "'": "'", "?": "?"}
_MD_ENTITY = re.compile(r"&#x([0-9A-Fa-f]+);")


def python_strings(source: str) -> list[str]:
    """Every str constant of a Python module (docstrings included), exact."""
    return [n.value for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def json_strings(text: str) -> list[str]:
    """Every string (keys included) of a JSON document."""
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for key, item in value.items():
                found.append(key)
                walk(item)

    walk(json.loads(text))
    return found


def c_comment_text(body: str) -> str:
    """Undo :func:`codegen.escape.c_comment`: ``\\x``/``\\u``/``\\U`` + hex is a character, ``\\c`` is ``c``."""
    out, i = [], 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        kind = body[i + 1]
        width = {"x": 2, "u": 4, "U": 8}.get(kind)
        if width is not None and re.fullmatch(r"[0-9a-fA-F]+", body[i + 2 : i + 2 + width] or "-"):
            out.append(chr(int(body[i + 2 : i + 2 + width], 16)))
            i += 2 + width
        else:
            out.append(kind)
            i += 2
    return "".join(out)


def c_string_bytes(body: str) -> bytes:
    """The bytes a C string literal's body stands for (simple, octal and hex escapes)."""
    out = bytearray()
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out += ch.encode("utf-8")
            i += 1
            continue
        nxt = body[i + 1]
        octal = re.match(r"[0-7]{1,3}", body[i + 1 :])
        if octal:
            out.append(int(octal.group(0), 8) & 0xFF)
            i += 1 + len(octal.group(0))
        elif nxt == "x":
            digits = re.match(r"[0-9a-fA-F]+", body[i + 2 :])
            assert digits, f"bad hex escape in {body!r}"
            out.append(int(digits.group(0), 16) & 0xFF)
            i += 2 + len(digits.group(0))
        else:
            out += _C_SIMPLE_ESCAPES[nxt].encode()
            i += 2
    return bytes(out)


def c_payloads(source: str) -> tuple[list[str], list[bytes]]:
    """(decoded comments, decoded string literals) of C source; fails on an unterminated one."""
    comments: list[str] = []
    strings: list[bytes] = []
    i = 0
    while i < len(source):
        if source.startswith("/*", i):
            end = source.index("*/", i + 2)
            comments.append(c_comment_text(source[i + 2 : end]))
            i = end + 2
        elif source.startswith("//", i):
            end = source.find("\n", i)
            i = len(source) if end < 0 else end
        elif source[i] in "\"'":
            quote, j = source[i], i + 1
            while source[j] != quote:
                assert source[j] != "\n", "string literal runs past the end of its line"
                j += 2 if source[j] == "\\" else 1
            if quote == '"':
                strings.append(c_string_bytes(source[i + 1 : j]))
            i = j + 1
        else:
            i += 1
    return comments, strings


def markdown_text(text: str) -> str:
    """Undo Markdown escapes: a backslash before ASCII punctuation, and ``&#xHEX;`` references."""
    out, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text) and text[i + 1].isascii() and not text[i + 1].isalnum() \
                and text[i + 1] not in " \n":
            out.append(text[i + 1])
            i += 2
            continue
        entity = _MD_ENTITY.match(text, i) if ch == "&" else None
        if entity:
            out.append(chr(int(entity.group(1), 16)))
            i = entity.end()
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def markdown_cells(line: str) -> list[str]:
    """A GFM table row split at its unescaped pipes (escapes kept); any other line whole."""
    if not line.startswith("|"):
        return [line]
    cells, current, i = [], [], 1
    while i < len(line):
        if line[i] == "\\" and i + 1 < len(line):
            current.append(line[i : i + 2])
            i += 2
        elif line[i] == "|":
            cells.append("".join(current))
            current, i = [], i + 1
        else:
            current.append(line[i])
            i += 1
    return cells + (["".join(current)] if current else [])


def markdown_code_span(span: str) -> str:
    """The text of a whole GFM code span: fence off, one padding space off each side, ``\\|`` as ``|``."""
    fence = len(span) - len(span.lstrip("`"))
    assert fence and span.endswith("`" * fence), span
    inner = span[fence:-fence]
    if len(inner) >= 2 and inner.startswith(" ") and inner.endswith(" ") and inner.strip(" "):
        inner = inner[1:-1]
    return inner.replace("\\|", "|")


def payloads(path: Path) -> list[str]:
    """The spec text a generated file carries, decoded by the rules of its language."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        return python_strings(text)
    if path.suffix == ".json":
        return json_strings(text)
    if path.suffix in (".c", ".h", ".cdef"):
        comments, strings = c_payloads(text)
        return comments + [s.decode("utf-8", errors="surrogatepass") for s in strings]
    if path.suffix == ".md":
        return [markdown_text(cell) for line in text.splitlines() for cell in markdown_cells(line)]
    raise AssertionError(f"no decoder for {path}")
