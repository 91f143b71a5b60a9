"""Facts about the environment of a run that are known without opening the library."""

from __future__ import annotations

import hashlib
import platform
import socket
import subprocess
from pathlib import Path
from typing import Any

from ..harness.options import REPO_ROOT


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


def suite_version(root: Path = REPO_ROOT) -> str:
    """``git describe --always --dirty --tags`` of the kit, or ``unknown`` outside a git checkout."""
    try:
        out = subprocess.run(["git", "-C", str(root), "describe", "--always", "--dirty", "--tags"],
                             capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else "unknown"


def static_facts(lib: Path, kernel: str, spec_hash: str) -> dict[str, Any]:
    """Facts known without opening the library."""
    return {
        "library": str(lib),
        "library_sha256": sha256_of(lib),
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
    }
