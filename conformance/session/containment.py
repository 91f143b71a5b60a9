"""Keeping what the library starts inside the run: a subreaper, process trees, no ptrace.

The judge becomes a child subreaper, so that a helper process the library forks (or a
daemon that double-forks to leave) is reparented to the judge when its parent dies, and is
killed with the executor. The judge also marks itself non-dumpable: a process of the same
user (a daemon the library left behind) can then neither ptrace it nor read its memory or
descriptors under ``/proc``. Linux only; elsewhere these are no-ops.
"""

from __future__ import annotations

import ctypes
import os
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
#: How long a killed tree may take to disappear before the judge moves on.
REAP_LIMIT_S = 5.0


def _prctl(option: int, value: int) -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(option, value, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def become_subreaper() -> bool:
    """Orphans of this process's descendants become this process's children (Linux 3.4+)."""
    return _prctl(PR_SET_CHILD_SUBREAPER, 1)


def refuse_tracing() -> bool:
    """No process of the same user may ptrace this one or read its /proc memory and descriptors."""
    return _prctl(PR_SET_DUMPABLE, 0)


def _stat_fields(pid: int | str) -> list[bytes] | None:
    """The fields of /proc/PID/stat from the state on (field 3); None when the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            text = handle.read(1024)
    except OSError:
        return None
    # The command name is in parentheses and may hold anything; the fields after the last ")" are fixed.
    return text[text.rfind(b")") + 2:].split()


def parents() -> dict[int, int]:
    """pid -> parent pid of every process visible under /proc."""
    table: dict[int, int] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return table
    for name in names:
        if not name.isdigit():
            continue
        fields = _stat_fields(name)
        if fields is not None and len(fields) > 1 and fields[1].isdigit():
            table[int(name)] = int(fields[1])
    return table


def children(pid: int) -> set[int] | None:
    """The children of ``pid`` from /proc/PID/task/*/children (cheap); None where the kernel has no such file."""
    found: set[int] = set()
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return set()
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", "rb") as handle:
                found.update(int(word) for word in handle.read().split())
        except FileNotFoundError:
            return None
        except OSError:
            continue
    return found


def stray_processes(executor: int, known: Iterable[int]) -> set[int]:
    """What an executor started and left running: every process below it, and this process's
    children other than ``known`` and the executor (orphans reparented to a subreaper)."""
    mine = children(os.getpid())
    if mine is None:  # no children files: walk the whole process table
        return (descendants({executor}) | adopted_orphans(set(known) | {executor})) - {executor}
    found: set[int] = set()
    frontier = {executor} | (mine - set(known) - {executor})
    found |= frontier - {executor}
    while frontier:
        below: set[int] = set()
        for pid in frontier:
            below |= children(pid) or set()
        below -= found | {executor}
        found |= below
        frontier = below
    return found


def _state(pid: int) -> bytes | None:
    """The state letter of ``pid`` (R, S, T, Z, ...) from /proc/PID/stat; None when it is gone."""
    fields = _stat_fields(pid)
    return fields[0][:1] if fields else None


def living(pids: Iterable[int]) -> set[int]:
    """Those of ``pids`` that still run (not zombies waiting for their parent)."""
    return {pid for pid in pids if _state(pid) not in (None, b"Z", b"X")}


def stopped(pids: Iterable[int]) -> set[int]:
    """Those of ``pids`` that are stopped (by a signal or a tracer)."""
    return {pid for pid in pids if _state(pid) in (b"T", b"t")}


def kill_now(pids: Iterable[int]) -> None:
    """SIGKILL every one of ``pids`` (stopped ones die too) and reap those that are this process's children."""
    pids = set(pids)
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    deadline = time.monotonic() + REAP_LIMIT_S
    reap(pids, deadline)
    while living(pids) and time.monotonic() < deadline:  # gone, or a zombie its own parent has to reap
        time.sleep(0.002)


def descendants(roots: Iterable[int]) -> set[int]:
    """Every process below ``roots`` (not the roots themselves)."""
    table = parents()
    found: set[int] = set()
    frontier = set(roots)
    while frontier:
        children = {pid for pid, parent in table.items() if parent in frontier and pid not in found}
        found |= children
        frontier = children
    return found


def cpu_seconds_of(pids: Iterable[int]) -> float:
    """The CPU time (user and system) ``pids`` have used, with that of the children each has waited for; a
    zombie's counts too, a process that is gone counts nothing."""
    total = 0
    for pid in pids:
        fields = _stat_fields(pid) or []
        try:
            total += sum(int(word) for word in fields[11:15])  # utime, stime, cutime, cstime: fields 14-17
        except ValueError:
            continue
    return total / os.sysconf("SC_CLK_TCK")


class UnreapedCPU:
    """CPU time that no ``getrusage(RUSAGE_CHILDREN)`` of the judge will ever include, added up per process.

    When a PID namespace's init ends, the kernel reaps what is left below it without adding their times
    to anyone's: killing a sandbox would lose the CPU of its fork server and of every executor the server
    had forked. The judge reads those times just before it kills the sandbox and adds them here, so that
    what a run cost is the judge's rusage and this, never counting a process twice.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seconds = 0.0

    def add(self, seconds: float) -> None:
        """Count ``seconds`` more."""
        with self._lock:
            self._seconds += seconds

    def seconds(self) -> float:
        """What has been counted in this process so far."""
        with self._lock:
            return self._seconds


#: The one counter of a judge process (see :class:`UnreapedCPU`).
UNREAPED_CPU = UnreapedCPU()


def kill_tree(root: int | None, known: Iterable[int] = ()) -> set[int]:
    """SIGKILL ``root`` (None: no root) and every process below it (stopped ones die too); the pids killed.

    Descendants are collected first and killed together. Orphans the kill makes are this
    process's children when it is a subreaper: every child of this process that is not one
    of ``known`` (the children it started itself and keeps) is killed and reaped as well,
    until none is left.
    """
    killed: set[int] = set()
    mine = os.getpid()
    roots = {root} if root is not None else set()
    keep = set(known) - roots
    deadline = time.monotonic() + REAP_LIMIT_S
    while time.monotonic() < deadline:
        found = (roots | descendants(roots) | adopted_orphans(keep)) - {mine} - keep
        fresh = found - killed
        for pid in fresh:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        killed |= fresh
        reap(found, deadline)
        if not fresh and not adopted_orphans(keep) and not (root is not None and _alive(root)):
            break
    return killed


def kill_below(root: int, known: Iterable[int], keep: Iterable[int]) -> set[int]:
    """SIGKILL every process below ``root`` and every adopted orphan (this process's children other than
    ``known``), except ``keep``, until none is left or :data:`REAP_LIMIT_S` passes; those still living."""
    spare = set(keep)
    deadline = time.monotonic() + REAP_LIMIT_S
    while True:
        targets = living(stray_processes(root, known) - spare)
        if not targets or time.monotonic() >= deadline:
            return targets
        kill_now(targets)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def reap(pids: Iterable[int], deadline: float) -> None:
    """Collect the exit status of those of ``pids`` that are this process's children, until ``deadline``."""
    pending = set(pids)
    while pending and time.monotonic() < deadline:
        for pid in list(pending):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pending.discard(pid)  # not ours (its own parent reaps it), or gone
                continue
            if done == pid:
                pending.discard(pid)
        if pending:
            time.sleep(0.005)


def adopted_orphans(known: Iterable[int]) -> set[int]:
    """This process's children that are not ``known`` (those it started itself): reparented orphans."""
    mine = os.getpid()
    skip = set(known)
    return {pid for pid, parent in parents().items() if parent == mine and pid not in skip}


@dataclass(frozen=True)
class Finished:
    """What a bounded child process left: its exit status (None when it was killed at its limit) and output."""

    returncode: int | None
    stdout: str
    stderr: str


def run_bounded(command: Sequence[str], timeout: float, env: Mapping[str, str] | None = None,
                cap: int = 1 << 20) -> Finished:
    """Run ``command`` for at most ``timeout`` seconds; then kill it and everything it started.

    Unlike ``subprocess.run``, the wait ends when the process does, not at end-of-file on its
    pipes: a helper it forked that keeps them open cannot hold the caller. Each stream keeps
    at most ``cap`` bytes.
    """
    become_subreaper()
    before = {pid for pid, parent in parents().items() if parent == os.getpid()}
    proc = subprocess.Popen(list(command), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=dict(env) if env is not None else None)
    assert proc.stdout is not None and proc.stderr is not None
    kept = {proc.stdout.fileno(): bytearray(), proc.stderr.fileno(): bytearray()}
    started = time.monotonic()
    with selectors.DefaultSelector() as selector:
        for fd in kept:
            os.set_blocking(fd, False)
            selector.register(fd, selectors.EVENT_READ)
        while kept and time.monotonic() - started < timeout:
            exited = proc.poll() is not None
            events = selector.select(timeout=0 if exited else 0.05)
            for key, _ in events:
                try:
                    chunk = os.read(int(key.fd), 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    selector.unregister(key.fd)
                    continue
                buffer = kept[int(key.fd)]
                buffer += chunk[: max(0, cap - len(buffer))]
            if exited and not events:
                break
    returncode = proc.poll()
    kill_tree(proc.pid if returncode is None else None, before)
    out, err = (bytes(kept[proc.stdout.fileno()]).decode(errors="replace"),
                bytes(kept[proc.stderr.fileno()]).decode(errors="replace"))
    proc.stdout.close()
    proc.stderr.close()
    if returncode is None:
        proc.wait()
    return Finished(returncode, out, err)
