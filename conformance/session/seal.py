"""The judge's seal: the digest of every report file, handed to the certifying process in memory.

A report directory can be written by any process of the user, a daemon the library left
behind included. So the judge does not let certify trust what it finds there: when
``ACL_SEAL_FD`` names a pipe (certify opens it and hands it down to ``run`` and the judge),
the judge writes one JSON line per file it wrote, ``{"path": ..., "sha256": ...}``, right after
writing the reports, and ``run`` adds the HTML report's files. certify then compares the
report directory with these lines before it seals anything (:func:`seal_problems`): a file
changed, added or removed after the judge wrote it keeps the bundle from certifying. No
executor holds the pipe: executors close every inherited descriptor and never see the
variable.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path

SEAL_FD_ENV = "ACL_SEAL_FD"
#: What the judge does not seal: pytest's cache, the report directory's lock, certify's own files.
UNSEALED = (".pytest_cache/", ".acl-run.lock", "run.log")
#: At most this much of seal lines is read (about 200 bytes a file, and a run writes about 1,500 files).
SEAL_LIMIT = 16 * 1024 * 1024


def _digest(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def report_files(root: Path, under: str = "") -> list[str]:
    """The files under ``root`` (or its sub-folder ``under``) as relative POSIX paths, links not followed."""
    base = root / under if under else root
    if under and base.is_file() and not base.is_symlink():
        return [Path(under).as_posix()]
    found = []
    for folder, dirs, files in os.walk(base, followlinks=False):
        for name in files:
            rel = (Path(folder) / name).relative_to(root).as_posix()
            if not rel.startswith(UNSEALED):
                found.append(rel)
        dirs.sort()
    return sorted(found)


def emit(root: Path, *unders: str) -> int:
    """Write the seal lines of the files under ``root`` (or only those under each of ``unders``, a folder
    or a file) to the inherited seal pipe; how many files were sealed (0 when no pipe was handed down).
    A later line for a path replaces an earlier one."""
    fd_text = os.environ.get(SEAL_FD_ENV, "")
    if not fd_text.isdigit():
        return 0
    paths = sorted({p for under in (unders or ("",)) for p in report_files(root, under)})
    lines = "".join(json.dumps({"path": p, "sha256": _digest(root / p)}) + "\n" for p in paths)
    try:
        fd = int(fd_text)
        view = memoryview(lines.encode())
        while view:
            view = view[os.write(fd, view):]
    except OSError:
        return 0
    return len(paths)


def parse(data: bytes) -> dict[str, str] | None:
    """The path -> sha256 lines read from the seal pipe; None when any line is malformed."""
    sealed: dict[str, str] = {}
    for line in data.decode(errors="replace").splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            return None
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in ("path", "sha256")):
            return None
        sealed[entry["path"]] = entry["sha256"]
    return sealed


def seal_problems(root: Path, sealed: dict[str, str] | None, carried: Iterable[str] = ()) -> list[str]:
    """How the report directory differs from what the judge sealed, one line each (empty: it does not)."""
    if not sealed:
        return ["the judge handed over no seal of its report files, so none of them can be trusted"]
    problems = []
    present = set(report_files(root)) - set(carried)
    for path in sorted(present - set(sealed)):
        problems.append(f"{path} was not written by the judge (it appeared after the judge sealed its reports)")
    for path in sorted(set(sealed) - present - set(carried)):
        problems.append(f"{path} was removed after the judge sealed it")
    for path in sorted(present & set(sealed)):
        if _digest(root / path) != sealed[path]:
            problems.append(f"{path} was changed after the judge wrote it (its sha256 differs from the judge's seal)")
    return problems
