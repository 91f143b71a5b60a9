"""The judge never shares a process, a file or an environment with the library (issue 19).

Each test builds a hostile wrapper of the simulator (``hostile/hostile_lib.c``) that plays
one of the tricks a vendor could play on a kit that runs the library inside the process that
judges it, and shows that the trick no longer certifies a faulty library:

- a defeat device that behaves only while pytest's environment is visible;
- an in-process injection that swallows the checks' failures;
- a daemon that rewrites the report directory;
- a helper process that holds the inherited pipes (F4).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from kit_runs import KIT

from conformance.executor.case import Skipped, exception_record
from conformance.executor.protocol import FD_RANGE
from conformance.session.executors import Executor
from conformance.session.watchdog import EXIT_JUDGE_STOPPED

ROOT = Path(__file__).resolve().parents[2]
SIM = ROOT / "build" / "sim" / "libascendcl.so"
SOURCE = Path(__file__).parent / "hostile" / "hostile_lib.c"
FAULTED = "HM-PAIR-DOUBLE-UNREGISTER"


def hostile(tmp_path: Path, trick: str) -> Path:
    """Build the wrapper playing ``trick`` into its own folder; the library's path."""
    if not SIM.is_file():
        pytest.fail(f"{SIM} is not built: run `make sim` first")
    out = tmp_path / trick.lower() / "libascendcl.so"
    out.parent.mkdir(parents=True)
    cc = os.environ.get("CC", "cc")
    subprocess.run([cc, "-shared", "-fPIC", "-O1", f"-DTRICK_{trick}", f'-DSCOPE="{tmp_path}"', str(SOURCE),
                    "-o", str(out),
                    "-L", str(SIM.parent), "-Wl,--no-as-needed", "-l:libascendcl.so", f"-Wl,-rpath,{SIM.parent}",
                    "-ldl"], check=True)
    return out


def environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(("ACL_", "ACLSIM_"))}


def certify(lib: Path, out: Path, *pytest_args: str) -> tuple[int, dict, dict]:
    """Certify ``lib`` through the CLI; (exit status, the bundle's summary, its manifest)."""
    extra = ["--", *pytest_args] if pytest_args else []
    done = subprocess.run([*KIT, "certify", "--acl-lib", str(lib), "--out-dir",
                           str(out), "-n", "2", "--no-html", *extra], cwd=ROOT, env=environment(),
                          capture_output=True, text=True, timeout=600)
    bundles = [p for p in out.iterdir() if not p.name.startswith(".")]
    assert len(bundles) == 1, done.stdout[-2000:] + done.stderr[-2000:]
    return (done.returncode, json.loads((bundles[0] / "summary.json").read_text()),
            json.loads((bundles[0] / "manifest.json").read_text()))


def run_rule(lib: Path, report_dir: Path, rule: str = FAULTED) -> dict:
    """``run`` one rule's cases against ``lib``; the summary (the tricks concern that rule only)."""
    done = subprocess.run([*KIT, "run", "--acl-lib", str(lib), "--acl-rule", rule,
                           "--no-html", "-n", "1", "--acl-report-dir", str(report_dir)], cwd=ROOT,
                          env=environment(), capture_output=True, text=True, timeout=300)
    assert (report_dir / "summary.json").is_file(), done.stdout[-2000:] + done.stderr[-2000:]
    return json.loads((report_dir / "summary.json").read_text())


def faulted_cases(summary: dict) -> dict[str, dict]:
    return summary["rules"][FAULTED]["cases"]


