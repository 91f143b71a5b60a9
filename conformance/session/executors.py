"""The judge's side of an executor: start it neutral, hand it case programs, bound every wait.

The judge (a pytest process) never loads the library under test. It keeps N executors
(:mod:`conformance.executor`, scheduled by :mod:`conformance.session.scheduler`) and each one
while it answers; a case whose executor dies or does not answer within the case's limit loses
only that executor, which is killed with everything it started, and its next case gets a fresh
one. The executors of one judge share an :class:`ExecutorFamily`: the processes the judge
started itself, which no executor's clean-up may take for a stray of its library.

An executor carries nothing that names the kit, pytest or the case: its argv is ``python main.py``
(a script in its own directory that deletes itself as it starts), its two pipes sit at descriptor
numbers drawn for it, its environment is the user's without
:data:`KIT_VARIABLES` and without anything mentioning the kit, and its temporary directory is
its own: empty when it starts, removed with its slot. Its output is read as it comes and capped per case (head
and tail), so a library that prints without end costs the run nothing.

An executor is forked from its slot's fork server (:mod:`conformance.executor.forkserver`, one per
executor slot, started like an executor and in the same sandbox), which has imported cffi and the
bindings but never opened the library: a fresh executor after a lost or spoiled one costs a fork, not an
interpreter. Between two executors of a slot the judge kills everything the previous one left in the slot
(all but bubblewrap's init and the server) and empties the slot's temporary directory, so each forked
executor meets what a spawned one meets (docs/THREATS.md, "The executor fork server"); a slot that cannot
be made so clean is ended whole and started again.
"""

from __future__ import annotations

import fcntl
import os
import re
import secrets
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..executor.protocol import (
    FD_RANGE,
    SCRIPT_NAME,
    FrameBuffer,
    ProtocolError,
    fork_server_script,
    startup_script,
    write_frame,
)
from ..harness.untrusted_text import OUTPUT_CAP
from ..results.untrusted import as_object
from .containment import (
    UNREAPED_CPU,
    become_subreaper,
    children,
    cpu_seconds_of,
    descendants,
    kill_below,
    kill_now,
    kill_tree,
    living,
    parents,
    stopped,
    stray_processes,
)
from .forks import (
    control_pair,
    drain,
    empty_directory,
    ended,
    fork_supported,
    host_pid,
    kill_by_pidfd,
    own_children,
    receive,
    request_fork,
)
from .sandbox import Sandbox, kit_paths, sandboxed_chain

#: Variables of the kit and of pytest that never reach an executor (prefixes).
KIT_VARIABLES = ("PYTEST", "PYTHON", "ACL_", "XDIST", "COV_", "VIRTUAL_ENV", "_PYTEST", "PY_COLORS")
#: A variable whose value mentions one of these is left out too (a path of the kit, a test's name).
KIT_WORDS = re.compile(r"pytest|conformance|acl_hostmem|xdist|execnet", re.IGNORECASE)
#: How long an executor may take to open the library (aclInit, a device, the family).
START_LIMIT_S = 60.0
#: How long a stopping executor may take for aclFinalize and its exit.
STOP_LIMIT_S = 12.0
POLL_S = 0.1
READ_CHUNK = 1 << 16
#: The kit's tree, which an executor puts on its ``sys.path``.
KIT = str(Path(__file__).resolve().parents[2])


def neutral_environment(env: Mapping[str, str], tmpdir: str) -> dict[str, str]:
    """The environment of an executor: ``env`` without the kit's and pytest's traces, TMPDIR its own."""
    kept = {name: value for name, value in env.items()
            if not name.upper().startswith(KIT_VARIABLES) and not KIT_WORDS.search(name)
            and not KIT_WORDS.search(value)}
    kept.update(TMPDIR=tmpdir, TMP=tmpdir, TEMP=tmpdir)
    return kept


class CappedText:
    """What one stream printed during a case: the first and the last ``cap // 2`` bytes, and the count cut."""

    def __init__(self, cap: int = OUTPUT_CAP) -> None:
        self.half = cap // 2
        self.head = bytearray()
        self.tail = bytearray()
        self.cut = 0

    def add(self, chunk: bytes) -> None:
        """Keep what fits of ``chunk``."""
        room = self.half - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if chunk:
            self.tail += chunk
            if len(self.tail) > self.half:
                self.cut += len(self.tail) - self.half
                del self.tail[:len(self.tail) - self.half]

    def text(self) -> str:
        """What was kept, with the cut said in between."""
        middle = f"\n[... {self.cut} bytes cut ...]\n" if self.cut else ""
        return (bytes(self.head).decode(errors="replace") + middle + bytes(self.tail).decode(errors="replace"))


