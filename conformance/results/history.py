"""Carry Allure history from a baseline run to a candidate run, so trends span releases.

Allure 3 keeps history in a JSON-lines file (``history.jsonl``, the ``historyPath`` of
the report config); Allure 2 keeps it in ``allure-report/history/`` and reads it back from
``allure-results/history/``. :func:`carry_history` copies whichever the baseline has into
the candidate's report directory before the candidate's report is rendered.
"""

from __future__ import annotations

import shutil
from pathlib import Path

HISTORY_FILE = "history.jsonl"


def run_dir(path: Path) -> Path:
    """The directory of a run given as a bundle/report directory or as its summary.json."""
    path = Path(path)
    return path.parent if path.is_file() else path


def history_sources(baseline: Path) -> tuple[Path | None, Path | None]:
    """(Allure 3 history.jsonl, Allure 2 history directory) of a baseline run, each None if absent."""
    base = run_dir(baseline)
    jsonl = next((p for p in (base / HISTORY_FILE, base / "reports" / HISTORY_FILE) if p.is_file()), None)
    folders = (base / "allure-report" / "history", base / "reports" / "allure-report" / "history")
    folder = next((p for p in folders if p.is_dir() and any(p.iterdir())), None)
    return jsonl, folder


def _merge_jsonl(source: Path, target: Path) -> None:
    """Baseline lines first, then the candidate's own lines that the baseline lacks."""
    lines = [line for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]
    if target.is_file():
        known = set(lines)
        lines += [
            line for line in target.read_text(encoding="utf-8").splitlines() if line.strip() and line not in known
        ]
    target.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def carry_history(baseline: Path, candidate_report_dir: Path) -> list[str]:
    """Copy the baseline's Allure history into ``candidate_report_dir``; returns what was copied.

    history.jsonl goes to ``candidate_report_dir/history.jsonl`` (merged with any the
    candidate has); an Allure 2 ``allure-report/history/`` goes to
    ``candidate_report_dir/allure-results/history/``.
    """
    jsonl, folder = history_sources(baseline)
    candidate_report_dir.mkdir(parents=True, exist_ok=True)
    copied = []
    if jsonl is not None:
        _merge_jsonl(jsonl, candidate_report_dir / HISTORY_FILE)
        copied.append(f"{jsonl} -> {candidate_report_dir / HISTORY_FILE}")
    if folder is not None:
        target = candidate_report_dir / "allure-results" / "history"
        shutil.copytree(folder, target, dirs_exist_ok=True)
        copied.append(f"{folder} -> {target}")
    return copied
