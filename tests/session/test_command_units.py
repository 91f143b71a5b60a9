"""Units of starting a run: the CLI's subcommands and the pytest command line of ``run``."""

from __future__ import annotations

import argparse

import pytest

from conformance import cli
from conformance.session import command as run_command


def test_cli_command_runs_one_judge_with_at_least_one_executor(tmp_path):
    parser, loaded = cli.build_parser(["run"])
    args, extra = parser.parse_known_args(["run", "-n", "0", "--acl-timeout", "2", "-k", "ALIGN"])
    command = run_command.pytest_command(args, extra, tmp_path)
    assert command[command.index("--acl-executors") + 1] == "1"
    # One judge: xdist's controller and workers are no layer of a run (the judge schedules its executors).
    assert command[command.index("no:xdist") - 1] == "-p" and "-n" not in command
    assert "--acl-timeout" in command and "-k" in command
    assert command[-1].endswith("acl_hostmem_generated/cases")
    assert isinstance(loaded["run"], cli.Subcommand)


def test_cli_registry_takes_plain_main(monkeypatch):
    calls = []
    module = argparse.Namespace(main=lambda argv: calls.append(argv) or 7)
    monkeypatch.setitem(cli.SUBCOMMANDS, "demo", "fake_module:main")
    monkeypatch.setattr(cli.importlib, "import_module", lambda name: module)
    assert cli.main(["demo", "--x", "1"]) == 7 and calls == [["--x", "1"]]


def test_cli_help(capsys):
    with pytest.raises(SystemExit):
        cli.main(["run", "--help"])
    assert "NOT_APPLICABLE" in capsys.readouterr().out

