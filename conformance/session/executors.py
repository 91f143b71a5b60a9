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
its own, removed when it ends. Its output is read as it comes and capped per case (head
and tail), so a library that prints without end costs the run nothing.
"""

from __future__ import annotations

import fcntl
import os
import re
import secrets
import selectors
import shutil
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
    startup_script,
    write_frame,
)
from ..harness.untrusted_text import OUTPUT_CAP
from ..results.untrusted import as_object
from .containment import become_subreaper, kill_now, kill_tree, living, parents, stray_processes
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
    """One executor process, started on first use and replaced after it is lost."""

    def __init__(self, start: Mapping[str, object], name: str, run_dir: Path,
                 start_limit: float = START_LIMIT_S, entry: str = "conformance.executor.main",
                 sandbox: Sandbox | None = None, family: ExecutorFamily | None = None) -> None:
        self.start_message = dict(start)
        self.sandbox = sandbox  # None: the library runs unsandboxed (the run said so)
        self.inner: set[int] = set()  # the sandboxed interpreter below bwrap: the executor itself, not a stray
        self.entry = entry  # the module whose serve() the process runs (the preflight's probe has its own)
        self.start_limit = start_limit
        self.start_stderr = ""  # what it printed on stderr while it started (the probe's messages quote it)
        self.name = name
        self.run_dir = run_dir
        self.nonce = secrets.token_hex(16)
        self.seq = secrets.randbelow(1 << 30)
        self.proc: subprocess.Popen[bytes] | None = None
        self.facts: dict[str, object] = {}
        self.error: str | None = None
        self.tmpdir: str | None = None
        self.command_fd = -1
        self.record_fd = -1
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
        if self.proc is not None and self.proc.poll() is None:
            return
        self.close()
        self._spawn()
        answer = self._await(0, self.start_limit, kind="ready")
        self.start_stderr = answer.stderr
        if answer.record is None:
            detail = answer.stderr.strip().splitlines()[-1:] if answer.stderr.strip() else []
            self.close()
            how = f"did not answer within {self.start_limit:.0f} s" if answer.lost == "timeout" else "died"
            raise ExecutorError(f"the executor {how} while opening the library{': ' + detail[0] if detail else ''}",
                                answer.lost, answer.stderr)
        if self.sandbox is not None:
            self.inner = sandboxed_chain(self.proc.pid) if self.proc is not None else set()
        error = answer.record.get("error")
        self.error = None if error is None else str(error)
        self.facts = dict(as_object(answer.record.get("facts")))

    def _spawn(self) -> None:
        self.tmpdir = tempfile.mkdtemp()
        command_r, command_w = os.pipe()
        record_r, record_w = os.pipe()
        env = neutral_environment(os.environ, self.tmpdir)

        # The pipes' ends move to numbers drawn for this executor (the lowest free one from a random start,
        # atomically): nothing sits at a number a library could key on, and no preexec_fn is needed.
        draw = secrets.SystemRandom()
        command_fd = fcntl.fcntl(command_r, fcntl.F_DUPFD, draw.choice(FD_RANGE))
        record_fd = fcntl.fcntl(record_w, fcntl.F_DUPFD, draw.choice(FD_RANGE))
        os.close(command_r)
        os.close(record_w)

        kit = str(Path(__file__).resolve().parents[2])
        script = Path(self.tmpdir) / SCRIPT_NAME
        script.write_text(startup_script(kit, self.entry, command_fd, record_fd), encoding="utf-8")
        argv = [sys.executable, SCRIPT_NAME]
        if self.sandbox is not None:
            self.journal.parent.mkdir(parents=True, exist_ok=True)
            self.journal.touch()  # bound writable into the sandbox, which sees the report directory read-only
            argv = self.sandbox.command(argv, writable=(self.tmpdir, str(self.journal)),
                                        readable=kit_paths() + self._library_paths())
        self.inner = set()
        try:
            with self.family.lock:
                before = set(pid for pid, parent in parents().items() if parent == os.getpid()) - self.family.pids
                self.proc = subprocess.Popen(
                    argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, env=env, cwd=self.tmpdir, pass_fds=(command_fd, record_fd),
                    close_fds=True)
                self.family.pids.add(self.proc.pid)
        finally:
            os.close(command_fd)
            os.close(record_fd)
        self.keep = before
        self.command_fd, self.record_fd = command_w, record_r
        self.buffer = FrameBuffer()
        os.set_blocking(self.record_fd, False)
        for stream in (self.proc.stdout, self.proc.stderr):
            assert stream is not None
            os.set_blocking(stream.fileno(), False)
        start = dict(self.start_message, t="start", nonce=self.nonce, journal=str(self.journal))
        write_frame(self.command_fd, start)

    def _library_paths(self) -> list[str]:
        """The directories of the library and of the plugin files the executor imports (read-only inside)."""
        settings = as_object(self.start_message.get("settings") or self.start_message.get("probe"))
        files = [settings.get("lib"), *(self.start_message.get("preload") or [])]  # type: ignore[misc]
        return [str(Path(str(f)).resolve().parent) for f in files if f]

    def kill(self) -> None:
        """End the executor at once, from another thread: the thread waiting on it sees it die and closes it."""
        proc = self.proc
        if proc is not None and proc.returncode is None:
            try:
                proc.kill()
            except OSError:
                pass

    def stop(self) -> None:
        """Ask the executor to finalize and end; whatever is left after :data:`STOP_LIMIT_S` is killed."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                write_frame(self.command_fd, {"t": "stop"})
                self._await(None, STOP_LIMIT_S, kind="stopped")
            except OSError:
                pass
        self.close()

    def close(self) -> None:
        """Kill the executor and every process it started; close its pipes; remove its temporary directory."""
        if self.proc is not None:
            # A reaped executor's pid may be someone else's by now: only its orphans are looked for then.
            with self.family.lock:
                self.family.pids.discard(self.proc.pid)
                kill_tree(self.proc.pid if self.proc.returncode is None else None, self.family.known(self.keep))
            try:
                self.proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                pass
            for stream in (self.proc.stdout, self.proc.stderr):
                if stream is not None:
                    stream.close()
            self.proc = None
        for fd in (self.command_fd, self.record_fd):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.command_fd = self.record_fd = -1
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
            self.close()
            return answer
        answer = self._await(self.seq, limit, kind="result")
        if answer.record is None:
            self.close()
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
        assert self.proc is not None and self.proc.stdout is not None and self.proc.stderr is not None
        out, err = CappedText(), CappedText()
        streams = {self.proc.stdout.fileno(): out, self.proc.stderr.fileno(): err}
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
                        and self.proc.poll() is not None and answer.record is None:
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
