"""Executors forked from their slot's fork server keep every guarantee a spawned one has (issue 33.3).

Each test drives one executor slot directly with a hostile wrapper of the simulator
(``hostile/slot_lib.c``) that works against its slot, sandboxed and not: a forked executor never
meets what an earlier one of its slot left (files, a daemon), a library cannot reach its server,
and a slot whose server was killed or stopped is started again instead of being trusted.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from test_judge_executor import _processes_mapping
from test_sandbox import reach

from conformance.executor.forkserver import serve_forks
from conformance.selftest.worker import cpu_seconds
from conformance.session.containment import living, stray_processes
from conformance.session.executors import Executor, ExecutorError
from conformance.session.forks import fork_supported
from conformance.session.sandbox import Sandbox, find_sandbox

ROOT = Path(__file__).resolve().parents[2]
SIM = ROOT / "build" / "sim" / "libascendcl.so"
SOURCE = Path(__file__).parent / "hostile" / "slot_lib.c"
SETTINGS = {"device": None, "product": None, "timeout": 5.0, "kernel": "5.10", "explore_steps": 10,
            "explore_seed": 1, "host_page": 4096, "host_alloc": "svm", "sync_window": 0.2, "cann_release": None}
PROGRAM = {"rule_id": "HM-PAIR-DOUBLE-FREE", "case_id": "HM-PAIR-DOUBLE-FREE[free=free]",
           "check": "conformance.checks.pairing:double_free", "kwargs": {"free": "free", "expect": None}}

pytestmark = pytest.mark.skipif(not fork_supported(), reason="no pidfd here: executors are spawned")
needs_sandbox = pytest.mark.skipif(find_sandbox() is None, reason="bubblewrap cannot create namespaces here")
SANDBOXES = [pytest.param(False, id="unsandboxed"), pytest.param(True, id="sandboxed", marks=needs_sandbox)]


def slot_lib(tmp_path: Path, trick: str, **defines: str) -> Path:
    """Build the wrapper playing ``trick`` into its own folder; its path."""
    return reach(tmp_path, trick, SOURCE, **defines)


def slot(tmp_path: Path, lib: Path, sandboxed: bool) -> Executor:
    box: Sandbox | None = find_sandbox() if sandboxed else None
    executor = Executor({"settings": dict(SETTINGS, lib=str(lib)), "worker_index": 0}, "slot", tmp_path / "run",
                        sandbox=box)
    assert executor.forked
    return executor


def said(executor: Executor) -> list[str]:
    """What the library said about its slot while its executor started."""
    return [line for line in executor.start_stderr.splitlines() if line.startswith("slot: ")]


def wait_until_dead(pid: int | None, limit: float = 5.0) -> None:
    began = time.monotonic()
    while pid is not None and living({pid}) and time.monotonic() - began < limit:
        time.sleep(0.01)


def left_in_slot(executor: Executor) -> set[int]:
    """Every living process of the slot that is neither its own (bubblewrap's init, the server) nor the executor:
    below the slot, or (unsandboxed) an orphan this process adopted as the subreaper."""
    assert executor.proc is not None
    return living(stray_processes(executor.proc.pid, executor.family.known(executor.keep))) - executor.inner


@pytest.mark.parametrize("sandboxed", SANDBOXES)
@pytest.mark.parametrize("how", ["renewed", "lost"])
def test_a_forked_executor_never_meets_what_the_previous_one_of_its_slot_left(tmp_path, sandboxed, how):
    lib = slot_lib(tmp_path, "REMEMBER")
    executor = slot(tmp_path, lib, sandboxed)
    try:
        executor.ensure()
        first, server, tmpdir = executor.pid, executor.server, executor.tmpdir
        assert said(executor) == ["slot: no mark", "slot: 0 entries in TMPDIR"]
        assert left_in_slot(executor)  # its daemon lives while it does
        if how == "renewed":  # a case that may have spoiled it: the judge asks for a fresh one
            executor.renew()
            executor.ensure()
        else:  # its case crashed or hung: the judge killed it
            executor.kill()
            wait_until_dead(first)
            assert executor.run(PROGRAM, 30.0).record is not None
        assert executor.pid != first and executor.server == server and executor.tmpdir == tmpdir
        assert said(executor) == ["slot: no mark", "slot: 0 entries in TMPDIR"]  # nothing of the first one
        assert executor.pid is not None and first not in living({first})
    finally:
        executor.stop()
    assert tmpdir is not None and not Path(tmpdir).exists()


@pytest.mark.parametrize("sandboxed", SANDBOXES)
def test_nothing_the_library_starts_outlives_its_executor_into_the_next(tmp_path, sandboxed):
    lib = slot_lib(tmp_path, "REMEMBER")
    executor = slot(tmp_path, lib, sandboxed)
    try:
        executor.ensure()
        daemons = left_in_slot(executor)
        executor.renew()
        assert not living(daemons)  # killed before the next executor was forked
        executor.ensure()
        assert left_in_slot(executor) and not living(daemons)  # only the new executor's own daemon
    finally:
        executor.stop()
    assert not living(daemons)


@needs_sandbox
def test_a_library_cannot_read_or_write_its_fork_server(tmp_path):
    """The server is non-dumpable: inside the sandbox (no capabilities, even for root) its memory and descriptors
    are closed to the executor it forked. Unsandboxed, a library of a privileged user reaches what that user reaches,
    as it reaches the judge (docs/THREATS.md)."""
    lib = slot_lib(tmp_path, "PARENT", HOW="SIGCONT")
    executor = slot(tmp_path, lib, True)
    try:
        executor.ensure()
        assert said(executor) == ["slot: parent mem denied", "slot: parent fds denied"]
    finally:
        executor.stop()


@pytest.mark.parametrize(("sandboxed", "signal_name"), [
    pytest.param(False, "SIGSTOP", id="unsandboxed-stopped"), pytest.param(False, "SIGKILL", id="unsandboxed-killed"),
    pytest.param(True, "SIGSTOP", id="sandboxed-stopped", marks=needs_sandbox)])
def test_a_slot_whose_server_was_stopped_or_killed_starts_again(tmp_path, sandboxed, signal_name):
    """Sandboxed, a library that kills its server ends its own PID namespace and itself with it (the next test)."""
    lib = slot_lib(tmp_path, "PARENT", HOW=signal_name)
    executor = slot(tmp_path, lib, sandboxed)
    try:
        executor.ensure()
        server = executor.server
        assert executor.run(PROGRAM, 30.0).record is not None  # the executor itself works on
        executor.renew()
        began = time.monotonic()
        executor.ensure()
        assert time.monotonic() - began < 10.0  # a stopped server is not waited for: a new slot
        assert executor.server != server
        assert executor.run(PROGRAM, 30.0).record is not None
    finally:
        executor.stop()
    assert server is not None and not living({server})


@needs_sandbox
def test_a_library_that_kills_every_process_it_sees_takes_only_its_own_slot(tmp_path):
    """Two slots, each in its own sandbox: the library of one kills everything it can see there, its server
    included, and so ends its own PID namespace and itself (as a library that kills its server does); the other
    slot's executor and server live on, and nothing of the hostile slot is left."""
    lib = slot_lib(tmp_path, "ALL")
    quiet = slot(tmp_path / "quiet", SIM, True)
    hostile = slot(tmp_path / "hostile", lib, True)
    try:
        quiet.ensure()
        before = (quiet.pid, quiet.server)
        try:  # its namespace ends with its server: before or after the executor's ready record
            hostile.ensure()
            wait_until_dead(hostile.pid)
            assert hostile.server is not None and not living({hostile.server})
        except ExecutorError as exc:
            assert "slot: killing everyone" in exc.stderr
            assert hostile.proc is None and hostile.tmpdir is None  # the slot was ended whole
        assert quiet.run(PROGRAM, 30.0).record is not None and (quiet.pid, quiet.server) == before
    finally:
        quiet.stop()
        hostile.stop()
    assert not _processes_mapping(lib.parent)


def test_the_fork_server_refuses_a_request_without_its_descriptors(tmp_path):
    """A malformed request (no descriptors) forks nothing; the server answers and serves the next one."""
    import socket

    from conformance.executor.protocol import decode, encode

    judge, server = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    pid = os.fork()
    if pid == 0:  # the server, in a child of this test's process
        judge.close()
        os._exit(serve_forks(server.detach(), "conformance.executor.main"))
    server.close()
    try:
        assert decode(judge.recv(4096)[4:])["t"] == "server"
        judge.send(encode({"t": "fork", "command_fd": 20, "record_fd": 21}))
        assert decode(judge.recv(4096)[4:])["t"] == "refused"
    finally:
        judge.close()
        _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0  # the judge closed the socket: the server ended


@pytest.mark.parametrize("sandboxed", SANDBOXES)
def test_what_its_executors_spent_counts_in_the_judges_cpu(tmp_path, sandboxed):
    """The CPU of a slot's executors is the judge's to count, even where a sandbox's end reaps them unaccounted:
    the self-test's per-run CPU (and the speed claims built on it) includes it."""
    lib = slot_lib(tmp_path, "BURN", BURN_MS="400")
    before = cpu_seconds()
    executor = slot(tmp_path, lib, sandboxed)
    try:
        executor.ensure()
        assert any(line.startswith("slot: burnt ") for line in said(executor))
    finally:
        executor.stop()
    assert cpu_seconds() - before >= 0.4
