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
from ..i18n import DEFAULT, N_, _, current, translate
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

#: The exit statuses of ``run`` with a fixed meaning, in order (the set-up statuses and 128+N follow them).
_EXIT_MEANINGS: tuple[tuple[str, str], ...] = (
    (str(EXIT_PASS), N_("verdict PASS, or PARTIAL with no failing or unjudged mandatory rule among the selected "
                        "cases")),
    (str(EXIT_FAIL), N_("verdict FAIL (a mandatory rule failed), or PARTIAL with a failing mandatory rule")),
    (str(EXIT_BAD_COMMAND_LINE), N_("bad command line (an unknown option, with the nearest known one) or "
                                    "expectations file")),
    (str(EXIT_NO_SUMMARY), N_("the run ended without a summary (pytest itself failed)")),
    (str(EXIT_NOTHING_SELECTED), N_("the selection (-k, -m, --acl-rule, --lf) kept no case")),
    (str(EXIT_INCONCLUSIVE), N_("verdict INCONCLUSIVE (no mandatory rule failed; a mandatory case could not be "
                                "judged), or PARTIAL with such a case")),
)
SETUP_STATUS = N_("set-up: {problem}")
INTERRUPTED_STATUS = N_("verdict INTERRUPTED by signal N ({signals})")


def exit_statuses(lang: str = DEFAULT) -> tuple[tuple[str, str], ...]:
    """Every exit status of ``run`` (and ``certify``, whose 0/1 read CERTIFIED / NOT CERTIFIED), in order,
    with its meaning in ``lang``."""
    return (*((code, translate(meaning, lang)) for code, meaning in _EXIT_MEANINGS),
            *((str(int(p)), translate(SETUP_STATUS, lang).format(problem=translate(p.summary, lang)))
              for p in Problem),
            ("128+N", translate(INTERRUPTED_STATUS, lang).format(signals=_SIGNALS)))


#: Every exit status of ``run`` in English, as docs/running.md tables them.
EXIT_STATUSES: tuple[tuple[str, str], ...] = exit_statuses()

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
    Described("regression", N_("passed (PASS, XPASS) in the baseline, FAIL, BLOCKED or an ERROR of the library "
                               "(crash, hang) now")),
    Described("inconclusive", N_("passed in the baseline, ERROR now because the instrument could not judge it")),
    Described("coverage-loss", N_("judged in the baseline, NOT_APPLICABLE or absent now")),
    Described("fix", N_("FAIL, ERROR or BLOCKED in the baseline, PASS now")),
    Described("new", N_("only in the candidate, not failing")),
    Described("new-failure", N_("only in the candidate, failing (FAIL, ERROR, BLOCKED)")),
    Described("removed", N_("only in the baseline")),
    Described("code-change", N_("failing (FAIL, ERROR, WAIVED) in both with another observed aclError")),
    Described("waiver-change", N_("WAIVED or XPASS appears or disappears")),
    Described("entered-contract", N_("outside the baseline's release contract, inside the candidate's")),
    Described("left-contract", N_("inside the baseline's release contract, outside the candidate's")),
    Described("other", N_("any other outcome change (e.g. NOT_APPLICABLE to PASS), reported only")),
)
#: The classes ``--fail-on`` may name (beside the drift classes), and those it names by default.
GATING_CLASSES: tuple[str, ...] = ("regression", "inconclusive", "coverage-loss", "new-failure", "removed",
                                   "code-change", "waiver-change")
# A waiver that newly covers a rule the baseline passed hides a regression: it gates by default too, and
# a case that can no longer be judged can no longer find a failure.
DEFAULT_FAIL_ON: tuple[str, ...] = ("regression", "inconclusive", "coverage-loss", "waiver-change")


def exit_status_text(indent: str = "  ") -> str:
    """The exit statuses as ``--help`` shows them."""
    rows = "".join(f"{indent}{code:<6}{meaning}\n" for code, meaning in exit_statuses(current()))
    return _("exit status:") + "\n" + rows


def outcome_text() -> str:
    """The outcomes in one sentence, for ``--help``."""
    return _("Outcomes per case: {outcomes}.").format(outcomes=", ".join(o.name for o in OUTCOMES))


def gate_class_text() -> str:
    """The gate's classes as ``gate --help`` shows them."""
    width = max(len(c.name) for c in GATE_CLASSES) + 2
    return (_("classes of a difference (* gates by default):") + "\n"
            + "".join(f"  {'*' if c.name in DEFAULT_FAIL_ON else ' '} {c.name:<{width}}{_(c.meaning)}\n"
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
