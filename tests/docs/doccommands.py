"""The commands README.md and docs/ tell a user to type, found by their marker, with their documented outcome.

A code block (indented or fenced) that follows the line ``<!-- docs-check -->`` holds commands
a user types from the repository root, one per line (a trailing ``\\`` continues a line). A
command's trailing comment states its outcome, in words a reader reads too:

- ``exit N`` (anywhere in the comment): the exit status; without it the command must exit 0;
- each double-quoted ``"text"``: appears in what the command printed (stdout and stderr).

Paths under ``/tmp/`` are the test's own temporary directory (several clones may test on one
machine at once); nothing else of a command is changed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

MARKER = "<!-- docs-check -->"
_COMMENT = re.compile(r"\s#\s(.*)$")
_EXIT = re.compile(r"\bexit (\d+)\b")
_QUOTED = re.compile(r'"([^"]+)"')


@dataclass(frozen=True)
class DocCommand:
    """One marked command: where it is written, what runs, and what it must do."""

    where: str
    command: str
    exit_status: int = 0
    prints: tuple[str, ...] = ()


@dataclass
class DocBlock:
    """The commands of one marked block, run in order in one shell (a later one may use what an earlier made)."""

    where: str
    commands: list[DocCommand] = field(default_factory=list)


def _block_lines(lines: list[str], start: int) -> tuple[list[tuple[int, str]], bool]:
    """The lines of the code block at or after ``start`` (blank lines before it skipped), and whether one was found."""
    index = start
    while index < len(lines) and not lines[index].strip():
        index += 1
    if index >= len(lines):
        return [], False
    found: list[tuple[int, str]] = []
    if lines[index].lstrip().startswith("```"):
        index += 1
        while index < len(lines) and not lines[index].lstrip().startswith("```"):
            found.append((index, lines[index]))
            index += 1
        return found, True
    indent = len(lines[index]) - len(lines[index].lstrip())
    if indent < 4:
        return [], False
    while index < len(lines) and (lines[index].startswith(" " * indent) or not lines[index].strip()):
        if lines[index].strip():
            found.append((index, lines[index][indent:]))
        index += 1
    return found, True


def parse_command(where: str, text: str) -> DocCommand:
    """A command line and its outcome comment."""
    comment = _COMMENT.search(text)
    command = text[:comment.start()].rstrip() if comment else text.strip()
    said = comment.group(1) if comment else ""
    exit_match = _EXIT.search(said)
    return DocCommand(where, command.strip(), int(exit_match.group(1)) if exit_match else 0,
                      tuple(_QUOTED.findall(said)))


def marked_blocks(path: Path, root: Path) -> list[DocBlock]:
    """Every marked block of a Markdown file; ValueError when a marker is followed by no code block."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks = []
    for number, line in enumerate(lines):
        if line.strip() != MARKER:
            continue
        body, found = _block_lines(lines, number + 1)
        name = f"{path.relative_to(root)}:{number + 1}"
        if not found or not body:
            raise ValueError(f"{name}: {MARKER} is followed by no code block")
        block, pending = DocBlock(name), ""
        for index, text in body:
            pending = f"{pending} {text.strip()}" if pending else text.rstrip()
            if pending.endswith("\\"):
                pending = pending[:-1].rstrip()
                continue
            if pending.strip() and not pending.lstrip().startswith("#"):
                block.commands.append(parse_command(f"{path.relative_to(root)}:{index + 1}", pending))
            pending = ""
        blocks.append(block)
    return blocks


def documents(root: Path) -> list[Path]:
    """README.md and every Markdown page under docs/."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]