@pytest.mark.parametrize("forked", [False, True], ids=["spawned", "forked"])
def test_an_executor_sees_no_trace_of_the_kit_pytest_or_the_case(tmp_path, forked):
    settings = {"lib": str(SIM), "device": None, "product": None, "timeout": 5.0, "kernel": "5.10",
                "explore_steps": 10, "explore_seed": 1, "host_page": 4096, "host_alloc": "svm", "sync_window": 0.2,
                "cann_release": None}
    executor = Executor({"settings": settings, "worker_index": 0}, "t", tmp_path, forked=forked)
    try:
        if forked:  # the second executor of its slot, forked after the first was renewed
            executor.ensure()
            first, server = executor.pid, executor.server
            executor.renew()
        executor.ensure()
        assert not forked or (executor.pid != first and executor.server == server)
        assert executor.pid is not None and executor.forked == forked
        pid = executor.pid
        environ = Path(f"/proc/{pid}/environ").read_bytes().decode(errors="replace")
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")[:-1]
        maps = Path(f"/proc/{pid}/maps").read_text()
        pipes = {int(fd) for fd in os.listdir(f"/proc/{pid}/fd") if int(fd) > 2
                 and os.readlink(f"/proc/{pid}/fd/{fd}").startswith("pipe:")}
        script_left = (tmp_path / "main.py").exists() or any(Path(executor.tmpdir or "").glob("*.py"))
    finally:
        executor.stop()
    assert os.environ.get("PYTEST_CURRENT_TEST")  # this process has it; the executor must not
    for word in ("PYTEST", "pytest", "conformance", "acl_hostmem", "xdist", "ACL_"):
        assert word not in environ, word
    assert argv[1:] == ["main.py"] and not script_left  # a plain script, gone before the library loads
    assert len(pipes) == 2 and pipes <= set(FD_RANGE), pipes  # the protocol's pipes at numbers drawn for it
    assert str(SIM) in maps  # the executor holds the library ...


def test_the_judge_never_maps_the_library(tmp_path):
    """... and the judge of a run never does: its own /proc/self/maps at the end of the run, in the summary."""
    done = subprocess.run([*KIT, "run", "--acl-lib", str(SIM), "--acl-rule",
                           "HM-PAIR-DOUBLE-FREE", "--no-html", "-n", "0", "--acl-report-dir", str(tmp_path / "r")],
                          cwd=ROOT, env=environment(), capture_output=True, text=True, timeout=120)
    facts = json.loads((tmp_path / "r" / "summary.json").read_text())["environment"]
    assert facts["judge_mapped_library"] is False, done.stdout[-800:]


@pytest.mark.parametrize("forked", [False, True], ids=["spawned", "forked"])
def test_what_the_library_starts_during_a_case_does_not_outlive_the_case(tmp_path, forked):
    lib = hostile(tmp_path, "HELPER")
    settings = {"lib": str(lib), "device": None, "product": None, "timeout": 5.0, "kernel": "5.10",
                "explore_steps": 10, "explore_seed": 1, "host_page": 4096, "host_alloc": "svm", "sync_window": 0.2,
                "cann_release": None}
    executor = Executor({"settings": settings, "worker_index": 0}, "t", tmp_path, forked=forked)
    program = {"rule_id": "HM-PAIR-DOUBLE-FREE", "case_id": "HM-PAIR-DOUBLE-FREE[free=free]",
               "check": "conformance.checks.pairing:double_free", "kwargs": {"free": "free", "expect": None}}
    try:
        first = executor.run(program, 30.0)
        pid = executor.pid
        second = executor.run(program, 30.0)
        assert executor.pid == pid and executor.proc is not None and executor.proc.poll() is None  # it stays
    finally:
        executor.stop()
    assert first.record is not None and second.record is not None
    assert first.problems == ["1 process(es) the library started during the case were killed"]
    assert second.problems == []
    assert not _processes_mapping(lib.parent)


