"""What the judge/executor split costs: a case's round trip, and the suite before and after.

Every ACL call of a case (the explorer's thousands included) is made inside the executor, so
the split adds nothing per call; it adds one round trip per case (the program out, the
records back). ``case_round_trip`` measures it against running the same case program in the
bench's own process. ``suite_before_after`` runs the suite of an earlier commit (checked out
into a temporary worktree) and of this tree alternately, so that their ratio comes from one run.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: A case that makes three ACL calls: what the round trip is measured on.
PROGRAM = {"rule_id": "HM-PAIR-DOUBLE-FREE", "case_id": "HM-PAIR-DOUBLE-FREE[free=free]",
           "check": "conformance.checks.pairing:double_free", "kwargs": {"free": "free", "expect": None}}


def case_round_trip(lib: Path, cases: int = 300) -> dict[str, Any]:
    """ms per case program, in the executor and in-process, and their ratio."""
    from conformance.executor.case import run_case
    from conformance.executor.main import settings_from_json
    from conformance.harness.backend import open_backend
    from conformance.harness.resources import catalog_path
    from conformance.session.executors import Executor

    settings = {"lib": str(lib), "device": None, "product": None, "timeout": 5.0, "kernel": "5.10",
                "explore_steps": 10, "explore_seed": 1, "host_page": 4096, "host_alloc": "svm", "sync_window": 0.2,
                "cann_release": None}
    with tempfile.TemporaryDirectory() as run_dir:
        executor = Executor({"settings": settings, "worker_index": 0}, "bench", Path(run_dir))
        executor.ensure()
        start = time.perf_counter()
        for _ in range(cases):
            assert executor.run(PROGRAM, 30.0).record is not None
        remote = (time.perf_counter() - start) / cases
        executor.stop()
    catalog = json.loads(catalog_path().read_text(encoding="utf-8"))
    resolved = settings_from_json(settings)
    backend = open_backend(resolved, catalog, 0)
    start = time.perf_counter()
    for _ in range(cases):
        run_case(backend, resolved, catalog, PROGRAM)
    local = (time.perf_counter() - start) / cases
    return {"case_in_executor_ms": round(remote * 1000, 3), "case_in_process_ms": round(local * 1000, 3),
            "case_round_trip_ms": round((remote - local) * 1000, 3)}


def suite_before_after(lib: Path, before: str, repeats: int) -> dict[str, Any]:
    """Wall time of the full suite (-n 2, no HTML) at commit ``before`` and in this tree, alternately."""
    times: dict[str, list[float]] = {"before": [], "after": []}
    with tempfile.TemporaryDirectory() as scratch:
        tree = Path(scratch) / "before"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), before], check=True,
                       capture_output=True)
        try:
            for _ in range(repeats):
                for label, where in (("before", tree), ("after", ROOT)):
                    command = [sys.executable, "-m", "conformance", "run", "--no-html", "-n", "2", "--acl-lib",
                               str(lib), "--acl-report-dir", f"{scratch}/{label}"]
                    start = time.perf_counter()
                    subprocess.run(command, cwd=where, capture_output=True, check=False)
                    times[label].append(time.perf_counter() - start)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False,
                           capture_output=True)
    b, a = statistics.median(times["before"]), statistics.median(times["after"])
    return {"suite_before_s": round(b, 2), "suite_after_s": round(a, 2), "suite_after_over_before": round(a / b, 3),
            "suite_before_commit": before}
