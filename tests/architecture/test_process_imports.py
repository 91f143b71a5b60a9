"""The processes that open the library under test load nothing of pytest.

The executor and the preflight's probe start once per run or more (about 175 runs in the
self-test); importing pytest cost each of them 0.1 s of CPU, and neither needs more of it
than the exception a skip raises (``_pytest.outcomes``).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize("module", ["conformance.executor.main", "conformance.executor.probe"])
def test_a_library_process_imports_no_pytest(module):
    code = (f"import sys, {module}\n"
            "loaded = sorted(m for m in sys.modules if m == 'pytest' or m.startswith(('_pytest.config', "
            "'_pytest.main', 'xdist', 'allure')))\n"
            "print(','.join(loaded))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "", f"{module} loads {result.stdout.strip()}"


JUDGE_NEVER = ("cffi", "hypothesis", "acl_hostmem_generated.acl_bindings", "jinja2")


def test_a_judge_loads_neither_cffi_nor_the_bindings_nor_hypothesis(tmp_path):
    """A judge (a run's pytest process, one per self-test run) opens no library and runs no
    Hypothesis test: cffi with the bindings' declarations cost it 50 ms, Hypothesis's pytest
    plugin 150 ms, jinja2 (the explorer's reproducers) 20 ms."""
    from conformance.harness.resources import default_sim_lib
    from conformance.session.command import suite_pytest

    (tmp_path / "list_modules.py").write_text(
        "import sys\n\n\ndef pytest_unconfigure(config):\n"
        f"    loaded = sorted(m for m in sys.modules if m.startswith({JUDGE_NEVER!r}))\n"
        f"    open({str(tmp_path / 'loaded.txt')!r}, 'w').write(','.join(loaded))\n", encoding="utf-8")
    command = suite_pytest(tmp_path / "report", 0, [f"--acl-lib={default_sim_lib()}"],
                           ["-p", "list_modules", "--collect-only"], allure=False, cache=False)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert (tmp_path / "loaded.txt").read_text() == ""


WATCHDOG_NEVER = ("pytest", "_pytest.config", "_pytest.main", "cryptography", "yaml", "cffi", "jinja2")


def test_run_the_watchdog_imports_neither_pytest_nor_what_only_certify_needs():
    """``run``'s own process starts the judge and watches it; every import it makes is paid again by every
    run (pytest, the signatures of certify and yaml made its parser 0.27 s of CPU instead of 0.08 s)."""
    code = ("import sys\nfrom conformance.cli import build_parser\nbuild_parser(['run'])\n"
            f"print(','.join(sorted(m for m in sys.modules if m.startswith({WATCHDOG_NEVER!r}))))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "", f"run's process loads {result.stdout.strip()}"
