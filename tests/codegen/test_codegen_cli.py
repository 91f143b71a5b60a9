"""The command line: exit codes, issue format, writing nothing on failure, help, determinism, drift."""

from __future__ import annotations

import os
import shutil
import stat
import time
from pathlib import Path

import pytest
from specedit import ROOT, append, edit, line_of, run_cli, run_main, tree_digest

import codegen.render
import codegen.writer

SUBCOMMANDS = ["generate", "check", "lint", "sim-faults"]


def _break_spec(spec_dir: Path) -> list[str]:
    """Two independent mistakes; returns the `file:line: path` prefixes the CLI must print."""
    edit(
        spec_dir,
        "rules.yaml",
        "    check: alloc_alignment\n    severity: mandatory\n    needs: [HM-PAIR-MALLOC-FREE]\n"
        "    interfaces: [aclrtMallocHost, aclrtFreeHost]\n",
        "    check: alloc_alignment\n    severity: mandatry\n    needs: [HM-PAIR-MALLOC-FREE]\n"
        "    interfaces: [aclrtMallocHost, aclrtFreeHost]\n",
    )
    edit(spec_dir, "faults.yaml", "violates: [HM-ALIGN-MALLOC-CFG]", "violates: [HM-NO-SUCH-RULE]")
    line = line_of(spec_dir, "rules.yaml", "mandatry")
    return [f"error: spec/rules.yaml:{line}: rules[0].severity: 'mandatry' is not one of"]


