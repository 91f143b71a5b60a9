"""Builds tests/c_client/client.c against the generated header and runs it on the simulator."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "tests" / "c_client" / "client.c"
HEADER_DIR = Path(os.environ.get("ACL_INCLUDE", str(ROOT / "acl_hostmem_generated" / "include")))


def test_c_client_builds_and_runs_clean(sim_lib: Path, base_env: dict[str, str], tmp_path: Path):
    if not (HEADER_DIR / "acl_hostmem.h").is_file():
        pytest.fail(f"{HEADER_DIR}/acl_hostmem.h is missing: run the code generator first")
    exe = tmp_path / "client"
    libdir = sim_lib.parent
    flags = ["-O2", "-Wall", "-Wextra", "-Werror"]
    if "sim-asan" in str(sim_lib):
        flags.append("-fsanitize=address,undefined")
    build = subprocess.run(
        [
            "cc",
            *flags,
            f"-I{HEADER_DIR}",
            str(CLIENT),
            "-o",
            str(exe),
            f"-L{libdir}",
            "-lascendcl",
            f"-Wl,-rpath,{libdir}",
        ],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    env = {k: v for k, v in base_env.items() if k != "LD_PRELOAD"}
    run = subprocess.run([str(exe)], env=env, capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, (run.stdout, run.stderr)
    assert run.stdout.strip() == "client: ok"
    assert run.stderr == ""
