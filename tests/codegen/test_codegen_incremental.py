"""generate writes only what changed, so that make does not rebuild the simulator after a no-op generate."""

from __future__ import annotations

import os
from pathlib import Path

from codegen.writer import write_tree


def _age(tree: Path) -> None:
    for path in tree.rglob("*"):
        if path.is_file():
            os.utime(path, (1_000_000_000, 1_000_000_000))


def test_unchanged_files_keep_their_bytes_and_mtime(tmp_path):
    out = tmp_path / "gen"
    files = {"a.h": "int a;\n", "sub/b.py": "B = 1\n", "c.json": "{}\n"}
    assert sorted(write_tree(out, files)) == sorted(files)
    _age(out)
    assert write_tree(out, files) == []
    assert all((out / rel).stat().st_mtime == 1_000_000_000 for rel in files)

    changed = {**files, "sub/b.py": "B = 2\n"}
    assert write_tree(out, changed) == ["sub/b.py"]
    assert (out / "sub/b.py").read_text() == "B = 2\n" and (out / "sub/b.py").stat().st_mtime > 1_000_000_000
    assert (out / "a.h").stat().st_mtime == 1_000_000_000 and (out / "c.json").stat().st_mtime == 1_000_000_000

    fewer = {"a.h": "int a;\n"}
    assert sorted(write_tree(out, fewer)) == ["c.json", "sub/b.py"]
    assert sorted(p.name for p in out.rglob("*") if p.is_file()) == [".codegen-files", "a.h"]
