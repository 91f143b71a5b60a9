"""A long-lived judge for the self-test: one process that runs many whole suites, one after another.

A self-test run used to be a ``python -m pytest -p conformance.session.plugin ...`` process of its
own, paying the interpreter's start and the imports of pytest, the plugin, the catalog and the
generated cases each time (about half of a small run's CPU). A :class:`SuiteJudge` starts
``python -m conformance.selftest.worker`` once; the worker then runs each run's pytest command line
in-process with ``pytest.main``, with the run's own environment and report directory. What each
run proves stays its own:

- every run starts its own executors (the scheduler of its session) from the run's environment, so
  no executor serves two runs and the fault switches of one run never reach another's library;
- the environment is replaced as a whole for the run and restored after it, and every process the
  run left behind (a daemon of the library, reparented to the worker as subreaper) is killed before
  the next run starts;
- a run's report directory, RunState and scratch directory are its session's, as in a process of
  its own.

Protocol (one JSON object a line): the self-test writes ``{"args", "env", "log"}`` on the worker's
stdin; the worker runs pytest with its stdout and stderr (file descriptors 1 and 2, which the
executors inherit) sent to ``log`` and answers ``{"status"}`` on the descriptor it was given.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, NamedTuple

#: The descriptor the worker answers on (its stdout and stderr belong to the runs' logs).
REPLY_FD_ENV = "ACL_SELFTEST_REPLY_FD"


def pytest_arguments(command: Sequence[str]) -> list[str]:
    """pytest's arguments in a ``python -m pytest ...`` command line (what ``pytest.main`` takes)."""
    head = [sys.executable, "-m", "pytest"]
    if list(command[:3]) != head:
        raise ValueError(f"not a `python -m pytest` command line: {' '.join(command[:3])}")
    return list(command[3:])


def cpu_seconds() -> float:
    """CPU time (user and system) of this process, of its children that have been waited for, and of the
    processes in its executors' sandboxes, which the kernel reaps unaccounted (:class:`UnreapedCPU`)."""
    from ..session.containment import UNREAPED_CPU

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime + UNREAPED_CPU.seconds()


def run_in_process(args: Sequence[str], env: Mapping[str, str], log: Path) -> int:
    """Run pytest once in this process with ``env`` as the whole environment and fds 1 and 2 in ``log``.

    The environment, the standard descriptors and the current directory are restored afterwards,
    and every process the run left behind is killed, however the run ended.
    """
    import pytest

    from ..session.containment import kill_tree

    saved_env = dict(os.environ)
    cwd = os.getcwd()
    sys.stdout.flush()
    sys.stderr.flush()
    saved_fds = os.dup(1), os.dup(2)
    with open(log, "wb") as handle:
        os.dup2(handle.fileno(), 1)
        os.dup2(handle.fileno(), 2)
    try:
        os.environ.clear()
        os.environ.update(env)
        try:
            status = int(pytest.main(list(args)))
        except SystemExit as stop:  # pytest.exit() from a hook outside a session
            status = stop.code if isinstance(stop.code, int) else 1
        except Exception as exc:  # noqa: BLE001 - a run that raises is a run without a summary, not a dead worker
            print(f"selftest worker: the run raised {type(exc).__name__}: {exc}", file=sys.stderr)
            status = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        kill_tree(None)  # what the run's library left behind, adopted by this subreaper
        os.environ.clear()
        os.environ.update(saved_env)
        os.chdir(cwd)
        for fd, saved in zip((1, 2), saved_fds):
            os.dup2(saved, fd)
            os.close(saved)
    return status


def serve(requests: IO[str], replies: IO[str]) -> None:
    """Answer one request a line until ``requests`` ends."""
    for line in requests:
        request = json.loads(line)
        before = cpu_seconds()
        status = run_in_process(request["args"], request["env"], Path(request["log"]))
        replies.write(json.dumps({"status": status, "cpu": cpu_seconds() - before}) + "\n")
        replies.flush()


class RunEnd(NamedTuple):
    """How one run in the worker ended: pytest's exit status, and the CPU seconds the run cost (the judge's
    own and its executors')."""

    status: int
    cpu_seconds: float


class WorkerLost(RuntimeError):
    """The worker process died or answered nonsense; the run it had is to be repeated elsewhere."""


class SuiteJudge:
    """The self-test's side of one worker process: started on first use, one run at a time."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[str] | None = None
        self._replies: IO[str] | None = None

    def _start(self) -> tuple[subprocess.Popen[str], IO[str]]:
        if self._proc is not None and self._proc.poll() is None and self._replies is not None:
            return self._proc, self._replies
        self.close()
        read, write = os.pipe()
        env = {**os.environ, REPLY_FD_ENV: str(write)}
        self._proc = subprocess.Popen([sys.executable, "-m", "conformance.selftest.worker"], stdin=subprocess.PIPE,
                                      stdout=subprocess.DEVNULL, env=env, pass_fds=(write,), text=True)
        os.close(write)
        self._replies = os.fdopen(read, "r")
        return self._proc, self._replies

    def run(self, command: Sequence[str], env: Mapping[str, str], log: Path) -> RunEnd:
        """How one suite run (a ``python -m pytest`` command line) in the worker ended."""
        proc, replies = self._start()
        assert proc.stdin is not None
        request = {"args": pytest_arguments(command), "env": dict(env), "log": str(log)}
        try:
            proc.stdin.write(json.dumps(request) + "\n")
            proc.stdin.flush()
            reply = json.loads(replies.readline())
            return RunEnd(int(reply["status"]), float(reply["cpu"]))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            self.close()
            raise WorkerLost(f"the self-test's judge process ended during the run ({exc})") from None

    def close(self) -> None:
        """End the worker (it ends by itself when its input closes)."""
        if self._proc is not None:
            if self._proc.stdin is not None:
                try:
                    self._proc.stdin.close()
                except OSError:
                    pass
            try:
                self._proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        if self._replies is not None:
            self._replies.close()
        self._proc, self._replies = None, None


def main() -> int:
    """The worker process: serve requests on stdin, answer on the descriptor named by REPLY_FD_ENV."""
    fd = int(os.environ.pop(REPLY_FD_ENV))
    with os.fdopen(fd, "w") as replies:
        serve(sys.stdin, replies)
    return 0


if __name__ == "__main__":
    sys.exit(main())
