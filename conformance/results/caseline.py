"""One line per case that did not pass, in the kit's words: what the console prints and ``verify`` reads back.

A line is ``<OUTCOME> <case id>: <first line of the message>``, the outcome padded to a column.
The message is the library's as much as the kit's (a code, a string it returned), so it is made
safe for a terminal and cut to one line of bounded length. :func:`parse_case_line` reads such a
line back (``run.log`` of a bundle), so the two stay one format.
"""

from __future__ import annotations

from ..harness.untrusted_text import terminal_text

#: Outcomes a case line is never printed for: the case judged the library and found it keeping its promise,
#: or it did not apply, or an accepted deviation. Any other outcome, a future one included, gets its line.
QUIET_OUTCOMES = frozenset({"PASS", "NOT_APPLICABLE", "WAIVED"})
#: Characters of a message kept on the line; the full message is in summary.json (and ``explain``).
MESSAGE_CHARS = 160
_WIDTH = 8


def shown(outcome: str) -> bool:
    """Whether a case with ``outcome`` gets a line of its own."""
    return outcome not in QUIET_OUTCOMES


def case_line(case_id: str, outcome: str, message: str) -> str:
    """``FAIL     HM-X[api=v1]: the first line of the message`` (safe for a terminal, at most one line)."""
    first = next((line.strip() for line in str(message).splitlines() if line.strip()), "")
    if outcome == "BLOCKED" and first.startswith("BLOCKED by "):
        first = first[len("BLOCKED "):]  # "by RULE: ...": the outcome word is already in front
    first = terminal_text(first)
    if len(first) > MESSAGE_CHARS:
        first = first[:MESSAGE_CHARS - 3] + "..."
    head = f"{terminal_text(outcome):<{_WIDTH}} {terminal_text(case_id)}"
    return f"{head}: {first}" if first else head


def parse_case_line(line: str) -> tuple[str, str] | None:
    """``(outcome, case id)`` of a line shaped as :func:`case_line` writes it, else None (the caller
    checks the case id against the cases it knows)."""
    outcome, _, rest = line.strip().partition(" ")
    case_id = rest.strip().split(": ", 1)[0].strip()
    if not outcome.replace("_", "").isalpha() or not outcome.isupper() or not case_id or " " in case_id:
        return None
    return outcome, case_id