@dataclass
class Answer:
    """What came back for one case program: its record, or how the executor was lost."""

    record: Mapping[str, object] | None
    lost: str | None = None  # "crash" or "timeout" when no record came
    elapsed: float = 0.0
    stdout: str = ""
    stderr: str = ""
    problems: list[str] = field(default_factory=list)  # records dropped for a wrong nonce or sequence


class ExecutorError(Exception):
    """An executor could not be started (it died or did not answer while opening the library)."""

    def __init__(self, message: str, lost: str | None = None, stderr: str = "") -> None:
        super().__init__(message)
        self.lost = lost  # "timeout" or "crash"; None when it could not be started at all
        self.stderr = stderr  # what it printed on stderr before it was lost


class ExecutorFamily:
    """The executors one judge runs at once: their pids, and the lock under which one of them starts or
    looks for strays.

    The judge is a subreaper, so an orphan of any executor's library becomes the judge's child, as
    does every executor it starts: an executor that looks for what its library left running takes
    every child of the judge for a stray except the processes of this family (the judge's children
    from before, and every executor living now). Starting one and looking for strays hold the same lock,
    so no executor is ever taken for a stray in the instant between its start and its registration.
    """

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.pids: set[int] = set()

    def known(self, before: set[int]) -> set[int]:
        """The judge's children that are no stray: ``before`` and every living executor."""
        return before | self.pids


