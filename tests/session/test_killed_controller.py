"""A run whose pytest controller is killed ends with the documented status 3, not 256 minus the signal."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from kit_runs import KIT, LIB, child_env

from conformance.session.command import EXIT_NO_SUMMARY


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        for child in _children(todo.pop()):
            out.append(child)
            todo.append(child)
    return out


def test_a_killed_controller_is_exit_status_3(sim_built, tmp_path):
    run = subprocess.Popen([*KIT, "run", "--no-html", "-n", "1", "--acl-lib",
                            str(LIB), "--acl-report-dir", str(tmp_path / "r"), "--acl-timeout", "60"],
                           cwd=tmp_path, env=child_env(ACLSIM_FAULTS="hang_in_malloc"),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "r" / "allure-results").is_dir() and time.monotonic() < deadline:
            time.sleep(0.2)  # the controller is running cases once it writes results
        controllers = _children(run.pid)
        assert controllers, "run started no pytest controller"
        # Its workers are orphaned by the kill (containing them is the executor split's job): end them here.
        leftovers = _descendants(run.pid)
        for pid in controllers:
            os.kill(pid, signal.SIGKILL)
        _out, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
        for pid in locals().get("leftovers", []):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert run.returncode == EXIT_NO_SUMMARY, (run.returncode, err[-2000:])
    assert "was killed by signal 9" in err
