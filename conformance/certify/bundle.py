"""Certification bundles on disk: their layout, SHA256SUMS and strict JSON reading.

A bundle is a directory holding allure-results/, allure-report/, junit.xml, summary.json,
run.log, expectations/ (the expectations files the run used), manifest.json (which lists
the SHA-256 of every evidence file), certificate.md, certificate.html, manifest.sig when
signed, and SHA256SUMS, which lists the SHA-256 of every other file in ``sha256sum``
format (``HEX  PATH``), sorted by path. :mod:`conformance.certify.verify` checks them.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..harness.resources import catalog_path
from ..results import untrusted
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
    """Every file under ``bundle`` except SHA256SUMS, as sorted POSIX relative paths.

    Links (to files or folders, never followed), FIFOs and devices are listed too, so that the
    checks name them instead of passing over them; only real folders are entered.
    """
    found = []
    for folder, subfolders, files in os.walk(bundle):  # never enters a linked folder
        entries = files + [name for name in subfolders if os.path.islink(os.path.join(folder, name))]
        found += [Path(folder, name).relative_to(bundle).as_posix() for name in entries]
    return sorted(path for path in found if path != SUMS)


def is_bundle(path: Path) -> bool:
    """Whether ``path`` is (or claims to be) a certification bundle: a folder with SHA256SUMS or manifest.json.

    Either file is enough, in any form (a link too): a bundle stripped of one is still checked as one.
    """
    path = Path(path)
    return path.is_dir() and (untrusted.present(path / SUMS) or untrusted.present(path / "manifest.json"))


def bundle_of(run: Path) -> Path | None:
    """The bundle a run given as a folder or as a summary.json belongs to, or None when it is in none.

    A summary.json named directly inside a bundle is that bundle's: reading it alone must not
    skip the bundle's checks.
    """
    run = Path(run)
    if is_bundle(run):
        return run
    return run.parent if run.name == "summary.json" and not run.is_dir() and is_bundle(run.parent) else None


def write_sums(bundle: Path) -> Path:
    """Write SHA256SUMS over every other file of the bundle; returns its path."""
    lines = [f"{sha256_file(bundle / rel)}  {rel}\n" for rel in bundle_files(bundle)]
    target = bundle / SUMS
    target.write_text("".join(lines), encoding="utf-8")
    return target


def check_sums(bundle: Path) -> list[str]:
    """Problems with SHA256SUMS: unreadable lines, missing, changed or unlisted files."""
    sums = bundle / SUMS
    if not untrusted.present(sums):
        return [f"{SUMS}: missing"]
    try:
        text = untrusted.read_text(sums, root=bundle, errors="replace")
    except untrusted.UntrustedFileError as exc:
        return [f"{SUMS}: {exc.reason}"]
    problems: list[str] = []
    listed: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        digest, sep, rel = line.partition("  ")
        if not sep or len(digest) != 64 or not rel:
            problems.append(f"{SUMS}:{number}: malformed line")
        elif rel in listed:
            problems.append(f"{SUMS}:{number}: {rel} listed twice")
        else:
            listed[rel] = digest.lower()
    present = set(bundle_files(bundle))
    for rel, digest in sorted(listed.items()):
        if rel not in present:
            problems.append(f"{rel}: listed in {SUMS} but missing")
            continue
        try:
            if untrusted.sha256(bundle / rel, root=bundle) != digest:
                problems.append(f"{rel}: checksum mismatch")
        except untrusted.UntrustedFileError as exc:  # a link, a FIFO, a device, too large
            problems.append(f"{rel}: {exc.reason}")
    problems += [f"{rel}: not listed in {SUMS} (extra file)" for rel in sorted(present - set(listed))]
    return problems


def load_json_strict(path: Path, problems: list[str], root: Path | None = None) -> dict[str, Any] | None:
    """Load a JSON object, appending duplicate keys (which plain JSON overwrites) to ``problems``.

    The file is read as an untrusted one (:mod:`conformance.results.untrusted`), inside ``root``
    (by default its own folder): a link, FIFO, device, oversized or too deeply nested file is a problem.
    """

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key, value in pairs:
            if key in seen:
                problems.append(f"{path.name}: duplicate key {key!r}")
            seen[key] = value
        return seen

    try:
        data = untrusted.read_json(path, root=path.parent if root is None else root, object_pairs_hook=hook)
    except untrusted.UntrustedFileError as exc:
        problems.append(f"{path.name}: unreadable: {exc.reason}")
        return None
    if not isinstance(data, dict):
        problems.append(f"{path.name}: not a JSON object")
        return None
    return data


def file_digests(bundle: Path, exclude: frozenset[str]) -> dict[str, str]:
    """SHA-256 of every file of the bundle except ``exclude``, by relative path (the manifest's ``files``).

    For the kit's own bundle being sealed; the files of a bundle being checked are hashed through
    :func:`conformance.results.untrusted.sha256`.
    """
    return {rel: sha256_file(bundle / rel) for rel in bundle_files(bundle) if rel not in exclude}
