"""A small parser for the public ACL C headers, and a comparison of two releases' declarations.

It reads what ``release-diff`` needs from ``include/external/acl/*.h``: function declarations
(C prototypes and the C++ inline overloads of ``acl_rt_api.h``) with their doxygen comment,
``typedef enum``/``struct``/``union`` definitions with member values, and object-like
``#define`` constants. It is not a C parser: it handles the shapes these headers use
(declarations that start a line, one level of braces in typedefs, integer constant
expressions in enums), and it normalises spelling (``void** p`` and ``void **p`` are one type,
``0X10`` and ``0x10UL`` one value), so a reformatted release shows no false changes.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

_IDENT = re.compile(r"[A-Za-z_]\w*\Z")
_TYPE_TOKEN = re.compile(r"[A-Za-z_]\w*|::|\[[^\]]*\]|\S")
_INT = re.compile(r"\(?\s*(0[xX][0-9a-fA-F]+|0[bB][01]+|\d+)[uUlL]*\s*\)?\Z")
_DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)(?!\()(?:\s+(.*?))?\s*$")
_ENUM = re.compile(r"\btypedef\s+enum\s*(\w+)?\s*\{([^{}]*)\}\s*(\w+)\s*;|\benum\s+(\w+)\s*\{([^{}]*)\}\s*;")
_RECORD = re.compile(r"\btypedef\s+(struct|union)\s*(\w+)?\s*\{([^{}]*)\}\s*(\w+)\s*;")
_QUALIFIERS = ("ACL_FUNC_VISIBILITY", "static", "inline", "extern")


@dataclass(frozen=True)
class Param:
    """One parameter: name (may be empty), normalised type, default value as written (C++)."""

    name: str
    type: str
    default: str = ""

    def text(self) -> str:
        """``void **ptr`` / ``uint64_t size`` / ``aclrtMallocConfig *cfg = nullptr``."""
        sep = "" if self.type.endswith(("*", "&")) else " "
        out = f"{self.type}{sep}{self.name}" if self.name else self.type
        return f"{out} = {self.default}" if self.default else out


@dataclass(frozen=True)
class Function:
    """A declared function: where, what it returns, its parameters and its doxygen comment lines."""

    name: str
    returns: str
    params: tuple[Param, ...]
    variant: str  # "C" (a prototype) or "C++" (an inline/template overload)
    file: str
    first: int
    last: int
    comment: tuple[str, ...] = ()
    comment_first: int = 0
    comment_last: int = 0

    @property
    def key(self) -> str:
        """What identifies it across releases: the name, and for a C++ overload its parameter types."""
        if self.variant == "C":
            return self.name
        return f"{self.name}({', '.join(p.type for p in self.params)}) [C++]"

    def signature(self) -> str:
        """The declaration in one normalised line."""
        sep = "" if self.returns.endswith("*") else " "
        return f"{self.returns}{sep}{self.name}({', '.join(p.text() for p in self.params)})"


@dataclass(frozen=True)
class Member:
    """An enum member, a struct/union field or a macro: name, value (int when computable), text."""

    name: str
    value: int | None
    text: str
    line: int


@dataclass(frozen=True)
class TypeDef:
    """A ``typedef enum``/``struct``/``union`` (or a tagged ``enum``) and its members in order."""

    name: str
    kind: str  # enum | struct | union
    members: tuple[Member, ...]
    file: str
    first: int
    last: int


@dataclass
class Header:
    """Everything parsed from one header file."""

    path: str
    functions: list[Function] = field(default_factory=list)
    types: dict[str, TypeDef] = field(default_factory=dict)
    macros: dict[str, Member] = field(default_factory=dict)
    macro_files: dict[str, str] = field(default_factory=dict)


def normalise_type(text: str) -> str:
    """One spelling for a C type: tokens separated by one space, pointer stars joined (``void **``)."""
    out: list[str] = []
    for token in _TYPE_TOKEN.findall(text):
        if token in ("*", "&") and out and out[-1][-1] in "*&":
            out[-1] += token
        else:
            out.append(token)
    return " ".join(out)


def blank_comments(text: str) -> tuple[str, list[tuple[int, int, str]]]:
    """The text with comments replaced by spaces (newlines kept), and (start, end, text) of each comment."""
    out = list(text)
    comments: list[tuple[int, int, str]] = []
    i, n = 0, len(text)
    while i < n:
        two = text[i:i + 2]
        if two == "/*":
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
        elif two == "//":
            end = text.find("\n", i)
            end = n if end < 0 else end
        elif text[i] in "\"'":
            quote, j = text[i], i + 1
            while j < n and text[j] != quote and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        else:
            i += 1
            continue
        comments.append((i, end, text[i:end]))
        for k in range(i, end):
            if out[k] != "\n":
                out[k] = " "
        i = end
    return "".join(out), comments


def _blank_preprocessor(code: str) -> str:
    """The code with preprocessor lines (and their continuations) blanked."""
    lines = code.split("\n")
    continued = False
    for index, line in enumerate(lines):
        if continued or line.lstrip().startswith("#"):
            continued = line.rstrip().endswith("\\")
            lines[index] = " " * len(line)
    return "\n".join(lines)


def _split_top(text: str, sep: str) -> list[tuple[int, str]]:
    """(offset, piece) of ``text`` split at ``sep`` outside parentheses, brackets and angle brackets."""
    pieces, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([<":
            depth += 1
        elif ch in ")]>":
            depth = max(0, depth - 1)
        elif ch == sep and depth == 0:
            pieces.append((start, text[start:i]))
            start = i + 1
    pieces.append((start, text[start:]))
    return pieces


def parse_param(text: str) -> Param | None:
    """A parameter (or struct field) declaration; None for ``void`` or nothing."""
    text = " ".join(text.split())
    if not text or text == "void" or text == "...":
        return None if text != "..." else Param("", "...")
    default = ""
    pieces = _split_top(text, "=")
    if len(pieces) > 1:
        text, default = pieces[0][1].strip(), "=".join(p for _, p in pieces[1:]).strip()
    array = ""
    match = re.search(r"((?:\s*\[[^\]]*\])+)\s*\Z", text)
    if match:
        array, text = "".join(match.group(1).split()), text[: match.start()]
    tokens = _TYPE_TOKEN.findall(text)
    name = ""
    if len(tokens) >= 2 and _IDENT.match(tokens[-1]) and tokens[-1] not in ("const", "volatile"):
        name = tokens.pop()
    kind = normalise_type(" ".join(tokens))
    return Param(name, f"{kind} {array}" if array else kind, default)


_OPS: dict[type, Callable[..., int]] = {
    ast.BitOr: operator.or_, ast.BitAnd: operator.and_, ast.BitXor: operator.xor, ast.LShift: operator.lshift,
    ast.RShift: operator.rshift, ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.USub: operator.neg, ast.Invert: operator.invert, ast.UAdd: operator.pos,
}


def int_value(expr: str, names: dict[str, int | None] | None = None) -> int | None:
    """The value of an integer constant expression (hex/decimal literals with U/L suffixes, names
    already known, ``| & ^ << >> + - * ~``), or None when it is anything else."""
    expr = expr.strip()
    match = _INT.match(expr)
    if match:
        return int(match.group(1), 0)
    cleaned = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b", r"\1", expr)
    try:
        tree = ast.parse(cleaned, mode="eval")
    except SyntaxError:
        return None

    def value(node: ast.AST) -> int | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.Name) and names is not None:
            return names.get(node.id)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            left, right = value(node.left), value(node.right)
            return None if left is None or right is None else _OPS[type(node.op)](left, right)
        if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
            inner = value(node.operand)
            return None if inner is None else _OPS[type(node.op)](inner)
        return None

    try:
        return value(tree.body)
    except (ValueError, OverflowError):
        return None


def _comment_lines(raw: str) -> tuple[str, ...]:
    """The text lines of a comment without ``/**``, ``*`` and ``*/``, blank lines dropped."""
    out = []
    for line in raw.split("\n"):
        line = line.strip()
        line = re.sub(r"^/\*+|\*+/$", "", line).strip()
        line = re.sub(r"^//+|^\*+", "", line).strip()
        if line:
            out.append(" ".join(line.split()))
    return tuple(out)


class _Lines:
    """Maps character offsets of a text to 1-based line numbers."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def __call__(self, offset: int) -> int:
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1


