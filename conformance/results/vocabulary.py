"""The kit's words, declared once: the run verdicts with their exit statuses, the other exit statuses,
the case outcomes and the gate's classes.

``--help`` epilogs (``run``, ``certify``, ``gate``) and the marked section of ``docs/running.md``
are rendered from these tables (:func:`exit_status_text`, :func:`docs_section`);
``tests/results/test_vocabulary.py`` fails when the document and the tables differ. No set-up
status equals a verdict's: a script can tell "the library was judged" from "nothing was judged".
"""

from __future__ import annotations

import enum
import signal
from dataclasses import dataclass

from ..harness.problems import Problem
from .outcomes import Outcome


class Verdict(str, enum.Enum):
    """The verdict of a run, as summary.json's ``verdict`` says it."""

    PASS = "PASS"
    FAIL = "FAIL"
    INCONCLUSIVE = "INCONCLUSIVE"
    PARTIAL = "PARTIAL"
    INTERRUPTED = "INTERRUPTED"


#: Exit status of a verdict (PARTIAL takes the status of what its selected cases decide; INTERRUPTED
#: 128 + the signal, :func:`interrupted_status`).
EXIT_PASS = 0
EXIT_FAIL = 1
EXIT_INCONCLUSIVE = 6
#: Exit statuses of a run that reached no verdict (beside the set-up problems of :class:`Problem`).
EXIT_BAD_COMMAND_LINE = 2
EXIT_NO_SUMMARY = 3
EXIT_NOTHING_SELECTED = 5  # pytest's own status when no test ran


def interrupted_status(signum: int) -> int:
    """The exit status of a run stopped by signal ``signum``: 128 + the signal, as a shell reports it."""
    return 128 + int(signum)


@dataclass(frozen=True)
class Described:
    """One word of the kit (an exit status, an outcome, a gate class) and what it means."""

    name: str
    meaning: str


VERDICTS: tuple[Described, ...] = (
    Described("PASS", "every mandatory rule passed or does not apply"),
    Described("FAIL", "a mandatory rule failed: the library broke a documented promise (a FAIL or BLOCKED case, "
                      "or a case that crashed or hung)"),
    Described("INCONCLUSIVE", "no mandatory rule failed, but a mandatory case could not be judged: it ended ERROR "
                              "because the instrument could not observe (e.g. host callbacks that never run), or "
                              "a release the library did not name itself (inferred from its ACL API version, or "
                              "--acl-cann-release) leaves an interface it exports without one judged mandatory "
                              "case"),
    Described("PARTIAL", "the run selected cases (-k, -m, --acl-rule, --lf); judged on those alone"),
    Described("INTERRUPTED", "the run was stopped by a signal (Ctrl-C, SIGTERM, SIGHUP), or its judge was stopped "
                             "from outside (SIGSTOP, 3 s), before it ended and judged "
                             "nothing; the previous reports of the directory are kept (--keep-partial keeps the "
                             "partial summary instead, its unreached cases not_run); never in history or a gate"),
)

_SIGNALS = ", ".join(f"{interrupted_status(s)} {s.name}" for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP,
                                                                   signal.SIGSTOP))

#: Every exit status of ``run`` (and ``certify``, whose 0/1 read CERTIFIED / NOT CERTIFIED), in order.
EXIT_STATUSES: tuple[tuple[str, str], ...] = (
    (str(EXIT_PASS), "verdict PASS, or PARTIAL with no failing or unjudged mandatory rule among the selected cases"),
    (str(EXIT_FAIL), "verdict FAIL (a mandatory rule failed), or PARTIAL with a failing mandatory rule"),
    (str(EXIT_BAD_COMMAND_LINE), "bad command line (an unknown option, with the nearest known one) or "
                                 "expectations file"),
    (str(EXIT_NO_SUMMARY), "the run ended without a summary (pytest itself failed)"),
    (str(EXIT_NOTHING_SELECTED), "the selection (-k, -m, --acl-rule, --lf) kept no case"),
    (str(EXIT_INCONCLUSIVE), "verdict INCONCLUSIVE (no mandatory rule failed; a mandatory case could not be "
                             "judged), or PARTIAL with such a case"),
    *((str(int(p)), f"set-up: {p.summary}") for p in Problem),
    ("128+N", f"verdict INTERRUPTED by signal N ({_SIGNALS})"),
)

