"""The run's scratch directory.

The judge makes one temporary directory per run for the files its executors leave behind
(call journals, the hung-call list), and removes it when the run ends, so nothing lands in a
report or bundle directory.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest


def run_dir_for_process(config: pytest.Config) -> tuple[Path, bool]:
    """(this run's scratch directory, whether this process owns it: the judge always does)."""
    return Path(tempfile.mkdtemp(prefix="acl-run-")), True


def remove_run_dir(path: Path) -> None:
    """Remove the scratch directory at the end of the run."""
    shutil.rmtree(path, ignore_errors=True)
