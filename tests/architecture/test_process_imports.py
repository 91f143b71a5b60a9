"""The processes that open the library under test load nothing of pytest.

The executor and the preflight's probe start once per run or more (about 175 runs in the
self-test); importing pytest cost each of them 0.1 s of CPU, and neither needs more of it
than the exception a skip raises (``_pytest.outcomes``).
"""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("module", ["conformance.executor.main", "conformance.session.preflight"])
def test_a_library_process_imports_no_pytest(module):
    code = (f"import sys, {module}\n"
            "loaded = sorted(m for m in sys.modules if m == 'pytest' or m.startswith(('_pytest.config', "
            "'_pytest.main', 'xdist', 'allure')))\n"
            "print(','.join(loaded))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "", f"{module} loads {result.stdout.strip()}"
