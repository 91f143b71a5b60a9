"""The HTML report: Allure 3 renders the results offline, with no outside script."""

from __future__ import annotations

import shutil

import pytest
from kit_runs import run_fake

from conformance.results.html import external_scripts, find_chromium, render, screenshot


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_render_offline_report(sim_built, fake_suite, tmp_path):
    report = tmp_path / "r"
    run = run_fake(fake_suite, report, "-n", "1")
    assert run.returncode == 0, run.output
    index = render(report / "allure-results", report)
    html = index.read_text(encoding="utf-8")
    assert external_scripts(html) == []
    assert "googletagmanager" not in html and "ACL host-memory conformance" in html
    assert (report / "history.jsonl").is_file()
    if find_chromium() is None:
        return
    png = screenshot(index, tmp_path / "report.png", timeout=180)
    assert png.stat().st_size > 10_000
