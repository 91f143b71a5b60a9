"""The executor fork server: an interpreter that has imported the executor's code, never the library, and
forks one executor per request of the judge.

Started by :class:`conformance.session.executors.Executor` exactly as an executor is (``python main.py``,
a script that deletes itself, the judge's neutral environment, inside the executor slot's sandbox), it
imports the entry module (:mod:`.main`: cffi and the generated bindings), says so on its control socket
and then waits. Each request carries four descriptors (the new executor's command and record pipes, its
stdout and its stderr) and the two numbers the pipes must sit at; the server forks, and the child
becomes an executor indistinguishable from a spawned one: descriptors 0-2 and the two pipes at the
drawn numbers and nothing else, dumpable again, then the entry's ``serve``, which opens the library.
The server never reaps an executor before the judge asks for the next one, so the judge's handle on the
executor's pid (a pidfd) can never name another process.

The server is non-dumpable: a process of the same user (a library running in one of its executors)
can neither ptrace it nor open ``/proc/PID/fd`` or ``mem`` of it, so a library cannot reach the control
socket or plant anything in the image the next executor forks from. A library can still kill the
server (it shares the user and, sandboxed, the PID namespace); the judge then starts a new one.
"""

from __future__ import annotations

import ctypes
import fcntl
import importlib
import os
import socket
import sys
import traceback

from .protocol import FD_RANGE, ProtocolError, as_int, decode, encode

PR_SET_DUMPABLE = 4
#: Descriptors an executor receives: its command pipe, its record pipe, its stdout, its stderr.
PASSED_FDS = 4
#: Where the received pipes wait while the child moves them to the drawn numbers (above every drawn one).
PARKING_FD = FD_RANGE.stop + 16
MESSAGE_SIZE = 4096


def _dumpable(value: int) -> None:
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, value, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def serve_forks(control_fd: int, entry: str) -> int:
    """Import ``entry``, then fork one executor per request on ``control_fd`` until the judge closes it."""
    _dumpable(0)
    serve = importlib.import_module(entry).serve
    control = socket.socket(fileno=control_fd)
    control.send(encode({"t": "server", "pid": os.getpid()}))
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(control, MESSAGE_SIZE, PASSED_FDS + 1)
        except OSError:
            return 0
        if not message:
            return 0  # the judge closed the socket: the slot ends
        _reap()
        try:
            request = decode(message[4:])
            numbers = (as_int(request["command_fd"]), as_int(request["record_fd"]))
            if len(fds) != PASSED_FDS or len(set(numbers)) != 2 or not set(numbers) <= set(FD_RANGE):
                raise ProtocolError("a fork request without four descriptors and two drawn numbers")
        except (ProtocolError, KeyError, TypeError, ValueError) as exc:
            for fd in fds:
                os.close(fd)
            control.send(encode({"t": "refused", "why": str(exc)}))
            continue
        pid = os.fork()
        if pid == 0:
            _run_executor(serve, control, fds, numbers)
        for fd in fds:
            os.close(fd)
        control.send(encode({"t": "forked", "pid": pid}))


def _reap() -> None:
    """Collect every executor that ended (the judge killed it before asking for the next one)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _run_executor(serve: object, control: socket.socket, fds: list[int], numbers: tuple[int, int]) -> None:
    """The forked child: become an executor with the received descriptors, serve, and never return."""
    status = 1
    try:
        command_fd, record_fd = _become_executor(control, fds, numbers)
        status = int(serve(command_fd, record_fd))  # type: ignore[operator]
    except BaseException:  # noqa: BLE001 - the child must end here whatever happens, with its traceback said
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(status)


def _become_executor(control: socket.socket, fds: list[int], numbers: tuple[int, int]) -> tuple[int, int]:
    """Keep only descriptors 0-2 (stdout and stderr the executor's own) and its two pipes at ``numbers``."""
    control.close()
    _dumpable(1)  # an executor is an ordinary process, as a spawned one is
    command, record, out, err = fds
    os.dup2(out, 1)
    os.dup2(err, 2)
    parked = [fcntl.fcntl(fd, fcntl.F_DUPFD, PARKING_FD) for fd in (command, record)]
    for fd in fds:
        os.close(fd)
    for fd, number in zip(parked, numbers):
        os.dup2(fd, number)
        os.close(fd)
    keep = sorted({0, 1, 2, *numbers})
    for low, high in zip(keep, keep[1:] + [os.sysconf("SC_OPEN_MAX")]):
        os.closerange(low + 1, high)
    return numbers
