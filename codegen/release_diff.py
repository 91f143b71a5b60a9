"""``python -m codegen release-diff OLD NEW``: what a runtime release changed, for the spec's maintainers.

Upgrading the spec from one CANN release to the next means finding out what the release
changed for the nine host-memory interfaces and which of the spec's citations it touched.
This module answers it in one reviewable report (Markdown, or JSON with ``--json``):

1. the public headers (``include/external/acl``): the nine functions and their C++ overloads,
   the types they use (enum values, struct fields) and their flag macros, added, removed or changed;
2. the product-support lists and tables of the nine API sections and their types' sections;
3. every other line of those sections that changed, moved, came or went, compared by what it
   says, so that a new page layout alone is no change;
4. every spec citation whose lines moved between the two revisions, and where to;
5. every citation whose cited text changed (the rule that rests on it needs a review);
6. whatever is new in those sections and headers that no citation covers.

A citation is followed from the revision it lives at: unqualified ``doc``/``src`` citations
at the pinned runtime commit (``sources.runtime``; doc pages are ``docs/zh/api_ref/<page>``
there, as :meth:`codegen.evidence.Citation.url` maps them), ``drv`` citations at the pinned
driver commit, release-qualified ones (``v8.5.0:docs/api_docs/x.md:13``) at their tag. From
there it is projected onto OLD and onto NEW: source files through ``git diff`` hunks (with
rename detection), API sections by their anchor and by what their lines say, product-support
entries by product. A citation that lives at NEW is thereby followed backwards: the report
says where it was at OLD, or that it is new in NEW.

The spec is read as raw YAML (with line numbers), never validated: this tool must work while
the spec is in the middle of an upgrade.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cheader import Change, Header, compare_headers, merge_headers, parse_header
from .docsections import (
    DocIndex,
    DocLine,
    LineChange,
    Section,
    align_lines,
    compare_lines,
    content_lines,
    docs_root,
    heading_level,
    inline_diff,
    normalise,
    product_support,
    similarity,
)
from .evidence import DOCS_PATH, KINDS, Citation
from .gitread import GitError, GitRepo, map_line
from .load import spec_hash
from .yamlload import format_path, load_yaml

EXIT_BAD_INPUT = 2
HEADERS_DIR = "include/external/acl"
#: A cited line that git reports as rewritten is still found when a line of the rewrite is this alike.
SIMILAR = 0.6
_RELEASE_NAME = re.compile(r"[0-9]+(\.[0-9]+)+(-(alpha|beta|rc)\.[0-9]+)?|master@[0-9a-f]{7,40}")
_TAG_LIKE = re.compile(r"v[0-9][0-9A-Za-z.+-]*")
_GROUP = "host_memory"


class ReleaseDiffError(Exception):
    """Bad input (unknown release, missing tag or directory) or an unreadable repository: one line."""


# ------------------------------------------------------------------ the spec, read raw


@dataclass(frozen=True)
class Site:
    """A place in the spec that uses a citation: file, line, the rule or interface, the field path in it."""

    file: str
    line: int
    owner: str
    field: str


@dataclass
class SpecCitation:
    """One citation as the spec writes it, with every place that uses it."""

    kind: str  # doc | src | drv
    written: str  # the value of the doc/src/drv key
    says: str
    sites: list[Site] = field(default_factory=list)
    citation: Citation | None = None
    problem: str = ""  # why it cannot be parsed

    @property
    def ref(self) -> str:
        """``doc: page#anchor:lines`` / ``src: path:lines``."""
        return f"{self.kind}: {self.written}"


@dataclass
class SpecView:
    """What the report needs from the spec: pinned commits, releases, citations and the interfaces' scope."""

    runtime_commit: str
    driver_commit: str
    releases: list[dict[str, Any]]
    citations: list[SpecCitation]
    functions: list[str]
    types: list[str]
    flags: list[str]
    doc_pages: dict[str, str]  # interface or type -> the pinned page its doc link names
    known: frozenset[str]  # every name the spec transcribes (types, members, macros, interfaces)


def _load(spec_dir: Path, name: str) -> Any:
    path = spec_dir / name
    display = str(path)
    if not path.is_file():
        raise ReleaseDiffError(f"{display}: no such spec file")
    data, issues = load_yaml(path, display)
    if data is None:
        raise ReleaseDiffError(str(issues[0]) if issues else f"{display}: empty")
    return data


def read_spec(spec_dir: Path) -> SpecView:
    """Read sources, citations and scope from ``spec_dir`` (raw YAML; the spec need not validate)."""
    if not spec_dir.is_dir():
        raise ReleaseDiffError(f"--spec {spec_dir}: no such directory")
    rules = _load(spec_dir, "rules.yaml")
    interfaces = _load(spec_dir, "interfaces.yaml")
    types = _load(spec_dir, "types.yaml")
    sources = rules.get("sources") or {}
    citations: dict[tuple[str, str], SpecCitation] = {}
    for name, data in (("rules.yaml", rules), ("interfaces.yaml", interfaces)):
        for site, raw in _citation_dicts(data, str(spec_dir / name)):
            _add_citation(citations, site, raw)
    functions, doc_pages = _scope_functions(interfaces)
    type_names, flags = _scope_types(interfaces, types, functions)
    for entry in _named_entries(types):
        if entry.get("name") in type_names and isinstance(entry.get("doc"), dict):
            doc_pages[entry["name"]] = str(entry["doc"].get("page", ""))
    return SpecView(
        runtime_commit=str((sources.get("runtime") or {}).get("commit", "")),
        driver_commit=str((sources.get("driver") or {}).get("commit", "")),
        releases=[dict(r) for r in sources.get("releases") or [] if isinstance(r, dict)],
        citations=list(citations.values()),
        functions=functions,
        types=type_names,
        flags=flags,
        doc_pages=doc_pages,
        known=frozenset(_all_names(types) | _all_names(interfaces)),
    )


