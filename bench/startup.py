"""What a run costs beyond pytest itself: the fixed cost of a small run, and the full suite against
a floor of as many no-op cases, each pair measured alternately in one invocation.

- a 12-case run (``--acl-rule HM-ALIGN-MALLOC -n 1``, no Allure) against a bare one-case pytest run;
- the full suite (``-n 2``, short sync window and explorer budget, the self-test's settings for runs
  without a sync fault) against as many no-op pytest cases under ``-n 2``.

The goals (issues 21 and 33): the first ratio within 1.5, the second within 1.5; ``make bench``
prints both, and the same two runs of an earlier commit (``--startup-before``) measured in the
same rounds.

``executor_starts`` measures what one executor's start costs, spawned (a fresh interpreter) against forked
from its slot's fork server (issue 33.3), unsandboxed and sandboxed, the four alternately in one
invocation: wall and CPU (the judge's own and that of every process of the slot, from their
``schedstat``) from asking for an executor to its ready record (the library opened). A forked slot's
first start (its server's start, then a fork) is reported apart. ``python bench/startup.py`` prints only
these figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from timing import timed as _timed  # bench/timing.py

ROOT = Path(__file__).resolve().parent.parent
#: The self-test's settings for a run without a sync fault (conformance/selftest/plan.py).
QUICK = {"ACL_SYNC_WINDOW": "0.05", "ACL_EXPLORE_STEPS": "300"}


def _noop_suite(directory: Path, cases: int) -> Path:
    path = directory / "test_noop.py"
    path.write_text(f"import pytest\n\n\n@pytest.mark.parametrize('n', range({cases}))\ndef test_noop(n):\n"
                    "    pass\n", encoding="utf-8")
    return path


def _pytest(*args: str) -> list[str]:
    return [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", *args]


def _run(lib: Path, report_dir: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "conformance", "run", "--no-html", "--acl-lib", str(lib), "--acl-report-dir",
            report_dir, *args]


def fixed_cost(lib: Path, repeats: int, before: str | None = None) -> dict[str, Any]:
    """Seconds of a 12-case run against a bare one-case pytest run, and of the full suite against as many
    no-op cases, alternately; the two ratios. With ``before`` (a commit), the two runs of that commit's
    tree (a temporary worktree) are measured in the same rounds, and their figures carry ``_before``."""
    catalog = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text(encoding="utf-8"))
    cases = sum(len(r["cases"]) for r in catalog["rules"])
    times: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        one = _noop_suite(Path(tmp), 1)
        (Path(tmp) / "many").mkdir()
        many = _noop_suite(Path(tmp) / "many", cases)
        trees = {"": ROOT}
        if before:
            trees["_before"] = Path(tmp) / "before"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(trees["_before"]), before],
                           check=True, capture_output=True)
        try:
            for index in range(repeats):
                for suffix, tree in trees.items():
                    times.setdefault(f"run_12_cases_s{suffix}", []).append(_timed(_run(
                        lib, f"{tmp}/small{suffix}{index}", "-n", "1", "--acl-rule", "HM-ALIGN-MALLOC"), QUICK, tree))
                    times.setdefault(f"suite_quick_n2_s{suffix}", []).append(_timed(_run(
                        lib, f"{tmp}/suite{suffix}{index}", "-n", "2"), QUICK, tree))
                times.setdefault("bare_pytest_1_case_s", []).append(_timed(_pytest(str(one))))
                times.setdefault(f"noop_{cases}_cases_n2_s", []).append(_timed(_pytest("-n", "2", str(many))))
        finally:
            if before:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(trees["_before"])],
                               check=False, capture_output=True)
    figures: dict[str, Any] = {key: statistics.median(values) for key, values in times.items()}
    for suffix in trees:
        figures[f"fixed_cost_ratio{suffix}"] = figures[f"run_12_cases_s{suffix}"] / figures["bare_pytest_1_case_s"]
        figures[f"suite_over_noop_ratio{suffix}"] = (figures[f"suite_quick_n2_s{suffix}"]
                                                     / figures[f"noop_{cases}_cases_n2_s"])
    if before:
        figures["startup_before_commit"] = before
    return figures


#: The executor start's settings (a case needs more; opening the library needs only these).
SETTINGS = {"device": None, "product": None, "timeout": 5.0, "kernel": "5.10", "explore_steps": 10, "explore_seed": 1,
            "host_page": 4096, "host_alloc": "svm", "sync_window": 0.2, "cann_release": None}


def _cpu_ns(pid: int) -> int:
    """Nanoseconds ``pid`` (all its threads) has run, from its schedstat; 0 when it is gone."""
    total = 0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat", encoding="ascii") as handle:
                total += int(handle.read().split()[0])
    except (OSError, ValueError, IndexError):
        pass
    return total


def _slot_cpu(executor: Any) -> dict[int, int]:
    """CPU nanoseconds of every process of ``executor``'s slot (the process the judge started and all below it)."""
    from conformance.session.containment import descendants

    if executor.proc is None:
        return {}
    return {pid: _cpu_ns(pid) for pid in {executor.proc.pid} | descendants({executor.proc.pid})}


