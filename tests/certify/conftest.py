"""Fixtures for certification tests (the synthetic-summary ones, shared with the gate tests, are in tests/conftest.py).

Two kinds of runs:

- *synthetic* summaries built from acl_hostmem_generated/catalog.json (every case PASS unless told
  otherwise), for the logic of verdicts, bundles and comparison;
- *real* runs of the suite against the reference simulator, made a few times per session
  and shared: a full faithful certification, a faulted certification of the pairing
  family, and a faulted pairing run with expectations. They need the simulator
  (``make sim``) and fail, not skip, without it.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from bundle_helpers import (
    FAULT,
    FAULTED_RULE,
    PAIRING_ONLY,
    PASSING_PAIR_RULE,
    REPO,
    SECOND_FAULT,
    SECOND_FAULTED_RULE,
    SIM_LIB,
)
from kit_runs import KIT

from conformance.certify.bundle import DEFAULT_CATALOG
from conformance.certify.verdict import Assessment, assess


@dataclass(frozen=True)
class CliCertification:
    """A certification made through the CLI: the bundle, its recomputed assessment, exit status, output."""

    @property
    def certified(self) -> bool:
        """Whether the recomputed verdict is CERTIFIED."""
        return self.assessment.verdict == "CERTIFIED"

    bundle: Path
    assessment: Assessment
    returncode: int
    stdout: str


# ----------------------------------------------------------------------------- real runs




def sim_env(faults: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ACL_", "ACLSIM_", "PYTEST_XDIST"))}
    if faults:
        env["ACLSIM_FAULTS"] = faults
    return env


@pytest.fixture(scope="session")
def real_runs_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory shared by every xdist worker of this session (runs are made once, not once per worker)."""
    if not SIM_LIB.is_file():
        pytest.fail(f"{SIM_LIB} is not built: run `make sim` first")
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    root = shared / "certify-real"
    root.mkdir(exist_ok=True)
    return root


def once(root: Path, name: str, make: Callable[[Path], str]) -> tuple[Path, str]:
    """Run ``make(root/name)`` once per session across workers (file lock); returns (dir, its note)."""
    target, done = root / name, root / f"{name}.done"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.is_file():
            note = make(target)
            done.write_text(note, encoding="utf-8")
    return target, done.read_text(encoding="utf-8")


def _certify_cli(out: Path, faults: str | None, *pytest_args: str, env: dict[str, str] | None = None,
                 lib: Path = SIM_LIB) -> str:
    command = [*KIT, "certify", "--acl-lib", str(lib), "--out-dir", str(out),
               "-n", "2"]
    if pytest_args:
        command += ["--", *pytest_args]
    done = subprocess.run(command, cwd=REPO, env={**sim_env(faults), **(env or {})}, capture_output=True, text=True,
                          check=False)
    return json.dumps({"returncode": done.returncode, "stdout": done.stdout, "stderr": done.stderr[-3000:]})


def _load_certification(out: Path, note: str) -> CliCertification:
    info = json.loads(note)
    bundles = [p for p in out.iterdir() if not p.name.startswith(".")] if out.is_dir() else []
    assert len(bundles) == 1, info["stdout"][-3000:] + info["stderr"]
    summary = json.loads((bundles[0] / "summary.json").read_text(encoding="utf-8"))
    catalog = json.loads(DEFAULT_CATALOG.read_text(encoding="utf-8"))
    return CliCertification(bundles[0], assess(summary, catalog), info["returncode"], info["stdout"])


@pytest.fixture(scope="session")
def faithful_bundle(real_runs_root: Path) -> CliCertification:
    """The one full run: certify the faithful simulator through the CLI."""
    return _load_certification(*once(real_runs_root, "faithful", lambda out: _certify_cli(out, None)))


#: SoCs whose simulated driver answers as the public driver's source says (legal_public_driver):
#: svm v2 on an Atlas A2 (Ascend910B3), svm v3 on an Ascend 950.
PUBLIC_DRIVER_SOCS = ("Ascend910B3", "Ascend950PR_9599")


