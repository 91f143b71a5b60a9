"""The ``run`` subcommand: pytest under xdist with the plugin, then the HTML report and a summary.

Every case runs under pytest-xdist (at least one worker), so that a backend that crashes or
hangs in a C call costs one case, never the run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from ..harness.options import OPTIONS, REPO_ROOT

PLUGIN = "conformance.session.plugin"


RUN_DESCRIPTION = """\
Run the generated conformance suite (generated/conformance) against one ACL library and
write the reports:

  reports/summary.json       every rule and case with its outcome; the verdict
  reports/junit.xml          JUnit XML
  reports/allure-results/    Allure results (labels, ACL call traces)
  reports/allure-report/     the HTML report (one self-contained index.html)

Every case runs under pytest-xdist (at least one worker), so a backend that crashes or
hangs inside a C call costs one case (ERROR, category crash/timeout), never the run.
Outcomes: PASS, FAIL, NOT_APPLICABLE, WAIVED, XPASS, ERROR. The exit status is 0 when the
verdict is PASS (no mandatory rule FAILed or ERRORed), 1 when it is FAIL, 2 for a bad
expectations file, and pytest's own status when no summary was written.
Arguments this command does not know are passed to pytest (e.g. -k, -x, -v).
Every --acl-* option has an environment twin (ACL_LIB, ACL_DEVICE, ...).
"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the options of ``run``: every --acl-* option, workers, HTML and screenshot."""
    for spec in OPTIONS:
        parser.add_argument(spec.flag, dest=spec.dest, metavar=spec.metavar, help=spec.help
                            + (f" [env {spec.env}]" if spec.env else ""),
                            action="append" if spec.multiple else "store")
    parser.add_argument("-n", "--numprocesses", default="auto", metavar="N",
                        help="xdist workers: a number or 'auto' (default: auto; 0 is raised to 1 so that "
                             "crash isolation always holds)")
    parser.add_argument("--no-html", action="store_true", help="skip rendering the HTML report")
    parser.add_argument("--screenshot", metavar="PNG", help="also save a headless-Chromium screenshot of the report")


def _absolute(value: str | None) -> str | None:
    if value is None or value == "auto":
        return value
    return str(Path(value).expanduser().resolve())


def pytest_command(args: argparse.Namespace, extra: Sequence[str], report_dir: Path) -> list[str]:
    """The pytest command line that ``run`` executes (from the repository root)."""
    workers = str(args.numprocesses)
    if workers in ("0", ""):
        workers = "1"
    command = [sys.executable, "-m", "pytest", "-p", PLUGIN, "-p", "no:cacheprovider",
               "--rootdir", str(REPO_ROOT), "-o", "addopts=", "-o", "testpaths=",
               "-n", workers, "--max-worker-restart", "1000000",
               "--alluredir", str(report_dir / "allure-results"),
               "--junitxml", str(report_dir / "junit.xml"), "-o", "junit_family=xunit2",
               "-o", "junit_suite_name=acl-conformance", "--acl-report-dir", str(report_dir)]
    for spec in OPTIONS:
        value = getattr(args, spec.dest, None)
        if spec.dest == "acl_report_dir" or value is None:
            continue
        for item in value if spec.multiple else [value]:
            if spec.dest in ("acl_lib", "acl_expectations"):
                item = _absolute(item)
            command += [spec.flag, str(item)]
    command += ["-q", "-rfE", *extra]
    if not any(not arg.startswith("-") and Path(arg.split("::")[0]).exists() for arg in extra):
        command.append(str(REPO_ROOT / "generated" / "conformance"))
    return command


def _check_expectations(args: argparse.Namespace) -> int | None:
    paths = list(args.acl_expectations or [])
    if not paths and os.environ.get("ACL_EXPECTATIONS"):
        paths = [p for p in os.environ["ACL_EXPECTATIONS"].split(os.pathsep) if p]
    if not paths:
        return None
    try:
        from ..results.expectations import ExpectationError, load_expectations
    except ImportError:
        return None
    try:
        load_expectations([Path(p) for p in paths])
    except ExpectationError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return None


def run_suite(args: argparse.Namespace, extra: list[str]) -> int:
    """``run``: pytest under xdist, then HTML, then the printed summary; returns the exit status."""
    bad = _check_expectations(args)
    if bad is not None:
        return bad
    report_dir = Path(args.acl_report_dir or os.environ.get("ACL_REPORT_DIR") or "reports").resolve()
    report_dir.mkdir(parents=True, exist_ok=True)
    for stale in ("allure-results", "summary.json", "junit.xml"):
        target = report_dir / stale
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
    command = pytest_command(args, extra, report_dir)
    print("+ " + " ".join(command), flush=True)
    status = subprocess.run(command, cwd=REPO_ROOT, check=False).returncode
    summary_path = report_dir / "summary.json"
    if not summary_path.is_file():
        print(f"error: pytest exited {status} and wrote no {summary_path}", file=sys.stderr)
        return status or 3
    location = str(summary_path)
    if not args.no_html:
        from ..results.html import ReportError, render, screenshot

        try:
            index = render(report_dir / "allure-results", report_dir)
            location = str(index)
            if args.screenshot:
                screenshot(index, Path(args.screenshot))
        except (ReportError, OSError, subprocess.SubprocessError) as exc:
            print(f"warning: HTML report not rendered: {exc}", file=sys.stderr)
    from ..results.summary import format_summary

    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    print(format_summary(summary, location))
    return 0 if summary.get("verdict") == "PASS" else 1
