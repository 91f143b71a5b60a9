"""Write the generated tree, touching only what changed, and compare it with what is on disk.

:func:`write_tree` leaves a file whose content is already right alone (its mtime too), so
that ``make`` does not rebuild the simulator after a generate that changed nothing. When a
file does change, the whole tree is replaced atomically.

The tree lists what the generator wrote in :data:`MARKER`. A directory is replaced only when it
is empty, new, or carries that list (or is a tree of the generator from before the list
existed), so ``generate --out .`` cannot take a repository with it; and a file the generator
did not write (one a user put there) survives the replacement: only files it wrote before are
removed.
"""

from __future__ import annotations

import difflib
import os
import shutil
import tempfile
from pathlib import Path

IGNORED_PARTS = frozenset({"__pycache__", ".pytest_cache"})
#: The generator's own list of the files it wrote, one relative path per line.
MARKER = ".codegen-files"
_MARKER_HEAD = "# Files written by `python -m codegen generate`; do not edit. generate replaces only these.\n"
#: What the generator's catalog said before MARKER existed: such a tree is the generator's too.
_LEGACY_SIGN = b'"_generated": "Generated from spec'


class OutputRefused(Exception):
    """The output directory holds something the generator did not write; nothing was written."""


def with_marker(files: dict[str, str]) -> dict[str, str]:
    """``files`` plus the marker that lists them (what write_tree writes and check compares)."""
    listed = sorted(rel for rel in files if rel != MARKER)
    return {**files, MARKER: _MARKER_HEAD + "".join(f"{rel}\n" for rel in listed)}


def written_before(out_dir: Path) -> set[str] | None:
    """The files the generator wrote into ``out_dir`` last time; None when it is not the generator's tree
    (absent or empty directories count as the generator's, with nothing written)."""
    if not out_dir.exists():
        return set()
    if not out_dir.is_dir() or out_dir.is_symlink():
        return None
    marker = out_dir / MARKER
    if marker.is_file() and not marker.is_symlink():
        lines = marker.read_text(encoding="utf-8", errors="replace").splitlines()
        return {line for line in lines if line and not line.startswith("#")} | {MARKER}
    present = [p for p in out_dir.iterdir() if p.name not in IGNORED_PARTS]
    if not present:
        return set()
    catalog = out_dir / "catalog.json"
    if catalog.is_file() and _LEGACY_SIGN in catalog.read_bytes()[:400]:
        return set(existing_files(out_dir))
    return None

def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def changed_files(out_dir: Path, files: dict[str, str]) -> list[str]:
    """Relative paths whose content differs from ``files``, plus files to add or remove; empty when fresh.
    Files the generator did not write are not its changes."""
    on_disk = existing_files(out_dir)
    ours = (written_before(out_dir) or set()) | set(files)
    return sorted(rel for rel in (set(on_disk) & ours) | set(files)
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
    before = written_before(out_dir)
    if before is None:
        raise OutputRefused(f"{out_dir} is not empty and has no {MARKER}: codegen did not write it, so it will not "
                            "replace it; choose a new or empty directory")
    files = with_marker(files)
    changed = changed_files(out_dir, files)
    if not changed:
        return []
    # What a user put into the tree is carried into the new one; only the generator's files go.
    foreign = sorted(set(existing_files(out_dir)) - before - set(files))
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
        for rel in foreign:
            (staging / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(out_dir / rel, staging / rel, follow_symlinks=False)
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
    return [rel for rel in changed if rel != MARKER]  # the list follows the files; it is not one of them


def existing_files(out_dir: Path) -> dict[str, bytes]:
    """Files currently under ``out_dir`` (caches excluded), keyed by relative path."""
    if not out_dir.is_dir():
        return {}
    found = {}
    for path in sorted(out_dir.rglob("*")):
        rel = path.relative_to(out_dir)
        if path.is_file() and not path.is_symlink() and not IGNORED_PARTS.intersection(rel.parts):
            found[rel.as_posix()] = path.read_bytes()
    return found


def stale_report(out_dir: Path, files: dict[str, str], max_lines: int = 200) -> list[str]:
    """Human-readable differences between ``files`` (and their marker) and the tree on disk; empty when fresh."""
    files = with_marker(files)
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
