"""The run's scratch directory and what the reporting process hands to each xdist worker.

The reporting process (serial run or xdist controller) makes one temporary directory per
run for the files its workers leave behind (call journals, stderr, the hung-call list),
and removes it when the run ends, so nothing lands in a report or bundle directory.
Each worker, the first ones and every replacement of a worker that died, receives the
directory and the run's deadline when xdist sets it up.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

import pytest

RUN_DIR_KEY = "acl_run_dir"


def run_dir_for_process(config: pytest.Config) -> tuple[Path, bool]:
    """(this run's scratch directory, whether this process owns it): a worker's is its controller's."""
    handed = getattr(config, "workerinput", {}).get(RUN_DIR_KEY)
    if handed:
        return Path(handed), False
    return Path(tempfile.mkdtemp(prefix="acl-run-")), True


def remove_run_dir(path: Path) -> None:
    """Remove the scratch directory at the end of the run."""
    shutil.rmtree(path, ignore_errors=True)


class WorkerNode(Protocol):
    """A worker as the controller's xdist hooks see it: the parts of xdist's ``WorkerController`` that the
    kit uses (xdist ships no type information)."""

    config: pytest.Config
    workerinput: dict[str, object]


class WorkerHandoff:
    """The controller's xdist hook: each worker gets ``values`` in its ``workerinput``."""

    def __init__(self, values: Mapping[str, object]) -> None:
        self.values = values

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: WorkerNode) -> None:
        """xdist sets up a worker (first or replacement): hand the values over."""
        node.workerinput.update(self.values)
