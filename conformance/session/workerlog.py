"""What a worker wrote to stderr, kept where its death cannot take it away.

A backend that crashes says why on file descriptor 2: a sanitizer report, an abort
message, Python's fault handler. pytest captures that descriptor into a temporary file
during each test phase, which dies with the worker. Each xdist worker therefore sends its
file descriptor 2 to ``<run dir>/<worker>.stderr`` (emptied when a case starts), also
during the test phases, and the reporting process keeps the last :data:`TAIL_BYTES` of it
with the case of a worker that died.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

TAIL_BYTES = 64 * 1024


def log_path(run_dir: Path, worker: str) -> Path:
    """The stderr file of xdist worker ``worker`` (``gw0``)."""
    return run_dir / f"{worker}.stderr"


class WorkerLog:
    """This worker's file descriptor 2, sent to a file (a pytest plugin: it wraps each test phase)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o644)
        os.dup2(self.fd, 2)  # before the fault handler takes its copy of descriptor 2

    def new_case(self) -> None:
        """Forget what earlier cases wrote: the file holds the current case's output."""
        os.ftruncate(self.fd, 0)

    def _into_file(self) -> Iterator[None]:
        saved = os.dup(2)  # pytest's capture file for this phase
        os.dup2(self.fd, 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)

    @pytest.hookimpl(hookwrapper=True, trylast=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Iterator[None]:
        """A case starts: empty the file, and write descriptor 2 to it during setup."""
        self.new_case()
        yield from self._into_file()

    @pytest.hookimpl(hookwrapper=True, trylast=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Iterator[None]:
        """Descriptor 2 goes to the file during the call."""
        yield from self._into_file()

    @pytest.hookimpl(hookwrapper=True, trylast=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> Iterator[None]:
        """Descriptor 2 goes to the file during teardown."""
        yield from self._into_file()


def tail(path: Path, limit: int = TAIL_BYTES) -> str:
    """The last ``limit`` bytes of a file as text ("" when absent or empty)."""
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(0, size - limit))
            data = handle.read()
    except OSError:
        return ""
    text = data.decode("utf-8", errors="replace")
    return (f"[... {size - limit} earlier bytes not kept]\n" + text) if size > limit else text
