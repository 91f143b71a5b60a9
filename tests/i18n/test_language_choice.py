"""--lang, ACL_LANG and the locale: one language per process, chosen once; a bad value is one line and exit 2."""

from __future__ import annotations

import os
import subprocess

import pytest
from bundle_helpers import FAULTED_RULE, first_case, write_fake_bundle
from kit_runs import KIT

from conformance import i18n
from conformance.cli import choose_language
from conformance.cli import main as cli_main
from conformance.results.summary import format_summary, summary_problem
from conformance.results.terminal import PercentProgress, percent_of
from conformance.results.vocabulary import EXIT_BAD_COMMAND_LINE
from conformance.session.preflight import SetupError, check_product


@pytest.mark.parametrize(("option", "env", "expected"), [
    ("zh", {"ACL_LANG": "en", "LANG": "en_US.UTF-8"}, ("zh",)),
    (None, {"ACL_LANG": "zh", "LANG": "en_US.UTF-8"}, ("zh",)),
    (None, {"LANG": "zh_CN.UTF-8"}, ("zh",)),
    (None, {"LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"}, ("en",)),
    (None, {"LC_MESSAGES": "zh_TW.UTF-8", "LANG": "C"}, ("zh",)),
    (None, {"LANG": "C.UTF-8"}, ("en",)),
    (None, {}, ("en",)),
])
def test_the_option_wins_over_its_environment_twin_which_wins_over_the_locale(option, env, expected):
    assert i18n.resolve(option, env) == expected


@pytest.mark.parametrize(("argv", "env", "said"), [
    (["--lang", "fr", "verify", "x"], {}, "--lang fr: fr is not a language of the kit (choose from en, zh)"),
    (["gate", "--lang=zh,en", "a", "b"], {}, "--lang zh,en: this command writes one language"),
    (["lint"], {"ACL_LANG": "klingon"}, "ACL_LANG=klingon: klingon is not a language of the kit"),
    (["verify", "x", "--lang"], {}, "--lang: give one of en, zh"),
])
def test_a_bad_language_is_one_line_and_exit_2(argv, env, said, capsys, monkeypatch):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert cli_main(argv) == EXIT_BAD_COMMAND_LINE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err, err


def test_certify_takes_two_languages_and_passes_the_first_on(monkeypatch):
    rest = choose_language(["certify", "--acl-lib", "x", "--lang", "zh,en", "--", "--lang", "pytest's"])
    assert rest == ["certify", "--acl-lib", "x", "--", "--lang", "pytest's"]  # after --, arguments are pytest's
    assert i18n.languages() == ("zh", "en") and i18n.current() == "zh"
    assert os.environ[i18n.ENV] == "zh"  # the run certify starts, and its judge, speak the first


def test_verify_answers_in_the_chosen_language(tmp_path, make_summary, capsys):
    bundle = write_fake_bundle(tmp_path, make_summary())
    assert cli_main(["verify", str(bundle), "--lang", "zh"]) == 0
    assert capsys.readouterr().out.strip() == f"{bundle}：校验通过（未签名）"


def test_the_console_summary_in_chinese(catalog, make_summary):
    summary = make_summary({first_case(catalog, FAULTED_RULE): "FAIL"})
    english = format_summary(summary)
    i18n.choose("zh")
    chinese = format_summary(summary)
    assert "verdict: FAIL" in english and "root causes (each failing rule once" in english
    assert "结论：FAIL" in chinese and "根因（每条失败规则只列一次" in chinese
    assert f"{FAULTED_RULE} (mandatory): 1 个用例失败" in chinese
    assert "已判定的强制用例：" in chinese and "规则族" in chinese


def test_certify_reads_the_progress_of_a_chinese_run():
    i18n.choose("zh")
    line = PercentProgress("run", 10).line(3)
    assert line is not None and line.startswith("run：已运行  30% 的用例（已用 ")
    assert percent_of(line) == 30


def test_a_set_up_error_and_its_fix_in_chinese(catalog):
    i18n.choose("zh")
    with pytest.raises(SetupError) as raised:
        check_product("atlas_nine", catalog)
    text = raised.value.render()
    assert text.startswith("acl-conformance：配置错误：--acl-product atlas_nine 不是规范中的产品系列。")
    assert "有效的 ID：" in text