def _citation_dicts(data: Any, display: str) -> Iterator[tuple[Site, dict[str, Any]]]:
    """(site, raw) of every mapping with a string ``doc``/``src``/``drv`` key anywhere in a document.

    A generic walk, not the schema's list of places: since/until and support_since evidence
    are found wherever the spec puts them.
    """
    stack: list[tuple[Any, list[str | int], str, int]] = [(data, [], "", 0)]
    while stack:
        node, path, owner, owner_depth = stack.pop()
        if isinstance(node, dict):
            if any(isinstance(node.get(k), str) for k in KINDS) and "says" in node:
                yield Site(display, getattr(node, "line", 1), owner, format_path(path[owner_depth:])), node
                continue
            ident = node.get("id") or node.get("name")
            if isinstance(ident, str) and path:
                owner, owner_depth = ident, len(path)
            stack.extend((v, [*path, k], owner, owner_depth) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((v, [*path, i], owner, owner_depth) for i, v in reversed(list(enumerate(node))))


def _add_citation(found: dict[tuple[str, str], SpecCitation], site: Site, raw: dict[str, Any]) -> None:
    kind = next(k for k in KINDS if isinstance(raw.get(k), str))
    key = (kind, raw[kind])
    if key not in found:
        entry = SpecCitation(kind, raw[kind], str(raw.get("says", "")))
        try:
            entry.citation = Citation.parse({k: str(v) for k, v in raw.items() if isinstance(v, (str, int))})
        except (ValueError, KeyError) as exc:
            entry.problem = str(exc)
        found[key] = entry
    found[key].sites.append(site)


def _named_entries(data: Any) -> Iterator[dict[str, Any]]:
    """Every mapping with a ``name`` in the top-level lists of a document."""
    for value in (data or {}).values():
        if isinstance(value, list):
            yield from (e for e in value if isinstance(e, dict) and "name" in e)


def _all_names(data: Any) -> set[str]:
    names: set[str] = set()
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("name"), str):
                names.add(node["name"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return names


def _scope_functions(interfaces: Any) -> tuple[list[str], dict[str, str]]:
    """The interfaces under test (group host_memory) and the page each one's doc link names."""
    entries = [e for e in interfaces.get("interfaces") or [] if isinstance(e, dict) and e.get("group") == _GROUP]
    if not entries:
        raise ReleaseDiffError(f"interfaces.yaml lists no interface of group {_GROUP}")
    pages = {str(e["name"]): str((e.get("doc") or {}).get("page", "")) for e in entries}
    return [str(e["name"]) for e in entries], pages


def _bare_type(text: str) -> str:
    return re.sub(r"\bconst\b|[*&\s]", "", str(text))


def _scope_types(interfaces: Any, types: Any, functions: list[str]) -> tuple[list[str], list[str]]:
    """The spec's types the interfaces use (their struct fields' types too), and their flag macros."""
    defined = {str(e["name"]): e for e in _named_entries(types)}
    wanted: list[str] = []
    flags: list[str] = []
    for entry in interfaces.get("interfaces") or []:
        if not isinstance(entry, dict) or entry.get("name") not in functions:
            continue
        for param in entry.get("params") or []:
            wanted.append(_bare_type(param.get("type", "")))
            for constraint in param.get("constraints") or []:
                if isinstance(constraint, dict):
                    flags += [str(f) for f in (constraint.get("flags") or {}).get("allowed") or []]
                    wanted.append(str((constraint.get("enum") or {}).get("type", "")))
    out: list[str] = []
    while wanted:
        name = wanted.pop(0)
        if name in defined and name not in out and "members" in defined[name]:
            out.append(name)
            wanted += [_bare_type(m.get("type", "")) for m in defined[name]["members"] if isinstance(m, dict)]
    return out, list(dict.fromkeys(flags))


def flag_prefixes(flags: list[str]) -> list[str]:
    """The name prefixes of a set of flag macros (``ACL_HOST_REG_``), so that new flags are noticed too."""
    if not flags:
        return []
    common = os.path.commonprefix(flags)
    if "_" in common and len(flags) > 1:
        return [common[: common.rindex("_") + 1]]
    return list(flags)


# ------------------------------------------------------------------ revisions


@dataclass(frozen=True)
class Revision:
    """One side of the diff: the runtime commit, its release, its API-page root and the driver commit."""

    given: str
    label: str
    release: str
    tag: str
    commit: str
    docs: str
    driver: str  # commit in hicann/driver, "" if unknown
    driver_note: str = ""

    def describe(self) -> dict[str, str]:
        """The revision as the report shows it."""
        return {"given": self.given, "label": self.label, "release": self.release, "tag": self.tag,
                "commit": self.commit, "docs": self.docs, "driver": self.driver or self.driver_note}


def _release_by(spec: SpecView, key: str, value: str) -> dict[str, Any] | None:
    return next((r for r in spec.releases if str(r.get(key, "")) == value), None)


def resolve_revision(given: str, spec: SpecView, runtime: GitRepo, driver: GitRepo | None) -> Revision:
    """A revision from a release name (``9.1.0``, ``9.2.0-beta.2``), a tag (``v9.1.0``), ``pinned``, a branch
    or a commit. A release cut on a branch is read at the commit the spec records for it; a branch the spec
    does not know, at its head."""
    release: dict[str, Any] | None = None
    tag = ""
    if given == "pinned":
        commit = _need_commit(runtime, spec.runtime_commit, "the pinned commit (sources.runtime)")
    elif (found := _release_by(spec, "name", given) or _release_by(spec, "branch", given)) or \
            (_RELEASE_NAME.fullmatch(given) and runtime.commit(given) is None):
        release = found
        if release is None:  # a release's name, neither in the spec nor a branch of the repository
            known = ", ".join(str(r.get("name")) for r in spec.releases)
            raise ReleaseDiffError(f"unknown release {given!r} (the spec's sources.releases: {known})")
        tag = str(release.get("tag", ""))
        commit = _tag_commit(runtime, tag) if tag else _need_commit(runtime, str(release.get("commit", "")),
                                                                   f"release {given}'s commit")
    elif _TAG_LIKE.fullmatch(given):
        tag = given
        commit = _tag_commit(runtime, tag)
        release = _release_by(spec, "tag", tag)
    else:
        commit = _need_commit(runtime, given, repr(given))
    release = release or _release_by(spec, "commit", commit)
    name = str(release.get("name", "")) if release else ""
    branch = str(release.get("branch", "")) if release else ""
    label = tag or branch or ("pinned" if commit == spec.runtime_commit else commit[:12])
    root = docs_root(runtime, commit, str(release.get("docs", "")) if release else "") or docs_root(runtime, commit)
    drv, note = _driver_commit(spec, driver, release, commit, tag)
    return Revision(given, label, name, tag, commit, root, drv, note)


def _tag_commit(repo: GitRepo, tag: str) -> str:
    commit = repo.commit(f"refs/tags/{tag}") if repo.is_tag(tag) else None
    if commit is None:
        raise ReleaseDiffError(f"hicann/runtime at {repo.git_dir} has no tag {tag}")
    return commit


def _need_commit(repo: GitRepo, rev: str, what: str) -> str:
    commit = repo.commit(rev) if rev else None
    if commit is None:
        raise ReleaseDiffError(f"{what} is not a tag, release or commit of hicann/runtime at {repo.git_dir}")
    return commit


def _driver_commit(spec: SpecView, driver: GitRepo | None, release: dict[str, Any] | None, commit: str,
                   tag: str) -> tuple[str, str]:
    """The driver commit that goes with a runtime revision: the release's ``driver``, the pinned driver
    for the pinned runtime, or a driver tag of the same name; else ("", why not)."""
    if driver is None:
        return "", "no --driver-git"
    candidates = [str(release.get("driver", ""))] if release else []
    if commit == spec.runtime_commit:
        candidates.append(spec.driver_commit)
    if tag and driver.is_tag(tag):
        candidates.append(f"refs/tags/{tag}")
    for candidate in candidates:
        found = driver.commit(candidate) if candidate else None
        if found:
            return found, ""
    return "", "no hicann/driver revision is known for it"


# ------------------------------------------------------------------ following a citation


@dataclass(frozen=True)
class Home:
    """Where a citation's lines live: repository, commit, file, lines and (docs) the section's name."""

    repo: str  # runtime | driver
    commit: str
    path: str
    first: int
    last: int
    doc: bool
    anchor: str = ""


@dataclass(frozen=True)
class Place:
    """Where a citation's lines are at one revision, and whether they still say what they said at home."""

    path: str
    first: int
    last: int
    text: tuple[str, ...]
    same: bool  # the lines say what the cited lines say (layout and spelling aside)
    how: str  # home | diff | section | rename

    @property
    def at(self) -> str:
        """``path:first-last``."""
        return f"{self.path}:{self.first}" if self.first == self.last else f"{self.path}:{self.first}-{self.last}"

    def describe(self) -> dict[str, Any]:
        """The place as the report shows it."""
        return {"at": self.at, "path": self.path, "first": self.first, "last": self.last, "how": self.how,
                "same_as_cited": self.same, "text": list(self.text)}


class Follower:
    """Follows citations between revisions; every file, section and diff it reads is cached."""

    def __init__(self, runtime: GitRepo, driver: GitRepo | None, roots: dict[str, str] | None = None) -> None:
        self.repos = {"runtime": runtime, "driver": driver}
        self.roots = dict(roots or {})  # commit -> API-page root the spec names for it
        self._indexes: dict[str, DocIndex] = {}
        self._content: dict[tuple[str, str, int, int, bool], list[DocLine]] = {}
        self._aligned: dict[tuple[str, Section, str, Section], dict[int, LineChange]] = {}

    def index(self, commit: str) -> DocIndex:
        """The API pages of a runtime commit."""
        if commit not in self._indexes:
            runtime = self.repos["runtime"]
            assert runtime is not None
            root = docs_root(runtime, commit, self.roots.get(commit, "")) or docs_root(runtime, commit)
            self._indexes[commit] = DocIndex(runtime, commit, root)
        return self._indexes[commit]

    def content(self, commit: str, section: Section, skip_support: bool = False) -> list[DocLine]:
        """A section's content lines (cached)."""
        key = (commit, section.path, section.first, section.last, skip_support)
        if key not in self._content:
            self._content[key] = content_lines(self.index(commit).lines(section.path), section, skip_support)
        return self._content[key]

    def aligned(self, commit: str, section: Section, target: str, other: Section) -> dict[int, LineChange]:
        """What became of each content line of ``section`` in ``other`` (cached: many citations share one)."""
        key = (commit, section, target, other)
        if key not in self._aligned:
            self._aligned[key] = align_lines(self.content(commit, section), self.content(target, other))
        return self._aligned[key]

    def follow(self, home: Home, target: str) -> Place | None:
        """The citation's lines at commit ``target`` of its repository, or None if they are not there."""
        repo = self.repos[home.repo]
        assert repo is not None
        text = repo.lines(home.commit, home.path)
        if text is None:
            return None
        if target == home.commit:
            return Place(home.path, home.first, home.last, text[home.first - 1:home.last], True, "home")
        if home.doc and home.anchor:
            place = self._follow_section(home, target)
            if place is not None:
                return place
        return self._follow_file(repo, home, target)

    def support_products(self, home: Home) -> list[str]:
        """The products of the support entries among a doc citation's lines ([] for anything else)."""
        if not home.doc or not home.anchor:
            return []
        section = self.index(home.commit).locate(home.anchor, hint_page=home.path)
        if section is None or section.path != home.path:
            return []
        entries = _support_by_line(self.index(home.commit).lines(home.path), section)
        return [p for line in range(home.first, home.last + 1) for p in entries.get(line, {})]

    # -- source files: git diff hunks

    def _counterpart(self, repo: GitRepo, home: Home, target: str) -> tuple[str, str] | None:
        """The file's path at ``target`` and how it was found (its own path, or a rename git detects)."""
        if repo.lines(target, home.path) is not None:
            return home.path, "diff"
        # Rename detection looks at the whole tree (a second or so); only a file that is gone needs it.
        renamed = repo.renames(home.commit, target).get(home.path)
        return (renamed, "rename") if renamed else None

    def _follow_file(self, repo: GitRepo, home: Home, target: str) -> Place | None:
        found = self._counterpart(repo, home, target)
        if found is None:
            return None
        path, how = found
        old_lines = repo.lines(home.commit, home.path) or ()
        new_lines = repo.lines(target, path) or ()
        hunks = list(repo.hunks(home.commit, home.path, target, path))
        hits: list[int] = []
        for line in range(home.first, home.last + 1):
            # Lines are found in order: a cited run stays one run, even where a file holds two similar ones.
            cursor = hits[-1] if hits else 0
            mapped = map_line(hunks, line)
            if mapped is None or mapped < cursor:
                mapped = _rewritten_line(hunks, line, old_lines, new_lines, home.doc, cursor)
            if mapped is not None:
                hits.append(mapped)
        cited = old_lines[home.first - 1:home.last]
        if hits:
            first, last = min(hits), max(hits)
            if _says(cited, home.doc) == _says(new_lines[first - 1:last], home.doc):
                return Place(path, first, last, new_lines[first - 1:last], True, how)
        # git may pair the lines with a look-alike elsewhere (one of two variants of a macro), or show a
        # moved function as deleted and re-added: the same text anywhere in the file is where it went.
        near = min(hits) if hits else (map_line(hunks, home.first - 1) or 0) + 1
        same_text = _find_text(_says(cited, home.doc), new_lines, home.doc, near)
        if same_text is not None:
            first, last = same_text
            return Place(path, first, last, new_lines[first - 1:last], True, how)
        if not hits:
            return None
        return Place(path, first, last, new_lines[first - 1:last], False, how)

    # -- API sections: by anchor and by what the lines say

    def _follow_section(self, home: Home, target: str) -> Place | None:
        home_index, index = self.index(home.commit), self.index(target)
        home_section = home_index.locate(home.anchor, hint_page=home.path)
        if home_section is None or home_section.path != home.path:
            return None
        # The anchor finds the section; the page name only breaks ties (same chapter number wins).
        section = index.locate(home.anchor, hint_page=home.path)
        if section is None:
            return None
        cited = [d for d in self.content(home.commit, home_section) if home.first <= d.line <= home.last]
        if not cited:
            return None
        hits, same = self._match_lines(home, home_section, cited, target, section)
        if not hits:
            return None
        lines = index.lines(section.path)
        first, last = min(hits), max(hits)
        return Place(section.path, first, last, lines[first - 1:last], same, "section")

    def _match_lines(self, home: Home, home_section: Section, cited: list[DocLine], target: str,
                     section: Section) -> tuple[list[int], bool]:
        """The target lines the cited content lines became, and whether all of them say the same."""
        home_lines, lines = self.index(home.commit).lines(home.path), self.index(target).lines(section.path)
        entries = _support_by_line(home_lines, home_section)
        support = product_support(lines, section)
        aligned = self.aligned(home.commit, home_section, target, section)
        hits: list[int] = []
        same = True
        for line in cited:
            if line.line in entries:
                # A support entry is found by its product, whatever the list or table looks like.
                products = entries[line.line]
                there = [support[p] for p in products if p in support]
                hits += [t[1] for t in there]
                same = same and len(there) == len(products) and all(support[p][0] == v for p, v in products.items())
                continue
            change = aligned.get(line.line)
            if change is None or change.new is None:
                same = False
                continue
            hits += [change.new.line] + [d.line for d in change.extra]
            same = same and change.kind in ("same", "moved")
        return hits, same


def _support_by_line(lines: tuple[str, ...], section: Section) -> dict[int, dict[str, bool | None]]:
    """Line -> {product: supported} of a section's product-support entries."""
    out: dict[int, dict[str, bool | None]] = {}
    for product, (value, line, _mark) in product_support(lines, section).items():
        out.setdefault(line, {})[product] = value
    return out


def _code(text: str) -> str:
    """Source text without its spacing and line continuations, so that re-indenting, re-wrapping or
    re-aligning a macro's backslashes is no change."""
    return re.sub(r"\s+", "", re.sub(r"\\[ \t]*$", "", text, flags=re.M))


def _says(lines: tuple[str, ...] | list[str], doc: bool) -> str:
    """What a run of lines says: normalised doc text, or source text without spacing."""
    if doc:
        return " ".join(n for n in (normalise(s) for s in lines) if n)
    return "".join(_code(s) for s in lines)


#: Text shorter than this (a lone brace) is not searched for: it would be found anywhere.
_SEARCHABLE = 12


def _find_text(text: str, lines: tuple[str, ...], doc: bool, near: int) -> tuple[int, int] | None:
    """The run of ``lines`` (first, last) that says exactly ``text``, the one nearest line ``near``."""
    if len(text) < _SEARCHABLE:
        return None
    said = [_says((line,), doc) for line in lines]
    runs = []
    for start, first in enumerate(said):
        if not first or not text.startswith(first):
            continue
        joined, end = "", start
        while end < len(said) and len(joined) < len(text):
            joined += said[end] if not doc or not joined or not said[end] else " " + said[end]
            if not text.startswith(joined):
                break
            end += 1
        if joined == text:
            runs.append((abs(start + 1 - near), start + 1, end))
    return min(runs)[1:] if runs else None


def _rewritten_line(hunks: list[Any], line: int, old: tuple[str, ...], new: tuple[str, ...], doc: bool,
                    cursor: int = 0) -> int | None:
    """The line, not before ``cursor``, of the hunk that rewrote old ``line`` that carries it on: the same
    text respaced, a line that contains it (a re-wrapped declaration), or the most alike line at least
    :data:`SIMILAR` alike; the nearest such line wins."""
    hunk = next((h for h in hunks if h.old_count and h.old_start <= line < h.old_start + h.old_count), None)
    if hunk is None or not hunk.new_count or line > len(old):
        return None
    cited = _says((old[line - 1],), doc)
    if not cited:
        return None
    candidates = [(n, _says((new[n - 1],), doc)) for n in range(max(hunk.new_start, cursor),
                                                                  hunk.new_start + hunk.new_count) if n <= len(new)]
    for number, text in candidates:
        if text == cited and number > cursor:
            return number
    for number, text in candidates:
        if len(cited) >= 8 and cited in text:
            return number
    best, best_ratio = None, SIMILAR
    for number, text in candidates:
        ratio = similarity(cited, text, best_ratio) if text else 0.0
        if ratio > best_ratio or (best is None and ratio >= best_ratio):
            best, best_ratio = number, ratio
    return best


# ------------------------------------------------------------------ citations between OLD and NEW


@dataclass
class Followed:
    """A citation at OLD and at NEW, and what that means for the spec."""

    cite: SpecCitation
    home: str  # where it lives, e.g. "pinned runtime 681ef7610df1"
    old: Place | None
    new: Place | None
    status: str  # unchanged | moved | changed | removed | new | absent | not-followed
    note: str = ""

    def describe(self) -> dict[str, Any]:
        """The citation as the report shows it."""
        return {"citation": self.cite.ref, "kind": self.cite.kind, "written": self.cite.written,
                "says": self.cite.says, "used_by": [vars(s) for s in self.cite.sites], "lives_at": self.home,
                "status": self.status, "note": self.note, "old": self.old.describe() if self.old else None,
                "new": self.new.describe() if self.new else None}


def _home(cite: SpecCitation, spec: SpecView, follower: Follower) -> tuple[Home | None, str, str]:
    """(home, label, why not) of a citation: where its lines live."""
    c = cite.citation
    if c is None:
        return None, "", f"cannot be parsed: {cite.problem}"
    if c.kind == "drv":
        return _driver_home(c, spec, follower.repos["driver"])
    runtime = follower.repos["runtime"]
    assert runtime is not None
    if c.release:
        branch = _release_by(spec, "branch", c.release)
        if branch is not None:  # a branch release: read at the commit the spec records for it
            commit = runtime.commit(str(branch.get("commit", "")))
            why_not = f"hicann/runtime has no commit {str(branch.get('commit', ''))[:12]} (branch {c.release})"
        else:
            commit = runtime.commit(f"refs/tags/{c.release}") if runtime.is_tag(c.release) else None
            why_not = f"hicann/runtime has no tag {c.release}"
        if commit is None:
            return None, c.release, why_not
        label, path = c.release, c.target
    else:
        commit = runtime.commit(spec.runtime_commit)
        if commit is None:
            return None, "pinned", f"hicann/runtime has no commit {spec.runtime_commit[:12]}"
        # Unqualified pages are the pinned snapshot: docs/zh/api_ref/<page> at sources.runtime.
        label, path = f"pinned {commit[:12]}", f"{DOCS_PATH}/{c.page}" if c.kind == "doc" else c.target
    if c.kind != "doc":
        return Home("runtime", commit, path, c.first, c.last, False), label, ""
    anchor = c.anchor if not c.release else follower.index(commit).name_at(path, c.first)
    return Home("runtime", commit, path, c.first, c.last, True, anchor), label, ""


def _driver_home(c: Citation, spec: SpecView, driver: GitRepo | None) -> tuple[Home | None, str, str]:
    if driver is None:
        return None, "pinned driver", "no --driver-git given"
    commit = driver.commit(spec.driver_commit) if spec.driver_commit else None
    if commit is None:
        return None, "pinned driver", f"hicann/driver has no commit {spec.driver_commit[:12] or '(none named)'}"
    return Home("driver", commit, c.target, c.first, c.last, False), f"driver {commit[:12]}", ""


def follow_citation(cite: SpecCitation, spec: SpecView, follower: Follower, old: Revision,
                    new: Revision) -> Followed:
    """Where a citation is at OLD and at NEW, and its status between the two."""
    home, label, problem = _home(cite, spec, follower)
    if home is None:
        return Followed(cite, label, None, None, "not-followed", problem)
    old_commit, new_commit = (old.commit, new.commit) if home.repo == "runtime" else (old.driver, new.driver)
    if not old_commit or not new_commit:
        side = old if not old_commit else new
        return Followed(cite, label, None, None, "not-followed",
                        f"hicann/driver at {side.label}: {side.driver_note}")
    if follower.repos[home.repo].lines(home.commit, home.path) is None:  # type: ignore[union-attr]
        return Followed(cite, label, None, None, "not-followed", f"{home.path} does not exist where it lives")
    at_old, at_new = follower.follow(home, old_commit), follower.follow(home, new_commit)
    status, note = _status(follower, home, at_old, at_new, old_commit, new_commit)
    products = follower.support_products(home)
    if products and status in ("absent", "new", "removed"):
        note = f"support entry for {', '.join(products)}: {note}; the support list does not name the product there"
    return Followed(cite, label, at_old, at_new, status, note)


def _status(follower: Follower, home: Home, at_old: Place | None, at_new: Place | None, old_commit: str,
            new_commit: str) -> tuple[str, str]:
    if at_old is None and at_new is None:
        return "absent", "the cited lines are found at neither revision"
    if at_new is None:
        return "removed", "the cited lines are gone at NEW"
    if at_old is None:
        return "new", "the cited lines are not there at OLD: new in NEW"
    if not _same_between(follower, home, at_old, at_new, old_commit, new_commit):
        return "changed", "the cited text differs between OLD and NEW"
    if (at_old.path, at_old.first, at_old.last) == (at_new.path, at_new.first, at_new.last):
        return "unchanged", ""
    return "moved", ""


def _same_between(follower: Follower, home: Home, at_old: Place, at_new: Place, old_commit: str,
                  new_commit: str) -> bool:
    """Whether the lines say the same at OLD and at NEW."""
    if at_old.same and at_new.same:
        return True
    if home.commit in (old_commit, new_commit):
        return False  # one side is the cited text itself, and the other does not say it
    # Neither side is the citation's home: follow the OLD lines to NEW themselves.
    moved_home = Home(home.repo, old_commit, at_old.path, at_old.first, at_old.last, home.doc, home.anchor)
    again = follower.follow(moved_home, new_commit)
    return again is not None and again.same and (again.path, again.first, again.last) == \
        (at_new.path, at_new.first, at_new.last)


# ------------------------------------------------------------------ headers, support, doc lines


def read_headers(repo: GitRepo, commit: str, functions: list[str]) -> Header:
    """Every ``.h`` below ``include/external/acl`` at ``commit``, parsed and merged."""
    headers = []
    for path in repo.files(commit, HEADERS_DIR):
        if path.endswith(".h"):
            headers.append(parse_header(path, "\n".join(repo.lines(commit, path) or ()), functions))
    return merge_headers(headers)


@dataclass
class SectionDiff:
    """One API or type section at OLD and NEW: its product-support changes and its other line changes."""

    name: str
    old: Section | None
    new: Section | None
    support: list[dict[str, Any]]
    lines: list[LineChange]


def _section_at(section: Section | None) -> str:
    return f"{section.path}:{section.first}-{section.last}" if section else ""


def compare_sections(follower: Follower, spec: SpecView, old: Revision, new: Revision) -> list[SectionDiff]:
    """The product-support and line changes of the nine interfaces' sections and their types'."""
    out = []
    for name in spec.functions + spec.types:
        hint = spec.doc_pages.get(name, "")
        a = follower.index(old.commit).locate(name, hint_page=hint)
        b = follower.index(new.commit).locate(name, hint_page=hint)
        support = _support_changes(follower, old.commit, a, new.commit, b)
        lines = compare_lines(_prose(follower, old.commit, a), _prose(follower, new.commit, b))
        out.append(SectionDiff(name, a, b, support, lines))
    return out


def _prose(follower: Follower, commit: str, section: Section | None) -> list[DocLine]:
    """A section's content lines without support list and headings: a heading renamed or dropped by a new
    layout ("函数原型") says nothing a reviewer must act on, the lines under it do."""
    if section is None:
        return []
    return [d for d in follower.content(commit, section, skip_support=True) if not heading_level(d.raw)]


def _support_changes(follower: Follower, old_commit: str, a: Section | None, new_commit: str,
                     b: Section | None) -> list[dict[str, Any]]:
    before = product_support(follower.index(old_commit).lines(a.path), a) if a else {}
    after = product_support(follower.index(new_commit).lines(b.path), b) if b else {}
    out = []
    for product in sorted(before.keys() | after.keys()):
        x, y = before.get(product), after.get(product)
        if x is not None and y is not None and (x[0] == y[0] if x[0] is not None else x[2] == y[2]):
            continue
        out.append({"product": product, "old": _support_word(x), "new": _support_word(y),
                    "old_mark": x[2] if x else "", "new_mark": y[2] if y else "",
                    "old_line": x[1] if x else None, "new_line": y[1] if y else None})
    return out


def _support_word(entry: tuple[bool | None, int, str] | None) -> str:
    if entry is None:
        return "not listed"
    return {True: "supported", False: "not supported"}.get(entry[0], entry[2])  # type: ignore[arg-type]


# ------------------------------------------------------------------ coverage


class Coverage:
    """The lines the spec's citations cover at NEW, per repository and file."""

    def __init__(self, followed: list[Followed]) -> None:
        self.spans: dict[tuple[str, str], list[tuple[int, int]]] = {}
        for item in followed:
            c = item.cite.citation
            if item.new is not None and c is not None:
                repo = "driver" if c.kind == "drv" else "runtime"
                self.spans.setdefault((repo, item.new.path), []).append((item.new.first, item.new.last))

    def covers(self, path: str, first: int, last: int | None = None, repo: str = "runtime") -> bool:
        """Whether a citation at NEW covers any of ``path`` lines ``first``..``last``."""
        end = first if last is None else last
        return any(a <= end and first <= b for a, b in self.spans.get((repo, path), []))


def _split_at(at: str) -> tuple[str, int]:
    path, _, line = at.rpartition(":")
    return path, int(line)


def uncovered(sections: list[SectionDiff], changes: list[Change], coverage: Coverage,
              spec: SpecView) -> list[dict[str, Any]]:
    """What is new or changed at NEW on the sections and in the headers that no citation covers."""
    out: list[dict[str, Any]] = []
    for diff in sections:
        if diff.new is None:
            continue
        path = diff.new.path
        for change in diff.lines:
            if change.kind in ("added", "changed") and change.new and not coverage.covers(path, change.new.line):
                out.append({"what": f"doc line ({change.kind})", "name": diff.name, "at": f"{path}:{change.new.line}",
                            "text": change.new.norm, "known_to_spec": None})
        for entry in diff.support:
            line = entry["new_line"]
            if line is not None and not coverage.covers(path, line):
                out.append({"what": "product support", "name": diff.name, "at": f"{path}:{line}",
                            "text": f"{entry['product']}: {entry['old']} -> {entry['new']}", "known_to_spec": None})
    for header in changes:
        if header.change == "removed" or not header.new_at:
            continue
        path, line = _split_at(header.new_at)
        if not coverage.covers(path, line):
            # The spec transcribes C prototypes, never the C++ overloads of acl_rt_api.h.
            known = "[C++]" not in header.name and header.name.split(".")[-1] in spec.known
            out.append({"what": f"header {header.what} ({header.change})", "name": header.name, "at": header.new_at,
                        "text": header.new, "known_to_spec": known})
    return out


# ------------------------------------------------------------------ the report


def build_report(spec_dir: Path, old_given: str, new_given: str, runtime_git: Path,
                 driver_git: Path | None) -> dict[str, Any]:
    """The whole report as a JSON-ready dict; raises ReleaseDiffError on bad input."""
    runtime = _open(runtime_git, "--runtime-git", "hicann/runtime")
    driver = _open(driver_git, "--driver-git", "hicann/driver") if driver_git is not None else None
    spec = read_spec(spec_dir)
    try:
        old = resolve_revision(old_given, spec, runtime, driver)
        new = resolve_revision(new_given, spec, runtime, driver)
        follower = Follower(runtime, driver, {old.commit: old.docs, new.commit: new.docs})
        changes = compare_headers(read_headers(runtime, old.commit, spec.functions),
                                  read_headers(runtime, new.commit, spec.functions), spec.types,
                                  flag_prefixes(spec.flags))
        sections = compare_sections(follower, spec, old, new)
        followed = [follow_citation(c, spec, follower, old, new) for c in spec.citations]
    except GitError as exc:
        raise ReleaseDiffError(str(exc)) from exc
    followed.sort(key=lambda f: (f.cite.kind, f.cite.written))
    coverage = Coverage(followed)
    by_status: dict[str, list[dict[str, Any]]] = {}
    for item in followed:
        by_status.setdefault(item.status, []).append(item.describe())
    return {
        "old": old.describe(),
        "new": new.describe(),
        "spec": str(spec_dir),
        "spec_hash": spec_hash(spec_dir),
        "driver_git": driver is not None,
        "scope": {"functions": spec.functions, "types": spec.types, "flags": spec.flags,
                  "flag_prefixes": flag_prefixes(spec.flags)},
        "headers": [vars(c) for c in changes],
        "support": [_support_entry(d) for d in sections if d.support],
        "doc_lines": [_lines_entry(d) for d in sections if d.lines or (d.old is None) != (d.new is None)],
        "citations": {s: by_status.get(s, []) for s in
                      ("moved", "changed", "removed", "new", "absent", "not-followed", "unchanged")},
        "uncovered": uncovered(sections, changes, coverage, spec),
        "summary": _summary(changes, sections, followed),
    }


def _open(path: Path, option: str, name: str) -> GitRepo:
    if not path.is_dir():
        raise ReleaseDiffError(f"{option} {path}: no such directory")
    try:
        return GitRepo(path, name)
    except GitError as exc:
        raise ReleaseDiffError(f"{option} {path}: {exc}") from exc


def _support_entry(diff: SectionDiff) -> dict[str, Any]:
    return {"name": diff.name, "old_at": _section_at(diff.old), "new_at": _section_at(diff.new),
            "changes": diff.support}


def _line_ref(line: DocLine | None) -> dict[str, Any] | None:
    return {"line": line.line, "text": line.norm, "products": line.scope} if line else None


def _lines_entry(diff: SectionDiff) -> dict[str, Any]:
    return {"name": diff.name, "old_at": _section_at(diff.old), "new_at": _section_at(diff.new),
            "changes": [{"kind": c.kind, "old": _line_ref(c.old), "new": _line_ref(c.new)} for c in diff.lines]}


def _summary(changes: list[Change], sections: list[SectionDiff], followed: list[Followed]) -> dict[str, Any]:
    statuses: dict[str, int] = {}
    for item in followed:
        statuses[item.status] = statuses.get(item.status, 0) + 1
    return {
        "header_changes": len(changes),
        "sections_with_support_changes": sum(1 for d in sections if d.support),
        "doc_line_changes": sum(len(d.lines) for d in sections),
        "sections_missing": {d.name: "OLD" if d.new else "NEW" if d.old else "OLD and NEW"
                             for d in sections if not (d.old and d.new)},
        "citations": len(followed),
        "citations_by_status": dict(sorted(statuses.items())),
    }


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same directory and a rename, so that a
    failed run never leaves a half-written report."""
    if not path.parent.is_dir():
        raise ReleaseDiffError(f"--out {path}: directory {path.parent} does not exist")
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise



# ------------------------------------------------------------------ Markdown

_CLIP = 220


def render(report: dict[str, Any], as_json: bool) -> str:
    """The report as JSON or Markdown."""
    if as_json:
        return json.dumps(report, indent=1, ensure_ascii=False) + "\n"
    return markdown(report)


def markdown(report: dict[str, Any]) -> str:
    """The report as one Markdown document, sections in the order of the upgrade routine."""
    old, new = report["old"]["label"], report["new"]["label"]
    parts = [
        _md_head(report, old, new),
        _md_summary(report, old, new),
        _md_headers(report["headers"]),
        _md_support(report["support"], old, new),
        _md_doc_lines(report["doc_lines"], old, new),
        _md_moved(report["citations"]["moved"], old, new),
        _md_changed(report["citations"], old, new),
        _md_uncovered(report["uncovered"]),
        _md_rest(report["citations"], old, new),
    ]
    return "\n".join(parts).rstrip("\n") + "\n"


def _span(text: str, limit: int = _CLIP) -> str:
    """``text`` as an inline code span (clipped), safe whatever backticks it holds."""
    text = " ".join(str(text).split())
    if len(text) > limit:
        text = text[:limit] + "…"
    if not text:
        return "(empty)"
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _cell(text: str) -> str:
    """A table cell: pipes escaped (GFM splits cells at them even inside code spans)."""
    return text.replace("|", "\\|")


#: The line of a report that names the spec it was made from; a report whose spec hash is not the spec's is stale.
SPEC_HASH_LINE = "Made from the spec with hash "


def report_spec_hash(markdown: str) -> str | None:
    """The spec hash a Markdown report says it was made from, or None (a report older than the line)."""
    match = re.search(re.escape(SPEC_HASH_LINE) + r"`([0-9a-f]+)`", markdown)
    return match.group(1) if match else None


def _md_head(report: dict[str, Any], old: str, new: str) -> str:
    o, n = report["old"], report["new"]
    rows = [("revision", o["label"], n["label"]), ("release in the spec", o["release"] or "-", n["release"] or "-"),
            ("hicann/runtime commit", f"`{o['commit'][:12]}`", f"`{n['commit'][:12]}`"),
            ("API pages", o["docs"] or "-", n["docs"] or "-"),
            ("hicann/driver", _driver_cell(o["driver"]), _driver_cell(n["driver"]))]
    scope = report["scope"]
    driver = " --driver-git <hicann/driver>" if report["driver_git"] else ""
    lines = [f"# Release diff: {old} → {new}", "",
             f"Made by `python -m codegen release-diff {o['given']} {n['given']} --runtime-git <hicann/runtime>"
             f"{driver}` from `{report['spec']}/` (see docs/releases/README.md). OLD is the left column, NEW the "
             "right.", "", f"{SPEC_HASH_LINE}`{report['spec_hash']}`.", "",
             "| | OLD | NEW |", "| --- | --- | --- |"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    lines += ["", f"Interfaces: {', '.join(scope['functions'])}.", "",
              f"Types: {', '.join(scope['types'])}. Flags: {', '.join(scope['flags'])} "
              f"(and any new `{'`, `'.join(scope['flag_prefixes'])}*` macro).", ""]
    return "\n".join(lines)


def _driver_cell(value: str) -> str:
    return f"`{value[:12]}`" if re.fullmatch(r"[0-9a-f]{40}", value or "") else (value or "-")


def _md_summary(report: dict[str, Any], old: str, new: str) -> str:
    summary, cites = report["summary"], report["summary"]["citations_by_status"]
    headers = report["headers"]
    kinds = {k: sum(1 for c in headers if c["change"] == k) for k in ("added", "removed", "changed")}
    support = ", ".join(s["name"] for s in report["support"]) or "none"
    lines = ["## Summary", "",
             f"1. Public headers: {len(headers)} change(s) ({kinds['added']} added, {kinds['removed']} removed, "
             f"{kinds['changed']} changed).",
             f"2. Product support changed on {summary['sections_with_support_changes']} section(s): {support}.",
             f"3. Doc lines: {summary['doc_line_changes']} change(s) on the sections above and their types'.",
             f"4. Citations: {summary['citations']} distinct, "
             + ", ".join(f"{n} {s}" for s, n in cites.items()) + ".",
             f"5. Citations whose cited text changed between {old} and {new}: {cites.get('changed', 0)} "
             f"(and {cites.get('removed', 0)} whose lines are gone at {new}, {cites.get('new', 0)} whose lines are "
             f"new in {new}).",
             f"6. New or changed at {new} and covered by no citation: {len(report['uncovered'])}.", ""]
    if summary["sections_missing"]:
        missing = ", ".join(f"{name} (at {where})" for name, where in summary["sections_missing"].items())
        lines += [f"API sections not found: {missing}.", ""]
    return "\n".join(lines)


def _md_headers(changes: list[dict[str, Any]]) -> str:
    lines = ["## 1. Public headers (include/external/acl)", ""]
    if not changes:
        return "\n".join(lines + ["No change to the functions, types or flags in scope.", ""])
    for what, title in (("function", "Functions"), ("type", "Types"), ("member", "Enum values and fields"),
                        ("macro", "Flags and macros")):
        group = [c for c in changes if c["what"] == what]
        if not group:
            continue
        lines += [f"### {title}", ""]
        for c in group:
            lines.append(_md_header_change(c))
        lines.append("")
    return "\n".join(lines)


def _md_header_change(c: dict[str, Any]) -> str:
    name = _span(c["name"])
    if c["change"] == "added":
        return f"- **added** {name}: {_span(c['new'])} at {c['new_at']}"
    if c["change"] == "removed":
        return f"- **removed** {name}: {_span(c['old'])} (was at {c['old_at']})"
    return f"- **changed** {name}: {_span(c['detail'], 600)} ({c['old_at']} → {c['new_at']})"


def _md_support(entries: list[dict[str, Any]], old: str, new: str) -> str:
    lines = ["## 2. Product support", ""]
    if not entries:
        return "\n".join(lines + ["No product-support entry changed.", ""])
    for entry in entries:
        lines += [f"### {entry['name']}", "", f"{old}: {entry['old_at'] or 'no section'}; "
                  f"{new}: {entry['new_at'] or 'no section'}.", "", f"| product | {old} | {new} |",
                  "| --- | --- | --- |"]
        for c in entry["changes"]:
            lines.append(f"| {_cell(c['product'])} | {_cell(_mark(c, 'old'))} | {_cell(_mark(c, 'new'))} |")
        lines.append("")
    return "\n".join(lines)


def _mark(change: dict[str, Any], side: str) -> str:
    word, mark, line = change[side], change[f"{side}_mark"], change[f"{side}_line"]
    return f"{word} ({mark}, line {line})" if line is not None else word


def _md_doc_lines(entries: list[dict[str, Any]], old: str, new: str) -> str:
    lines = ["## 3. Doc lines (compared by what they say; layout, links and headings aside)", ""]
    if not entries:
        return "\n".join(lines + ["No line changed.", ""])
    for entry in entries:
        lines += [f"### {entry['name']}", "", f"{old}: {entry['old_at'] or 'no section'}; "
                  f"{new}: {entry['new_at'] or 'no section'}.", ""]
        if not entry["changes"]:
            lines += ["(no section on one side)", ""]
        for c in entry["changes"]:
            lines += _md_line_change(c)
        lines.append("")
    return "\n".join(lines)


def _md_line_change(c: dict[str, Any]) -> list[str]:
    a, b = c["old"], c["new"]
    # The pinned pages mark product-specific text with <!-- npu="..." --> scopes.
    scope = (b or a)["products"]
    only = f" (only for npu={scope})" if scope else ""
    if c["kind"] == "changed":
        marked_old, marked_new = inline_diff(a["text"], b["text"])
        return [f"- changed, line {a['line']} → {b['line']}{only}:", f"  - OLD: {_span(marked_old, 600)}",
                f"  - NEW: {_span(marked_new, 600)}"]
    if c["kind"] == "moved":
        return [f"- moved, line {a['line']} → {b['line']}{only}: {_span(a['text'])}"]
    if c["kind"] == "added":
        return [f"- added, line {b['line']}{only}: {_span(b['text'])}"]
    return [f"- removed, line {a['line']}{only}: {_span(a['text'])}"]


def _owners(item: dict[str, Any]) -> str:
    return ", ".join(dict.fromkeys(s["owner"] or s["file"] for s in item["used_by"]))


def _md_moved(items: list[dict[str, Any]], old: str, new: str) -> str:
    lines = ["## 4. Citations whose lines moved", ""]
    if not items:
        return "\n".join(lines + ["None.", ""])
    lines += [f"The cited text is the same at {old} and {new}; only its place differs. A citation that lives "
              "at OLD needs its new place; one that lives at NEW is shown where it was at OLD.", "",
              f"| citation | lives at | at {old} | at {new} | used by |", "| --- | --- | --- | --- | --- |"]
    for item in items:
        lines.append(f"| {_cell(_span(item['citation']))} | {item['lives_at']} | {_cell(item['old']['at'])} | "
                     f"{_cell(item['new']['at'])} | {_cell(_owners(item))} |")
    return "\n".join(lines + [""])


def _md_changed(citations: dict[str, list[dict[str, Any]]], old: str, new: str) -> str:
    lines = ["## 5. Citations whose cited text changed (review the rules that rest on them)", ""]
    groups = (("changed", f"Text differs between {old} and {new}"), ("removed", f"Lines gone at {new}"),
              ("new", f"Lines new in {new} (not at {old})"))
    if not any(citations[g] for g, _ in groups):
        return "\n".join(lines + ["None.", ""])
    for status, title in groups:
        if not citations[status]:
            continue
        lines += [f"### {title}", ""]
        for item in citations[status]:
            lines += _md_citation(item, old, new)
    return "\n".join(lines)


def _md_citation(item: dict[str, Any], old: str, new: str) -> list[str]:
    lines = [f"#### {_span(item['citation'])}", "", f"- used by: {'; '.join(_site(s) for s in item['used_by'])}",
             f"- says: {item['says']}", f"- lives at: {item['lives_at']}"]
    a, b = item["old"], item["new"]
    for label, place in ((old, a), (new, b)):
        if place is None:
            lines.append(f"- at {label}: not found")
        else:
            lines.append(f"- at {label}: {place['at']} ({place['how']}): {_span(' / '.join(place['text']), 400)}")
    if a and b:
        doc = item["kind"] == "doc"
        marked_old, marked_new = inline_diff(_says(a["text"], doc), _says(b["text"], doc))
        lines += [f"- what changed: {_span(marked_old, 600)} → {_span(marked_new, 600)}"]
    return lines + [""]


def _site(site: dict[str, Any]) -> str:
    return f"{site['owner']} {site['field']} ({site['file']}:{site['line']})".strip()


def _md_uncovered(items: list[dict[str, Any]]) -> str:
    lines = ["## 6. New or changed at NEW, covered by no citation", ""]
    if not items:
        return "\n".join(lines + ["Nothing.", ""])
    for item in items:
        known = ""
        if item["known_to_spec"] is not None:
            known = " (the spec transcribes it)" if item["known_to_spec"] else " (**not in the spec**)"
        lines.append(f"- {item['what']}, {item['name']}, {item['at']}{known}: {_span(item['text'])}")
    return "\n".join(lines + [""])


def _md_rest(citations: dict[str, list[dict[str, Any]]], old: str, new: str) -> str:
    lines = ["## Other citations", ""]
    if citations["absent"]:
        lines += [f"### Found at neither {old} nor {new}", ""]
        lines += [f"- {_span(i['citation'])} ({_owners(i)}): {i['note']}" for i in citations["absent"]]
        lines.append("")
    reasons: dict[str, list[dict[str, Any]]] = {}
    for item in citations["not-followed"]:
        reasons.setdefault(item["note"], []).append(item)
    for reason, items in reasons.items():
        lines += [f"### Not followed ({len(items)}): {reason}", "", "<details><summary>citations</summary>", ""]
        lines += [f"- {_span(i['citation'])} ({_owners(i)})" for i in items]
        lines += ["", "</details>", ""]
    unchanged = citations["unchanged"]
    lines += [f"{len(unchanged)} citation(s) are at the same place with the same text at {old} and {new}."]
    if unchanged:
        lines += ["", "<details><summary>unchanged citations</summary>", ""]
        lines += [f"- {_span(i['citation'])} at {i['new']['at']}" for i in unchanged]
        lines += ["", "</details>"]
    return "\n".join(lines + [""])
