"""manifest.json of a certification bundle: what was certified, with what, and how."""

from __future__ import annotations

import datetime
import importlib.metadata
import platform
import sys
from collections.abc import Mapping
from pathlib import Path

from ..results.environment import sha256_file, suite_version
from ..results.summary import SummaryJSON

SCHEMA = "acl-conformance-certification/1"
PACKAGES = ("pyyaml", "jinja2", "cffi", "pytest", "pytest-xdist", "allure-pytest", "jsonschema", "cryptography")


def package_versions(names: tuple[str, ...] = PACKAGES) -> dict[str, str | None]:
    """Installed version of each distribution (None when not installed)."""
    versions: dict[str, str | None] = {}
    for name in names:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def build_manifest(
    *,
    summary: SummaryJSON,
    library: Path,
    command: list[str],
    expectations: list[tuple[str, Path]],
    created: datetime.datetime,
    verdict: str,
    extra: Mapping[str, object] | None = None,
) -> dict[str, object]:
    """The manifest of a bundle made from ``summary`` (the run's summary.json).

    ``expectations`` are (path inside the bundle, original file) pairs. The caller adds
    ``files`` (the SHA-256 of every evidence file) once the certificates are written.
    """
    env = dict(summary.get("environment") or {})
    env.setdefault("os_kernel", platform.release())
    env.setdefault("host", platform.node())
    env.setdefault("python", platform.python_version())
    manifest: dict[str, object] = {
        "schema": SCHEMA,
        "created_utc": created.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "verdict": verdict,
        "spec_hash": summary.get("spec_hash"),
        "suite_version": suite_version(),
        "run_suite_version": summary.get("suite_version"),
        "library": {"path": str(library.resolve()), "sha256": sha256_file(library) if library.is_file() else None},
        "environment": env,
        "python": {"version": sys.version.split()[0], "executable": sys.executable},
        "packages": package_versions(),
        "command": list(command),
        "run_command": list(summary.get("command") or []),
        "expectations": [{"path": rel, "source": str(source), "sha256": sha256_file(source)}
                         for rel, source in expectations],
    }
    manifest.update(extra or {})
    return manifest
