"""Errors that point at the spec: file, line and field path."""

from __future__ import annotations

from dataclasses import dataclass


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

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


class SpecError(Exception):
    """Raised when the spec is invalid; carries every issue found, in file order."""

    def __init__(self, issues: list[SpecIssue]) -> None:
        self.issues = sorted(issues, key=lambda i: (i.where.file, i.where.line, i.where.path))
        super().__init__("\n".join(str(i) for i in self.issues))
