"""Terminal output: colour on a terminal (never with NO_COLOR, see no-color.org) and progress with an ETA."""

from __future__ import annotations

import os
import re
import sys
import time
import unicodedata
from dataclasses import dataclass, field
from typing import TextIO

from ..i18n import _

_CODES = {"red": "31", "green": "32", "yellow": "33", "bold": "1", "dim": "2"}
#: Colour of each verdict and outcome word in the kit's tables.
WORD_COLOURS = {"PASS": "green", "CERTIFIED": "green", "PASSED": "green", "FAIL": "red", "ERROR": "red",
                "NOT CERTIFIED": "red", "FAILED": "red", "PARTIAL": "yellow", "WAIVED": "yellow",
                "XPASS": "yellow", "BLOCKED": "red"}


@dataclass(frozen=True)
class Style:
    """Wraps text in ANSI colours when ``enabled``."""

    enabled: bool = False

    @classmethod
    def for_stream(cls, stream: TextIO) -> Style:
        """Colour when ``stream`` is a terminal and NO_COLOR is unset (or FORCE_COLOR is set)."""
        if os.environ.get("NO_COLOR"):
            return cls(False)
        if os.environ.get("FORCE_COLOR"):
            return cls(True)
        isatty = getattr(stream, "isatty", None)
        return cls(bool(isatty and isatty()) and os.environ.get("TERM") != "dumb")

    def paint(self, text: str, colour: str) -> str:
        """``text`` in ``colour`` (a key of the colour table), or unchanged without colour."""
        return f"\033[{_CODES[colour]}m{text}\033[0m" if self.enabled else text

    def word(self, text: str) -> str:
        """A verdict or outcome word in its colour (bold)."""
        colour = WORD_COLOURS.get(text.strip())
        return self.paint(self.paint(text, colour), "bold") if colour else text

    def dim(self, text: str) -> str:
        """Secondary text."""
        return self.paint(text, "dim")


def display_width(text: str) -> int:
    """Columns ``text`` takes on a terminal: a Chinese character takes two."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def pad(text: str, width: int, *, right: bool = False) -> str:
    """``text`` padded to ``width`` terminal columns (``str.ljust``/``rjust`` counting a wide character twice)."""
    fill = " " * max(0, width - display_width(text))
    return fill + text if right else text + fill


def format_duration(seconds: float) -> str:
    """``75`` -> ``1m15s``; ``9.5`` -> ``10s``."""
    seconds = max(0, round(seconds))
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


@dataclass
class Progress:
    """``[done/total] label ... elapsed, ETA`` lines for long commands; the ETA assumes steps of equal cost."""

    total: int
    stream: TextIO = sys.stderr
    started: float = field(default_factory=time.monotonic)
    done: int = 0

    def eta(self) -> float | None:
        """Seconds left, from the mean time per finished step; None before the first step."""
        if not self.done:
            return None
        return (time.monotonic() - self.started) / self.done * (self.total - self.done)

    def step(self, label: str) -> str:
        """Count one finished step and print its line; returns the line."""
        self.done += 1
        elapsed = format_duration(time.monotonic() - self.started)
        left = self.eta()
        tail = f"{elapsed} elapsed" + (f", ETA {format_duration(left)}" if left and self.done < self.total else "")
        line = f"[{self.done}/{self.total}] {label} ({tail})"
        print(line, file=self.stream, flush=True)
        return line


#: Percent of the cases between two progress lines of a run.
PERCENT_STEP = 10


@dataclass
class PercentProgress:
    """``<label>: 30% of the cases run (12s elapsed, ETA 28s)`` at each tenth of a run's cases; ``run``
    prints it, and ``certify`` (which runs ``run``) reads the percent back with :func:`percent_of`."""

    label: str
    total: int
    started: float = field(default_factory=time.monotonic)
    shown: int = 0

    def line(self, done: int) -> str | None:
        """The line to print now that ``done`` cases have run, or None within the same tenth."""
        if self.total <= 0:
            return None
        percent = min(100, done * 100 // self.total)
        if percent < self.shown + PERCENT_STEP and not (percent == 100 and self.shown < 100):
            return None
        self.shown = percent
        elapsed = time.monotonic() - self.started
        left = elapsed * (100 - percent) / percent if percent else None
        eta = _(", ETA {left}").format(left=format_duration(left)) if left is not None and left >= 1 \
            and percent < 100 else ""
        return _("{label}: {percent:3d}% of the cases run ({elapsed} elapsed{eta})").format(
            label=self.label, percent=percent, elapsed=format_duration(elapsed), eta=eta)


def percent_of(line: str) -> int | None:
    """The percent a :class:`PercentProgress` line (or pytest's ``[ 30%]`` progress) says, else None."""
    text = line.rstrip("\n")
    match = _PERCENT_LINE.search(text) or _PYTEST_PERCENT.search(text)
    return int(next(group for group in match.groups() if group is not None)) if match else None


# The line in either language (certify reads back what ``run`` printed in the language it was given).
_PERCENT_LINE = re.compile(r"^[a-z]+(?:: +(\d{1,3})% of the cases run \(|：已运行 *(\d{1,3})% 的用例（)")
_PYTEST_PERCENT = re.compile(r"\[\s*(\d{1,3})%\]\s*$")
