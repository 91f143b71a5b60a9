"""How the kit's tests start the kit: one command-line prefix, the suite (real or fake) in a child process.

Every test that starts ``acl-conformance`` builds its command line on :data:`KIT` (the kit's own
entry point, ``python -m conformance``) and, for a run of the suite, on :func:`start_suite` or
:func:`run_fake`. The fixtures here are re-exported by the conftest of each stage whose tests
start runs (tests/harness, tests/session, tests/results).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
#: The kit's own command line: every test that starts a subcommand builds on it.
KIT: tuple[str, ...] = (sys.executable, "-m", "conformance")
LIB = ROOT / "build" / "sim" / "libascendcl.so"
# The generated suite; ACL_SUITE_DIR points the integration tests at another copy.
SUITE = Path(os.environ.get("ACL_SUITE_DIR", str(ROOT / "acl_hostmem_generated" / "cases")))
KERNEL = "6.6.0"
CATALOG_CASES = {c["case_id"] for r in json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text())
                 ["rules"] for c in r["cases"]}


@dataclass
class Run:
    """A finished child run: exit status, output and the summary it wrote."""

    returncode: int
    output: str
    report_dir: Path

    @property
    def summary(self) -> dict[str, Any]:
        """summary.json of the run."""
        return json.loads((self.report_dir / "summary.json").read_text())

    def cases(self) -> dict[str, dict[str, Any]]:
        """case id -> case entry, over every rule."""
        return {cid: case for rule in self.summary["rules"].values() for cid, case in rule["cases"].items()}

    def ran(self) -> dict[str, dict[str, Any]]:
        """Only the cases that ran (not the ones listed as missing)."""
        return {cid: c for cid, c in self.cases().items() if "was not run" not in (c["message"] or "")}


def child_env(**extra: str) -> dict[str, str]:
    """Environment of a child run: no inherited ACL_*/ACLSIM_* knobs, a fixed kernel."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ACLSIM_", "ACL_"))}
    env.update({"ACLSIM_KERNEL": KERNEL, "PYTHONPATH": str(ROOT)})
    env.update(extra)
    return env


def start_suite(report_dir: Path, *args: str, env: dict[str, str] | None = None,
                workers: str = "1", where: tuple[str, ...] = (str(SUITE),)) -> subprocess.Popen[str]:
    """Start ``python -m conformance run`` (no HTML) against the simulator, on the suite or on ``where``."""
    command = [*KIT, "run", "--no-html", "-n", workers,
               "--acl-report-dir", str(report_dir), "--acl-os-kernel", KERNEL, "--acl-lib", str(LIB),
               *args, *where]
    return subprocess.Popen(command, cwd=ROOT, env=env or child_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def finish(proc: subprocess.Popen[str], report_dir: Path, timeout: float = 600) -> Run:
    """Wait for a child run."""
    output, _ = proc.communicate(timeout=timeout)
    return Run(proc.returncode, output, report_dir)


@pytest.fixture(scope="session")
def sim_built() -> Path:
    """The simulator library; the session fails early when it is not built."""
    if not LIB.is_file():
        pytest.fail(f"{LIB} is missing: build it with `make sim`")
    return LIB


@pytest.fixture
def fake_suite(tmp_path: Path) -> Path:
    """A directory holding the fake generated cases as test_fake.py."""
    target = tmp_path / "suite"
    target.mkdir()
    shutil.copy(HERE / "fake_cases.py", target / "test_fake.py")
    return target


def run_fake(suite: Path, report_dir: Path, *args: str, env: dict[str, str] | None = None,
             timeout: float = 300) -> Run:
    """Run the plugin over the fake cases with plain pytest (xdist args may be in ``args``)."""
    command = [sys.executable, "-m", "pytest", "-p", "conformance.session.plugin", "-p", "no:cacheprovider",
               "-o", "addopts=", "--rootdir", str(suite), "-q", "--acl-report-dir", str(report_dir),
               "--acl-lib", str(LIB), "--acl-os-kernel", KERNEL, *args, str(suite)]
    proc = subprocess.run(command, cwd=ROOT, env=env or child_env(), capture_output=True, text=True,
                          timeout=timeout)
    return Run(proc.returncode, proc.stdout + proc.stderr, report_dir)
