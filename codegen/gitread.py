"""Read-only access to a (bare) git repository: revisions, blobs, trees, renames and diff hunks.

``release-diff`` follows spec citations from one revision of hicann/runtime (or hicann/driver)
to another. Everything it knows about the repositories comes through this module, which runs
``git`` with options that make the answers independent of the user's git configuration
(no external diff, no colour, no text conversion, unquoted paths) and caches every answer,
since the same files are asked about for many citations.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class GitError(Exception):
    """A git directory that cannot be read, or a git command that failed unexpectedly."""


@dataclass(frozen=True)
class Hunk:
    """One ``git diff -U0`` hunk: ``old_count`` lines at ``old_start`` became ``new_count`` at ``new_start``.

    As in git's own output, a count of 0 means the start names the line *after which*
    lines were inserted (old side) or after which the removed lines stood (new side).
    """

    old_start: int
    old_count: int
    new_start: int
    new_count: int

    @property
    def old_range(self) -> tuple[int, int]:
        """The removed old lines (first, last); empty (first > last) for a pure insertion."""
        return self.old_start, self.old_start + self.old_count - 1

    @property
    def new_range(self) -> tuple[int, int]:
        """The added new lines (first, last); empty (first > last) for a pure deletion."""
        return self.new_start, self.new_start + self.new_count - 1


def map_line(hunks: list[Hunk], line: int) -> int | None:
    """Where old line ``line`` is on the new side of ``hunks`` (sorted), or None if a hunk removed it."""
    offset = 0
    for hunk in hunks:
        old_first = hunk.old_start if hunk.old_count else hunk.old_start + 1
        if line < old_first:
            break
        if hunk.old_count and line < hunk.old_start + hunk.old_count:
            return None
        # The first old line after the hunk lands on the first new line after it.
        new_after = hunk.new_start + hunk.new_count if hunk.new_count else hunk.new_start + 1
        old_after = hunk.old_start + hunk.old_count if hunk.old_count else hunk.old_start + 1
        offset = new_after - old_after
    return line + offset


def hunks_touching(hunks: list[Hunk], first: int, last: int) -> list[Hunk]:
    """The hunks that remove any of old lines ``first``..``last``."""
    out = []
    for hunk in hunks:
        start, end = hunk.old_range
        if hunk.old_count and start <= last and first <= end:
            out.append(hunk)
    return out


def parse_hunks(diff_text: str) -> list[Hunk]:
    """The hunk headers of a unified diff, in order."""
    hunks = []
    for line in diff_text.splitlines():
        match = _HUNK.match(line)
        if match:
            old_start, old_count, new_start, new_count = match.groups()
            hunks.append(Hunk(int(old_start), int(old_count if old_count is not None else 1),
                              int(new_start), int(new_count if new_count is not None else 1)))
    return hunks


def split_lines(text: str) -> tuple[str, ...]:
    """The lines of a file as git numbers them: split at "\\n" only (a trailing "\\r" dropped).

    ``str.splitlines`` also splits at form feeds, ``\\x1c``..``\\x1e`` and U+2028/U+2029, which
    would shift every later line number against git's hunks and the spec's citations.
    """
    parts = text.split("\n")
    if parts and parts[-1] == "":
        parts.pop()
    return tuple(part[:-1] if part.endswith("\r") else part for part in parts)


class GitRepo:
    """One repository, read with ``git -C DIR``; every query is cached for the life of the object."""

    def __init__(self, git_dir: Path, label: str) -> None:
        self.git_dir = git_dir
        self.label = label
        probe = self._run("rev-parse", "--git-dir", check=False)
        if probe.returncode != 0:
            raise GitError(f"{git_dir} is not a git directory ({label})")

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[bytes]:
        # Options that would otherwise come from the user's configuration are fixed here.
        command = ["git", "-C", str(self.git_dir), "-c", "core.quotepath=off", "-c", "diff.noprefix=false",
                   "-c", "color.ui=never", *args]
        try:
            proc = subprocess.run(command, capture_output=True, check=False)
        except OSError as exc:
            raise GitError(f"cannot run git: {exc}") from exc
        if check and proc.returncode != 0:
            message = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            raise GitError(f"git {' '.join(args[:2])} failed in {self.git_dir}: {message[-1] if message else ''}")
        return proc

    @cache  # noqa: B019 - one repository object per run; the cache dies with it
    def commit(self, rev: str) -> str | None:
        """The full commit hash ``rev`` (a tag, branch or hash) names, or None."""
        if not rev or rev.startswith("-"):
            return None
        proc = self._run("rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}", check=False)
        if proc.returncode != 0:
            return None
        return proc.stdout.decode().strip() or None

    @cache  # noqa: B019
    def is_tag(self, name: str) -> bool:
        """Whether ``refs/tags/<name>`` exists."""
        if not name or name.startswith("-"):
            return False
        return self._run("rev-parse", "--verify", "--quiet", f"refs/tags/{name}", check=False).returncode == 0

    @cache  # noqa: B019
    def lines(self, commit: str, path: str) -> tuple[str, ...] | None:
        """The lines of ``path`` at ``commit`` (without line ends), or None if there is no such file."""
        proc = self._run("cat-file", "blob", f"{commit}:{path}", check=False)
        if proc.returncode != 0:
            return None
        return split_lines(proc.stdout.decode("utf-8", "replace"))

    @cache  # noqa: B019
    def files(self, commit: str, under: str = "") -> tuple[str, ...]:
        """Every file path at ``commit`` (below ``under`` when given)."""
        args = ["ls-tree", "-r", "-z", "--name-only", commit]
        if under:
            args += ["--", under]
        out = self._run(*args).stdout.decode("utf-8", "replace")
        return tuple(p for p in out.split("\0") if p)

    def exists(self, commit: str, path: str) -> bool:
        """Whether ``path`` is a file at ``commit``."""
        return path in set(self.files(commit, path.rsplit("/", 1)[0] if "/" in path else ""))

    @cache  # noqa: B019
    def renames(self, old: str, new: str) -> dict[str, str]:
        """Old path -> new path of every file git sees renamed between two commits.

        The similarity threshold is low (20 %) and the rename limit lifted, because releases
        both move directories and reformat the moved files.
        """
        out = self._run("diff", "-M20%", "-l0", "--diff-filter=R", "--name-status", "-z", old, new).stdout
        fields = [f for f in out.decode("utf-8", "replace").split("\0") if f]
        renamed = {}
        for i in range(0, len(fields) - 2, 3):
            renamed[fields[i + 1]] = fields[i + 2]
        return renamed

    @cache  # noqa: B019
    def hunks(self, old: str, old_path: str, new: str, new_path: str) -> tuple[Hunk, ...]:
        """The ``git diff -U0`` hunks from ``old:old_path`` to ``new:new_path`` (two blobs, any paths)."""
        proc = self._run("diff", "-U0", "--histogram", "--no-color", "--no-ext-diff", "--no-textconv", "--text",
                         f"{old}:{old_path}", f"{new}:{new_path}")
        return tuple(parse_hunks(proc.stdout.decode("utf-8", "replace")))

    @cache  # noqa: B019
    def grep(self, commit: str, pattern: str, under: str) -> tuple[tuple[str, int, str], ...]:
        """(path, line, text) of every line below ``under`` at ``commit`` matching an extended regex."""
        proc = self._run("grep", "-n", "-z", "-I", "-E", "-e", pattern, commit, "--", under, check=False)
        if proc.returncode not in (0, 1):
            raise GitError(f"git grep failed in {self.git_dir}: {proc.stderr.decode('utf-8', 'replace').strip()}")
        hits = []
        prefix = f"{commit}:"
        # Records end with "\n" only: splitlines() would also split at \f, \x1c or U+2028 in a line's text.
        for record in proc.stdout.decode("utf-8", "replace").split("\n"):
            parts = record.split("\0", 2)
            if len(parts) == 3 and parts[1].isdigit():
                path = parts[0][len(prefix):] if parts[0].startswith(prefix) else parts[0]
                hits.append((path, int(parts[1]), parts[2]))
        return tuple(hits)
