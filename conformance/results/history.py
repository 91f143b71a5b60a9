"""Carry Allure history from a baseline run to a candidate run, so trends span releases.

Allure 3 keeps history in a JSON-lines file (``history.jsonl``, the ``historyPath`` of
the report config); Allure 2 keeps it in ``allure-report/history/`` and reads it back from
``allure-results/history/``. :func:`carry_history` copies whichever the baseline has into
the candidate's report directory before the candidate's report is rendered.

A baseline is an untrusted input (it may come from anyone): its files are read through
:mod:`conformance.results.untrusted`, so a history that is a link (to a private key, to
``/dev/zero``), a FIFO, a device or an oversized file is refused with
:class:`~conformance.results.untrusted.UntrustedFileError`, never followed into the new report.
"""

from __future__ import annotations

from pathlib import Path

from . import untrusted

HISTORY_FILE = "history.jsonl"


def run_dir(path: Path) -> Path:
    """The directory of a run given as a bundle/report directory or as its summary.json."""
    path = Path(path)
    return path.parent if path.is_file() else path


def history_sources(baseline: Path) -> tuple[Path | None, Path | None]:
    """(Allure 3 history.jsonl, Allure 2 history directory) of a baseline run, each None if absent.

    Anything at those places counts as present (a link or FIFO too), so that it is refused when
    read rather than passed over.
    """
    base = run_dir(baseline)
    jsonl = next((p for p in (base / HISTORY_FILE, base / "reports" / HISTORY_FILE) if untrusted.present(p)), None)
    folders = (base / "allure-report" / "history", base / "reports" / "allure-report" / "history")
    folder = next((p for p in folders if p.is_symlink() or (p.is_dir() and any(p.iterdir()))), None)
    return jsonl, folder


def _merge_jsonl(source: Path, root: Path, target: Path) -> None:
    """Baseline lines first, then the candidate's own lines that the baseline lacks."""
    text = untrusted.read_text(source, root=root)
    lines = [line for line in text.splitlines() if line.strip()]
    if target.is_file():
        known = set(lines)
        lines += [
            line for line in target.read_text(encoding="utf-8").splitlines() if line.strip() and line not in known
        ]
    target.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def check_history(baseline: Path) -> None:
    """Read the baseline's history as :func:`carry_history` would, writing nothing; raises
    :class:`~conformance.results.untrusted.UntrustedFileError` for what it would refuse."""
    root = run_dir(baseline)
    jsonl, folder = history_sources(baseline)
    if jsonl is not None:
        untrusted.read_text(jsonl, root=root)
    if folder is not None:
        untrusted.tree_files(folder, root=root)


def carry_history(baseline: Path, candidate_report_dir: Path) -> list[str]:
    """Copy the baseline's Allure history into ``candidate_report_dir``; returns what was copied.

    history.jsonl goes to ``candidate_report_dir/history.jsonl`` (merged with any the
    candidate has); an Allure 2 ``allure-report/history/`` goes to
    ``candidate_report_dir/allure-results/history/``. Raises
    :class:`~conformance.results.untrusted.UntrustedFileError` (before anything is copied) when
    either is a link, holds one, or is not a regular file or folder.
    """
    root = run_dir(baseline)
    jsonl, folder = history_sources(baseline)
    if folder is not None:
        untrusted.tree_files(folder, root=root)  # check the folder before the history file is merged
    candidate_report_dir.mkdir(parents=True, exist_ok=True)
    copied = []
    if jsonl is not None:
        _merge_jsonl(jsonl, root, candidate_report_dir / HISTORY_FILE)
        copied.append(f"{jsonl} -> {candidate_report_dir / HISTORY_FILE}")
    if folder is not None:
        target = candidate_report_dir / "allure-results" / "history"
        untrusted.copy_tree(folder, target, root=root)
        copied.append(f"{folder} -> {target}")
    return copied
