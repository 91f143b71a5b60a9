"""Terminal output: colour only on a terminal and never with NO_COLOR; progress lines with an ETA."""

from __future__ import annotations

import io

from conformance.results.html import trim_history
from conformance.results.terminal import Progress, Style


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_on_a_terminal_only_and_never_with_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert Style.for_stream(Tty()).word("FAIL") == "\033[1m\033[31mFAIL\033[0m\033[0m"
    assert Style.for_stream(io.StringIO()).word("FAIL") == "FAIL"
    monkeypatch.setenv("NO_COLOR", "1")
    assert Style.for_stream(Tty()).word("FAIL") == "FAIL"


def test_progress_prints_done_total_and_an_eta():
    out = io.StringIO()
    progress = Progress(4, stream=out)
    progress.started -= 10  # 10 s have passed
    line = progress.step("run one")
    assert line.startswith("[1/4] run one (10s elapsed, ETA 30s)")
    progress.done = 3
    assert "ETA" not in progress.step("last")


def test_history_keeps_the_last_runs(tmp_path):
    history = tmp_path / "history.jsonl"
    history.write_text("".join(f'{{"run": {n}}}\n' for n in range(30)))
    trim_history(history, 20)
    lines = history.read_text().splitlines()
    assert len(lines) == 20 and lines[0] == '{"run": 10}' and lines[-1] == '{"run": 29}'
