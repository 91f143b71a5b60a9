"""The HTML report in Chinese: the kit's landing page and what allurerc.mjs reads to set Allure's language."""

from __future__ import annotations

import json
from pathlib import Path

from bundle_helpers import FAULTED_RULE, first_case

from conformance import i18n
from conformance.i18n.spec_text import product_family_name, rule_family_name, rule_title
from conformance.results.html import allure_language_environment, report_name, spec_names
from conformance.results.landing import landing_html
from conformance.results.outcomes import CATEGORY_TITLES

ROOT = Path(__file__).resolve().parents[2]


def test_the_landing_page_in_chinese(catalog, make_summary):
    summary = make_summary({first_case(catalog, FAULTED_RULE): "FAIL"})
    i18n.choose("zh")
    page = landing_html(summary, {}, {FAULTED_RULE: "两次取消注册时报告该内存未注册"},
                        {"atlas_a2": "Atlas A2 训练系列产品"})
    assert '<html lang="zh">' in page and "Noto Sans CJK SC" in page
    for words in ("有强制规则失败", "根因", "产品系列 Atlas A2 训练系列产品 (atlas_a2)", "规则承诺的行为",
                  "两次取消注册时报告该内存未注册", "未通过的用例（1）", "在 Allure 报告中查看全部用例",
                  "本套件的用语在 Allure 页面中的对应"):
        assert words in page, words
    assert '<span class="word">FAIL</span>' in page  # the verdict word stays the one verify and CI read


def test_the_spec_texts_fall_back_to_english_where_the_spec_has_no_chinese():
    rule = {"id": "HM-X", "title": "Unregistering twice fails", "title_zh": "两次取消注册失败"}
    assert rule_title(rule, "zh") == "两次取消注册失败" and rule_title(rule, "en") == "Unregistering twice fails"
    assert rule_title(dict(rule, title_zh=" "), "zh") == "Unregistering twice fails"
    family = {"id": "atlas_a2", "name": "Atlas A2 training/inference series"}
    assert product_family_name(family, "zh") == "Atlas A2 training/inference series"
    assert product_family_name(dict(family, name_zh="Atlas A2 训练系列产品"), "zh") == "Atlas A2 训练系列产品"
    assert rule_family_name("pairing", "zh") == "配对与生命周期" and rule_family_name("pairing", "en") == "pairing"
    assert rule_family_name("a_family_of_tomorrow", "zh") == "a_family_of_tomorrow"
    titles, families = spec_names("zh")
    assert titles and all(titles.values()) and families.get("atlas_a2")
    assert spec_names("en") == ({}, {})  # English pages keep the summary's words, as before


def test_allure_speaks_the_chosen_language():
    i18n.choose("zh")
    env = allure_language_environment()
    assert env["ACL_ALLURE_LANGUAGE"] == "zh"
    names = json.loads(env["ACL_ALLURE_CATEGORY_NAMES"])
    assert names["Blocked by another rule"] == "被其他规则阻塞" and set(names) == set(CATEGORY_TITLES.values())
    assert report_name({"verdict": "PASS", "totals": {"PASS": 3}}) == "ACL Host内存一致性测试：结论 PASS（3 PASS）"


def test_allurerc_takes_its_language_and_category_names_from_the_environment():
    config = (ROOT / "allure" / "allurerc.mjs").read_text(encoding="utf-8")
    assert 'reportLanguage: "en"' not in config
    assert "process.env.ACL_ALLURE_LANGUAGE" in config and "process.env.ACL_ALLURE_CATEGORY_NAMES" in config
    assert "].map(named)" in config
    # Allure 3 ships a Chinese interface: the language the kit passes is one it knows.
    locales = (ROOT / "allure" / "node_modules" / "@allurereport" / "web-commons" / "dist" / "i18n.js")
    if locales.is_file():
        assert '"zh",' in locales.read_text(encoding="utf-8")
