"""The rendered report, opened in headless Chromium with no network: verdict first, a failure's ACL call trace."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

import pytest
from conftest import LIB, child_env

from conformance.results.html import dump_dom, find_chromium, installed_cli


def visible_text(dom: str) -> str:
    dom = re.sub(r"<(script|style)\b.*?</\1>", " ", dom, flags=re.S | re.I)
    return " ".join(re.sub(r"<[^>]+>", " ", dom).replace("&gt;", ">").replace("&amp;", "&").split())


def test_report_shows_the_verdict_and_a_failing_cases_call_trace(sim_built, tmp_path):
    if shutil.which("node") is None or installed_cli() is None:
        pytest.fail("the Allure renderer is not installed: run `make node` (Node.js >= 20)")
    if find_chromium() is None:
        pytest.fail("chromium is not installed: apt-get install -y chromium (.ci/run does)")
    report = tmp_path / "r"
    subprocess.run([sys.executable, "-m", "conformance", "run", "-n", "2", "--acl-lib", str(LIB),
                    "--acl-report-dir", str(report), "-m", "pairing"], cwd=tmp_path,
                   env=child_env(ACLSIM_FAULTS="double_unregister_ok"), capture_output=True, check=False)
    index = report / "allure-report" / "index.html"
    assert index.is_file()

    first = visible_text(dump_dom(index))
    summary = json.loads((report / "summary.json").read_text())
    counts = ", ".join(f"{n} {k}" for k, n in summary["totals"].items() if n)
    assert f"verdict PARTIAL ({counts})" in first  # the title of the first screen
    assert "aclrtHostUnregister" in first and "HM-PAIR-DOUBLE-UNREGISTER[api=v1]" in first  # filed by interface

    results = json.loads((report / "allure-report" / "test-results.json").read_text())["byId"]
    failed = next(key for key, r in results.items() if r["name"] == "HM-PAIR-DOUBLE-UNREGISTER[api=v1]")
    page = visible_text(dump_dom(index, failed))
    assert "second aclrtHostUnregister succeeded but must fail" in page
    assert re.search(r"aclrtHostUnregister\(ptr=0x[0-9a-f]+\) -> 0 ACL_SUCCESS", page), page[:3000]
    assert "pytest.param" not in page and "def test_HM_" not in page  # no pytest frame or parametrize dump


def test_report_renders_a_run_later_and_leaves_a_bundle_untouched(sim_built, tmp_path):
    if shutil.which("node") is None or installed_cli() is None:
        pytest.fail("the Allure renderer is not installed: run `make node` (Node.js >= 20)")
    report = tmp_path / "r"
    subprocess.run([sys.executable, "-m", "conformance", "run", "--no-html", "-n", "1", "--acl-lib", str(LIB),
                    "--acl-report-dir", str(report), "--acl-rule", "HM-CAP-*"], cwd=tmp_path, env=child_env(),
                   capture_output=True, check=False)
    assert not (report / "allure-report").exists()
    (report / "SHA256SUMS").write_text("")  # looks like a bundle: its files must not change
    done = subprocess.run([sys.executable, "-m", "conformance", "report", str(report)], cwd=tmp_path,
                          env=child_env(), capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "r-html" / "allure-report" / "index.html").is_file() and not (report / "allure-report").exists()
