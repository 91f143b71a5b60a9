"""Check citations against the pinned sources themselves (``lint --reference/--runtime-git/--driver-git``).

The pinned API pages and the runtime and driver repositories are not part of this project,
so this check runs only when a maintainer points at local copies:

- a doc citation must name a page of the reference directory, an anchor that exists on
  it, and lines that lie inside that anchor's section;
- a runtime (driver) source citation must name a file that exists at the pinned runtime
  (driver) commit, with the lines in it.

Problems are reported like every other spec issue, at the citation's place in rules.yaml.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from .errors import SpecIssue
from .evidence import Citation
from .validate import Document

_ANCHOR = re.compile(r'^<a id="([^"]+)"></a>\s*$')


def anchor_sections(lines: list[str]) -> dict[str, tuple[int, int]]:
    """Anchor -> (first line, last line), 1-based, of the section each ``<a id>`` opens.

    A section runs from its anchor to the line before the next anchor that opens a heading
    (an anchor whose next non-blank line starts with ``#``); inline anchors (tables) do not
    end a section.
    """
    starts: list[tuple[str, int, bool]] = []
    for index, line in enumerate(lines):
        match = _ANCHOR.match(line)
        if match:
            following = next((s for s in lines[index + 1:] if s.strip()), "")
            starts.append((match.group(1), index + 1, following.startswith("#")))
    heading_starts = [n for _, n, heading in starts if heading]
    out: dict[str, tuple[int, int]] = {}
    for name, start, _heading in starts:
        later = [n for n in heading_starts if n > start]
        out[name] = (start, (later[0] - 1) if later else len(lines))
    return out


def _citation_sites(rules_doc: Document) -> Iterator[tuple[list[str | int], dict[str, str]]]:
    """(field path, raw citation) of every citation in rules.yaml."""
    for i, rule in enumerate(rules_doc.data["rules"]):
        base: list[str | int] = ["rules", i]
        groups: list[tuple[list[str | int], Any]] = [(base + ["evidence"], rule.get("evidence"))]
        if "code" in rule:
            groups.append((base + ["code", "evidence"], rule["code"]["evidence"]))
        for j, err in enumerate(rule.get("errors", [])):
            groups.append((base + ["errors", j, "evidence"], err["evidence"]))
            if "code" in err:
                groups.append((base + ["errors", j, "code", "evidence"], err["code"]["evidence"]))
            if err.get("since"):
                groups.append((base + ["errors", j, "since", "evidence"], err["since"]["evidence"]))
        for key in ("since", "until"):
            if rule.get(key):
                groups.append((base + [key, "evidence"], rule[key]["evidence"]))
        for key, values in (rule.get("matrix_since") or {}).items():
            for value, claim in values.items():
                groups.append((base + ["matrix_since", key, value, "evidence"], claim["evidence"]))
        for path, items in groups:
            for k, raw in enumerate(items or []):
                yield path + [k], raw


def _difference_sites(rules_doc: Document) -> Iterator[tuple[list[str | int], dict[str, str]]]:
    """(field path, raw citation) of every release's ``differences`` (sources.releases)."""
    for j, release in enumerate((rules_doc.data.get("sources") or {}).get("releases") or []):
        for k, raw in enumerate(release.get("differences") or []):
            yield ["sources", "releases", j, "differences", k], raw


def _release_sites(interfaces_doc: Document) -> Iterator[tuple[list[str | int], dict[str, str]]]:
    """(field path, raw citation) of every release citation of interfaces.yaml (since, support_since)."""
    for i, interface in enumerate(interfaces_doc.data["interfaces"]):
        claims: list[tuple[list[str | int], Any]] = []
        for key in ("since", "declared_since"):
            if interface.get(key):
                claims.append((["interfaces", i, key], interface[key]))
        for family, claim in (interface.get("support_since") or {}).items():
            claims.append((["interfaces", i, "support_since", family], claim))
        for path, claim in claims:
            for k, raw in enumerate(claim["evidence"]):
                yield path + ["evidence", k], raw


class CitationVerifier:
    """Verifies citations against a reference directory of API pages and/or runtime and driver git dirs."""

    def __init__(self, reference: Path | None, runtime_git: Path | None, commit: str,
                 driver_git: Path | None = None, driver_commit: str = "",
                 branches: dict[str, str] | None = None) -> None:
        self.reference = reference
        self.repos = {"src": (runtime_git, commit), "drv": (driver_git, driver_commit)}
        # A release cut on a branch is read at the commit the spec records for it, not at the
        # branch's head today, which moves on after the spec was checked.
        self.branches = dict(branches or {})

    @cache  # noqa: B019 - one verifier per lint run; the cache dies with it
    def _page(self, page: str) -> list[str] | None:
        assert self.reference is not None
        path = self.reference / page
        return path.read_text(encoding="utf-8").splitlines() if path.is_file() else None

    def page(self, page: str) -> list[str] | None:
        """The lines of a page of the reference directory, or None when it has no such page."""
        return self._page(page)

    @cache  # noqa: B019
    def _source(self, kind: str, path: str, revision: str = "") -> list[str] | None:
        git_dir, commit = self.repos[kind]
        assert git_dir is not None
        proc = subprocess.run(["git", "-C", str(git_dir), "show", f"{revision or commit}:{path}"],
                              capture_output=True, text=True, check=False)
        return proc.stdout.splitlines() if proc.returncode == 0 else None

    @cache  # noqa: B019
    def _has_tag(self, tag: str) -> bool:
        git_dir = self.repos["src"][0]
        assert git_dir is not None
        proc = subprocess.run(["git", "-C", str(git_dir), "rev-parse", "--verify", "-q", f"refs/tags/{tag}"],
                              capture_output=True, text=True, check=False)
        return proc.returncode == 0

    @cache  # noqa: B019
    def _has_commit(self, commit: str) -> bool:
        git_dir = self.repos["src"][0]
        assert git_dir is not None
        proc = subprocess.run(["git", "-C", str(git_dir), "cat-file", "-e", f"{commit}^{{commit}}"],
                              capture_output=True, text=True, check=False)
        return proc.returncode == 0

    def _release_revision(self, ref: str) -> tuple[str, str | None]:
        """(the revision a release qualifier is read at, why it cannot be read): a branch release's
        recorded commit, else the tag."""
        commit = self.branches.get(ref)
        if commit:
            if not self._has_commit(commit):
                return "", f"hicann/runtime has no commit {commit[:12]} (branch {ref})"
            return commit, None
        if not self._has_tag(ref):
            return "", f"hicann/runtime has no tag {ref}"
        return f"refs/tags/{ref}", None

    def _at_release(self, citation: Citation) -> str | None:
        """A citation into a release of the runtime repository (docs or source): file and lines at the
        release's tag, or at the commit the spec records for a branch release."""
        if self.repos["src"][0] is None:
            return None
        revision, why_not = self._release_revision(citation.release)
        if why_not:
            return why_not
        source = self._source("src", citation.target, revision)
        if source is None:
            return f"{citation.target} does not exist at hicann/runtime {citation.release}"
        if citation.last > len(source):
            return (f"{citation.target} has {len(source)} lines at hicann/runtime {citation.release}, "
                    f"not {citation.last}")
        return None

    def problem(self, citation: Citation) -> str | None:
        """Why the citation does not hold against the local copies, or None."""
        if citation.release:
            return self._at_release(citation)
        if citation.kind == "doc":
            if self.reference is None:
                return None
            lines = self._page(citation.page)
            if lines is None:
                return f"page {citation.page!r} is not in {self.reference}"
            section = anchor_sections(lines).get(citation.anchor)
            if section is None:
                return f"{citation.page} has no anchor {citation.anchor!r}"
            if not (section[0] <= citation.first and citation.last <= section[1]):
                return (f"lines {citation.lines} lie outside the section of #{citation.anchor} "
                        f"(lines {section[0]}-{section[1]})")
            return None
        git_dir, commit = self.repos[citation.kind]
        if git_dir is None:
            return None
        source = self._source(citation.kind, citation.target)
        repo = "hicann/runtime" if citation.kind == "src" else "hicann/driver"
        if source is None:
            return f"{citation.target} does not exist at {repo} commit {commit[:12]}"
        if citation.last > len(source):
            return f"{citation.target} has {len(source)} lines at {repo} commit {commit[:12]}, not {citation.last}"
        return None

    def run(self, rules_doc: Document, interfaces_doc: Document | None = None) -> list[SpecIssue]:
        """Every citation of rules.yaml (the releases' differences included, and the release citations of
        interfaces.yaml) that does not hold."""
        sites = [(rules_doc, path, raw) for path, raw in _citation_sites(rules_doc)]
        sites += [(rules_doc, path, raw) for path, raw in _difference_sites(rules_doc)]
        if interfaces_doc is not None:
            sites += [(interfaces_doc, path, raw) for path, raw in _release_sites(interfaces_doc)]
        issues = []
        for doc, path, raw in sites:
            problem = self.problem(Citation.parse(raw))
            if problem:
                issues.append(SpecIssue(doc.where(path), problem))
        return issues