def test_the_watchdog_ends_a_run_whose_controller_is_stopped(tmp_path):
    """A daemon of the library may SIGSTOP the controller; ``run`` still ends at the deadline plus its grace."""
    from conformance.session.command import watchdog_grace

    started = time.monotonic()
    run = subprocess.Popen([*KIT, "run", "--acl-lib", str(SIM), "--acl-deadline", "6",
                            "--no-html", "-n", "2", "--acl-report-dir", str(tmp_path / "r")], cwd=ROOT,
                           env={**environment(), "ACLSIM_FAULTS": "hang_in_malloc"}, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    controller = None
    while controller is None and time.monotonic() - started < 30:
        found = [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit() and _parent(p) == run.pid]
        controller = found[0] if found else None
        time.sleep(0.05)
    assert controller is not None
    time.sleep(1.0)
    os.kill(controller, signal.SIGSTOP)
    output, _ = run.communicate(timeout=60)
    took = time.monotonic() - started
    assert took < 6 + watchdog_grace(6) + 8, (took, output[-1500:])
    # The watchdog notices the stopped controller before the deadline (issue 34.4): its own status and line.
    assert run.returncode == EXIT_JUDGE_STOPPED and "was stopped from outside" in output, output[-1500:]
    time.sleep(0.5)
    assert not [p for p in Path("/proc").iterdir() if p.name.isdigit() and str(tmp_path) in _cmdline(p)]


def _parent(proc: Path) -> int | None:
    try:
        text = (proc / "stat").read_bytes()
    except OSError:
        return None
    fields = text[text.rfind(b")") + 2:].split()
    return int(fields[1]) if len(fields) > 1 else None


def _cmdline(proc: Path) -> str:
    try:
        return (proc / "cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def test_a_defeat_device_keyed_on_pytest_is_not_certified(tmp_path):
    """Under the old judge the library saw PYTEST_CURRENT_TEST and passed; a FAIL of a mandatory rule certifies
    nothing."""
    summary = run_rule(hostile(tmp_path, "DEFEAT"), tmp_path / "r")
    assert {c["outcome"] for c in faulted_cases(summary).values()} == {"FAIL"}


def test_swallowed_check_failures_are_inconsistent_and_not_certified(tmp_path):
    summary = run_rule(hostile(tmp_path, "INJECT"), tmp_path / "r")
    cases = faulted_cases(summary)
    assert {(c["outcome"], c["category"]) for c in cases.values()} == {("ERROR", "inconsistent")}, cases
    assert all("observation 'code' is 0 (success)" in c["message"] for c in cases.values())


def test_a_daemon_of_the_library_dies_with_its_executor_and_rewrites_nothing(tmp_path):
    code, summary, _ = certify(hostile(tmp_path, "TAMPER"), tmp_path / "out", "-k", "DOUBLE_UNREGISTER")
    assert code == 1
    assert {c["outcome"] for c in faulted_cases(summary).values()} == {"FAIL"}
    time.sleep(0.5)
    assert not _processes_mapping(tmp_path / "tamper")


def test_a_report_changed_after_the_judge_sealed_it_is_not_certified(tmp_path, monkeypatch):
    """A writer the containment cannot see (another process of the user) changes summary.json between
    the run and the seal: certify compares the directory with the judge's seal and withdraws."""
    from conformance.certify import runner
    from conformance.cli import build_parser

    real_follow = runner.follow

    def follow_then_tamper(command, log, env, limit=None):
        result = real_follow(command, log, env, limit)
        summary = log.parent / "summary.json"
        summary.write_text(summary.read_text().replace('"FAIL"', '"PASS"'))
        return result

    monkeypatch.setattr(runner, "follow", follow_then_tamper)
    args = build_parser()[0].parse_args(["certify", "--acl-lib", str(SIM), "--no-html", "-n", "2",
                                      "--out-dir", str(tmp_path / "out")])
    monkeypatch.setenv("ACLSIM_FAULTS", "double_unregister_ok")
    result = runner.certify(args, ["-k", "DOUBLE_UNREGISTER"], out_root=tmp_path / "out")
    assert not result.certified
    assert "summary.json was changed after the judge wrote it (its sha256 differs from the judge's seal)" \
        in result.problems, result.problems


def _processes_mapping(folder: Path) -> list[int]:
    """Processes that have a file of ``folder`` mapped (the hostile library)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if str(folder) in (entry / "maps").read_text():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def test_a_helper_holding_the_pipes_cannot_hold_the_run_past_its_deadline(tmp_path):
    lib = hostile(tmp_path, "HELPER")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    started = time.monotonic()
    # Two rules' cases on two executors, each with its helper: the run's own work takes a few
    # seconds, so reaching the deadline can only mean a helper held it (CI's load once pushed
    # the whole suite past a 20 s deadline, with no helper involved).
    done = subprocess.run([*KIT, "run", "--acl-lib", str(lib), "--acl-deadline", "40",
                           "--acl-rule", "HM-ALIGN-MALLOC", "--acl-rule", "HM-PAIR-DOUBLE-FREE",
                           "--no-html", "-n", "2", "--acl-report-dir", str(tmp_path / "r")], cwd=ROOT,
                          env={**environment(), "TMPDIR": str(scratch)}, capture_output=True, text=True, timeout=120)
    took = time.monotonic() - started
    assert took < 50, (took, done.stdout[-1500:], done.stderr[-1500:])
    summary = json.loads((tmp_path / "r" / "summary.json").read_text())
    cases = [c for rule in ("HM-ALIGN-MALLOC", "HM-PAIR-DOUBLE-FREE") for c in summary["rules"][rule]["cases"].values()]
    assert len(cases) > 12 and {c["outcome"] for c in cases} == {"PASS"}, done.stdout[-1500:]
    time.sleep(0.5)
    assert not _processes_mapping(lib.parent)
    assert not [p for p in scratch.iterdir() if not p.name.startswith("pytest-of-")]  # pytest's own basetemp
    shutil.rmtree(tmp_path / "r")


def _collected(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "conformance.session.plugin", "-p", "no:cacheprovider",
                           "-o", "addopts=", "--collect-only", "-q", "--acl-lib", str(SIM), *args,
                           str(ROOT / "acl_hostmem_generated" / "cases")], cwd=ROOT, env=environment(),
                          capture_output=True, text=True, timeout=120)
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_shuffle_orders_cases_and_is_recorded(tmp_path):
    plain, seven, again, eight = (_collected(), _collected("--acl-shuffle", "7"), _collected("--acl-shuffle", "7"),
                                  _collected("--acl-shuffle", "8"))
    assert len(plain) == 261 and sorted(seven) == sorted(plain)
    assert seven == again and seven != plain and seven != eight  # one seed, one order
    done = subprocess.run([*KIT, "run", "--acl-lib", str(SIM), "--acl-shuffle", "7",
                           "--acl-rule", "HM-PAIR-DOUBLE-FREE", "--no-html", "-n", "1", "--acl-report-dir",
                           str(tmp_path / "r")], cwd=ROOT, env=environment(), capture_output=True, text=True,
                          timeout=120)
    environment_facts = json.loads((tmp_path / "r" / "summary.json").read_text())["environment"]
    assert environment_facts["shuffle"] == 7 and environment_facts["explore_seed"] != 1, done.stdout[-800:]


@pytest.mark.parametrize("skip", [lambda: pytest.skip("NOT_APPLICABLE: why"), lambda: (_ for _ in ()).throw(
    Skipped("NOT_APPLICABLE: why"))], ids=["a check's pytest.skip", "the executor's own Skipped"])
def test_a_skip_in_a_case_is_recorded_as_a_skip_with_its_reason(skip):
    try:
        skip()
    except BaseException as exc:  # noqa: BLE001 - pytest's skip is no Exception
        record = exception_record(exc)
    assert (record["kind"], record["message"]) == ("skip", "NOT_APPLICABLE: why")


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def test_one_judge_drives_its_executors_itself(tmp_path):
    # A run is the CLI, one judge and its -n executors: no second process layer (an xdist controller
    # and workers, each a judge with a crash path of its own) between the judge and the library.
    from conformance.executor.protocol import SCRIPT_NAME
    from conformance.session.containment import children

    proc = subprocess.Popen([*KIT, "run", "--acl-rule", "HM-PAIR-*", "--acl-rule",
                             "HM-SYNC-*", "--no-html", "-n", "2", "--acl-report-dir", str(tmp_path / "r")],
                            cwd=ROOT, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    most, others = 0, set()
    try:
        end = time.monotonic() + 120
        while proc.poll() is None and time.monotonic() < end:
            for judge in children(proc.pid) or set():
                itself = _cmdline(judge).split()  # what a child shows between its fork and its exec
                argvs = [argv for pid in children(judge) or set() if (argv := _cmdline(pid).split()) != itself]
                executors = [argv for argv in argvs if argv and argv[-1] == SCRIPT_NAME]  # bwrap's or python's
                others.update(" ".join(argv[:3]) for argv in argvs  # an interpreter, not a git the facts ask
                              if argv and argv[-1] != SCRIPT_NAME and "python" in Path(argv[0]).name)
                most = max(most, len(executors))
            time.sleep(0.05)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err[-3000:]
    # Every interpreter below the judge is an executor (the preflight probe is started as one), two at once.
    assert not others, others
    assert most == 2, most
