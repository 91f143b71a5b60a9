"""What the judge and the tools tell a person beside the set-up errors of a run (a refused option, the
plain-pytest summary line, a missing build tool or renderer and its fix) is in the chosen language; the
machine-readable parts (verdict and outcome names) are the same in both."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from conformance import i18n
from conformance.session.plugin import executor_count, pytest_terminal_summary
from conformance.session.state import STATE, SUMMARY


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "--acl-executors takes a number or 'auto', not 'many'"),
    ("zh", "--acl-executors 的值应为数字或 'auto'，而不是 'many'"),
])
def test_a_refused_executor_count_is_said_in_the_chosen_language(lang, said):
    i18n.choose(lang)
    config = SimpleNamespace(option=SimpleNamespace(numprocesses=None, acl_executors="many"))
    with pytest.raises(pytest.UsageError) as refused:
        executor_count(config)  # type: ignore[arg-type]
    assert str(refused.value) == said


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "acl conformance: 3 pass, 1 fail; verdict FAIL ({path})"),
    ("zh", "acl conformance：3 pass, 1 fail；结论 FAIL（{path}）"),
])
def test_the_plain_pytest_summary_line_keeps_the_outcome_names(lang, said, tmp_path):
    i18n.choose(lang)
    stash = pytest.Stash()
    stash[SUMMARY] = {"totals": {"PASS": 3, "FAIL": 1, "ERROR": 0}, "verdict": "FAIL"}  # type: ignore[typeddict-item]
    stash[STATE] = SimpleNamespace(settings=SimpleNamespace(report_dir=tmp_path))  # type: ignore[assignment]
    lines: list[str] = []
    config = SimpleNamespace(stash=stash, option=SimpleNamespace())
    pytest_terminal_summary(SimpleNamespace(write_line=lines.append), 1, config)  # type: ignore[arg-type]
    assert lines == [said.format(path=tmp_path / "summary.json")]


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "build-sim: `make` is not installed (install make and a C compiler, e.g. gcc)\n"),
    ("zh", "build-sim: 未安装 `make`（请安装 make 和 C 编译器，例如 gcc）\n"),
])
def test_a_missing_build_tool_and_its_fix_in_the_chosen_language(lang, said, tmp_path, monkeypatch, capsys):
    from conformance.cli import main as cli_main

    monkeypatch.setattr("shutil.which", lambda _name: None)
    assert cli_main(["build-sim", "--out", str(tmp_path / "sim"), "--lang", lang]) == 1
    assert capsys.readouterr().err == said


@pytest.mark.parametrize(("lang", "said"), [("en", "Node.js is not installed"), ("zh", "未安装 Node.js")])
def test_a_missing_renderer_in_the_chosen_language(lang, said, tmp_path, monkeypatch):
    from conformance.results.html import ReportError, render_installed

    i18n.choose(lang)
    monkeypatch.setattr("shutil.which", lambda _name: None)
    with pytest.raises(ReportError, match=f"^{said}$"):
        render_installed(tmp_path / "allure-results", tmp_path)
