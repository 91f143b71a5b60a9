"""Certification bundles on disk: their layout, SHA256SUMS and strict JSON reading.

A bundle is a directory holding allure-results/, allure-report/, junit.xml, summary.json,
run.log, expectations/ (the expectations files the run used), manifest.json (which lists
the SHA-256 of every evidence file), certificate.md, certificate.html, manifest.sig when
signed, and SHA256SUMS, which lists the SHA-256 of every other file in ``sha256sum``
format (``HEX  PATH``), sorted by path. :mod:`conformance.certify.verify` checks them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..harness.resources import catalog_path
from ..results.environment import sha256_file

SUMS = "SHA256SUMS"
REQUIRED = (
    "summary.json",
    "manifest.json",
    "certificate.md",
    "certificate.html",
    "junit.xml",
    "allure-report/index.html",
)
REQUIRED_DIRS = ("allure-results",)
HTML_INDEX = "allure-report/index.html"
DEFAULT_CATALOG = catalog_path()


def bundle_files(bundle: Path) -> list[str]:
    """Every regular file under ``bundle`` except SHA256SUMS, as sorted POSIX relative paths."""
    found = [p.relative_to(bundle).as_posix() for p in bundle.rglob("*") if p.is_file() or p.is_symlink()]
    return sorted(path for path in found if path != SUMS)


def write_sums(bundle: Path) -> Path:
    """Write SHA256SUMS over every other file of the bundle; returns its path."""
    lines = [f"{sha256_file(bundle / rel)}  {rel}\n" for rel in bundle_files(bundle)]
    target = bundle / SUMS
    target.write_text("".join(lines), encoding="utf-8")
    return target


def check_sums(bundle: Path) -> list[str]:
    """Problems with SHA256SUMS: unreadable lines, missing, changed or unlisted files."""
    sums = bundle / SUMS
    if not sums.is_file():
        return [f"{SUMS}: missing"]
    problems: list[str] = []
    listed: dict[str, str] = {}
    for number, line in enumerate(sums.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        digest, sep, rel = line.partition("  ")
        if not sep or len(digest) != 64 or not rel:
            problems.append(f"{SUMS}:{number}: malformed line")
        elif rel in listed:
            problems.append(f"{SUMS}:{number}: {rel} listed twice")
        else:
            listed[rel] = digest.lower()
    present = set(bundle_files(bundle))
    for rel, digest in sorted(listed.items()):
        path = bundle / rel
        if rel not in present:
            problems.append(f"{rel}: listed in {SUMS} but missing")
        elif path.is_symlink():
            problems.append(f"{rel}: is a symbolic link")
        elif sha256_file(path) != digest:
            problems.append(f"{rel}: checksum mismatch")
    problems += [f"{rel}: not listed in {SUMS} (extra file)" for rel in sorted(present - set(listed))]
    return problems


def load_json_strict(path: Path, problems: list[str]) -> dict[str, Any] | None:
    """Load a JSON object, appending duplicate keys (which plain JSON overwrites) to ``problems``."""

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key, value in pairs:
            if key in seen:
                problems.append(f"{path.name}: duplicate key {key!r}")
            seen[key] = value
        return seen

    try:
        data = json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=hook)
    except (OSError, ValueError) as exc:
        problems.append(f"{path.name}: unreadable: {exc}")
        return None
    if not isinstance(data, dict):
        problems.append(f"{path.name}: not a JSON object")
        return None
    return data


def file_digests(bundle: Path, exclude: frozenset[str]) -> dict[str, str]:
    """SHA-256 of every file of the bundle except ``exclude``, by relative path (the manifest's ``files``)."""
    return {rel: sha256_file(bundle / rel) for rel in bundle_files(bundle) if rel not in exclude}
