"""Fixtures of the explorer tests: runs of the explorer cases against the simulator, shared per session."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from kit_runs import KIT, Run

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
LIB = ROOT / "build" / "sim" / "libascendcl.so"
KERNEL = "6.6.0"
# A fault that only shows after a history: unregistering one range also ends every newer registration.
PLANTED = "unregister_drops_newer"


def explorer_env(**extra: str) -> dict[str, str]:
    """A child's environment: no inherited ACL_*/ACLSIM_* knobs, a fixed kernel, the checkout importable."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ACLSIM_", "ACL_", "PYTEST_XDIST"))}
    env.update({"ACLSIM_KERNEL": KERNEL, "PYTHONPATH": str(ROOT)})
    env.update(extra)
    return env


class ExplorerRun(Run):
    """A finished ``conformance run`` of the explorer cases."""

    def artifacts(self, case_id: str) -> Path:
        """The folder of a case's attachments."""
        return self.report_dir / "artifacts" / case_id.replace("[", "_").replace("]", "_")


def run_explorer(report_dir: Path, *args: str, faults: str = "") -> ExplorerRun:
    """``python -m conformance run --no-html -k EXPLORE`` against the simulator."""
    env = explorer_env(**({"ACLSIM_FAULTS": faults} if faults else {}))
    command = [*KIT, "run", "--no-html", "-n", "1", "--acl-report-dir",
               str(report_dir), "--acl-os-kernel", KERNEL, "--acl-lib", str(LIB), "-k", "EXPLORE", *args]
    proc = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    return ExplorerRun(proc.returncode, proc.stdout + proc.stderr, report_dir)


@pytest.fixture(scope="session")
def sim_built() -> Path:
    """The simulator library; the session fails early when it is not built."""
    if not LIB.is_file():
        pytest.fail(f"{LIB} is missing: build it with `make sim`")
    return LIB


@pytest.fixture(scope="session")
def planted_run(sim_built: Path, tmp_path_factory: pytest.TempPathFactory) -> ExplorerRun:
    """The explorer cases against the simulator with the planted sequence fault."""
    return run_explorer(tmp_path_factory.mktemp("planted"), faults=PLANTED)