def _existing_tree(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    out = tmp_path / "out"
    codegen.writer.write_tree(out, {"keep.txt": "old tree\n", "sub/x.py": "x = 1\n"})
    return out, tree_digest(out)


@pytest.mark.parametrize("command", ["lint", "generate", "check"])
def test_invalid_spec_exits_2_and_writes_nothing(spec_dir: Path, tmp_path: Path, command: str) -> None:
    expected = _break_spec(spec_dir)
    out, before = _existing_tree(tmp_path)
    args = [command, "--spec", "spec"] + (["--out", "out"] if command != "lint" else [])
    result = run_cli(*args)
    assert result.code == 2, result
    lines = result.err.splitlines()
    for prefix in expected:
        assert any(line.startswith(prefix) for line in lines), result.err
    assert all(line.startswith("error: spec/") for line in lines[:-1]), result.err
    assert lines[-1].endswith("nothing was written.")
    assert result.out == ""
    assert tree_digest(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "spec"]  # no staging left behind


def test_schema_problem_stops_before_cross_references(spec_dir: Path) -> None:
    # the faults file is schema-valid, so its dangling rule is reported in the same run as other files' schema errors
    _break_spec(spec_dir)
    result = run_cli("lint", "--spec", "spec")
    assert result.code == 2
    assert "problem(s) in the spec" in result.err


def test_cross_reference_problem_is_printed_with_location(spec_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(spec_dir, "faults.yaml", "violates: [HM-ALIGN-MALLOC-CFG]", "violates: [HM-NO-SUCH-RULE]")
    line = line_of(spec_dir, "faults.yaml", "HM-NO-SUCH-RULE")
    result = run_main(capsys, "lint", "--spec", "spec")
    assert result.code == 2
    assert (
        f"error: spec/faults.yaml:{line}: faults[1].violates[0]: fault names unknown rule 'HM-NO-SUCH-RULE'"
        in result.err
    )


def test_failure_while_rendering_keeps_the_old_tree(
    spec_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out, before = _existing_tree(tmp_path)

    def boom(text: str) -> str:
        raise RuntimeError("template failed")

    monkeypatch.setattr(codegen.render, "md", boom)  # the traceability matrix renders after the bindings
    with pytest.raises(RuntimeError, match="template failed"):
        run_main(capsys, "generate", "--spec", "spec", "--out", "out")
    assert tree_digest(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "spec"]


def test_failure_while_writing_keeps_the_old_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out, before = _existing_tree(tmp_path)
    real_write = Path.write_bytes
    calls = []

    def fail_third(self: Path, data: bytes) -> int:
        calls.append(self)
        if len(calls) == 3:
            raise OSError("disk full")
        return real_write(self, data)

    monkeypatch.setattr(Path, "write_bytes", fail_third)
    with pytest.raises(OSError, match="disk full"):
        codegen.writer.write_tree(out, {f"f{i}.txt": "new\n" for i in range(5)})
    monkeypatch.undo()
    assert tree_digest(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_failure_while_swapping_puts_the_old_tree_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out, before = _existing_tree(tmp_path)
    real_rename = os.rename
    calls = []

    def fail_second(src: object, dst: object) -> None:
        calls.append((src, dst))
        if len(calls) == 2:  # the old tree is already retired; swapping the new one in fails
            raise OSError("rename failed")
        real_rename(src, dst)

    monkeypatch.setattr(codegen.writer.os, "rename", fail_second)
    with pytest.raises(OSError, match="rename failed"):
        codegen.writer.write_tree(out, {"new.txt": "new\n"})
    monkeypatch.undo()
    assert tree_digest(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_generated_tree_is_not_private(tmp_path: Path) -> None:
    codegen.writer.write_tree(tmp_path / "out", {"a/b.txt": "x\n"})
    mask = os.umask(0o022)
    os.umask(mask)
    mode = stat.S_IMODE((tmp_path / "out").stat().st_mode)
    assert mode == 0o777 & ~mask, oct(mode)


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_help_of_each_subcommand(command: str) -> None:
    result = run_cli(command, "--help")
    assert result.code == 0, result
    assert "--spec" in result.out and result.out.startswith("usage: python -m codegen " + command)


def test_top_level_help_lists_subcommands_and_exit_codes() -> None:
    result = run_cli("--help")
    assert result.code == 0
    for command in SUBCOMMANDS:
        assert command in result.out
    assert "Exit codes" in result.out


def test_misuse_exits_2() -> None:
    assert run_cli().code == 2
    assert run_cli("frobnicate").code == 2


def test_lint_of_the_committed_spec(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_main(capsys, "lint", "--spec", str(ROOT / "spec"))
    assert result.code == 0 and "is valid" in result.out


def test_committed_tree_is_up_to_date(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_main(capsys, "check", "--spec", str(ROOT / "spec"), "--out", str(ROOT / "acl_hostmem_generated"))
    assert result.code == 0, result.err[:4000]


def test_generation_is_deterministic_and_fast(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    timings = []
    for name in ("one", "two"):
        start = time.perf_counter()
        result = run_main(capsys, "generate", "--spec", str(ROOT / "spec"), "--out", str(tmp_path / name))
        timings.append(time.perf_counter() - start)
        assert result.code == 0, result.err
    one, two = tree_digest(tmp_path / "one"), tree_digest(tmp_path / "two")
    assert one == two
    assert one == {k: v for k, v in tree_digest(ROOT / "acl_hostmem_generated").items() if "__pycache__" not in k}
    print(f"generate took {timings[0]:.3f} s and {timings[1]:.3f} s")
    assert max(timings) < 5.0


def test_check_reports_a_spec_edit_as_a_diff(spec_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_main(capsys, "generate", "--spec", "spec", "--out", "out").code == 0
    old = "Every successful aclrtMallocHost stores a pointer whose address is a multiple of 64, for every size."
    new = "Every successful aclrtMallocHost stores a 64-byte aligned pointer, whatever the size."
    edit(spec_dir, "rules.yaml", old, new)
    result = run_main(capsys, "check", "--spec", "spec", "--out", "out")
    assert result.code == 1
    assert "out/ is stale" in result.err and "python -m codegen generate" in result.err
    assert "--- out/catalog.json (on disk)" in result.err and "+++ out/catalog.json (from spec)" in result.err
    assert any(line.startswith("-") and old in line for line in result.err.splitlines())
    assert any(line.startswith("+") and new in line for line in result.err.splitlines())
    assert "@@" in result.err


def test_check_reports_a_hand_edit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "gen"
    shutil.copytree(ROOT / "acl_hostmem_generated", out, ignore=shutil.ignore_patterns("__pycache__"))
    header = out / "include" / "acl_hostmem.h"
    header.write_text(header.read_text(encoding="utf-8").replace("0x10000000UL", "0x20000000UL"), encoding="utf-8")
    result = run_main(capsys, "check", "--spec", str(ROOT / "spec"), "--out", str(out))
    assert result.code == 1
    assert "-#define ACL_HOST_REG_PINNED 0x20000000UL" in result.err
    assert "+#define ACL_HOST_REG_PINNED 0x10000000UL" in result.err


def test_check_reports_extra_and_missing_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "gen"
    shutil.copytree(ROOT / "acl_hostmem_generated", out, ignore=shutil.ignore_patterns("__pycache__"))
    (out / "traceability.md").unlink()
    (out / "cases" / "test_stray.py").write_text("", encoding="utf-8")
    (out / "__pycache__").mkdir(exist_ok=True)
    (out / "__pycache__" / "x.pyc").write_bytes(b"\0")  # caches are not drift
    result = run_main(capsys, "check", "--spec", str(ROOT / "spec"), "--out", str(out))
    assert result.code == 1
    assert "missing file: gen/traceability.md" in result.err
    assert "extra file (not generated from the spec): gen/cases/test_stray.py" in result.err
    assert "__pycache__" not in result.err


def test_check_of_a_missing_tree_lists_every_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run_main(capsys, "check", "--spec", str(ROOT / "spec"), "--out", str(tmp_path / "none"))
    assert result.code == 1
    assert "missing file: none/acl_bindings.py" in result.err


def test_appending_a_second_document_is_an_error(spec_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    append(spec_dir, "products.yaml", "---\nfamilies: []\n")
    result = run_main(capsys, "lint", "--spec", "spec")
    assert result.code == 2 and "spec/products.yaml:" in result.err


def test_generate_refuses_a_directory_it_did_not_write(spec_dir: Path, tmp_path: Path) -> None:
    """`generate --out .` in a repository must not take `.git` with it."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    (repo / "notes.txt").write_text("mine\n", encoding="utf-8")
    before = tree_digest(repo)
    proc = run_cli("generate", "--spec", str(spec_dir), "--out", str(repo))
    assert proc.code == 2 and "did not write it" in proc.err and str(repo) in proc.err, proc.err
    assert tree_digest(repo) == before and not [p for p in tmp_path.iterdir() if p.name.startswith(".repo")]


def test_regenerating_keeps_what_a_user_put_in_the_tree_and_drops_only_its_own_files(tmp_path: Path) -> None:
    out = tmp_path / "out"
    codegen.writer.write_tree(out, {"a.txt": "a\n", "gone.txt": "old\n"})
    (out / "mine.txt").write_text("user file\n", encoding="utf-8")
    changed = codegen.writer.write_tree(out, {"a.txt": "a2\n"})
    assert "gone.txt" in changed and "mine.txt" not in changed
    assert (out / "mine.txt").read_text(encoding="utf-8") == "user file\n"
    assert not (out / "gone.txt").exists() and (out / "a.txt").read_text(encoding="utf-8") == "a2\n"
    assert (out / codegen.writer.MARKER).read_text(encoding="utf-8").splitlines()[1:] == ["a.txt"]
