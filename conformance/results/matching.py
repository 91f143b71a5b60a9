"""Matching of expectation entries: globs over rule and case IDs, and CANN version ranges.

Patterns are globs in which only ``*`` (any run of characters) and ``?`` (one character)
are special; ``[`` and ``]`` are literal, so a case ID is its own pattern. Version ranges
are comma-separated clauses ``OP VERSION`` with OP one of ``>= > <= < == !=``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_CLAUSE = re.compile(r"^\s*(>=|<=|==|!=|>|<)\s*([0-9A-Za-z][0-9A-Za-z.]*)\s*$")
_VERSION = re.compile(r"^[0-9]+(\.[0-9A-Za-z]+)*$")
_VERSION_PREFIX = re.compile(r"^[0-9]+(\.[0-9A-Za-z]+)*")


# --------------------------------------------------------------------------- patterns


@lru_cache(maxsize=4096)
def glob_to_regex(pattern: str) -> re.Pattern[str]:
    """Compile a glob where only ``*`` and ``?`` are special (brackets are literal)."""
    parts = []
    for char in pattern:
        if char == "*":
            parts.append(".*")
        elif char == "?":
            parts.append(".")
        else:
            parts.append(re.escape(char))
    return re.compile("^" + "".join(parts) + "$", re.DOTALL)


def glob_match(pattern: str, text: str) -> bool:
    """Whether ``text`` matches the glob ``pattern`` (see :func:`glob_to_regex`)."""
    return glob_to_regex(pattern).match(text) is not None


# --------------------------------------------------------------------------- versions

VersionKey = tuple[tuple[int, int, str], ...]


def version_key(version: str) -> VersionKey:
    """Split a CANN version such as ``8.0.RC3`` or ``8.2.0`` into comparable components.

    A number ranks above ``RCn``, which ranks above any other word (``alpha001``).
    """
    key = []
    for part in version.strip().split("."):
        if part.isdigit():
            key.append((2, int(part), ""))
            continue
        match = re.fullmatch(r"(?i)rc([0-9]*)", part)
        if match:
            key.append((1, int(match.group(1) or 0), ""))
            continue
        digits = re.search(r"[0-9]+", part)
        key.append((0, int(digits.group(0)) if digits else 0, part.lower()))
    return tuple(key)


def _compare(left: VersionKey, right: VersionKey) -> int:
    """-1, 0 or 1; a version that is a strict prefix of another sorts first."""
    if left == right:
        return 0
    return -1 if left < right else 1


@dataclass(frozen=True)
class VersionRange:
    """A conjunction of ``OP VERSION`` clauses, as written in an expectation's ``cann``."""

    text: str
    clauses: tuple[tuple[str, VersionKey], ...]

    def contains(self, version: str) -> bool:
        """Whether ``version`` satisfies every clause; an unknown version satisfies none.

        Only the leading dotted part counts: ``8.5.0-aclsim`` is compared as ``8.5.0``.
        """
        match = _VERSION_PREFIX.match((version or "").strip())
        if not match:
            return False
        have = version_key(match.group(0))
        return all(_clause_holds(op, have, want) for op, want in self.clauses)


def _clause_holds(op: str, have: VersionKey, want: VersionKey) -> bool:
    if op in ("==", "!="):
        prefix = have[: len(want)] == want
        return prefix if op == "==" else not prefix
    order = _compare(have, want)
    return {">=": order >= 0, ">": order > 0, "<=": order <= 0, "<": order < 0}[op]


def parse_version_range(text: str) -> VersionRange:
    """Parse ``">=8.0,<8.5"``; a bare version means ``==VERSION``. Raises ValueError."""
    clauses = []
    for raw in text.split(","):
        if not raw.strip():
            raise ValueError(f"empty clause in version range {text!r}")
        match = _CLAUSE.match(raw)
        if match:
            op, version = match.group(1), match.group(2)
        elif _VERSION.match(raw.strip()):
            op, version = "==", raw.strip()
        else:
            raise ValueError(f"clause {raw.strip()!r} is not 'OP VERSION' with OP one of >= > <= < == !=")
        if not _VERSION.match(version):
            raise ValueError(f"{version!r} is not a version such as 8.0 or 8.0.RC3")
        clauses.append((op, version_key(version)))
    return VersionRange(text, tuple(clauses))
