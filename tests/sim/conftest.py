"""Fixtures of the simulator tests: which library to load and how to run a scenario.

ACLSIM_LIB selects the library (default build/sim/libascendcl.so). When it
points into build/sim-asan, children get the sanitizer runtimes preloaded.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
DEFAULT_LIB = ROOT / "build" / "sim" / "libascendcl.so"


@dataclass(frozen=True)
class SimResult:
    """Outcome of one child process."""

    returncode: int
    stdout: str
    stderr: str

    def check(self) -> SimResult:
        """Raise with the child's output unless it exited 0."""
        if self.returncode != 0:
            raise AssertionError(
                f"child exited {self.returncode}\n--- stdout\n{self.stdout}\n--- stderr\n{self.stderr}"
            )
        return self


def _gcc_runtime(name: str) -> str:
    out = subprocess.run(["gcc", f"-print-file-name={name}"], capture_output=True, text=True)
    return out.stdout.strip()


@pytest.fixture(scope="session")
def sim_lib() -> Path:
    """Path of the library under test; fails the session early if it is not built."""
    lib = Path(os.environ.get("ACLSIM_LIB", str(DEFAULT_LIB))).resolve()
    if not lib.is_file():
        pytest.fail(f"{lib} is missing: build it with `make -C sim` (or `make -C sim asan`)")
    return lib


@pytest.fixture(scope="session")
def base_env(sim_lib: Path) -> dict[str, str]:
    """Environment shared by every child: no inherited ACLSIM_* knobs, the library, sanitizers."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACLSIM_")}
    env["ACLSIM_LIB"] = str(sim_lib)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")])
    if "sim-asan" in str(sim_lib):
        env["LD_PRELOAD"] = f"{_gcc_runtime('libasan.so')}:{_gcc_runtime('libubsan.so')}"
        env["ASAN_OPTIONS"] = "detect_leaks=0:halt_on_error=1:abort_on_error=0"
        env["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1"
    return env


@pytest.fixture()
def run_sim(base_env: dict[str, str]):
    """Run a scenario script in a fresh interpreter; returns a callable.

    ``run_sim(code, env=None, timeout=30, check=True, prelude="")`` dedents
    ``prelude`` and ``code``, prefixes ``from simrun import *`` and returns a
    SimResult.
    """

    def _run(
        code: str, env: dict[str, str] | None = None, timeout: float = 30, check: bool = True, prelude: str = ""
    ) -> SimResult:
        script = "from simrun import *\n" + textwrap.dedent(prelude) + textwrap.dedent(code)
        child_env = dict(base_env)
        child_env.update(env or {})
        proc = subprocess.run(
            [sys.executable, "-c", script], env=child_env, capture_output=True, text=True, timeout=timeout
        )
        result = SimResult(proc.returncode, proc.stdout, proc.stderr)
        return result.check() if check else result

    return _run
