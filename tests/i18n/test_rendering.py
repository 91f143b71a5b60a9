"""The Chinese pages in headless Chromium with the CJK font installed (.ci/run installs fonts-noto-cjk):
a screenshot each, every Chinese character drawn by a font that has it, and the page text.

A character no installed font covers is drawn as the same "missing glyph" box as a code point no
font has (U+10FFFD); the probe draws each Chinese character of the page in the page's own font
stack on a canvas and compares it with that box. Fonts are looked up by Chromium through
fontconfig, as a reader's browser does; the check fails on a machine without a CJK font.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from bundle_helpers import FAULTED_RULE, first_case, write_fake_bundle

from conformance import i18n
from conformance.results.html import dump_dom, find_chromium, screenshot
from conformance.results.landing import landing_html

#: Draws every CJK character of the page, and two code points no font has, against the missing-glyph box.
GLYPH_PROBE = r"""
<pre id="glyph-probe"></pre>
<script>
(function () {
  var text = document.body.innerText, seen = {}, chars = [];
  for (var ch of text) { var c = ch.codePointAt(0);
    if (((c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xFF00 && c <= 0xFFEF)) && !seen[ch]) { seen[ch] = 1; chars.push(ch); } }
  var family = getComputedStyle(document.body).fontFamily;
  var canvas = document.createElement('canvas'); canvas.width = 48; canvas.height = 48;
  var ctx = canvas.getContext('2d', {willReadFrequently: true});
  function draw(ch) { ctx.clearRect(0, 0, 48, 48); ctx.font = '32px ' + family; ctx.fillStyle = '#000';
    ctx.fillText(ch, 4, 36); return Array.prototype.join.call(ctx.getImageData(0, 0, 48, 48).data, ''); }
  var box = draw(String.fromCodePoint(0x10FFFD));
  var missing = chars.filter(function (ch) { return draw(ch) === box; });
  var control = [String.fromCodePoint(0x10FFFC)].filter(function (ch) { return draw(ch) === box; });
  document.getElementById('glyph-probe').textContent = JSON.stringify(
    {family: family, chars: chars.length, missing: missing, control_missing: control.length});
})();
</script>
"""


def _visible(dom: str) -> str:
    dom = re.sub(r"<(script|style)\b.*?</\1>", " ", dom, flags=re.S | re.I)
    return " ".join(re.sub(r"<[^>]+>", " ", dom).split())


def _probe(page: Path, tmp_path: Path) -> dict[str, object]:
    text = page.read_text(encoding="utf-8")
    text = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", text)  # the probe's copy runs a script
    probe = tmp_path / f"probe-{page.name}"
    probe.write_text(text.replace("</body>", GLYPH_PROBE + "</body>"), encoding="utf-8")
    found = re.search(r'<pre id="glyph-probe">(.*?)</pre>', dump_dom(probe, wait_ms=2000), re.S)
    assert found and found.group(1), "the glyph probe did not run"
    result: dict[str, object] = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    return result


@pytest.fixture
def chinese_pages(tmp_path, catalog, make_summary) -> dict[str, Path]:
    if find_chromium() is None:
        pytest.fail("chromium is not installed: apt-get install -y chromium (.ci/run does)")
    summary = make_summary({first_case(catalog, FAULTED_RULE): "FAIL"})
    i18n.choose("zh")
    landing = tmp_path / "index.html"
    landing.write_text(landing_html(summary, {}), encoding="utf-8")
    i18n.choose("zh", also=("en",))
    bundle = write_fake_bundle(tmp_path / "b", summary)
    return {"landing": landing, "certificate": bundle / "certificate.html"}


@pytest.mark.parametrize(("page", "words"), [
    ("landing", ["ACL Host内存一致性测试", "有强制规则失败", "根因", "未通过的用例（1）",
                 "在 Allure 报告中查看全部用例"]),
    ("certificate", ["ACL Host内存一致性认证证书", "原因：1 条强制规则失败", "判定依据", "规则族", "配对与生命周期",
                     "ACL host-memory conformance certificate"]),
])
def test_a_chinese_page_draws_every_character_and_says_its_words(chinese_pages, tmp_path, page, words):
    path = chinese_pages[page]
    png = screenshot(path, tmp_path / f"{page}-zh.png", size=(1200, 900), wait_ms=1000)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 20_000  # a page, not a blank
    text = _visible(dump_dom(path, wait_ms=1000))
    for word in words:
        assert word in text, word
    probe = _probe(path, tmp_path)
    assert probe["control_missing"] == 1, probe  # the probe tells a missing glyph (it can fail)
    assert int(str(probe["chars"])) > 40, probe
    assert probe["missing"] == [], f"characters without a glyph (install fonts-noto-cjk): {probe}"
    assert "Noto Sans CJK SC" in str(probe["family"])
