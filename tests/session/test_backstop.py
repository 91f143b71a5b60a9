"""The judge's backstop ends a judge stuck in a case, and only such a judge."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _judge(body: str) -> subprocess.CompletedProcess[str]:
    """Run ``body`` after arming a backstop in a fresh interpreter, as a judge process would."""
    code = textwrap.dedent("""
        import sys, time
        sys.path.insert(0, {root!r})
        from conformance.session.backstop import Backstop
        released = []
        backstop = Backstop(lambda: released.append(1) or print("released", flush=True))

        def stuck_in_the_judge():
            time.sleep(30)
    """).format(root=str(ROOT)) + textwrap.dedent(body)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)


def test_given_a_case_past_its_limit_when_the_judge_is_stuck_then_it_exits_with_its_stacks():
    started = time.monotonic()
    proc = _judge("""
        backstop.arm(0.3, "case-A[1]")
        stuck_in_the_judge()
        print("survived")
    """)
    assert time.monotonic() - started < 20
    assert proc.returncode == 1 and "survived" not in proc.stdout and "released" in proc.stdout
    assert "did not finish case-A[1] within 0.3 s" in proc.stderr
    assert "stuck_in_the_judge" in proc.stderr  # the stuck thread's stack is in the log


def test_given_cases_that_end_in_time_when_armed_again_and_again_then_nothing_fires():
    proc = _judge("""
        for _ in range(2000):
            backstop.arm(0.2, "quick")
            backstop.disarm()
        backstop.arm(5.0, "long limit")  # a later due time than the watcher waits for
        time.sleep(0.5)
        backstop.disarm()
        time.sleep(0.5)
        print("survived")
    """)
    assert proc.returncode == 0 and "survived" in proc.stdout, proc.stderr


def test_given_a_shorter_limit_after_a_longer_one_when_stuck_then_the_shorter_one_counts():
    started = time.monotonic()
    proc = _judge("""
        backstop.arm(60.0, "first case")
        time.sleep(0.3)  # the watcher now waits out the first case's minute
        backstop.disarm()
        backstop.arm(0.3, "second case")
        stuck_in_the_judge()
    """)
    assert proc.returncode == 1 and "second case" in proc.stderr
    assert time.monotonic() - started < 20