def _one_start(executor: Any) -> tuple[float, float]:
    """Wall and CPU seconds of one ``ensure()`` (the previous executor already stopped)."""
    before = _slot_cpu(executor)
    judge = time.process_time()
    began = time.perf_counter()
    executor.ensure()
    wall = time.perf_counter() - began
    judge = time.process_time() - judge
    after = _slot_cpu(executor)
    slot = sum(ns - before.get(pid, 0) for pid, ns in after.items()) / 1e9
    return wall, judge + slot


def executor_starts(lib: Path, starts: int = 8) -> dict[str, Any]:
    """Median wall and CPU seconds of an executor's start, spawned and forked, unsandboxed and sandboxed,
    ``starts`` of each, alternately; and a forked slot's first start."""
    from conformance.session.executors import Executor, ExecutorFamily
    from conformance.session.forks import fork_supported
    from conformance.session.sandbox import find_sandbox

    sandbox = find_sandbox()
    modes = []
    for label, box in (("", None), ("_sandboxed", sandbox)):
        for way in ("spawn", "fork"):
            if (box is not None or not label) and (way == "spawn" or fork_supported()):
                modes.append((way + label, way == "fork", box))
    walls: dict[str, list[float]] = {}
    cpus: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as run_dir:
        family = ExecutorFamily()  # as a run's executors are: no slot takes another's processes for its strays
        slots = {name: Executor({"settings": dict(SETTINGS, lib=str(lib)), "worker_index": 0}, name, Path(run_dir),
                                sandbox=box, family=family, forked=forked) for name, forked, box in modes}
        try:
            for index in range(starts + 1):
                for name, executor in slots.items():
                    key = f"{name}_first" if index == 0 and executor.forked else name
                    wall, cpu = _one_start(executor)
                    walls.setdefault(key, []).append(wall)
                    cpus.setdefault(key, []).append(cpu)
                    executor.renew()  # what a spoiled or lost executor's slot does before its next start
        finally:
            for executor in slots.values():
                executor.stop()
    figures: dict[str, Any] = {}
    for key in walls:
        figures[f"executor_start_{key}_s"] = round(statistics.median(walls[key]), 4)
        figures[f"executor_start_{key}_cpu_s"] = round(statistics.median(cpus[key]), 4)
    figures["executor_starts_each"] = starts
    return figures


def main(argv: list[str] | None = None) -> int:
    """Print the executor start figures (spawned against forked, unsandboxed and sandboxed)."""
    parser = argparse.ArgumentParser(prog="python bench/startup.py", description=executor_starts.__doc__)
    parser.add_argument("--acl-lib", default=str(ROOT / "build" / "sim" / "libascendcl.so"))
    parser.add_argument("--starts", type=int, default=8, help="starts of each kind (the median is kept)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    for key, value in executor_starts(Path(args.acl_lib), args.starts).items():
        print(f"{key:>44}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