def _function_pattern(names: Iterable[str]) -> re.Pattern[str]:
    alternatives = "|".join(sorted((re.escape(n) for n in names), key=len, reverse=True))
    qualifiers = "|".join(_QUALIFIERS)
    return re.compile(
        r"^[ \t]*(?P<prefix>(?:template\s*<[^;{}()]*>\s*)?(?:(?:" + qualifiers + r")\s+)*)"
        r"(?P<ret>(?:const\s+)?[A-Za-z_]\w*(?:\s*\*+)?)\s*\b(?P<name>" + alternatives + r")\s*"
        r"\((?P<params>[^;{}]*?)\)\s*(?:const\s*)?[;{]",
        re.M,
    )


def parse_header(path: str, text: str, functions: Iterable[str]) -> Header:
    """Parse one header: declarations of the named ``functions``, every typedef and every ``#define``."""
    header = Header(path)
    uncommented, comments = blank_comments(text)
    code = _blank_preprocessor(uncommented)
    line_of = _Lines(text)
    raw_lines = text.split("\n")
    # Only a comment that starts its own line documents what follows; a trailing one (``#define X 1 // x``)
    # belongs to its line.
    comment_by_end = {line_of(max(start, end - 1)): (line_of(start), raw) for start, end, raw in comments
                      if not text[text.rfind("\n", 0, start) + 1:start].strip()}
    names = list(functions)
    if names:
        for match in _function_pattern(names).finditer(code):
            header.functions.append(_function(match, path, line_of, raw_lines, comment_by_end))
    for match in _ENUM.finditer(code):
        name = match.group(3) or match.group(4)
        body_group = 2 if match.group(3) else 5
        header.types[name] = TypeDef(name, "enum", _enum_members(code, match, body_group, line_of), path,
                                     line_of(match.start()), line_of(match.end() - 1))
    for match in _RECORD.finditer(code):
        fields = []
        for offset, piece in _split_top(match.group(3), ";"):
            param = parse_param(piece)
            if param is not None and param.name:
                fields.append(Member(param.name, None, param.type, line_of(match.start(3) + offset + _lead(piece))))
        header.types[match.group(4)] = TypeDef(match.group(4), match.group(1), tuple(fields), path,
                                               line_of(match.start()), line_of(match.end() - 1))
    known: dict[str, int | None] = {}
    for number, line in enumerate(uncommented.split("\n"), start=1):
        define = _DEFINE.match(line)
        if define:
            name, value = define.group(1), (define.group(2) or "").strip()
            known[name] = int_value(value, known)
            header.macros[name] = Member(name, known[name], value, number)
            header.macro_files[name] = path
    return header


