"""Facts about the environment of a run that are known without opening the library."""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import platform
import socket
import subprocess
from collections.abc import Mapping
from pathlib import Path

from ..harness.resources import source_checkout

DISTRIBUTION = "acl-hostmem-conformance"


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of a file's bytes; raises OSError when it cannot be read."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def sha256_of(path: Path) -> str | None:
    """Hex SHA-256 of a file, or None when it cannot be read."""
    try:
        return sha256_file(path)
    except OSError:
        return None


def suite_version() -> str:
    """``git describe --always --dirty --tags`` of a clone, else the installed distribution's version."""
    root = source_checkout()
    if root is None or not (root / ".git").exists():
        return installed_version()
    try:
        out = subprocess.run(["git", "-C", str(root), "describe", "--always", "--dirty", "--tags"],
                             capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else installed_version()


def installed_version() -> str:
    """The version of the installed distribution, or ``unknown``."""
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


#: Environment variables that change how a backend behaves; a run records every one that is set.
BACKEND_ENV_PREFIXES = ("ACLSIM_", "ASCEND_")


def backend_switches(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The backend's environment switches of this process (ACLSIM_FAULTS, ASCEND_HOME_PATH, ...)."""
    environ = os.environ if environ is None else environ
    return {k: v for k, v in sorted(environ.items()) if k.startswith(BACKEND_ENV_PREFIXES)}


def static_facts(lib: Path | None, kernel: str, spec_hash: str) -> dict[str, object]:
    """Facts known without opening the library."""
    return {
        "library": str(lib),
        "library_sha256": sha256_of(lib) if lib else None,
        "soc": None,
        "product_family": None,
        "product_name": None,
        "cann_version": None,
        "os_kernel": kernel,
        "spec_hash": spec_hash,
        "suite_version": suite_version(),
        "device_count": None,
        "python": platform.python_version(),
        "host": socket.gethostname(),
        "backend_env": backend_switches(),
    }