@pytest.fixture(scope="session", params=PUBLIC_DRIVER_SOCS)
def public_driver_bundle(real_runs_root: Path, request: pytest.FixtureRequest) -> CliCertification:
    """Certify, through the CLI, the simulator answering like the public driver on one SoC (two devices)."""
    soc = request.param
    env = {"ACLSIM_SOC": soc, "ACLSIM_DEVICE_COUNT": "2"}
    made = once(real_runs_root, f"public-driver-{soc}",
                lambda out: _certify_cli(out, "legal_public_driver", env=env))
    return _load_certification(*made)


@pytest.fixture(scope="session")
def driver_pins_bundle(real_runs_root: Path) -> CliCertification:
    """Certify, through the CLI, an Atlas A2 whose driver pins aclrtHostRegisterV2 PINNED memory itself
    (ACLSIM_PIN_REGISTER=driver: the runtime's driver-side pinning path), two devices."""
    env = {"ACLSIM_SOC": "Ascend910B3", "ACLSIM_DEVICE_COUNT": "2", "ACLSIM_PIN_REGISTER": "driver"}
    made = once(real_runs_root, "driver-pins-Ascend910B3", lambda out: _certify_cli(out, None, env=env))
    return _load_certification(*made)


@pytest.fixture(scope="session")
def oldest_release_bundle(real_runs_root: Path) -> CliCertification:
    """Certify, through the CLI, the simulator built as CANN 8.5.0 (its exports and answers) on an Atlas A2."""
    lib = REPO / "build" / "sim-8.5.0" / "libascendcl.so"
    if not lib.is_file():
        pytest.fail(f"{lib} is not built: run `make sim` first")
    made = once(real_runs_root, "release-8.5.0", lambda out: _certify_cli(out, None, lib=lib))
    return _load_certification(*made)


@pytest.fixture(scope="session")
def faulted_bundle(real_runs_root: Path) -> CliCertification:
    """Certify, through the CLI, the simulator with a mandatory pairing fault (pairing rules only)."""
    made = once(real_runs_root, "faulted", lambda out: _certify_cli(out, FAULT, *PAIRING_ONLY))
    return _load_certification(*made)


def plain_run(report: Path, faults: str | None, *extra: str) -> str:
    """``python -m conformance run`` of the pairing rules into ``report``."""
    command = [*KIT, "run", "--acl-lib", str(SIM_LIB), "--acl-report-dir", str(report)]
    command += [*extra, "-n", "2", *PAIRING_ONLY]
    done = subprocess.run(command, cwd=REPO, env=sim_env(faults), capture_output=True, text=True, check=False)
    assert (report / "summary.json").is_file(), done.stdout[-3000:] + done.stderr[-3000:]
    return ""


@pytest.fixture(scope="session")
def faithful_pairing_run(real_runs_root: Path) -> Path:
    """The gate's baseline: the faithful simulator, pairing rules only."""
    return once(real_runs_root, "faithful-pairing", lambda out: plain_run(out, None))[0]


@pytest.fixture(scope="session")
def expectations_file(real_runs_root: Path) -> Path:
    """Waives the faulted rule, expects a failure of a passing rule, and has expired the second fault's entry."""
    path = real_runs_root / "expectations.yaml"
    text = (
        "schema: acl-conformance-expectations/1\n"
        "expectations:\n"
        f"  - rule: {FAULTED_RULE}\n"
        "    families: [atlas_a2]\n"
        "    soc: 'Ascend910B*'\n"
        "    reason: known double-unregister deviation\n"
        "    tracking: SIM-1\n"
        "    expires: 2099-12-31\n"
        f"  - rule: {PASSING_PAIR_RULE}\n"
        "    families: [atlas_a2]\n"
        "    reason: thought broken, is not\n"
        "    tracking: SIM-2\n"
        f"  - rule: {SECOND_FAULTED_RULE}\n"
        "    families: [atlas_a2]\n"
        "    reason: was waived until 2020\n"
        "    tracking: SIM-3\n"
        "    expires: 2020-01-01\n"
    )
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path


@pytest.fixture(scope="session")
def waived_run(real_runs_root: Path, expectations_file: Path) -> Path:
    """Pairing rules with two faults and the expectations file; returns its report dir."""
    faults = f"{FAULT},{SECOND_FAULT}"
    return once(
        real_runs_root, "waived", lambda out: plain_run(out, faults, "--acl-expectations", str(expectations_file))
    )[0]