def _lead(piece: str) -> int:
    return len(piece) - len(piece.lstrip())


def _function(match: re.Match[str], path: str, line_of: _Lines, raw_lines: list[str],
              comment_by_end: dict[int, tuple[int, str]]) -> Function:
    prefix = match.group("prefix")
    variant = "C++" if re.search(r"\b(template|inline|static)\b", prefix) else "C"
    params = tuple(p for p in (parse_param(piece) for _, piece in _split_top(match.group("params"), ","))
                   if p is not None)
    first, last = line_of(match.start("prefix")), line_of(match.end() - 1)
    # The doxygen comment is the one that ends just above the declaration (blank lines allowed).
    above = first - 1
    while above >= 1 and not raw_lines[above - 1].strip():
        above -= 1
    comment: tuple[str, ...] = ()
    c_first = c_last = 0
    if above in comment_by_end:
        c_first, raw = comment_by_end[above]
        c_last = above
        comment = _comment_lines(raw)
    return Function(match.group("name"), normalise_type(match.group("ret")), params, variant, path, first, last,
                    comment, c_first, c_last)


def _enum_members(code: str, match: re.Match[str], group: int, line_of: _Lines) -> tuple[Member, ...]:
    members: list[Member] = []
    known: dict[str, int | None] = {}
    previous: int | None = -1
    body_start = match.start(group)
    for offset, piece in _split_top(match.group(group), ","):
        name, _, expr = piece.partition("=")
        name = name.strip()
        if not _IDENT.match(name):
            continue
        expr = " ".join(expr.split())
        value = int_value(expr, known) if expr else (None if previous is None else previous + 1)
        known[name] = previous = value
        members.append(Member(name, value, expr, line_of(body_start + offset + _lead(piece))))
    return tuple(members)