def test_summary_json_records_its_language_and_readers_accept_either(catalog, make_summary):
    from conformance.results.summary import build_summary

    i18n.choose("zh")
    written = build_summary(catalog, {}, environment={}, command=["run"])
    assert written["language"] == "zh"
    assert summary_problem(dict(make_summary(), language="zh")) is None
    assert summary_problem(dict(make_summary(), language="en")) is None
    assert "'language'" in str(summary_problem(dict(make_summary(), language="fr")))


def test_a_run_started_under_a_chinese_locale_reports_its_set_up_error_in_chinese(tmp_path):
    """The language reaches the judge process through the environment (no option on its command line)."""
    env = {k: v for k, v in os.environ.items() if k not in (i18n.ENV, "LC_ALL", "LC_MESSAGES")}
    env["LANG"] = "zh_CN.UTF-8"
    result = subprocess.run([*KIT, "run", "--acl-product", "atlas_nine",
                             "--acl-report-dir", str(tmp_path / "reports"), "-n", "1"],
                            env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 14, result.stderr[-2000:]
    assert "acl-conformance：配置错误：--acl-product atlas_nine 不是规范中的产品系列。" in result.stdout + result.stderr


def test_explain_in_chinese_keeps_the_case_data_as_it_is(tmp_path, catalog, make_summary):
    from conformance.results.explain import explain_lines

    case = first_case(catalog, FAULTED_RULE)
    summary = make_summary({case: {"outcome": "FAIL", "message": "second aclrtHostUnregister succeeded"}})
    i18n.choose("zh")
    lines = explain_lines(tmp_path, summary, case)
    assert lines[1].startswith(f"规则：    {FAULTED_RULE}（mandatory，配对与生命周期）：")
    assert "消息：" in lines and "  second aclrtHostUnregister succeeded" in lines  # the case's words: untouched


def test_a_misspelt_option_is_said_in_chinese(capsys, monkeypatch):
    monkeypatch.setenv(i18n.ENV, "zh")
    assert cli_main(["run", "--acl-lbi", "x"]) == EXIT_BAD_COMMAND_LINE
    assert capsys.readouterr().err.strip() == ("acl-conformance run：未知选项 --acl-lbi（是否指 --acl-lib？）；"
                                               "`acl-conformance run --help` 列出了全部选项")


def test_an_option_mistake_and_an_unknown_release_in_chinese(catalog):
    from conformance.harness.options import OptionError, seconds
    from conformance.harness.release import ReleaseError, judge_release

    i18n.choose("zh")
    with pytest.raises(OptionError, match="^--acl-timeout 'abc'：不是秒数$"):
        seconds("--acl-timeout", "abc", 1.0)
    with pytest.raises(ReleaseError, match="^--acl-cann-release '7.0.0' 不是规范已知的版本"):
        judge_release(catalog, None, "7.0.0", None)


def test_the_probes_answer_is_worded_by_the_judge_from_its_own_table():
    from conformance.session.preflight import probe_message

    i18n.choose("zh")
    answer = {"message": "English", "message_id": "missing_symbols", "values": {"lib": "/x.so", "symbols": "aclInit"}}
    assert probe_message(answer) == ("/x.so 缺少测试框架需要的 ACL 接口：aclInit。\n"
                                     "修复：使用完整 CANN 安装中的 libascendcl.so。")
    # What the library's process sent fills a field as text; it never formats anything.
    hostile = dict(answer, values={"lib": "{hint.__class__}", "symbols": "{0}"})
    assert probe_message(hostile).startswith("{hint.__class__} 缺少测试框架需要的 ACL 接口：{0}。")
    for forged in ({"message_id": "__class__", "values": {}}, {"message_id": "missing_symbols", "values": {"lib": 1}},
                   {"message_id": "missing_symbols", "values": {"lib": "x"}}):  # unknown name, not text, a field short
        assert probe_message(dict(forged, message="English")) == "English"


def test_a_library_that_is_no_acl_library_in_chinese(tmp_path):
    not_acl = next(p for p in ("/lib/x86_64-linux-gnu/libz.so.1", "/usr/lib/x86_64-linux-gnu/libz.so.1",
                               "/lib/x86_64-linux-gnu/libc.so.6") if os.path.exists(p))
    env = {k: v for k, v in os.environ.items() if k != i18n.ENV}
    result = subprocess.run([*KIT, "run", "--lang", "zh", "--acl-lib", not_acl,
                             "--acl-report-dir", str(tmp_path / "reports"), "-n", "1"],
                            env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 11, result.stderr[-2000:]
    said = result.stdout + result.stderr
    assert "acl-conformance：配置错误：" in said and " 不是 ACL Runtime 库（未导出 aclInit, " in said, said
