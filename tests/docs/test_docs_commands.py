"""The docs are true: every command README.md and docs/ mark for checking gives its documented outcome, and the
generated reports under docs/ are not stale against the spec (``make docs-check``, part of ``make test``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from doccommands import DocBlock, documents, marked_blocks, parse_command  # noqa: E402

from codegen.load import spec_hash  # noqa: E402
from codegen.release_diff import report_spec_hash  # noqa: E402

BLOCKS = [block for page in documents(ROOT) for block in marked_blocks(page, ROOT)]
#: The pages whose commands a user of a clone types first; each must have its commands checked.
CHECKED_PAGES = ("README.md", "docs/certification.md", "docs/running.md", "docs/spec.md")


def _env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ACL_", "ACLSIM_", "PYTEST_", "FAIL_ON"))}
    env.update(TMPDIR=str(tmp), NO_COLOR="1", ACLSIM_KERNEL="6.6.0")
    env.pop("MAKEFLAGS", None)
    env.pop("MAKELEVEL", None)
    return env


@pytest.mark.parametrize("block", BLOCKS, ids=[block.where for block in BLOCKS])
def test_a_documented_command_gives_its_documented_outcome(block: DocBlock, tmp_path: Path) -> None:
    for command in block.commands:
        line = command.command.replace("/tmp/", f"{tmp_path}/")
        done = subprocess.run(["bash", "-c", line], cwd=ROOT, env=_env(tmp_path), capture_output=True, text=True,
                              timeout=600, check=False)
        out = done.stdout + done.stderr
        assert done.returncode == command.exit_status, (
            f"{command.where}: `{command.command}` exited {done.returncode}, the docs say {command.exit_status}:\n"
            f"{out[-3000:]}")
        for text in command.prints:
            assert text in out, f"{command.where}: `{command.command}` did not print {text!r}:\n{out[-3000:]}"


def test_the_pages_a_user_starts_from_have_their_commands_checked() -> None:
    pages = {block.where.split(":")[0] for block in BLOCKS}
    assert set(CHECKED_PAGES) <= pages, set(CHECKED_PAGES) - pages


def test_a_commands_comment_states_its_outcome() -> None:
    command = parse_command("x.md:1", 'make gate A=1   # exit 2, prints "gate: FAIL" and "drift"')
    assert (command.command, command.exit_status, command.prints) == ("make gate A=1", 2, ("gate: FAIL", "drift"))
    assert parse_command("x.md:2", "make help").exit_status == 0


def test_a_marker_without_a_code_block_is_refused(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("text\n\n<!-- docs-check -->\n\nmore text\n")
    with pytest.raises(ValueError, match="followed by no code block"):
        marked_blocks(page, tmp_path)
    page.write_text("<!-- docs-check -->\n\n    one \\\n      two   # exit 1\n\n```\nthree\n```\n")
    [block] = marked_blocks(page, tmp_path)
    assert [(c.command, c.exit_status) for c in block.commands] == [("one two", 1)]


@pytest.mark.parametrize("report", sorted((ROOT / "docs" / "releases").glob("*-to-*.md")), ids=lambda p: p.name)
def test_a_release_report_was_made_from_the_spec_as_it_is(report: Path) -> None:
    made_from = report_spec_hash(report.read_text(encoding="utf-8"))
    current = spec_hash(ROOT / "spec")
    old, new = report.stem.split("-to-")
    assert made_from == current, (
        f"{report.relative_to(ROOT)} is stale: made from spec {made_from}, the spec is {current}. Regenerate it: "
        f"python -m codegen release-diff {old} {new} --runtime-git <hicann/runtime> --driver-git <hicann/driver> "
        f"--out {report.relative_to(ROOT)}")
