"""C programs built against the ACL header names and run on the simulator.

``client.c`` uses the generated header directly; ``hostmem_program.c`` is an ordinary
program written only against the official header path and names ("acl/acl.h"): devices,
contexts, run mode, streams and forced resets around the host-memory calls. It is built
against the generated headers, and also against the official CANN headers when
CANN_INCLUDE points at them.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = ROOT / "tests" / "c_client"
HEADER_DIR = Path(os.environ.get("ACL_INCLUDE", str(ROOT / "acl_hostmem_generated" / "include")))
OFFICIAL = os.environ.get("CANN_INCLUDE")


def _build_and_run(source: Path, include: Path, sim_lib: Path, base_env: dict[str, str], exe: Path,
                   extra_flags: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    libdir = sim_lib.parent
    flags = ["-O2", "-Wall", "-Wextra", "-Werror", *extra_flags]
    if "sim-asan" in str(sim_lib):
        flags.append("-fsanitize=address,undefined")
    build = subprocess.run(
        ["cc", *flags, f"-I{include}", str(source), "-o", str(exe), f"-L{libdir}", "-lascendcl",
         f"-Wl,-rpath,{libdir}", "-pthread"],
        capture_output=True, text=True,
    )
    assert build.returncode == 0, build.stderr
    env = {k: v for k, v in base_env.items() if k != "LD_PRELOAD"}
    return subprocess.run([str(exe)], env=env, capture_output=True, text=True, timeout=30)


def test_c_client_builds_and_runs_clean(sim_lib: Path, base_env: dict[str, str], tmp_path: Path):
    if not (HEADER_DIR / "acl_hostmem.h").is_file():
        pytest.fail(f"{HEADER_DIR}/acl_hostmem.h is missing: run the code generator first")
    run = _build_and_run(CLIENTS / "client.c", HEADER_DIR, sim_lib, base_env, tmp_path / "client")
    assert run.returncode == 0, (run.stdout, run.stderr)
    assert run.stdout.strip() == "client: ok"
    assert run.stderr == ""


def test_program_against_official_names_runs_on_the_simulator(sim_lib: Path, base_env: dict[str, str],
                                                             tmp_path: Path):
    source = CLIENTS / "hostmem_program.c"
    assert '#include "acl/acl.h"' in source.read_text() and "acl_hostmem" not in source.read_text()
    run = _build_and_run(source, HEADER_DIR, sim_lib, base_env, tmp_path / "program")
    assert run.returncode == 0, (run.stdout, run.stderr)
    assert run.stdout.strip() == "program: ok"


@pytest.mark.skipif(not OFFICIAL, reason="CANN_INCLUDE is not set: the official headers are not redistributable")
def test_program_builds_against_the_official_headers(sim_lib: Path, base_env: dict[str, str], tmp_path: Path):
    run = _build_and_run(CLIENTS / "hostmem_program.c", Path(str(OFFICIAL)), sim_lib, base_env, tmp_path / "p",
                         ("-Wno-unused-parameter",))
    assert run.returncode == 0 and run.stdout.strip() == "program: ok", (run.stdout, run.stderr)
