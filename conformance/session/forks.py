"""The judge's side of an executor fork server (:mod:`conformance.executor.forkserver`): its control
socket, the pids of what it forks, and the slot's temporary directory made fresh between executors.

Everything here is bounded: a server that does not answer within the given limit, or answers
something else, is a server the judge replaces (:class:`~.executors.Executor` starts a new one).
"""

from __future__ import annotations

import functools
import os
import select
import shutil
import signal
import socket
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..executor.protocol import Frame, ProtocolError, decode, encode
from .containment import children, parents

MESSAGE_SIZE = 4096


@functools.lru_cache(maxsize=1)
def fork_supported() -> bool:
    """Whether this machine gives the judge a pidfd on a process that is not its child (Linux 5.3+): without
    one, a forked executor's pid could name another process once it is reaped, and executors are spawned."""
    if not hasattr(os, "pidfd_open") or not hasattr(signal, "pidfd_send_signal"):
        return False
    try:
        os.close(os.pidfd_open(os.getpid()))
    except OSError:
        return False
    return True


def control_pair() -> tuple[socket.socket, socket.socket]:
    """The judge's end and the server's end of a control socket (message boundaries kept)."""
    return socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)


def receive(control: socket.socket, limit: float) -> Frame | None:
    """The server's next message within ``limit`` seconds; None when it ended, stayed silent or spoke garbage."""
    ready, _, _ = select.select([control], [], [], max(0.0, limit))
    if not ready:
        return None
    try:
        message = control.recv(MESSAGE_SIZE)
        return decode(message[4:]) if message else None
    except (OSError, ProtocolError):
        return None


def request_fork(control: socket.socket, fds: Sequence[int], numbers: tuple[int, int], limit: float) -> int | None:
    """Ask the server for an executor holding ``fds`` (command, record, stdout, stderr; the first two to sit at
    ``numbers``); the executor's pid in the server's PID namespace, or None when the server did not fork."""
    try:
        socket.send_fds(control, [encode({"t": "fork", "command_fd": numbers[0], "record_fd": numbers[1]})],
                        list(fds))
    except OSError:
        return None
    reply = receive(control, limit)
    if reply is None or reply.get("t") != "forked" or not isinstance(reply.get("pid"), int):
        return None
    pid = reply["pid"]
    return pid if isinstance(pid, int) else None


def own_children(pid: int) -> set[int]:
    """The children of ``pid`` (from its children files, else from the whole process table)."""
    found = children(pid)
    if found is None:
        return {child for child, parent in parents().items() if parent == pid}
    return found


def host_pid(candidates: Iterable[int], namespaced: int) -> int | None:
    """Which of ``candidates`` (pids as the judge sees them) is ``namespaced`` in its own PID namespace."""
    for pid in candidates:
        try:
            status = Path(f"/proc/{pid}/status").read_text(errors="replace")
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("NSpid:") and line.split()[-1:] == [str(namespaced)]:
                return pid
    return None


def ended(pidfd: int) -> bool:
    """Whether the process of ``pidfd`` has ended (a pidfd turns readable when it exits)."""
    ready, _, _ = select.select([pidfd], [], [], 0)
    return bool(ready)


def kill_by_pidfd(pidfd: int) -> None:
    """SIGKILL the process of ``pidfd`` (nothing when it is gone)."""
    try:
        signal.pidfd_send_signal(pidfd, signal.SIGKILL)
    except OSError:
        pass


def empty_directory(path: str) -> bool:
    """Remove everything in ``path`` (whatever modes the library left), keep the directory itself (a sandbox
    binds it by inode) private to this user; whether it is empty now."""
    try:
        os.chmod(path, stat.S_IRWXU)
        entries = os.listdir(path)
    except OSError:
        return False
    for name in entries:
        target = os.path.join(path, name)
        if os.path.isdir(target) and not os.path.islink(target):
            shutil.rmtree(target, onerror=_writable_and_retry)
        else:
            try:
                os.unlink(target)
            except OSError:
                pass
    try:
        return not os.listdir(path)
    except OSError:
        return False


def _writable_and_retry(function: object, path: str, _: object) -> None:
    """rmtree's error handler: a directory the library made unwritable or unreadable is opened up once."""
    try:
        os.chmod(os.path.dirname(path), stat.S_IRWXU)
        if os.path.isdir(path) and not os.path.islink(path):
            os.chmod(path, stat.S_IRWXU)
            shutil.rmtree(path, ignore_errors=True)
        else:
            os.unlink(path)
    except OSError:
        pass


def drain(fd: int, limit: int = 1 << 16) -> bytes:
    """What a non-blocking ``fd`` holds now (at most ``limit`` bytes)."""
    chunks = bytearray()
    while len(chunks) < limit:
        try:
            chunk = os.read(fd, limit - len(chunks))
        except (BlockingIOError, OSError):
            break
        if not chunk:
            break
        chunks += chunk
    return bytes(chunks)
