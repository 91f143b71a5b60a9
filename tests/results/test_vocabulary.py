"""The exit statuses, outcomes and gate classes are declared once (conformance/results/vocabulary.py); the
``--help`` epilogs and the marked section of docs/running.md are rendered from that declaration."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from conformance.cli import main as cli_main
from conformance.harness.problems import Problem
from conformance.results import vocabulary
from conformance.results.outcomes import Outcome

RUNNING = Path(__file__).resolve().parents[2] / "docs" / "running.md"


def _help(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        cli_main([*argv, "--help"])
    return out.getvalue()


def test_docs_running_holds_the_declared_tables():
    text = RUNNING.read_text(encoding="utf-8")
    assert vocabulary.with_docs_section(text) == text, (
        "docs/running.md differs from conformance/results/vocabulary.py; regenerate it with: "
        ".venv/bin/python -m conformance.results.vocabulary docs/running.md")


@pytest.mark.parametrize("command", ["run", "certify"])
def test_help_lists_every_exit_status_and_outcome(command):
    shown = _help(command)
    for code, meaning in vocabulary.EXIT_STATUSES:
        assert f"{code:<6}{meaning}" in shown
    assert vocabulary.outcome_text() in shown
    assert "17    set-up:" in shown and "18    set-up:" in shown and "BLOCKED" in shown


def test_gate_help_names_itself_and_lists_the_classes():
    shown = _help("gate")
    assert "compare" not in shown.split("\n", 2)[0] and "acl-conformance gate" in shown
    for cls in vocabulary.GATE_CLASSES:
        assert cls.name in shown


def test_the_declaration_is_complete_and_no_set_up_status_equals_a_verdict_s():
    assert {o.name for o in vocabulary.OUTCOMES} == {o.value for o in Outcome}
    verdict_statuses = {vocabulary.EXIT_PASS, vocabulary.EXIT_FAIL, vocabulary.EXIT_INCONCLUSIVE}
    set_up = {int(p) for p in Problem} | {vocabulary.EXIT_BAD_COMMAND_LINE, vocabulary.EXIT_NO_SUMMARY,
                                          vocabulary.EXIT_NOTHING_SELECTED}
    assert not verdict_statuses & set_up
    assert all(s < 128 for s in set_up)  # 128 + N is an interrupted run's
    codes = [code for code, _ in vocabulary.EXIT_STATUSES]
    assert len(codes) == len(set(codes))
    assert set(vocabulary.DEFAULT_FAIL_ON) <= set(vocabulary.GATING_CLASSES) <= {c.name for c in
                                                                                  vocabulary.GATE_CLASSES}
