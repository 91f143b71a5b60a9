"""Certification runs: run the full suite, bundle the evidence, issue a certificate.

``python -m conformance certify --acl-lib PATH [--expectations FILE]... [--baseline RUN]``
runs ``python -m conformance run`` in a subprocess with its own report directory and
writes ``reports/certification/<family>-<cann version>-<YYYYmmddTHHMMSSZ>/``:

- ``allure-results/``, ``allure-report/index.html``, ``junit.xml``, ``summary.json`` (the run),
- ``run.log`` (the run's output), ``manifest.json`` (what, with what, how),
- ``certificate.md`` / ``certificate.html`` (verdict CERTIFIED or NOT CERTIFIED),
- ``SHA256SUMS`` over every other file.

Exit status: 0 CERTIFIED, 1 NOT CERTIFIED, 2 when no verdict could be reached.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..harness.options import REPO_ROOT
from ..results.history import carry_history
from ..results.summary import env_family, load_json
from .bundle import DEFAULT_CATALOG, write_sums
from .certificate import render_html, render_markdown
from .manifest import build_manifest
from .verdict import CERTIFIED, Assessment, assess

DEFAULT_OUT = Path("reports") / "certification"


class CertifyError(RuntimeError):
    """No verdict could be reached (the run produced no summary, bad arguments)."""


@dataclass(frozen=True)
class Certification:
    """The result of :func:`certify`: where the bundle is and what it says."""

    bundle: Path
    assessment: Assessment
    returncode: int

    @property
    def certified(self) -> bool:
        """Whether the verdict is CERTIFIED."""
        return self.assessment.verdict == CERTIFIED


def _safe(part: object) -> str:
    text = re.sub(r"[^A-Za-z0-9._-]+", "_", str(part or "unknown")).strip("._")
    return text or "unknown"


def bundle_name(family: object, cann_version: object, created: datetime.datetime) -> str:
    """``<family>-<cann version>-<UTC timestamp>`` with unsafe characters replaced."""
    return f"{_safe(family)}-{_safe(cann_version)}-{created.strftime('%Y%m%dT%H%M%SZ')}"


def run_command(
    acl_lib: Path, report_dir: Path, expectations: Sequence[Path], jobs: str, pytest_args: Sequence[str]
) -> list[str]:
    """The ``python -m conformance run`` command line of a certification run."""
    command = [
        sys.executable,
        "-m",
        "conformance",
        "run",
        "--acl-lib",
        str(acl_lib),
        "--acl-report-dir",
        str(report_dir),
    ]
    for path in expectations:
        command += ["--acl-expectations", str(path)]
    command += ["-n", jobs, *pytest_args]
    return command


def _unique(path: Path) -> Path:
    candidate, number = path, 1
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.name}-{number}")
    return candidate


def certify(
    acl_lib: Path,
    *,
    out_root: Path = DEFAULT_OUT,
    expectations: Sequence[Path] = (),
    baseline: Path | None = None,
    jobs: str = "auto",
    pytest_args: Sequence[str] = (),
    catalog_path: Path = DEFAULT_CATALOG,
    env: dict[str, str] | None = None,
) -> Certification:
    """Run the suite against ``acl_lib`` and write a certification bundle under ``out_root``.

    ``pytest_args`` restrict the run (the bundle is then incomplete and NOT CERTIFIED);
    ``baseline`` is a previous bundle whose Allure history is carried into this report.
    Raises :class:`CertifyError` when the run leaves no summary.json.
    """
    acl_lib = Path(acl_lib).resolve()
    if not acl_lib.is_file():
        raise CertifyError(f"--acl-lib {acl_lib}: no such file")
    expectations = [Path(p).resolve() for p in expectations]
    created = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    out_root = Path(out_root).resolve()
    staging = out_root / f".staging-{created.strftime('%Y%m%dT%H%M%SZ')}-{os.getpid()}"
    staging.mkdir(parents=True)
    try:
        copied = carry_history(baseline, staging) if baseline is not None else []
        command = run_command(acl_lib, staging, expectations, jobs, pytest_args)
        with open(staging / "run.log", "wb") as log:
            done = subprocess.run(command, cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, check=False)
        if not (staging / "summary.json").is_file():
            raise CertifyError(f"the run exited {done.returncode} without a summary.json; see {staging / 'run.log'}")
        bundle = package_bundle(staging, out_root, acl_lib, command, created, catalog_path, copied, list(pytest_args))
    except BaseException:
        if staging.exists() and not (staging / "summary.json").is_file():
            shutil.rmtree(staging, ignore_errors=True)
        raise
    assessment = assess(load_json(bundle / "summary.json"), load_json(catalog_path))
    return Certification(bundle, assessment, done.returncode)


def package_bundle(
    staging: Path,
    out_root: Path,
    acl_lib: Path,
    command: list[str],
    created: datetime.datetime,
    catalog_path: Path,
    history: list[str],
    pytest_args: list[str],
) -> Path:
    """Turn a run's report directory ``staging`` into a bundle under ``out_root``; returns its path.

    Writes manifest.json, certificate.md/.html and SHA256SUMS into ``staging``, then renames
    it to ``<family>-<cann version>-<timestamp>`` (suffixed -2, -3, ... if taken).
    """
    summary = load_json(staging / "summary.json")
    assessment = assess(summary, load_json(catalog_path))
    used = [Path(p) for p in (summary.get("expectations") or {}).get("files") or []]
    manifest = build_manifest(
        summary=summary,
        library=acl_lib,
        command=command,
        expectations=[p if p.is_absolute() else REPO_ROOT / p for p in used],
        created=created,
        verdict=assessment.verdict,
        extra={
            "certify_command": [sys.executable, "-m", "conformance", *sys.argv[1:]],
            "restricted_by": pytest_args,
            "history_carried": history,
            "complete": assessment.completeness_checked and not assessment.missing_rules,
        },
    )
    (staging / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    (staging / "certificate.md").write_text(render_markdown(assessment, summary, manifest), encoding="utf-8")
    (staging / "certificate.html").write_text(render_html(assessment, summary, manifest), encoding="utf-8")
    write_sums(staging)
    env = summary.get("environment") or {}
    final = _unique(out_root / bundle_name(env_family(env), env.get("cann_version"), created))
    staging.rename(final)
    return final
