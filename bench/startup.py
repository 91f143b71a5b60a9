"""What a run costs beyond pytest itself: the fixed cost of a small run, and the full suite against
a floor of as many no-op cases, each pair measured alternately in one invocation.

- a 12-case run (``--acl-rule HM-ALIGN-MALLOC -n 1``, no Allure) against a bare one-case pytest run;
- the full suite (``-n 2``, short sync window and explorer budget, the self-test's settings for runs
  without a sync fault) against as many no-op pytest cases under ``-n 2``.

The goals (issues 21 and 33): the first ratio within 1.5, the second within 1.5; ``make bench``
prints both, and the same two runs of an earlier commit (``--startup-before``) measured in the
same rounds.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
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