class Executor:
    """One executor process, started on first use and replaced after it is lost.

    Forked (the default where the kernel gives pidfds), the executor is one of a slot's: the judge
    starts a fork server for the slot once (``python main.py`` in the slot's sandbox, cffi and the
    bindings imported, never the library; :mod:`conformance.executor.forkserver`) and each executor,
    the first and every fresh one after a lost or spoiled one, is forked from it and then opens the
    library. Spawned (``forked=False``: the preflight's one probe), the process the judge starts is the
    executor itself.
    """

    def __init__(self, start: Mapping[str, object], name: str, run_dir: Path,
                 start_limit: float = START_LIMIT_S, entry: str = "conformance.executor.main",
                 sandbox: Sandbox | None = None, family: ExecutorFamily | None = None, forked: bool = True) -> None:
        self.start_message = dict(start)
        self.sandbox = sandbox  # None: the library runs unsandboxed (the run said so)
        self.forked = forked and fork_supported()
        # The process the judge started: the executor when spawned, the slot's fork server when forked
        # (bubblewrap around either when sandboxed).
        self.proc: subprocess.Popen[bytes] | None = None
        self.pid: int | None = None  # the executor's pid as the judge sees it
        self.pidfd = -1  # forked: the judge's handle on its executor (never another process's, even once reaped)
        self.control: socket.socket | None = None  # forked: the judge's end of the server's control socket
        self.server: int | None = None  # forked: the server's pid
        self.slot: set[int] = set()  # forked: the slot's own processes (bubblewrap's init, the server)
        self.inner: set[int] = set()  # what lives in the slot and is no stray: the slot's processes and the executor
        self.entry = entry  # the module whose serve() the process runs (the preflight's probe has its own)
        self.start_limit = start_limit
        self.start_stderr = ""  # what it printed on stderr while it started (the probe's messages quote it)
        self.name = name
        self.run_dir = run_dir
        self.nonce = secrets.token_hex(16)
        self.seq = secrets.randbelow(1 << 30)
        self.facts: dict[str, object] = {}
        self.error: str | None = None
        self.tmpdir: str | None = None
        self.command_fd = self.record_fd = self.out_fd = self.err_fd = -1
        self.buffer = FrameBuffer()
        self.keep: set[int] = set()
        self.family = family or ExecutorFamily()
        become_subreaper()

    @property
    def journal(self) -> Path:
        """The call journal the executor keeps (see :mod:`conformance.executor.journal`)."""
        return self.run_dir / f"{self.name}.calls"

    # ---- starting and stopping ----
    def ensure(self) -> None:
        """Start the executor unless one is running; raises ExecutorError when it cannot start."""
        if self._running():
            return
        if self.command_fd >= 0 or (self.proc is not None and not self.forked):
            self._drop()  # one that ended by itself (a lost or renewed one is dropped already)
        if not self.forked:
            self._spawn()
        elif not (self.proc is not None and self._fork()):
            self.close()  # no server yet, or one that did not fork: a new slot, tried once
            self._start_server()
            if not self._fork():
                self.close()
                raise ExecutorError("the executor's fork server did not fork an executor")
        self._greet()
        answer = self._await(0, self.start_limit, kind="ready")
        self.start_stderr = answer.stderr
        if answer.record is None:
            detail = answer.stderr.strip().splitlines()[-1:] if answer.stderr.strip() else []
            self._drop()
            how = f"did not answer within {self.start_limit:.0f} s" if answer.lost == "timeout" else "died"
            raise ExecutorError(f"the executor {how} while opening the library{': ' + detail[0] if detail else ''}",
                                answer.lost, answer.stderr)
        if self.sandbox is not None and not self.forked and self.proc is not None:
            self.inner = sandboxed_chain(self.proc.pid)
            self.pid = next(iter(self.inner - own_children(self.proc.pid)), None)
        error = answer.record.get("error")
        self.error = None if error is None else str(error)
        self.facts = dict(as_object(answer.record.get("facts")))

    def _launch(self, script: str, fds: tuple[int, ...]) -> subprocess.Popen[bytes]:
        """Start ``python main.py`` (``script``, holding ``fds``) in a fresh temporary directory, sandboxed
        when the run is; it becomes :attr:`proc`, registered in the family."""
        self.tmpdir = tempfile.mkdtemp()
        env = neutral_environment(os.environ, self.tmpdir)
        (Path(self.tmpdir) / SCRIPT_NAME).write_text(script, encoding="utf-8")
        argv = [sys.executable, SCRIPT_NAME]
        if self.sandbox is not None:
            self.journal.parent.mkdir(parents=True, exist_ok=True)
            self.journal.touch()  # bound writable into the sandbox, which sees the report directory read-only
            argv = self.sandbox.command(argv, writable=(self.tmpdir, str(self.journal)),
                                        readable=kit_paths() + self._library_paths())
        self.inner = set()
        with self.family.lock:
            before = set(pid for pid, parent in parents().items() if parent == os.getpid()) - self.family.pids
            proc = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, env=env, cwd=self.tmpdir, pass_fds=fds, close_fds=True)
            self.family.pids.add(proc.pid)
        self.proc, self.keep = proc, before
        for stream in (proc.stdout, proc.stderr):
            assert stream is not None
            os.set_blocking(stream.fileno(), False)
        return proc

    def _spawn(self) -> None:
        command_r, command_w = os.pipe()
        record_r, record_w = os.pipe()
        # The pipes' ends move to numbers drawn for this executor (the lowest free one from a random start,
        # atomically): nothing sits at a number a library could key on, and no preexec_fn is needed.
        draw = secrets.SystemRandom()
        command_fd = fcntl.fcntl(command_r, fcntl.F_DUPFD, draw.choice(FD_RANGE))
        record_fd = fcntl.fcntl(record_w, fcntl.F_DUPFD, draw.choice(FD_RANGE))
        os.close(command_r)
        os.close(record_w)
        try:
            proc = self._launch(startup_script(KIT, self.entry, command_fd, record_fd), (command_fd, record_fd))
        finally:
            os.close(command_fd)
            os.close(record_fd)
        assert proc.stdout is not None and proc.stderr is not None
        self.pid = proc.pid
        self._attach(command_w, record_r, proc.stdout.fileno(), proc.stderr.fileno())

    def _start_server(self) -> None:
        """Start the slot's fork server and wait (at most the start limit) until it has imported the executor."""
        judge_end, server_end = control_pair()
        number = fcntl.fcntl(server_end.fileno(), fcntl.F_DUPFD, secrets.SystemRandom().choice(FD_RANGE))
        server_end.close()
        try:
            proc = self._launch(fork_server_script(KIT, self.entry, number), (number,))
        finally:
            os.close(number)
        self.control = judge_end
        hello = receive(judge_end, self.start_limit)
        said = hello.get("pid") if hello is not None and hello.get("t") == "server" else None
        if isinstance(said, int):
            below = sandboxed_chain(proc.pid) if self.sandbox is not None else {proc.pid}
            self.server = host_pid(below, said)
            self.slot = below if self.server is not None else set()
        if self.server is None:
            assert proc.stderr is not None
            stderr = drain(proc.stderr.fileno()).decode(errors="replace")
            lost = "crash" if proc.poll() is not None else "timeout"
            self.close()
            detail = stderr.strip().splitlines()[-1:]
            raise ExecutorError("the executor's fork server did not start" + (f": {detail[0]}" if detail else ""),
                                lost, stderr)
        self.inner = set(self.slot)

    def _fork(self) -> bool:
        """Fork the slot's next executor, its pipes fresh and at numbers drawn for it; False when the server
        did not answer within the start limit."""
        assert self.control is not None and self.server is not None and self.proc is not None
        if self.proc.stderr is not None:
            drain(self.proc.stderr.fileno())  # the server says nothing the run needs; its pipe must not fill
        command_r, command_w = os.pipe()
        record_r, record_w = os.pipe()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        draw = secrets.SystemRandom().sample(FD_RANGE, 2)
        try:
            forked = request_fork(self.control, (command_r, record_w, out_w, err_w), (draw[0], draw[1]),
                                  self.start_limit)
        finally:
            for fd in (command_r, record_w, out_w, err_w):
                os.close(fd)
        # The server reaps no executor before the next request: the pid is this one's while the judge opens its pidfd.
        pid = host_pid(own_children(self.server), forked) if forked is not None else None
        try:
            pidfd = os.pidfd_open(pid) if pid is not None else -1
        except OSError:
            pidfd = -1
        if pidfd < 0:
            for fd in (command_w, record_r, out_r, err_r):
                os.close(fd)
            return False
        self.pid, self.pidfd = pid, pidfd
        self.inner = self.slot | {pid} if pid is not None else set(self.slot)
        self._attach(command_w, record_r, out_r, err_r)
        os.set_blocking(out_r, False)
        os.set_blocking(err_r, False)
        return True

    def _attach(self, command_w: int, record_r: int, out_r: int, err_r: int) -> None:
        self.command_fd, self.record_fd, self.out_fd, self.err_fd = command_w, record_r, out_r, err_r
        self.buffer = FrameBuffer()
        os.set_blocking(self.record_fd, False)

    def _greet(self) -> None:
        """Send the start frame: the settings, the nonce, the journal (an executor that died already is seen
        dead by the wait for its ready record)."""
        try:
            write_frame(self.command_fd, dict(self.start_message, t="start", nonce=self.nonce,
                                              journal=str(self.journal)))
        except OSError:
            pass

    def _running(self) -> bool:
        """Whether the executor lives."""
        if self.proc is None:
            return False
        if self.forked:
            return self.pidfd >= 0 and not ended(self.pidfd)
        return self.proc.poll() is None

    def _library_paths(self) -> list[str]:
        """The directories of the library and of the plugin files the executor imports (read-only inside)."""
        settings = as_object(self.start_message.get("settings") or self.start_message.get("probe"))
        files = [settings.get("lib"), *(self.start_message.get("preload") or [])]  # type: ignore[misc]
        return [str(Path(str(f)).resolve().parent) for f in files if f]

    def kill(self) -> None:
        """End the executor at once, from another thread: the thread waiting on it sees it die and closes it."""
        if self.forked:
            if self.pidfd >= 0:
                kill_by_pidfd(self.pidfd)
            return
        proc = self.proc
        if proc is not None and proc.returncode is None:
            try:
                proc.kill()
            except OSError:
                pass

    def stop(self) -> None:
        """Ask the executor to finalize and end, then end its slot; whatever is left after
        :data:`STOP_LIMIT_S` is killed."""
        self._finalize()
        self.close()

    def renew(self) -> None:
        """Ask the executor to finalize and end (as :meth:`stop`), keeping the slot's fork server: the next
        :meth:`ensure` forks a fresh executor (after a case that may have spoiled its process)."""
        self._finalize()
        self._drop()

    def _finalize(self) -> None:
        if self._running():
            try:
                write_frame(self.command_fd, {"t": "stop"})
                self._await(None, STOP_LIMIT_S, kind="stopped")
            except OSError:
                pass

    def _drop(self) -> None:
        """End the executor: a forked one alone when its slot stays clean and its server alive, else the slot."""
        if self.forked and self.proc is not None and self._retire():
            return
        self.close()

    def _retire(self) -> bool:
        """Kill the forked executor and everything its library started in the slot, keep the slot's own
        processes, make its temporary directory empty; whether the slot is as clean as a fresh one."""
        assert self.proc is not None
        with self.family.lock:
            left = kill_below(self.proc.pid, self.family.known(self.keep), self.slot)
        self._close_pipes()
        self.inner = set(self.slot)
        return (not left and self.proc.poll() is None and living(self.slot) == self.slot and not stopped(self.slot)
                and self.tmpdir is not None and empty_directory(self.tmpdir))

    def _close_pipes(self) -> None:
        """Close the judge's ends of the executor's pipes (and, forked, its output pipes and pidfd)."""
        owned = [self.command_fd, self.record_fd]
        if self.forked:
            owned += [self.out_fd, self.err_fd, self.pidfd]
        for fd in owned:
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.command_fd = self.record_fd = self.out_fd = self.err_fd = self.pidfd = -1
        self.pid = None

    def close(self) -> None:
        """Kill the executor, its slot's server and every process they started; close their pipes; remove
        the temporary directory."""
        self._close_pipes()
        if self.proc is not None:
            # A reaped process's pid may be someone else's by now: only its orphans are looked for then.
            with self.family.lock:
                self.family.pids.discard(self.proc.pid)
                if self.sandbox is not None and self.proc.returncode is None:
                    # What runs below the sandbox's init is reaped unaccounted when the init dies: its CPU is read
                    # first, and the init dies first, so that nothing below it is reaped (and counted) normally.
                    inits = children(self.proc.pid) or set()
                    UNREAPED_CPU.add(cpu_seconds_of(descendants(inits)))
                    kill_now(inits)
                kill_tree(self.proc.pid if self.proc.returncode is None else None, self.family.known(self.keep))
            try:
                self.proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                pass
            for stream in (self.proc.stdout, self.proc.stderr):
                if stream is not None:
                    stream.close()
            self.proc = None
        if self.control is not None:
            self.control.close()
            self.control = None
        self.server, self.slot, self.inner = None, set(), set()
        if self.tmpdir:
            shutil.rmtree(self.tmpdir, ignore_errors=True)
            self.tmpdir = None

    # ---- one case ----
    def run(self, program: Mapping[str, object], limit: float) -> Answer:
        """Hand one case program over and wait at most ``limit`` seconds for its record."""
        self.ensure()
        self.seq += 1
        try:
            write_frame(self.command_fd, dict(program, t="case", seq=self.seq))
        except OSError:
            answer = Answer(None, "crash")
            self._drop()
            return answer
        answer = self._await(self.seq, limit, kind="result")
        if answer.record is None:
            self._drop()
        elif self.proc is not None:
            # Nothing the library started outlives its case (a helper, a daemon that double-forked).
            with self.family.lock:
                stray = living(stray_processes(self.proc.pid, self.family.known(self.keep)) - self.inner)
                if stray:
                    kill_now(stray)
                    answer.problems.append(f"{len(stray)} process(es) the library started during the case were killed")
        return answer

    def _await(self, seq: int | None, limit: float, kind: str) -> Answer:
        """Read records and output until the record of ``kind`` (and ``seq``) arrives, the executor
        dies, or ``limit`` passes; nothing here blocks longer than :data:`POLL_S`."""
        assert self.proc is not None
        out, err = CappedText(), CappedText()
        streams = {self.out_fd: out, self.err_fd: err}
        started = time.monotonic()
        answer = Answer(None)
        with selectors.DefaultSelector() as selector:
            selector.register(self.record_fd, selectors.EVENT_READ, None)
            for fd, sink in streams.items():
                selector.register(fd, selectors.EVENT_READ, sink)
            open_fds = {self.record_fd, *streams}
            while True:
                left = limit - (time.monotonic() - started)
                if answer.record is not None:
                    # The executor flushed its output before the record: what is in the pipes is the case's.
                    if self._pump(selector, open_fds, 0.0, answer):
                        continue
                    break
                if left <= 0:
                    answer.lost = "timeout"
                    break
                if not self._pump(selector, open_fds, min(POLL_S, left), answer, seq, kind) \
                        and not self._running() and answer.record is None:
                    self._pump(selector, open_fds, 0.0, answer, seq, kind)
                    if answer.record is None:
                        answer.lost = "crash"
                    break
        answer.elapsed = time.monotonic() - started
        answer.stdout, answer.stderr = out.text(), err.text()
        return answer

    def _pump(self, selector: selectors.BaseSelector, open_fds: set[int], timeout: float, answer: Answer,
              seq: int | None = None, kind: str = "") -> bool:
        """One wait for input; True when something was read."""
        got = False
        for key, _ in selector.select(timeout):
            fd = int(key.fd)
            try:
                chunk = os.read(fd, READ_CHUNK)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                selector.unregister(fd)
                open_fds.discard(fd)
                continue
            got = True
            if key.data is not None:
                key.data.add(chunk)
                continue
            self.buffer.feed(chunk)
            self._frames(answer, seq, kind)
        return got

    def _frames(self, answer: Answer, seq: int | None, kind: str) -> None:
        while True:
            try:
                frame = self.buffer.next_frame()
            except ProtocolError as exc:
                answer.problems.append(str(exc))
                self.buffer = FrameBuffer()
                return
            if frame is None:
                return
            if frame.get("nonce") != self.nonce or frame.get("t") != kind \
                    or (seq is not None and frame.get("seq") != seq):
                answer.problems.append(f"a {str(frame.get('t'))[:20]!r} record that does not carry this case's "
                                       "nonce and sequence number was dropped")
                continue
            if answer.record is None:
                answer.record = frame
