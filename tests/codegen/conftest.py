"""Fixtures of the code-generator tests: a private copy of the spec and CLI runners.

Every test that edits the spec works on a copy under ``tmp_path`` with the working
directory moved there, so issues name ``spec/<file>.yaml`` exactly as a maintainer
running the CLI from the repository root would see them.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # the kit is used from a checkout, not installed
    sys.path.insert(0, str(ROOT))


@pytest.fixture()
def spec_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A writable copy of spec/ at ``<tmp>/spec``; the working directory is ``<tmp>``."""
    shutil.copytree(ROOT / "spec", tmp_path / "spec")
    monkeypatch.chdir(tmp_path)
    return Path("spec")


@pytest.fixture(scope="session")
def cc() -> str:
    """The C compiler; the C checks need one."""
    path = shutil.which("cc") or shutil.which("gcc")
    if path is None:
        pytest.fail("no C compiler (cc) on PATH; the ABI and header checks need one")
    return path
