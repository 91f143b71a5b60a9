"""The library runs in a sandbox: it cannot write the kit, reach the judge or recognise the kit (issue 34).

Each test plays one row of issue 34's table with a hostile wrapper of the simulator
(``hostile/reach_lib.c``) that breaks double unregister and tries to get that certified. Each
must end NOT CERTIFIED within the run's deadline, leave no process of the run, no temporary
directory and no library daemon behind, and leave the kit's files byte-identical.
"""

from __future__ import annotations

import json
import os
import subprocess
import sysconfig
import time
import uuid
from pathlib import Path

import pytest
from kit_runs import KIT
from test_judge_executor import _processes_mapping

from conformance.harness.resources import catalog_path
from conformance.results.vocabulary import EXIT_INCONCLUSIVE
from conformance.session.containment import children
from conformance.session.executors import Executor
from conformance.session.sandbox import NOT_SANDBOXED, Sandbox, find_sandbox

ROOT = Path(__file__).resolve().parents[2]
SIM = ROOT / "build" / "sim" / "libascendcl.so"
SOURCE = Path(__file__).parent / "hostile" / "reach_lib.c"
FAULTED = "HM-PAIR-DOUBLE-UNREGISTER"
#: The run's deadline in these tests, and how long certify may take beyond it.
DEADLINE_S = 60
SLACK_S = 30

needs_sandbox = pytest.mark.skipif(find_sandbox() is None, reason="bubblewrap cannot create namespaces here")


def reach(tmp_path: Path, trick: str, source: Path = SOURCE, **defines: str) -> Path:
    """Build the wrapper of ``source`` playing ``trick`` (with ``defines`` as C macros) into its own folder; its
    path."""
    if not SIM.is_file():
        pytest.fail(f"{SIM} is not built: run `make sim` first")
    out = tmp_path / trick.lower() / "libascendcl.so"
    out.parent.mkdir(parents=True)
    macros = [f"-D{name}={value}" for name, value in defines.items()]
    subprocess.run([os.environ.get("CC", "cc"), "-shared", "-fPIC", "-O1", f"-DTRICK_{trick}",
                    f'-DSCOPE="{tmp_path}"', *macros, str(source), "-o", str(out), "-L", str(SIM.parent),
                    "-Wl,--no-as-needed", "-l:libascendcl.so", f"-Wl,-rpath,{SIM.parent}"], check=True)
    return out


def certify(lib: Path, tmp_path: Path) -> tuple[int, float, str]:
    """Certify ``lib`` (the faulted rule's cases) with the run marked by the test's scope; (status, seconds, output)."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ACL_", "ACLSIM_"))}
    env.update(HOSTILE_SCOPE=str(tmp_path), TMPDIR=str(scratch), ACL_DEADLINE=str(DEADLINE_S))
    started = time.monotonic()
    done = subprocess.run([*KIT, "certify", "--acl-lib", str(lib), "--out-dir",
                           str(tmp_path / "out"), "-n", "2", "--no-html", "--", "-k", "DOUBLE_UNREGISTER"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=DEADLINE_S + 2 * SLACK_S)
    return done.returncode, time.monotonic() - started, done.stdout[-3000:] + done.stderr[-3000:]


def assert_nothing_left(tmp_path: Path) -> None:
    """No process of the run (marked with the scope), none holding the library, no temporary file."""
    time.sleep(0.5)
    assert not marked_processes(tmp_path), marked_processes(tmp_path)
    assert not _processes_mapping(tmp_path), _processes_mapping(tmp_path)
    # pytest keeps its own basetemp (pytest-of-USER) by design; nothing else of the run may stay
    left = [p for p in (tmp_path / "tmp").iterdir() if not p.name.startswith("pytest-of-")]
    assert not left, left


def marked_processes(tmp_path: Path) -> list[int]:
    marker = f"HOSTILE_SCOPE={tmp_path}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if marker in (entry / "environ").read_bytes().split(b"\0"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@needs_sandbox
def test_a_pth_file_written_from_the_library_never_reaches_the_kits_virtualenv(tmp_path):
    pth = Path(sysconfig.get_paths()["purelib"]) / f"zz_acl_hostile_{uuid.uuid4().hex}.pth"
    try:
        status, _, output = certify(reach(tmp_path, "PTH", PTH=f'"{pth}"'), tmp_path)
        assert not pth.exists()
    finally:
        pth.unlink(missing_ok=True)
    assert status == 1, output  # NOT CERTIFIED: the double unregister the library broke is seen
    assert_nothing_left(tmp_path)


@needs_sandbox
def test_a_catalog_rewritten_from_the_library_stays_the_kits(tmp_path):
    catalog = catalog_path()
    before = catalog.read_bytes()
    try:
        status, _, output = certify(reach(tmp_path, "CATALOG", CATALOG=f'"{catalog}"'), tmp_path)
        after = catalog.read_bytes()
    finally:
        if catalog.read_bytes() != before:
            catalog.write_bytes(before)
    assert after == before
    assert status == 1, output
    assert_nothing_left(tmp_path)


@needs_sandbox
def test_a_library_that_behaves_only_when_it_recognises_the_executor_is_not_certified(tmp_path):
    status, _, output = certify(reach(tmp_path, "CMDLINE"), tmp_path)
    assert status == 1, output
    assert_nothing_left(tmp_path)


@needs_sandbox
@pytest.mark.parametrize("signals", [
    ("SIGKILL", "SIGSTOP"),  # kills the watchdog (the run CLI) and stops the judge
    ("SIGSTOP", "SIGSTOP"),  # stops the judge only
    ("SIGKILL", "SIGKILL"),  # kills the judge
], ids=["kill-watchdog-stop-judge", "stop-judge", "kill-judge"])
def test_a_library_cannot_signal_the_judge_the_cli_or_the_watchdog(tmp_path, signals):
    lib = reach(tmp_path, "SIGNAL", SIGNAL=signals[0], SIGNAL2=signals[1])
    status, seconds, output = certify(lib, tmp_path)
    assert status == 1, output
    assert seconds < DEADLINE_S + SLACK_S
    assert_nothing_left(tmp_path)


@needs_sandbox
def test_a_library_cannot_read_the_judges_environment_or_write_into_its_seal_pipe(tmp_path):
    status, seconds, output = certify(reach(tmp_path, "SEAL"), tmp_path)
    assert status == 1, output
    assert seconds < DEADLINE_S + SLACK_S
    assert_nothing_left(tmp_path)


@needs_sandbox
@pytest.mark.parametrize("forked", [False, True], ids=["spawned", "forked"])
def test_inside_the_sandbox_the_executor_has_its_own_pid_namespace_sees_no_judge_and_cannot_write_the_kit(
        tmp_path, forked):
    """What the executor's process sees, read from outside: its own PID namespace, a read-only root."""
    settings = {"lib": str(SIM), "device": None, "product": None, "timeout": 5.0, "kernel": "5.10",
                "explore_steps": 10, "explore_seed": 1, "host_page": 4096, "host_alloc": "svm", "sync_window": 0.2,
                "cann_release": None}
    executor = Executor({"settings": settings, "worker_index": 0}, "t", tmp_path, sandbox=find_sandbox(),
                        forked=forked)
    try:
        executor.ensure()
        assert executor.proc is not None and executor.pid is not None
        # bubblewrap's init and the executor; forked, the slot's fork server between them
        assert len(executor.inner) == (3 if forked else 2) and executor.pid in executor.inner
        (init,) = executor.inner & (children(executor.proc.pid) or set())
        status = Path(f"/proc/{executor.pid}/status").read_text()
        namespaced = [line for line in status.splitlines() if line.startswith("NSpid:")][0].split()
        mounts = Path(f"/proc/{executor.pid}/mountinfo").read_text().splitlines()
        root = next(line for line in mounts if line.split()[4] == "/")
        tmpdir = executor.tmpdir
    finally:
        executor.stop()
    # below bubblewrap's init in its own namespace (forked: below the server, PID 2): the judge's PIDs do not exist
    assert namespaced[-1] == ("3" if forked else "2")
    assert tmpdir is not None and not Path(tmpdir).exists()
    assert " ro," in f" {root.split()[5]}," or root.split()[5].startswith("ro")
    assert executor.tmpdir is None  # its temporary directory went with it


