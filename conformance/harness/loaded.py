"""The shared objects a library brought into the process: what a certificate must cover.

``libascendcl.so`` is a front: the runtime, the driver's user-space library and their helpers
are loaded by it, and each decides behaviour the certificate vouches for. The probe reads
``/proc/self/maps`` before the library is loaded and after ``aclInit``; every file mapped in
between is the library's doing, and each is named with its sha256.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

MAPS = Path("/proc/self/maps")
#: Enough for any CANN installation's libraries; a library that maps more is reported as cut.
MAX_OBJECTS = 256
#: Larger files are named without a hash (a mapped file that big is no shared object).
MAX_HASHED = 1 << 30


def mapped_files() -> set[str]:
    """Paths of the regular files mapped into this process (empty where /proc is not mounted)."""
    try:
        lines = MAPS.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return set()
    paths = set()
    for line in lines:
        parts = line.split(None, 5)
        if len(parts) == 6 and parts[5].startswith("/") and not parts[5].endswith(" (deleted)"):
            paths.add(parts[5])
    return paths


def file_sha256(path: str) -> str | None:
    """sha256 of a regular file (None for anything else, or one too large)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_HASHED:
            return None
        digest = hashlib.sha256()
        while chunk := os.read(fd, 1 << 20):
            digest.update(chunk)
        return digest.hexdigest()
    finally:
        os.close(fd)


def brought_in(before: set[str]) -> list[list[str | None]]:
    """[path, sha256] of every file mapped now that was not in ``before``, sorted by path."""
    new = sorted(mapped_files() - before)[:MAX_OBJECTS]
    return [[path, file_sha256(path)] for path in new]
