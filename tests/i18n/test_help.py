"""``--help`` and a mistaken command line speak the chosen language: under ``--lang zh`` every text a parser
shows (description, epilog, each option's help, argparse's own words and errors) is Chinese; under
``--lang en`` nothing is, and the words are argparse's own."""

from __future__ import annotations

import argparse
import re

import pytest

from conformance.cli import main as cli_main
from conformance.i18n.helptext import columns, wrap

CJK = re.compile(r"[\u4e00-\u9fff]")
# codegen's commands (generate, check, lint, sim-faults) are developer tools, and stay English.
COMMANDS = ["run", "certify", "verify", "gate", "merge", "explain", "report", "build-sim", "selftest"]


def _help(argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
          ) -> tuple[str, argparse.ArgumentParser]:
    """What ``acl-conformance ARGV --help`` prints, and the parser that printed it."""
    shown: list[argparse.ArgumentParser] = []
    format_help = argparse.ArgumentParser.format_help

    def recording(parser: argparse.ArgumentParser) -> str:
        shown.append(parser)
        return format_help(parser)

    monkeypatch.setattr(argparse.ArgumentParser, "format_help", recording)
    with pytest.raises(SystemExit) as done:
        cli_main([*argv, "--help"])
    assert done.value.code == 0
    assert len(shown) == 1
    return capsys.readouterr().out, shown[0]


def _texts(parser: argparse.ArgumentParser) -> list[str]:
    """Every text of ``parser`` that a person reads in its --help, with what it belongs to (-h's help is
    argparse's own, translated as it is shown: the output is checked for it)."""
    texts = [("description", parser.description), ("epilog", parser.epilog)]
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        texts.append((action.dest, action.help))
        if isinstance(action, argparse._SubParsersAction):
            texts += [(choice.dest, choice.help) for choice in action._choices_actions]
    return [f"{where}: {text}" for where, text in texts if text and text != argparse.SUPPRESS]


@pytest.mark.parametrize("command", [[], *([name] for name in COMMANDS)], ids=lambda argv: " ".join(argv) or "top")
def test_help_under_zh_is_chinese_text_for_text(command, monkeypatch, capsys):
    out, parser = _help([*command, "--lang", "zh"], monkeypatch, capsys)
    english = [text for text in _texts(parser) if not CJK.search(text)]
    assert not english, "texts of --help left in English:\n" + "\n".join(english)
    assert out.startswith("用法：") and "选项" in out and "显示此帮助信息并退出" in out
    assert "usage:" not in out and "show this help message" not in out


@pytest.mark.parametrize("command", [[], *([name] for name in COMMANDS)], ids=lambda argv: " ".join(argv) or "top")
def test_help_under_en_has_no_chinese(command, monkeypatch, capsys):
    out, parser = _help([*command, "--lang", "en"], monkeypatch, capsys)
    assert not CJK.search(out), out
    assert out.startswith("usage: ") and "\noptions:\n" in out and "show this help message and exit" in out


def test_run_help_fills_its_tables_in_the_chosen_language(monkeypatch, capsys):
    """The exit statuses, set-up problems and option defaults are filled in after translation."""
    out, _parser = _help(["run", "--lang", "zh"], monkeypatch, capsys)
    assert "退出状态：" in out and "配置错误：未找到 ACL 库" in out and "（默认 1800）" in out
    assert "ascend_950" in out  # the spec's product IDs stay as the spec writes them


def test_chinese_help_is_wrapped_by_terminal_columns(monkeypatch, capsys):
    """A Chinese character takes two columns: argparse, which counts characters, would run past the terminal."""
    monkeypatch.setenv("COLUMNS", "80")
    out, _parser = _help(["verify", "--lang", "zh"], monkeypatch, capsys)
    assert max(columns(line) for line in out.splitlines()) <= 80 + 2  # + a closing punctuation mark


@pytest.mark.parametrize("width", [10, 24, 40])
def test_wrap_breaks_between_wide_characters_and_at_spaces_only(width):
    text = "要求带有此 Ed25519 公钥（PEM）的有效签名。签名把认证包与签名者绑定；它无法证明签名者如实运行了测试套件"
    lines = wrap(text, width)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert all(columns(line) <= width + 2 for line in lines)
    assert not any(line[0] in "，。；）" for line in lines)
    assert "Ed25519" in " ".join(lines).split()  # a word is never broken


@pytest.mark.parametrize(("argv", "en", "zh"), [
    (["verify"], "acl-conformance verify: error: the following arguments are required: bundle",
     "acl-conformance verify：错误：缺少以下必需的参数：bundle"),
    (["report", "x", "--history-limit", "many"],
     "acl-conformance report: error: argument --history-limit: invalid int value: 'many'",
     "acl-conformance report：错误：参数 --history-limit：无效的 int 值：'many'"),
    (["gate", "a", "b", "--bogus"], "acl-conformance gate: error: unrecognized arguments: --bogus",
     "acl-conformance gate：错误：无法识别的参数：--bogus"),
    (["verify", "x", "--trust"], "acl-conformance verify: error: argument --trust: expected one argument",
     "acl-conformance verify：错误：参数 --trust：需要一个参数值"),
])
def test_a_mistaken_command_line_is_said_in_the_chosen_language(argv, en, zh, capsys):
    for lang, said in (("en", en), ("zh", zh)):
        with pytest.raises(SystemExit) as done:
            cli_main([*argv, "--lang", lang])
        assert done.value.code == 2
        lines = capsys.readouterr().err.splitlines()
        assert lines[-1] == said
        assert lines[0].startswith("usage: " if lang == "en" else "用法：")


def test_an_unknown_error_of_argparse_passes_through_unchanged():
    from conformance import i18n
    from conformance.i18n.helptext import argparse_error

    i18n.choose("zh")
    assert argparse_error("something argparse may say one day") == "something argparse may say one day"
