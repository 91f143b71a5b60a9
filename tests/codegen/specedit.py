"""Helpers of the code-generator tests: edit a spec copy, collect issues, run the CLI."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from codegen.cli import main
from codegen.errors import SpecError
from codegen.load import load_spec

ROOT = Path(__file__).resolve().parents[2]
#: The kit's check procedures, against which lint checks every rule's check: name (codegen --checks).
CHECKS = ROOT / "conformance" / "checks"


def edit(spec_dir: Path, name: str, old: str, new: str, count: int = 1) -> None:
    """Replace ``old`` (which must occur exactly ``count`` times) with ``new`` in one spec file."""
    path = spec_dir / name
    text = path.read_text(encoding="utf-8")
    found = text.count(old)
    assert found == count, f"{name}: expected {count} occurrence(s) of {old!r}, found {found}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def append(spec_dir: Path, name: str, text: str) -> None:
    """Append text to one spec file."""
    path = spec_dir / name
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def line_of(spec_dir: Path, name: str, needle: str, nth: int = 1) -> int:
    """1-based line of the ``nth`` line containing ``needle``."""
    hits = [n for n, line in enumerate((spec_dir / name).read_text(encoding="utf-8").splitlines(), 1) if needle in line]
    assert len(hits) >= nth, f"{name}: {needle!r} occurs on {len(hits)} line(s)"
    return hits[nth - 1]


def issues(spec_dir: Path) -> list[str]:
    """Every issue the loader reports for ``spec_dir`` as ``file:line: path: message``; [] if valid."""
    try:
        load_spec(spec_dir, CHECKS)
    except SpecError as exc:
        return [str(i) for i in exc.issues]
    return []


def find_issue(found: list[str], prefix: str, *fragments: str) -> str:
    """The issue that starts with ``prefix`` and contains every fragment; fails with all issues shown."""
    for issue in found:
        if issue.startswith(prefix) and all(f in issue for f in fragments):
            return issue
    shown = "\n  ".join(found) or "(none)"
    raise AssertionError(f"no issue starting {prefix!r} containing {fragments!r}; issues:\n  {shown}")


@dataclass(frozen=True)
class CliResult:
    """Exit code and captured output of one CLI run."""

    code: int
    out: str
    err: str


def run_cli(*args: str) -> CliResult:
    """Run ``python -m codegen`` in a child process from the current directory."""
    proc = subprocess.run(
        [sys.executable, "-m", "codegen", *args], capture_output=True, text=True, env=child_env(), timeout=120
    )
    return CliResult(proc.returncode, proc.stdout, proc.stderr)


def run_main(capsys: object, *args: str) -> CliResult:
    """Run the CLI in-process (fast; lets a test monkeypatch codegen)."""
    code = main(list(args))
    captured = capsys.readouterr()  # type: ignore[attr-defined]
    return CliResult(code, captured.out, captured.err)


def child_env() -> dict[str, str]:
    """The environment for child interpreters: the checkout on PYTHONPATH."""
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in [str(ROOT), env.get("PYTHONPATH", "")] if p)
    return env


def tree_digest(root: Path) -> dict[str, str]:
    """SHA-256 of every file under ``root`` (relative POSIX path → hex digest)."""
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def yaml_quoted(text: str) -> str:
    """``text`` as a YAML double-quoted scalar: every character that is not printable ASCII escaped.

    Unlike ``json.dumps`` it writes a character outside the BMP as one ``\\U`` escape, not a
    surrogate pair (which YAML would read as two lone surrogates).
    """
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif 0x20 <= code < 0x7F:
            out.append(ch)
        elif code <= 0xFF:
            out.append(f"\\x{code:02x}")
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)