def merge_headers(headers: Iterable[Header]) -> Header:
    """One view of several headers (a release's ``include/external/acl``): the first definition of a
    type or macro wins, as the first included header's would."""
    merged = Header("")
    for header in headers:
        merged.functions.extend(header.functions)
        for name, typedef in header.types.items():
            merged.types.setdefault(name, typedef)
        for name, macro in header.macros.items():
            if name not in merged.macros:
                merged.macros[name] = macro
                merged.macro_files[name] = header.macro_files[name]
    return merged


@dataclass(frozen=True)
class Change:
    """One difference between two releases' declarations.

    ``what`` is function | type | member | macro; ``change`` added | removed | changed;
    ``old``/``new`` the declaration as text, ``detail`` what changed in words, ``*_at`` file:line.
    """

    what: str
    name: str
    change: str
    old: str = ""
    new: str = ""
    detail: str = ""
    old_at: str = ""
    new_at: str = ""


def compare_headers(old: Header, new: Header, types: Iterable[str], macro_prefixes: Iterable[str]) -> list[Change]:
    """Functions (those parsed), the named ``types`` with their members, and the macros whose names start
    with one of ``macro_prefixes``, added, removed or changed from ``old`` to ``new``.

    Spelling alone (``void** p`` / ``void **p``, ``0X10`` / ``0x10UL``) is not a change: types and
    values are compared normalised.
    """
    return (_compare_functions(old, new) + _compare_types(old, new, list(types))
            + _compare_macros(old, new, tuple(macro_prefixes)))


def _at(file: str, line: int) -> str:
    return f"{file}:{line}" if file else ""


def _compare_functions(old: Header, new: Header) -> list[Change]:
    before = {f.key: f for f in old.functions}
    after = {f.key: f for f in new.functions}
    out = []
    for key in sorted(before.keys() | after.keys()):
        a, b = before.get(key), after.get(key)
        if a is None and b is not None:
            out.append(Change("function", key, "added", new=b.signature(), new_at=_at(b.file, b.first)))
        elif b is None and a is not None:
            out.append(Change("function", key, "removed", old=a.signature(), old_at=_at(a.file, a.first)))
        elif a is not None and b is not None:
            details = _function_details(a, b)
            if details:
                out.append(Change("function", key, "changed", a.signature(), b.signature(), "; ".join(details),
                                  _at(a.file, a.first), _at(b.file, b.first)))
    return out


def _function_details(a: Function, b: Function) -> list[str]:
    """What differs between two declarations of one function, in words ([] when nothing does)."""
    details = []
    if a.returns != b.returns:
        details.append(f"returns {a.returns} -> {b.returns}")
    if len(a.params) != len(b.params):
        details.append(f"{len(a.params)} -> {len(b.params)} parameters")
    for index, (p, q) in enumerate(zip(a.params, b.params), start=1):
        if p != q:
            details.append(f"parameter {index}: {p.text()} -> {q.text()}")
    # Re-wrapped comment lines say the same; only a change of words is one.
    if " ".join(a.comment).split() != " ".join(b.comment).split():
        details.append("doc comment: " + " / ".join(_comment_delta(a.comment, b.comment)))
    return details


def _comment_delta(old: tuple[str, ...], new: tuple[str, ...]) -> list[str]:
    """The comment lines removed (``-``) and added (``+``)."""
    gone = [f"- {line}" for line in old if line not in new]
    came = [f"+ {line}" for line in new if line not in old]
    return gone + came or ["reordered"]


