"""What a run costs beyond pytest itself: the fixed cost of a small run, and the full suite against
a floor of as many no-op cases, each pair measured alternately in one invocation.

- a 12-case run (``--acl-rule HM-ALIGN-MALLOC -n 1``, no Allure) against a bare one-case pytest run;
- the full suite (``-n 2``, short sync window and explorer budget, the self-test's settings for runs
  without a sync fault) against as many no-op pytest cases under ``-n 2``.

The goals (issue 21): the first ratio within 1.5, the second within 1.5 once the suite's
deliberate waits are left out; ``make bench`` prints both.
"""

from __future__ import annotations

import json
import statistics
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


def fixed_cost(lib: Path, repeats: int) -> dict[str, Any]:
    """Seconds of a 12-case run against a bare one-case pytest run, and of the full suite against as many
    no-op cases, alternately; the two ratios."""
    catalog = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text(encoding="utf-8"))
    cases = sum(len(r["cases"]) for r in catalog["rules"])
    small: list[float] = []
    bare: list[float] = []
    suite: list[float] = []
    floor: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        one = _noop_suite(Path(tmp), 1)
        (Path(tmp) / "many").mkdir()
        many = _noop_suite(Path(tmp) / "many", cases)
        for index in range(repeats):
            small.append(_timed([sys.executable, "-m", "conformance", "run", "--no-html", "-n", "1",
                                 "--acl-rule", "HM-ALIGN-MALLOC", "--acl-lib", str(lib),
                                 "--acl-report-dir", f"{tmp}/small{index}"], QUICK))
            bare.append(_timed(_pytest(str(one))))
            suite.append(_timed([sys.executable, "-m", "conformance", "run", "--no-html", "-n", "2",
                                 "--acl-lib", str(lib), "--acl-report-dir", f"{tmp}/suite{index}"], QUICK))
            floor.append(_timed(_pytest("-n", "2", str(many))))
    figures = {"run_12_cases_s": statistics.median(small), "bare_pytest_1_case_s": statistics.median(bare),
               "suite_quick_n2_s": statistics.median(suite), f"noop_{cases}_cases_n2_s": statistics.median(floor)}
    figures["fixed_cost_ratio"] = figures["run_12_cases_s"] / figures["bare_pytest_1_case_s"]
    figures["suite_over_noop_ratio"] = figures["suite_quick_n2_s"] / figures[f"noop_{cases}_cases_n2_s"]
    return figures