OUTCOMES: tuple[Described, ...] = (
    Described(Outcome.PASS.value, "the case's check held"),
    Described(Outcome.FAIL.value, "the library broke the rule (wrong result, wrong error code, leak, missing "
                                  "function, a call past its time limit)"),
    Described(Outcome.BLOCKED.value, "a set-up step rested on another rule's promise, which broke; the case names "
                                     "that rule (blocked_by), the root cause"),
    Described(Outcome.ERROR.value, "no judgement: the harness or its instrument failed, the case was not run, or "
                                   "the library crashed or hung (category says which)"),
    Described(Outcome.NOT_APPLICABLE.value, "the product or release does not hold the rule; never counted as a pass"),
    Described(Outcome.WAIVED.value, "a FAIL an expectations file accepts"),
    Described(Outcome.XPASS.value, "a PASS an expectation still waives: the waiver is stale"),
)

#: The gate's classes of a difference between two runs, in report order.
GATE_CLASSES: tuple[Described, ...] = (
    Described("regression", "passed (PASS, XPASS) in the baseline, FAIL, BLOCKED or an ERROR of the library "
                            "(crash, hang) now"),
    Described("inconclusive", "passed in the baseline, ERROR now because the instrument could not judge it"),
    Described("coverage-loss", "judged in the baseline, NOT_APPLICABLE or absent now"),
    Described("fix", "FAIL, ERROR or BLOCKED in the baseline, PASS now"),
    Described("new", "only in the candidate, not failing"),
    Described("new-failure", "only in the candidate, failing (FAIL, ERROR, BLOCKED)"),
    Described("removed", "only in the baseline"),
    Described("code-change", "failing (FAIL, ERROR, WAIVED) in both with another observed aclError"),
    Described("waiver-change", "WAIVED or XPASS appears or disappears"),
    Described("entered-contract", "outside the baseline's release contract, inside the candidate's"),
    Described("left-contract", "inside the baseline's release contract, outside the candidate's"),
    Described("other", "any other outcome change (e.g. NOT_APPLICABLE to PASS), reported only"),
)
#: The classes ``--fail-on`` may name (beside the drift classes), and those it names by default.
GATING_CLASSES: tuple[str, ...] = ("regression", "inconclusive", "coverage-loss", "new-failure", "removed",
                                   "code-change", "waiver-change")
# A waiver that newly covers a rule the baseline passed hides a regression: it gates by default too, and
# a case that can no longer be judged can no longer find a failure.
DEFAULT_FAIL_ON: tuple[str, ...] = ("regression", "inconclusive", "coverage-loss", "waiver-change")


def exit_status_text(indent: str = "  ") -> str:
    """The exit statuses as ``--help`` shows them."""
    return "exit status:\n" + "".join(f"{indent}{code:<6}{meaning}\n" for code, meaning in EXIT_STATUSES)


def outcome_text() -> str:
    """The outcomes in one sentence, for ``--help``."""
    return "Outcomes per case: " + ", ".join(o.name for o in OUTCOMES) + "."


def gate_class_text() -> str:
    """The gate's classes as ``gate --help`` shows them."""
    width = max(len(c.name) for c in GATE_CLASSES) + 2
    return ("classes of a difference (* gates by default):\n"
            + "".join(f"  {'*' if c.name in DEFAULT_FAIL_ON else ' '} {c.name:<{width}}{c.meaning}\n"
                      for c in GATE_CLASSES))


DOCS_BEGIN = "<!-- vocabulary: generated from conformance/results/vocabulary.py; do not edit by hand -->"
DOCS_END = "<!-- /vocabulary -->"


def docs_section() -> str:
    """The marked section of docs/running.md: verdicts, exit statuses, outcomes and gate classes as tables."""
    out = [DOCS_BEGIN, "", "| verdict | meaning |", "|---|---|"]
    out += [f"| `{v.name}` | {v.meaning} |" for v in VERDICTS]
    out += ["", "| exit status | meaning |", "|---|---|"]
    out += [f"| {code} | {meaning} |" for code, meaning in EXIT_STATUSES]
    out += ["", "| case outcome | meaning |", "|---|---|"]
    out += [f"| `{o.name}` | {o.meaning} |" for o in OUTCOMES]
    out += ["", "| gate class | meaning | gates by default |", "|---|---|---|"]
    out += [f"| `{c.name}` | {c.meaning} | {'yes' if c.name in DEFAULT_FAIL_ON else ''} |" for c in GATE_CLASSES]
    return "\n".join([*out, "", DOCS_END])


def with_docs_section(text: str) -> str:
    """``text`` (docs/running.md) with its marked section replaced by :func:`docs_section`."""
    head, begin, rest = text.partition(DOCS_BEGIN)
    _old, end, tail = rest.partition(DOCS_END)
    if not begin or not end:
        raise ValueError(f"the document has no section between {DOCS_BEGIN!r} and {DOCS_END!r}")
    return head + docs_section() + tail


def main(argv: list[str]) -> int:
    """``python -m conformance.results.vocabulary DOC``: rewrite the marked section of DOC from the tables."""
    from pathlib import Path

    for name in argv:
        path = Path(name)
        path.write_text(with_docs_section(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
