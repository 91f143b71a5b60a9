"""The wheel, installed into a fresh virtual environment, works from outside the repository.

It builds the wheel, installs it (without its dependencies, which a .pth file borrows from the
running environment, so that the test needs no network and stays fast), builds the simulator
from the shipped sources, then runs, certifies and verifies from a directory outside the clone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def sh(command: list[str], cwd: Path, env: dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)


def test_wheel_installs_and_runs_certifies_and_verifies_outside_the_clone(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ACL_", "ACLSIM_", "PYTEST_", "PYTHONPATH", "VIRTUAL_ENV"))}
    env["ACL_CONFORMANCE_CACHE"] = str(tmp_path / "cache")  # no renderer installed there: no HTML
    built = sh([sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path / "dist"), str(ROOT)], tmp_path, env)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    wheel = next((tmp_path / "dist").glob("*.whl"))

    venv = tmp_path / "venv"
    assert sh([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp_path, env).returncode == 0
    python = venv / "bin" / "python"
    site = Path(sh([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], tmp_path,
                   env).stdout.strip())
    (site / "borrowed-dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    installed = sh([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", str(wheel)],
                   tmp_path, env)
    assert installed.returncode == 0, installed.stdout[-2000:] + installed.stderr[-2000:]

    work = tmp_path / "elsewhere"
    work.mkdir()
    kit = str(venv / "bin" / "acl-conformance")
    where = sh([str(python), "-c", "import conformance, acl_hostmem_generated as g; print(conformance.__file__, "
                "g.__file__)"], work, env)
    assert str(ROOT) not in where.stdout and str(venv) in where.stdout, where.stdout + where.stderr
    lint = sh([kit, "lint"], work, env)
    assert lint.returncode == 0 and "is valid" in lint.stdout, lint.stdout + lint.stderr

    sim = sh([kit, "build-sim", "--out", "sim"], work, env)
    assert sim.returncode == 0, sim.stdout + sim.stderr
    library = work / "sim" / "libascendcl.so"

    run = sh([kit, "run", "--acl-lib", str(library), "-n", "2"], work, env)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert json.loads((work / "reports" / "summary.json").read_text())["verdict"] == "PASS"
    assert f"render it later with: acl-conformance report {work / 'reports'}" in run.stderr

    certify = sh([kit, "certify", "--acl-lib", str(library), "-n", "2", "--out-dir", "bundles"], work, env)
    assert certify.returncode == 0 and certify.stdout.startswith("CERTIFIED"), certify.stdout + certify.stderr[-3000:]
    bundle = next(p for p in (work / "bundles").iterdir() if not p.name.startswith("."))
    manifest = json.loads((bundle / "manifest.json").read_text())
    assert manifest["html_report"]["rendered"] is False and not (bundle / "allure-report").exists()
    assert manifest["suite_version"] != "unknown" and manifest["command"][0] == kit
    assert ".staging" not in (bundle / "run.log").read_text() + json.dumps(manifest)

    verify = sh([kit, "verify", str(bundle)], work, env)
    assert verify.returncode == 0, verify.stdout + verify.stderr
