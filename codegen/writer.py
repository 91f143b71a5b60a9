"""Write the generated tree, touching only what changed, and compare it with what is on disk.

:func:`write_tree` leaves a file whose content is already right alone (its mtime too), so
that ``make`` does not rebuild the simulator after a generate that changed nothing. When a
file does change, the whole tree is replaced atomically.
"""

from __future__ import annotations

import difflib
import os
import shutil
import tempfile
from pathlib import Path

IGNORED_PARTS = frozenset({"__pycache__", ".pytest_cache"})


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def changed_files(out_dir: Path, files: dict[str, str]) -> list[str]:
    """Relative paths whose content differs from ``files``, plus files to add or remove; empty when fresh."""
    on_disk = existing_files(out_dir)
    return sorted(rel for rel in set(on_disk) | set(files)
                  if rel not in on_disk or rel not in files or on_disk[rel] != files[rel].encode("utf-8"))


def write_tree(out_dir: Path, files: dict[str, str]) -> list[str]:
    """Make ``out_dir`` hold exactly ``files``; returns the paths that changed (empty: nothing written).

    Unchanged files keep their bytes and modification time. When anything changed, the new
    tree is written next to the old one and swapped in with renames, so a failure while
    writing leaves the previous tree untouched, a failure during the swap puts it back, and
    readers see the old tree or the new one; files whose content did not change are carried
    over with their modification time.
    """
    out_dir = out_dir.resolve()
    changed = changed_files(out_dir, files)
    if not changed:
        return []
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.new-", dir=out_dir.parent))
    retired: Path | None = None
    try:
        os.chmod(staging, 0o777 & ~_umask())  # mkdtemp makes it private (0700); the tree is not
        unchanged = set(files) - set(changed)
        for rel, text in sorted(files.items()):
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(text.encode("utf-8"))
            if rel in unchanged:
                shutil.copystat(out_dir / rel, target)  # same content: keep the old modification time
        if out_dir.exists():
            retired = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.old-", dir=out_dir.parent))
            os.rename(out_dir, retired / out_dir.name)
        os.rename(staging, out_dir)
    except BaseException:
        if retired is not None and (retired / out_dir.name).exists() and not out_dir.exists():
            os.rename(retired / out_dir.name, out_dir)
        shutil.rmtree(staging, ignore_errors=True)
        if retired is not None and not (retired / out_dir.name).exists():
            shutil.rmtree(retired, ignore_errors=True)  # never delete an old tree that was not put back
        raise
    if retired is not None:
        shutil.rmtree(retired, ignore_errors=True)
    return changed


def existing_files(out_dir: Path) -> dict[str, bytes]:
    """Files currently under ``out_dir`` (caches excluded), keyed by relative path."""
    if not out_dir.is_dir():
        return {}
    found = {}
    for path in sorted(out_dir.rglob("*")):
        rel = path.relative_to(out_dir)
        if path.is_file() and not IGNORED_PARTS.intersection(rel.parts):
            found[rel.as_posix()] = path.read_bytes()
    return found


def stale_report(out_dir: Path, files: dict[str, str], max_lines: int = 200) -> list[str]:
    """Human-readable differences between ``files`` and the tree on disk; empty when fresh."""
    on_disk = existing_files(out_dir)
    lines: list[str] = []
    for rel in sorted(set(on_disk) | set(files)):
        want = files.get(rel)
        have = on_disk.get(rel)
        if want is None:
            lines.append(f"extra file (not generated from the spec): {out_dir.name}/{rel}")
        elif have is None:
            lines.append(f"missing file: {out_dir.name}/{rel}")
        elif have != want.encode("utf-8"):
            diff = difflib.unified_diff(
                have.decode("utf-8", errors="replace").splitlines(),
                want.splitlines(),
                fromfile=f"{out_dir.name}/{rel} (on disk)",
                tofile=f"{out_dir.name}/{rel} (from spec)",
                lineterm="",
                n=1,
            )
            lines.extend(diff)
    if len(lines) > max_lines:
        lines = lines[:max_lines] + [f"... {len(lines) - max_lines} more lines"]
    return lines