def _compare_types(old: Header, new: Header, names: list[str]) -> list[Change]:
    out = []
    for name in names:
        a, b = old.types.get(name), new.types.get(name)
        if a is None and b is None:
            continue
        if a is None and b is not None:
            # The type's text lists its members; they are not listed once more one by one.
            out.append(Change("type", name, "added", new=_type_text(b), new_at=_at(b.file, b.first)))
        elif b is None and a is not None:
            out.append(Change("type", name, "removed", old=_type_text(a), old_at=_at(a.file, a.first)))
        elif a is not None and b is not None:
            out += _compare_members(a, b)
    return out


def _type_text(typedef: TypeDef) -> str:
    members = ", ".join(_member_text(m, typedef.kind) for m in typedef.members)
    return f"{typedef.kind} {typedef.name} {{{members}}}"


def _member_text(member: Member, kind: str) -> str:
    """``NAME = 0x4`` for an enum member (its value where computable), ``type name`` for a field."""
    if kind != "enum":
        return f"{member.text} {member.name}"
    if member.value is None:
        return f"{member.name} = {member.text}" if member.text else member.name
    return f"{member.name} = {member.value:#x}" if member.value > 9 else f"{member.name} = {member.value}"


def _compare_members(a: TypeDef, b: TypeDef) -> list[Change]:
    out = []
    if a.kind != b.kind:
        out.append(Change("type", a.name, "changed", a.kind, b.kind, f"{a.kind} -> {b.kind}",
                          _at(a.file, a.first), _at(b.file, b.first)))
    before = {m.name: m for m in a.members}
    after = {m.name: m for m in b.members}
    for name in [m.name for m in b.members if m.name not in before]:
        member = after[name]
        out.append(Change("member", f"{a.name}.{name}", "added", new=_member_text(member, b.kind),
                          new_at=_at(b.file, member.line)))
    for name in [m.name for m in a.members if m.name not in after]:
        member = before[name]
        out.append(Change("member", f"{a.name}.{name}", "removed", old=_member_text(member, a.kind),
                          old_at=_at(a.file, member.line)))
    for name in [m.name for m in a.members if m.name in after]:
        m, n = before[name], after[name]
        if _member_key(m, a.kind) != _member_key(n, b.kind):
            old_text, new_text = _member_text(m, a.kind), _member_text(n, b.kind)
            out.append(Change("member", f"{a.name}.{name}", "changed", old_text, new_text,
                              f"{old_text} -> {new_text}", _at(a.file, m.line), _at(b.file, n.line)))
    common = [m.name for m in a.members if m.name in after]
    if a.kind != "enum" and common != [m.name for m in b.members if m.name in before]:
        # The order of fields is the layout of a struct.
        out.append(Change("type", a.name, "changed", ", ".join(common),
                          ", ".join(m.name for m in b.members if m.name in before), "field order changed",
                          _at(a.file, a.first), _at(b.file, b.first)))
    return out


def _member_key(member: Member, kind: str) -> object:
    """What a member is, for comparison: an enum member's value, a field's normalised type."""
    if kind == "enum":
        return member.value if member.value is not None else " ".join(member.text.split())
    return normalise_type(member.text)


def _compare_macros(old: Header, new: Header, prefixes: tuple[str, ...]) -> list[Change]:
    out = []
    names = sorted(n for n in old.macros.keys() | new.macros.keys() if prefixes and n.startswith(prefixes))
    for name in names:
        a, b = old.macros.get(name), new.macros.get(name)
        if a is None and b is not None:
            out.append(Change("macro", name, "added", new=_macro_text(b), new_at=_at(new.macro_files[name], b.line)))
        elif b is None and a is not None:
            out.append(Change("macro", name, "removed", old=_macro_text(a), old_at=_at(old.macro_files[name], a.line)))
        elif a is not None and b is not None and _macro_key(a) != _macro_key(b):
            out.append(Change("macro", name, "changed", _macro_text(a), _macro_text(b),
                              f"{a.text} -> {b.text}", _at(old.macro_files[name], a.line),
                              _at(new.macro_files[name], b.line)))
    return out


def _macro_text(macro: Member) -> str:
    return f"#define {macro.name} {macro.text}".rstrip()


def _macro_key(macro: Member) -> object:
    return macro.value if macro.value is not None else " ".join(macro.text.split())
