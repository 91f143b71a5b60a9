"""A judge stopped or killed from outside ends the run, leaving no process and no temporary file (issue 34.4)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from kit_runs import KIT

from conformance.session.containment import children
from conformance.session.watchdog import EXIT_JUDGE_STOPPED, STOPPED_GRACE_S

ROOT = Path(__file__).resolve().parents[2]


def start_run(tmp_path: Path) -> tuple[subprocess.Popen[str], Path]:
    """``run`` of one rule's cases (-n 1: one executor) with its own TMPDIR; (the process, that TMPDIR)."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ACL_", "ACLSIM_"))}
    env.update(TMPDIR=str(scratch), ACLSIM_FAULTS="double_unregister_ok")
    proc = subprocess.Popen([*KIT, "run", "--acl-rule", "HM-PAIR-*", "--no-html",
                             "-n", "1", "--acl-report-dir", str(tmp_path / "r"), "--acl-deadline", "120"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return proc, scratch


def controller_of(proc: subprocess.Popen[str], timeout: float = 60.0) -> int:
    """The judge (pytest) below ``run``, once it has an executor (the run is under way)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for pid in children(proc.pid) or set():
            if children(pid):
                return pid
        time.sleep(0.1)
    raise AssertionError("the run never started its executors")


def descendants_alive(root: int) -> set[int]:
    found, frontier = set(), {root}
    while frontier:
        below = set().union(*(children(pid) or set() for pid in frontier))
        found |= below
        frontier = below
    return found


def test_a_stopped_judge_ends_the_run_with_its_own_status_and_one_line(tmp_path):
    proc, scratch = start_run(tmp_path)
    controller = controller_of(proc)
    os.kill(controller, signal.SIGSTOP)
    started = time.monotonic()
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == EXIT_JUDGE_STOPPED, err[-2000:]
    assert time.monotonic() - started < STOPPED_GRACE_S + 15
    lines = [line for line in err.splitlines() if "was stopped from outside" in line]
    last = err.strip().splitlines()[-1]
    assert len(lines) == 1 and last.startswith("verdict: INTERRUPTED by SIGSTOP"), err[-2000:]
    time.sleep(0.5)
    assert not Path(f"/proc/{controller}").exists() or Path(f"/proc/{controller}/stat").read_text().split()[2] == "Z"
    assert not [p for p in scratch.iterdir()], list(scratch.iterdir())
    assert not (tmp_path / "r" / "summary.json").exists()


def test_a_killed_judge_leaves_no_process_and_no_temporary_directory(tmp_path):
    proc, scratch = start_run(tmp_path)
    controller = controller_of(proc)
    below = descendants_alive(controller)
    os.kill(controller, signal.SIGKILL)
    proc.communicate(timeout=60)
    assert proc.returncode == 3
    time.sleep(0.5)
    assert not [pid for pid in below if Path(f"/proc/{pid}").exists()
                and Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"]
    assert not [p for p in scratch.iterdir()], list(scratch.iterdir())