def test_the_sandbox_command_binds_the_ascend_devices_and_the_allowed_paths(tmp_path, monkeypatch):
    device = tmp_path / "davinci0"
    device.touch()
    monkeypatch.setattr("conformance.session.sandbox.ASCEND_DEVICES", (str(tmp_path / "davinci[0-9]*"),))
    command = Sandbox("/usr/bin/bwrap", "0.8.0", ("/opt/vendor",)).command(["python", "main.py"], writable=["/w"])
    assert command[:4] == ["/usr/bin/bwrap", "--ro-bind", "/", "/"]
    assert ["--dev-bind", str(device), str(device)] == command[command.index(str(device)) - 1:][:3]
    assert "--dev-bind-try" in command and "/opt/vendor" in command
    assert command[command.index("--unshare-pid"):][-3:] == ["--", "python", "main.py"]
    assert "--die-with-parent" in command and "--as-pid-1" not in command  # the executor keeps ordinary signals


def test_a_run_without_a_sandbox_says_so_and_records_it(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap on it
    report = tmp_path / "r"
    done = subprocess.run([*KIT, "run", "--acl-rule", "HM-PAIR-DOUBLE-REGISTER",
                           "--acl-report-dir", str(report), "--no-html", "-n", "0"], cwd=ROOT,
                          env={**os.environ, "PATH": str(tmp_path)}, capture_output=True, text=True, timeout=300)
    lines = [line for line in done.stderr.splitlines() if "not sandboxed" in line]
    assert len(lines) == 1, done.stderr[-2000:]
    summary = json.loads((report / "summary.json").read_text())
    assert summary["environment"]["sandbox"] == NOT_SANDBOXED


def test_certify_refuses_an_unsandboxed_run_unless_allowed(tmp_path):
    env = {**os.environ, "PATH": str(tmp_path)}
    done = subprocess.run([*KIT, "certify", "--out-dir", str(tmp_path / "out"),
                           "--no-html", "-n", "0", "--", "-k", "DOUBLE_UNREGISTER"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode not in (0, 1), done.stderr[-2000:]
    assert "--acl-allow-unsandboxed" in done.stderr and len(done.stderr.strip().splitlines()) <= 2, done.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
    allowed = subprocess.run([*KIT, "certify", "--out-dir", str(tmp_path / "ok"),
                              "--no-html", "-n", "0", "--acl-allow-unsandboxed", "--", "-k", "DOUBLE_UNREGISTER"],
                             cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    # -k: a partial run, NOT CERTIFIED as INCONCLUSIVE (nothing failed; most rules were not judged).
    assert allowed.returncode == EXIT_INCONCLUSIVE, allowed.stdout[-2000:] + allowed.stderr[-2000:]
    (bundle,) = [p for p in (tmp_path / "ok").iterdir() if not p.name.startswith(".")]
    first = (bundle / "certificate.md").read_text().splitlines()[:10]  # the verdict, why, the policy, the sandbox
    assert any(NOT_SANDBOXED in line for line in first), first

