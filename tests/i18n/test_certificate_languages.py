"""``certify --lang zh,en``: one certificate carrying both languages, sealed and verified as one."""

from __future__ import annotations

import json

from bundle_helpers import FAULTED_RULE, first_case, reseal, write_fake_bundle

from conformance import i18n
from conformance.certify.certificate import languages_in_html, languages_in_markdown
from conformance.certify.verify import verify


def _bilingual_bundle(tmp_path, summary):
    i18n.choose("zh", also=("en",))
    return write_fake_bundle(tmp_path, summary)


def test_a_bilingual_certificate_carries_zh_then_en_and_verifies(tmp_path, catalog, make_summary):
    bundle = _bilingual_bundle(tmp_path, make_summary({first_case(catalog, FAULTED_RULE): "FAIL"}))
    md = (bundle / "certificate.md").read_text(encoding="utf-8")
    page = (bundle / "certificate.html").read_text(encoding="utf-8")
    assert languages_in_markdown(md) == ("zh", "en") == languages_in_html(page)
    zh, en = md.index("# ACL Host内存一致性认证证书"), md.index("# ACL host-memory conformance certificate")
    assert zh < en
    assert "## 结论：**NOT CERTIFIED**" in md and "## Verdict: **NOT CERTIFIED**" in md
    assert "原因：1 条强制规则失败" in md and "Why: 1 mandatory rule(s) failed" in md
    assert '<section lang="zh">' in page and '<section lang="en">' in page
    assert page.count('<p class="verdict bad">NOT CERTIFIED</p>') == 2
    assert verify(bundle) == []
    manifest = json.loads((bundle / "manifest.json").read_text(encoding="utf-8"))
    assert {"certificate.md", "certificate.html"} <= set(manifest["files"])  # the seal covers both languages


def test_a_changed_chinese_verdict_does_not_verify(tmp_path, catalog, make_summary):
    bundle = _bilingual_bundle(tmp_path, make_summary({first_case(catalog, FAULTED_RULE): "FAIL"}))
    md = bundle / "certificate.md"
    md.write_text(md.read_text(encoding="utf-8").replace("## 结论：**NOT CERTIFIED**", "## 结论：**CERTIFIED**"),
                  encoding="utf-8")
    reseal(bundle)  # a forger's checksums: only the recomputed verdict can catch it
    problems = verify(bundle)  # in the process's language, zh here
    assert any(p.startswith("certificate.md：显示的结论（") for p in problems), problems


def test_a_dropped_language_part_does_not_verify(tmp_path, catalog, make_summary):
    """The marker names two languages: a certificate that shows the verdict in one only is caught."""
    bundle = _bilingual_bundle(tmp_path, make_summary())
    md = bundle / "certificate.md"
    text = md.read_text(encoding="utf-8")
    md.write_text(text[:text.index("\n---\n")] + "\n", encoding="utf-8")
    reseal(bundle)
    assert any(p.startswith("certificate.md：") for p in verify(bundle))


def test_a_chinese_only_certificate_verifies(tmp_path, make_summary):
    i18n.choose("zh")
    bundle = write_fake_bundle(tmp_path, make_summary())
    md = (bundle / "certificate.md").read_text(encoding="utf-8")
    assert "<!-- acl-languages: zh -->" in md and "## 结论：**CERTIFIED**" in md
    assert "Verdict" not in md
    assert verify(bundle) == []


def test_english_alone_has_no_language_marker(tmp_path, make_summary):
    """An English certificate is what it was before languages (older bundles verify as they did)."""
    bundle = write_fake_bundle(tmp_path, make_summary())
    md = (bundle / "certificate.md").read_text(encoding="utf-8")
    assert "acl-languages" not in md and '<html lang="en">' in (bundle / "certificate.html").read_text()
    assert verify(bundle) == []
