"""``make bench`` says of each speed goal whether its figure is within it."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import bench  # noqa: E402  (bench/bench.py, beside split.py and startup.py that it imports)


def test_each_measured_goal_is_printed_with_its_verdict():
    lines = bench.goal_lines({"fixed_cost_ratio": 3.2, "suite_over_noop_ratio": 1.4, "cases": 261})
    assert lines == ["goal fixed_cost_ratio: 3.20 OVER 1.5", "goal suite_over_noop_ratio: 1.40 within 1.5"]
    assert bench.goal_lines({}) == []
