"""The rendered report, opened in headless Chromium with no network: verdict first, a failure's ACL call trace."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import zlib

import pytest
from kit_runs import KIT, LIB, child_env

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
    subprocess.run([*KIT, "run", "-n", "2", "--acl-lib", str(LIB),
                    "--acl-report-dir", str(report), "-m", "pairing"], cwd=tmp_path,
                   env=child_env(ACLSIM_FAULTS="double_unregister_ok"), capture_output=True, check=False)
    index = report / "allure-report" / "index.html"
    assert index.is_file()

    allure = report / "allure-report" / "allure.html"
    summary = json.loads((report / "summary.json").read_text())
    landing = visible_text(dump_dom(index))
    assert "PARTIAL" in landing and "HM-PAIR-DOUBLE-UNREGISTER[api=v1]" in landing  # the kit's first screen
    first = visible_text(dump_dom(allure))
    counts = ", ".join(f"{n} {k}" for k, n in summary["totals"].items() if n)
    assert f"verdict PARTIAL ({counts})" in first  # the title of Allure's page
    assert "aclrtHostUnregister" in first and "HM-PAIR-DOUBLE-UNREGISTER[api=v1]" in first  # filed by interface

    results = json.loads((report / "allure-report" / "test-results.json").read_text())["byId"]
    failed = next(key for key, r in results.items() if r["name"] == "HM-PAIR-DOUBLE-UNREGISTER[api=v1]")
    assert f'href="allure.html#{failed}"' in index.read_text()  # the landing page links to the case
    page = visible_text(dump_dom(allure, failed))
    assert "second aclrtHostUnregister succeeded but must fail" in page
    assert re.search(r"aclrtHostUnregister\(ptr=0x[0-9a-f]+\) -> 0 ACL_SUCCESS", page), page[:3000]
    assert "pytest.param" not in page and "def test_HM_" not in page  # no pytest frame or parametrize dump


def test_report_renders_a_run_later_and_leaves_a_bundle_untouched(sim_built, tmp_path):
    if shutil.which("node") is None or installed_cli() is None:
        pytest.fail("the Allure renderer is not installed: run `make node` (Node.js >= 20)")
    report = tmp_path / "r"
    subprocess.run([*KIT, "run", "--no-html", "-n", "1", "--acl-lib", str(LIB),
                    "--acl-report-dir", str(report), "--acl-rule", "HM-CAP-*"], cwd=tmp_path, env=child_env(),
                   capture_output=True, check=False)
    assert not (report / "allure-report").exists()
    (report / "SHA256SUMS").write_text("")  # looks like a bundle: its files must not change
    done = subprocess.run([*KIT, "report", str(report)], cwd=tmp_path,
                          env=child_env(), capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "r-html" / "allure-report" / "index.html").is_file() and not (report / "allure-report").exists()


def _png_rgb(path) -> tuple[int, int, list[bytes]]:
    """Width, height and the RGB rows of an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium writes)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks, header = 8, [], b""
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        header = body if kind == b"IHDR" else header
        if kind == b"IDAT":
            chunks.append(body)
        pos += 12 + length
    width, height = int.from_bytes(header[0:4], "big"), int.from_bytes(header[4:8], "big")
    assert header[8] == 8 and header[9] in (2, 6) and header[12] == 0, "8-bit RGB(A), not interlaced"
    channels = 3 if header[9] == 2 else 4
    raw, stride, rows, previous = zlib.decompress(b"".join(chunks)), width * channels, [], bytearray(width * channels)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b, c = previous[x], previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        previous = line
        rows.append(bytes(v for i, v in enumerate(line) if channels == 3 or i % 4 != 3))
    return width, height, rows


def _pixels(rows: list[bytes], colour: tuple[int, int, int], top: int, bottom: int) -> int:
    """How many pixels of ``colour`` rows ``top`` to ``bottom`` hold."""
    wanted = bytes(colour)
    return sum(sum(1 for x in range(0, len(row), 3) if row[x:x + 3] == wanted) for row in rows[top:bottom])


def test_a_failing_runs_first_screen_shows_the_verdict_counts_and_root_causes(sim_built, tmp_path):
    """At 1400x1000, the report opens on the verdict in the kit's words, not on Allure's first failed case."""
    if shutil.which("node") is None or installed_cli() is None:
        pytest.fail("the Allure renderer is not installed: run `make node` (Node.js >= 20)")
    if find_chromium() is None:
        pytest.fail("chromium is not installed: apt-get install -y chromium (.ci/run does)")
    report, png = tmp_path / "r", tmp_path / "first.png"
    done = subprocess.run([*KIT, "run", "-n", "2", "--acl-lib", str(LIB),
                           "--acl-report-dir", str(report), "--screenshot", str(png)], cwd=tmp_path,
                          env=child_env(ACLSIM_FAULTS="unregister_fails"), capture_output=True, text=True, check=False)
    summary = json.loads((report / "summary.json").read_text())
    assert done.returncode == 1 and summary["verdict"] == "FAIL", done.stdout[-2000:] + done.stderr[-2000:]
    index = report / "allure-report" / "index.html"
    assert f"report:  {index}" in done.stdout  # what run points the user at

    width, height, rows = _png_rgb(png)
    assert (width, height) == (1400, 1000)
    assert _pixels(rows, (198, 40, 40), 0, 200) > 20000  # the red FAIL banner, at the top
    assert _pixels(rows, (176, 74, 0), 0, 300) > 50  # the BLOCKED count, in its own colour
    assert _pixels(rows, (26, 127, 55), 0, 300) > 50  # the PASS count
    assert _pixels(rows, (11, 87, 208), 0, 500) > 2000  # the way into Allure's page, above the fold

    text = visible_text(dump_dom(index))
    head = text[:text.index("Cases that did not pass")]  # what comes before the list of cases
    assert head.index("FAIL") < head.index("Root causes")
    for outcome, count in summary["totals"].items():
        if count:
            assert f"{count} {outcome}" in head  # the kit's outcomes: BLOCKED and NOT_APPLICABLE, not Broken, Skipped
    for cause in summary["root_causes"]:
        assert cause["rule"] in head and "mandatory" in head
    assert "Broken" not in head and "Skipped" not in head and "Critical" not in head and "%" not in head


def test_the_first_screen_renders_any_verdict_the_summary_carries(make_summary):
    from conformance.results.landing import landing_html, verdict_class

    summary = make_summary()
    summary["verdict"] = "INTERRUPTED"
    page = landing_html(summary)
    assert '<div id="verdict" class="verdict v-other"><span class="word">INTERRUPTED</span>' in page
    summary["verdict"] = "SOMETHING NEW"
    assert '<span class="word">SOMETHING NEW</span>' in landing_html(summary)
    assert [verdict_class(v) for v in ("PASS", "FAIL", "PARTIAL", "INCONCLUSIVE")] == ["kept", "broken", "partial",
                                                                                      "other"]
    summary["environment"]["soc"] = "<script>alert(1)</script>\u202e"
    page = landing_html(summary)
    assert "<script>" not in page and "&lt;script&gt;" in page and "\u202e" not in page
