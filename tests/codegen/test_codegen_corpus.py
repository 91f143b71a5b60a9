"""The hostile corpus (hostile/corpus.yaml): each attack passes lint -> generate -> compile, or is refused cleanly.

Refused means exit 2, one ``spec/<file>:<line>: <field>: <message>`` line naming the attack,
no traceback, and no output directory. Entries that could hang or exhaust memory run in a
child limited to 1 GiB of address space and 60 s.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from outputs import compiles, generate_in_process, import_bindings, skeletons
from specedit import CHECKS, ROOT, child_env, edit

CORPUS = yaml.safe_load((Path(__file__).parent / "hostile" / "corpus.yaml").read_text(encoding="utf-8"))["entries"]
MEMORY_LIMIT = 1 << 30
TIME_LIMIT_S = 60


def _fifo(spec: Path) -> None:
    (spec / "faults.yaml").unlink()
    os.mkfifo(spec / "faults.yaml")


def _link_dev_zero(spec: Path) -> None:
    (spec / "faults.yaml").unlink()
    (spec / "faults.yaml").symlink_to("/dev/zero")


def _link_directory(spec: Path) -> None:
    (spec / "sub").mkdir()
    (spec / "faults.yaml").unlink()
    (spec / "faults.yaml").symlink_to("sub")


def _link_outside(spec: Path) -> None:
    outside = spec.parent / "faults-elsewhere.yaml"
    (spec / "faults.yaml").rename(outside)
    (spec / "faults.yaml").symlink_to(outside.resolve())


def _many_rules(spec: Path) -> None:
    path = spec / "rules.yaml"
    text = path.read_text(encoding="utf-8")
    first = text[text.index("  - id: HM-ALIGN-MALLOC\n") : text.index("  - id: HM-ALIGN-MALLOC-CFG\n")]
    with path.open("a", encoding="utf-8") as handle:
        for number in range(80_000):
            handle.write(first.replace("id: HM-ALIGN-MALLOC\n", f"id: HM-COPY-{number}\n"))


def _huge_title(spec: Path) -> None:
    edit(spec, "rules.yaml", "title: aclrtMallocHost returns a 64-byte aligned pointer", "title: " + "x" * 300_000)


SPECIALS = {"fifo": _fifo, "link_dev_zero": _link_dev_zero, "link_directory": _link_directory,
            "link_outside": _link_outside, "many_rules": _many_rules, "huge_title": _huge_title}


def _apply(entry: dict[str, Any], spec: Path) -> None:
    for change in entry.get("edits", []):
        edit(spec, change["file"], change["old"], change["new"])
    if "replace" in entry:
        (spec / entry["replace"]["file"]).write_text(entry["replace"]["text"], encoding="utf-8")
    if "special" in entry:
        SPECIALS[entry["special"]](spec)


def _expected_issue(entry: dict[str, Any], spec: Path) -> tuple[str, str]:
    """(prefix, fragment) of the issue line the entry must produce."""
    want = entry["rejected"]
    changes = entry.get("edits", [])
    file = want.get("file") or (changes[0]["file"] if changes else entry["replace"]["file"])
    if "line" in want:
        line = want["line"]
    else:
        text = (spec / file).read_text(encoding="utf-8")
        needle = want.get("line_of") or next(c["new"] for c in changes if c["file"] == file)
        line = text[: text.index(needle)].count("\n") + 1
    where = f"spec/{file}:{line}" + (f": {want['path']}" if want["path"] else "")
    return f"error: {where}: ", want["says"]


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _generate_isolated(spec: Path, out: Path) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "codegen", "generate", "--spec", str(spec), "--out", str(out), "--checks", str(CHECKS)],
        cwd=spec.parent, env=child_env(), capture_output=True, text=True, timeout=TIME_LIMIT_S, preexec_fn=_limited,
    )
    return done.returncode, done.stderr


@pytest.fixture(scope="module")
def real_skeletons() -> dict[str, str]:
    return skeletons(ROOT / "acl_hostmem_generated")


def test_the_corpus_covers_every_attack_of_the_issue() -> None:
    names = {entry["name"] for entry in CORPUS}
    assert len(names) == len(CORPUS)
    for attack in ("issue-repro-triple-quote-in-meaning", "billion-laughs", "matrix-product-20-to-the-8th-times-12",
                   "fifo-as-spec-file", "symlink-to-dev-zero", "symlink-to-a-directory-inside-spec",
                   "symlink-to-a-file-outside-spec", "eighty-thousand-rules", "float-in-a-matrix",
                   "check-that-does-not-exist", "check-named-dunder-import", "matrix-key-python-keyword",
                   "macro-named-getattr", "macro-named-isinstance", "negative-size-in-a-matrix",
                   "enum-value-beyond-int32", "struct-size-that-breaks-the-abi-check",
                   "member-offset-that-breaks-the-abi-check", "bidi-override-in-title"):
        assert attack in names
    assert all(("accepted" in e) != ("rejected" in e) for e in CORPUS)


@pytest.mark.parametrize("entry", CORPUS, ids=[e["name"] for e in CORPUS])
def test_attack(entry: dict[str, Any], spec_dir: Path, cc: str, real_skeletons: dict[str, str]) -> None:
    spec = spec_dir.resolve()
    _apply(entry, spec)
    out = spec.parent / "out"
    if entry.get("isolated"):
        code, err = _generate_isolated(spec, out)
    else:
        code, err = generate_in_process(Path("spec"), Path("out"))
    assert "Traceback" not in err, err
    if entry.get("accepted"):
        assert code == 0, err
        assert skeletons(out) == real_skeletons
        import_bindings(out)
        compiles(cc, out)
        return
    assert code == 2, err
    assert not out.exists(), "a refused spec wrote output"
    prefix, fragment = _expected_issue(entry, spec)
    lines = err.splitlines()
    assert re.fullmatch(r"\d+ problem\(s\) in the spec; nothing was written\.", lines[-1]), err
    assert all(re.match(r"^error: spec/[a-z]+\.yaml:\d+: \S", line) and len(line) < 600 for line in lines[:-1]), err
    wanted = f"want {prefix}...{fragment}\n{err}"
    assert any(line.startswith(prefix) and fragment in line for line in lines[:-1]), wanted


def test_a_link_within_spec_is_followed(spec_dir: Path) -> None:
    spec = spec_dir.resolve()
    (spec / "sub").mkdir()
    shutil.move(spec / "faults.yaml", spec / "sub" / "faults.yaml")
    (spec / "faults.yaml").symlink_to(Path("sub") / "faults.yaml")
    code, err = generate_in_process(Path("spec"), Path("out"))
    assert code == 0, err
