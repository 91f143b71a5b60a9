"""Wall time of a command, for the benchmarks (a command that fails stops the bench, not skews it)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(cmd: list[str], env: dict[str, str] | None = None, cwd: Path = ROOT) -> float:
    """Seconds ``cmd`` took, run in ``cwd`` (the repository root) with ``env`` added; raises when it fails."""
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env={**os.environ, **(env or {})}, check=True, capture_output=True)
    return time.perf_counter() - start
