"""A spec edit followed by one `make conformance` tests the edited spec; the next one rebuilds nothing.

It works on a copy of the kit (the tracked and new files of this checkout) so that the edit
stays there; the copy uses this checkout's virtual environment and never reinstalls it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(sys.prefix)
NEW_CASE = "HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=12345]"


def copy_kit(target: Path) -> Path:
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.split("\n")
    for rel in filter(None, listed):
        source = ROOT / rel
        if source.is_file():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / rel)
    return target


def make_conformance(kit: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ACL_", "ACLSIM_", "PYTEST_"))}
    command = ["make", "conformance", f"VENV={VENV}", "JOBS=2", "-o", f"{VENV}/.installed",
               "-o", "allure/node_modules/.package-lock.json"]
    return subprocess.run(command, cwd=kit, env=env, capture_output=True, text=True, timeout=600)


def test_one_make_conformance_tests_the_edited_spec_and_a_second_rebuilds_nothing(tmp_path):
    kit = copy_kit(tmp_path / "kit")
    rules = kit / "spec" / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    matrix = 'size: ["@sizes_small", "@sizes_large", sampled'
    edited = text.replace(matrix + "]}", matrix + ", 12345]}", 1)
    assert edited != text
    rules.write_text(edited, encoding="utf-8")

    first = make_conformance(kit)
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    summary = json.loads((kit / "reports" / "summary.json").read_text())
    assert summary["rules"]["HM-ALIGN-MALLOC"]["cases"][NEW_CASE]["outcome"] == "PASS"
    original = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text())
    assert summary["spec_hash"] != original["spec_hash"]
    library = kit / "build" / "sim" / "libascendcl.so"
    built = library.stat().st_mtime_ns

    second = make_conformance(kit)
    assert second.returncode == 0, second.stdout[-3000:] + second.stderr[-3000:]
    assert "files up to date" in second.stdout
    assert " -shared " not in second.stdout and library.stat().st_mtime_ns == built  # no recompilation
