"""Errors that point at the spec: file, line and field path."""

from __future__ import annotations

import reprlib
from dataclasses import dataclass
from typing import Any

MAX_MESSAGE = 400

_BOUNDED = reprlib.Repr()
_BOUNDED.maxstring = _BOUNDED.maxother = 60
_BOUNDED.maxlist = _BOUNDED.maxdict = _BOUNDED.maxlevel = 3


def shown(value: Any) -> str:
    """A repr of ``value`` for an error message, bounded whatever the value's size."""
    return _BOUNDED.repr(value)


@dataclass(frozen=True)
class Where:
    """A place in the spec: file (relative path), 1-based line, and field path."""

    file: str
    line: int
    path: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.path}" if self.path else f"{self.file}:{self.line}"


@dataclass(frozen=True)
class SpecIssue:
    """One problem found in the spec."""

    where: Where
    message: str

    def __post_init__(self) -> None:
        if len(self.message) > MAX_MESSAGE:  # a last guard: a message never carries a huge value
            object.__setattr__(self, "message", self.message[: MAX_MESSAGE - 3] + "...")

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


class SpecError(Exception):
    """Raised when the spec is invalid; carries every issue found, in file order."""

    def __init__(self, issues: list[SpecIssue]) -> None:
        self.issues = sorted(issues, key=lambda i: (i.where.file, i.where.line, i.where.path))
        super().__init__("\n".join(str(i) for i in self.issues))
