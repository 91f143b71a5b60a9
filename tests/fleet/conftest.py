"""Fixtures of the fleet tests: synthetic runs (bench/fleet_synthetic.py) and real simulator runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from kit_runs import KIT

ROOT = Path(__file__).resolve().parents[2]
for path in (ROOT, ROOT / "bench"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from fleet_synthetic import load_catalog  # noqa: E402


@pytest.fixture(scope="session")
def catalog() -> dict[str, Any]:
    """acl_hostmem_generated/catalog.json."""
    return load_catalog()


def read_json(path: Path) -> Any:
    """A JSON file."""
    return json.loads(path.read_text(encoding="utf-8"))


SIM_LIB = ROOT / "build" / "sim" / "libascendcl.so"


def start_run(report_dir: Path, env: dict[str, str], *pytest_args: str, light: bool = False) -> subprocess.Popen[str]:
    """Start a run of the generated suite against the simulator with ``env`` added; it writes summary.json.

    By default ``python -m conformance run`` (one xdist worker, no HTML). ``light`` runs plain
    pytest with the plugin in one process and without Allure, half the start-up cost, for
    selections that cannot crash the backend.
    """
    if not SIM_LIB.is_file():
        pytest.fail(f"{SIM_LIB} is missing: build it with `make sim`")
    base = {k: v for k, v in os.environ.items() if not k.startswith(("ACL_", "ACLSIM_", "PYTEST_XDIST"))}
    options = ["--acl-lib", str(SIM_LIB), "--acl-os-kernel", "6.6.0", "--acl-report-dir", str(report_dir)]
    if light:
        command = [sys.executable, "-m", "pytest", "-p", "conformance.session.plugin", "-p", "no:cacheprovider",
                   "-p", "no:allure_pytest", "-o", "addopts=", "-q", *options, *pytest_args,
                   str(ROOT / "acl_hostmem_generated" / "cases")]
    else:
        command = [*KIT, "run", "--no-html", "-n", "1", *options, *pytest_args]
    return subprocess.Popen(command, cwd=ROOT, env={**base, "ACLSIM_KERNEL": "6.6.0", **env},
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def finish_all(procs: list[subprocess.Popen[str]], timeout: float = 600) -> None:
    """Wait for every run; fail with the output of one that wrote no summary."""
    for proc in procs:
        output, _ = proc.communicate(timeout=timeout)
        report = Path(proc.args[proc.args.index("--acl-report-dir") + 1])
        assert (report / "summary.json").is_file(), output[-3000:]
