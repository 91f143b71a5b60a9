"""Certification bundles on disk: their layout, SHA256SUMS and strict JSON reading.

A bundle is a directory holding allure-results/, allure-report/, junit.xml, summary.json,
run.log, expectations/ (the expectations files the run used), manifest.json (which lists
the SHA-256 of every evidence file), certificate.md, certificate.html, manifest.sig when
signed, and SHA256SUMS, which lists the SHA-256 of every other file in ``sha256sum``
format (``HEX  PATH``), sorted by path. :mod:`conformance.certify.verify` checks them; the
integrity checks that every reader of a bundle applies are :mod:`conformance.results.integrity`'s.
"""

from __future__ import annotations

from pathlib import Path

from ..harness.resources import catalog_path
from ..results.environment import sha256_file

# The integrity checks live in the results stage (the gate applies them too); their names stay here.
from ..results.integrity import SUMS as SUMS
from ..results.integrity import bundle_files as bundle_files
from ..results.integrity import bundle_of as bundle_of
from ..results.integrity import check_sums as check_sums
from ..results.integrity import is_bundle as is_bundle
from ..results.integrity import load_json_strict as load_json_strict

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


def write_sums(bundle: Path) -> Path:
    """Write SHA256SUMS over every other file of the bundle; returns its path."""
    lines = [f"{sha256_file(bundle / rel)}  {rel}\n" for rel in bundle_files(bundle)]
    target = bundle / SUMS
    target.write_text("".join(lines), encoding="utf-8")
    return target


def file_digests(bundle: Path, exclude: frozenset[str]) -> dict[str, str]:
    """SHA-256 of every file of the bundle except ``exclude``, by relative path (the manifest's ``files``).

    For the kit's own bundle being sealed; the files of a bundle being checked are hashed through
    :func:`conformance.results.untrusted.sha256`.
    """
    return {rel: sha256_file(bundle / rel) for rel in bundle_files(bundle) if rel not in exclude}
