"""The API pages of a runtime revision: where an interface's section is, what it says, what changed.

The runtime's API reference moved twice: one page per function (``docs/api_docs/<name>.md``,
v8.5.0 and v9.0.0), then chapter pages with an ``<a id="name">`` anchor per function
(``docs/03_api_ref/``, v9.1.0), then the same with English page names and product
conditions in HTML comments (``docs/zh/api_ref/``, the pinned commit). This module finds a
function's or type's section in whichever layout a revision has, reduces its lines to what
they say (so that layout alone is never reported as a change), reads its product-support
list or table, and compares two sections line by line.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from .evidence_verify import anchor_sections
from .gitread import GitRepo

#: Where the API pages live, newest layout first; the first that exists at a revision is used.
DOCS_ROOTS = ("docs/zh/api_ref", "docs/03_api_ref", "docs/api_docs")
_ANCHOR_LINE = r'^<a id="[^"]+"></a>'
_ANCHOR = re.compile(r'^<a id="([^"]+)"></a>')
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_SUPPORT_HEADING = re.compile(r"(产品支持情况|支持的产品|product support)", re.I)
_SCOPE_OPEN = re.compile(r'^<!--\s*npu="([^"]*)"\s*(\S+)\s*-->\s*$')
_SCOPE_END = re.compile(r"^<!--\s*end\s+(\S+)\s*-->\s*$")
_COMMENT = re.compile(r"^<!--.*-->\s*$")
_TABLE_RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_SUPPORTED = {"√", "✓", "✔", "y", "yes", "支持", "是"}
_UNSUPPORTED = {"x", "×", "☓", "✗", "✘", "n", "no", "不支持", "否"}
_PRODUCT_PREFIX = re.compile(r"^(Ascend|Atlas|IPV)\b")


@dataclass(frozen=True)
class Section:
    """A function's or type's part of a page: ``path`` lines ``first``..``last`` (1-based)."""

    name: str
    path: str
    first: int
    last: int
    how: str  # anchor | page | heading


@dataclass(frozen=True)
class DocLine:
    """One line of a section that says something: its number, text, normalised text and product scope."""

    line: int
    raw: str
    norm: str
    scope: str = ""


def docs_root(repo: GitRepo, commit: str, configured: str = "") -> str:
    """The API-page directory of a revision: the configured one, or the first layout that exists."""
    for root in ((configured,) if configured else DOCS_ROOTS):
        if repo.files(commit, root):
            return root
    return ""


def normalise(text: str) -> str:
    """What a doc line says, without layout: "" for blank lines, ``<br>``, HTML comments, table rules and
    code fences; no heading marks, link targets, Markdown escapes, list-marker padding or spacing."""
    line = text.strip()
    if not line or _COMMENT.match(line) or _TABLE_RULE.match(line) or line.startswith("```"):
        return ""
    if re.fullmatch(r'(<a id="[^"]*"></a>\s*)+', line):
        return ""  # an anchor places a section on a chapter page; it says nothing
    if re.fullmatch(r"(<br\s*/?>\s*)+", line):
        return ""
    heading = _HEADING.match(line)
    if heading:
        line = heading.group(2)
    line = _LINK.sub(r"\1", line)
    # One line break or three inside a table cell is layout, not content.
    line = re.sub(r"(\s*<br\s*/?>\s*)+", "<br>", line)
    line = re.sub(r"\\([_|*\[\]()#`\\-])", r"\1", line)
    line = re.sub(r"^([-*+])\s+", r"\1 ", line)
    line = re.sub(r"\s*\|\s*", " | ", line)
    return " ".join(line.split())


def heading_level(text: str) -> int:
    """The level of a Markdown heading line, 0 for any other line."""
    match = _HEADING.match(text.strip()) if text.startswith("#") else None
    return len(match.group(1)) if match else 0


class DocIndex:
    """The API pages of one revision, indexed by anchor, per-function page and heading."""

    def __init__(self, repo: GitRepo, commit: str, root: str) -> None:
        self.repo = repo
        self.commit = commit
        self.root = root
        self.anchors: dict[str, list[tuple[str, int]]] = {}
        if root:
            for path, line, text in repo.grep(commit, _ANCHOR_LINE, root):
                match = _ANCHOR.match(text)
                if match and path.endswith(".md"):
                    self.anchors.setdefault(match.group(1), []).append((path, line))

    def lines(self, path: str) -> tuple[str, ...]:
        """The lines of a page (empty if it does not exist)."""
        return self.repo.lines(self.commit, path) or ()

    def locate(self, name: str, hint_page: str = "") -> Section | None:
        """The section of ``name``: its anchor (preferring the page most like ``hint_page``), else a page
        of that name (one page per function), else a heading of that name."""
        candidates = []
        for path, line in self.anchors.get(name, []):
            lines = self.lines(path)
            sections = anchor_sections(list(lines))
            if name not in sections:
                continue
            following = next((s for s in lines[line:] if s.strip()), "")
            start, end = _section_at_anchor(lines, line, sections[name])
            candidates.append((_page_likeness(path, hint_page), following.startswith("#"), -line,
                               Section(name, path, start, end, "anchor")))
        if candidates:
            return max(candidates, key=lambda c: c[:3])[3]
        page = f"{self.root}/{name}.md"
        lines = self.lines(page) if self.root else ()
        if lines:
            return Section(name, page, 1, len(lines), "page")
        if not self.root:
            return None
        for path, line, _text in self.repo.grep(self.commit, rf"^#{{1,6}}\s+{re.escape(name)}\s*$", self.root):
            lines = self.lines(path)
            level = heading_level(lines[line - 1])
            end = next((n for n in range(line + 1, len(lines) + 1) if 0 < heading_level(lines[n - 1]) <= level),
                       len(lines) + 1) - 1
            return Section(name, path, line, end, "heading")
        return None

    def name_at(self, path: str, line: int) -> str:
        """The anchor whose section holds ``path`` line ``line``, or the page's name on a one-function page."""
        lines = list(self.lines(path))
        best = ""
        best_start = 0
        for name, (start, end) in anchor_sections(lines).items():
            if start <= line <= end and start >= best_start:
                best, best_start = name, start
        if best:
            return best
        return path.rsplit("/", 1)[-1].removesuffix(".md")


def _section_at_anchor(lines: tuple[str, ...], line: int, span: tuple[int, int]) -> tuple[int, int]:
    """Trim a section to its content: from the anchor to its last non-blank, non-``<br>`` line."""
    start, end = span
    while end > start and not normalise(lines[end - 1]):
        end -= 1
    return line, end


def _page_likeness(path: str, hint: str) -> int:
    """How much a page looks like the hinted one: same name 3, same chapter number 2, same first number 1."""
    if not hint:
        return 0
    name, hint = path.rsplit("/", 1)[-1], hint.rsplit("/", 1)[-1]
    if name == hint:
        return 3
    number = re.match(r"[0-9][0-9-]*", name)
    hinted = re.match(r"[0-9][0-9-]*", hint)
    if number and hinted:
        a, b = number.group(0).rstrip("-_"), hinted.group(0).rstrip("-_")
        if a == b:
            return 2
        if a.split("-")[0] == b.split("-")[0]:
            return 1
    return 0


def content_lines(lines: tuple[str, ...], section: Section, skip_support: bool = True) -> list[DocLine]:
    """The lines of a section that say something, with the product scope each sits in.

    The product-support part is left out when ``skip_support`` (it is compared as a table).
    """
    skip = support_span(lines, section) if skip_support else None
    out = []
    scope: list[tuple[str, str]] = []
    for number in range(section.first, section.last + 1):
        raw = lines[number - 1]
        opened, ended = _SCOPE_OPEN.match(raw.strip()), _SCOPE_END.match(raw.strip())
        if opened:
            scope.append((opened.group(2), opened.group(1)))
        elif ended:
            scope = [s for s in scope if s[0] != ended.group(1)]
        if skip and skip[0] <= number <= skip[1]:
            continue
        norm = normalise(raw)
        if norm:
            out.append(DocLine(number, raw, norm, ",".join(s[1] for s in scope)))
    return out


def support_span(lines: tuple[str, ...], section: Section) -> tuple[int, int] | None:
    """The lines (first, last) of the section's product-support heading and what follows it."""
    for number in range(section.first, section.last + 1):
        level = heading_level(lines[number - 1])
        if level and _SUPPORT_HEADING.search(lines[number - 1]):
            end = next((n for n in range(number + 1, section.last + 1)
                        if 0 < heading_level(lines[n - 1]) <= level), section.last + 1)
            return number, end - 1
    return None


def _products(name: str) -> list[str]:
    """``Ascend 950PR/Ascend 950DT`` -> both products; a name whose parts are not all products stays whole."""
    name = " ".join(name.replace("\\", "").split())
    parts = [p.strip() for p in name.split("/")]
    if len(parts) > 1 and all(_PRODUCT_PREFIX.match(p) for p in parts):
        return parts
    return [name]


def product_support(lines: tuple[str, ...], section: Section) -> dict[str, tuple[bool | None, int, str]]:
    """Product -> (supported, line, mark as written) from a support table (``| product | √ |``) or list
    (``- product：支持``); None where the mark is neither yes nor no."""
    span = support_span(lines, section)
    out: dict[str, tuple[bool | None, int, str]] = {}
    if span is None:
        return out
    for number in range(span[0] + 1, span[1] + 1):
        raw = lines[number - 1].strip()
        product = mark = ""
        if raw.startswith("|") and not _TABLE_RULE.match(raw):
            cells = [c.strip() for c in raw.strip("|").split("|")]
            if len(cells) >= 2:
                product, mark = cells[0], cells[-1]
        else:
            listed = re.match(r"^[-*+]\s+(.+?)\s*[：:]\s*(\S+)\s*$", raw)
            if listed:
                product, mark = listed.groups()
        if not product or mark in ("是否支持", "Supported"):
            continue
        value = True if mark.lower() in _SUPPORTED else False if mark.lower() in _UNSUPPORTED else None
        for name in _products(product):
            out[name] = (value, number, mark)
    return out


@dataclass(frozen=True)
class LineChange:
    """A line of a section between two revisions: ``kind`` moved|changed|removed|added (or ``same``, from
    :func:`align_lines` only)."""

    kind: str
    old: DocLine | None
    new: DocLine | None
    extra: tuple[DocLine, ...] = ()  # further new lines an old line was split into (``same`` only)


def compare_lines(old: list[DocLine], new: list[DocLine]) -> list[LineChange]:
    """The changed, moved, removed and added lines between two sections' content lines.

    Lines are compared by what they say (:func:`normalise`). A line whose text is found on
    the other side out of order is *moved*; a removed and an added line of one edit that are
    at least half alike are one *changed* line. A line that only shifted because lines
    above it came or went is not reported, nor a paragraph that a new layout split into
    consecutive lines or joined from them.
    """
    _same, changes = _align(old, new)
    return sorted(changes, key=lambda c: (c.new.line if c.new else 0, c.old.line if c.old else 0))


def align_lines(old: list[DocLine], new: list[DocLine]) -> dict[int, LineChange]:
    """Old line number -> what became of it on the new side: ``same`` (same text, in order or re-wrapped),
    ``moved``, ``changed`` or ``removed`` (:func:`compare_lines`' judgement, with the unchanged lines too)."""
    same, changes = _align(old, new)
    out = {c.old.line: c for c in same if c.old is not None}
    out.update({c.old.line: c for c in changes if c.old is not None})
    return out


def _align(old: list[DocLine], new: list[DocLine]) -> tuple[list[LineChange], list[LineChange]]:
    """The lines that say the same in order or re-wrapped (``same``), and every other line's change."""
    matcher = difflib.SequenceMatcher(None, [d.norm for d in old], [d.norm for d in new], autojunk=False)
    same: list[LineChange] = []
    blocks: list[tuple[str, list[DocLine], list[DocLine]]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            same.extend(LineChange("same", a, b) for a, b in zip(old[i1:i2], new[j1:j2]))
        else:
            blocks.append((tag, old[i1:i2], new[j1:j2]))
    # A paragraph split or joined by a new layout may straddle edits (the lines around it moved).
    rewrapped, left_old, left_new = _rewrapped(old, [d for _, g, _ in blocks for d in g],
                                               new, [d for _, _, c in blocks for d in c])
    same.extend(rewrapped)
    removed: list[DocLine] = []
    added: list[DocLine] = []
    changed: list[LineChange] = []
    for kind, gone, came in blocks:
        gone = [d for d in gone if id(d) in left_old]
        came = [d for d in came if id(d) in left_new]
        if kind == "replace":
            pairs, gone, came = _pair_similar(gone, came)
            # A pair with the same text is a line that moved within the edit, not a changed one.
            changed.extend(LineChange("moved" if a.norm == b.norm else "changed", a, b) for a, b in pairs)
        removed.extend(gone)
        added.extend(came)
    moved = []
    for line in list(removed):
        twin = next((a for a in added if a.norm == line.norm), None)
        if twin is not None:
            moved.append(LineChange("moved", line, twin))
            removed.remove(line)
            added.remove(twin)
    changed += _pair_far(removed, added)
    changes = moved + changed + [LineChange("removed", d, None) for d in removed] + \
        [LineChange("added", None, d) for d in added]
    return same, changes


def _bare(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _rewrapped(old: list[DocLine], removed: list[DocLine], new: list[DocLine], added: list[DocLine],
               most: int = 4) -> tuple[list[LineChange], set[int], set[int]]:
    """Removed and added lines that only a new layout changed: a removed line that up to ``most``
    consecutive added lines say together (split), or consecutive removed lines joined into one added
    line; and the ids of the removed and added lines left over."""
    out: list[LineChange] = []
    free_old, free_new = {id(d) for d in removed}, {id(d) for d in added}
    for line in removed:
        run = _run_saying(line.norm, new, free_new, most)
        if run:
            out.append(LineChange("same", line, run[0], tuple(run[1:])))
            free_old.discard(id(line))
            free_new.difference_update(id(d) for d in run)
    for line in added:
        if id(line) not in free_new:
            continue
        run = _run_saying(line.norm, old, free_old, most)
        if run:
            out.extend(LineChange("same", d, line) for d in run)
            free_new.discard(id(line))
            free_old.difference_update(id(d) for d in run)
    return out, free_old, free_new


def _run_saying(norm: str, lines: list[DocLine], free: set[int], most: int) -> list[DocLine]:
    """2..``most`` consecutive ``lines``, all in ``free``, that together say ``norm``; [] if none do."""
    target = _bare(norm)
    for start in range(len(lines)):
        text = ""
        for end in range(start, min(len(lines), start + most)):
            if id(lines[end]) not in free:
                break
            text += _bare(lines[end].norm)
            if not target.startswith(text):
                break
            if text == target and end > start:
                return lines[start:end + 1]
    return []


def similarity(a: str, b: str, floor: float = 0.0) -> float:
    """How alike two texts are (difflib's ratio, 0..1); 0 when cheap upper bounds show it is below ``floor``
    (the full ratio is quadratic, and long table rows are compared many times)."""
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < floor or matcher.quick_ratio() < floor:
        return 0.0
    return matcher.ratio()


#: Lines of different edits of a section are one changed line only when they are this alike.
_FAR_PAIR = 0.6


def _pair_far(removed: list[DocLine], added: list[DocLine]) -> list[LineChange]:
    """Pair left-over removed and added lines of different edits that are alike (a line rewritten where
    the lines around it moved); the pairs are taken out of both lists."""
    pairs = []
    for line in list(removed):
        best, best_ratio = None, _FAR_PAIR
        for other in added:
            ratio = similarity(line.norm, other.norm, best_ratio)
            if ratio >= best_ratio:
                best, best_ratio = other, ratio
        if best is not None:
            pairs.append(LineChange("changed", line, best))
            removed.remove(line)
            added.remove(best)
    return pairs


def _pair_similar(gone: list[DocLine], came: list[DocLine]) -> tuple[list[tuple[DocLine, DocLine]], list[DocLine],
                                                                       list[DocLine]]:
    """Pairs (in order) of a removed and an added line at least half alike; and the lines left over."""
    pairs: list[tuple[DocLine, DocLine]] = []
    left_gone: list[DocLine] = []
    start = 0
    for line in gone:
        best, best_ratio = -1, 0.5
        for index in range(start, len(came)):
            ratio = similarity(line.norm, came[index].norm, best_ratio)
            if ratio >= best_ratio:
                best, best_ratio = index, ratio
        if best < 0:
            left_gone.append(line)
            continue
        pairs.append((line, came[best]))
        start = best + 1
    paired = {id(b) for _, b in pairs}
    return pairs, left_gone, [c for c in came if id(c) not in paired]


def inline_diff(old: str, new: str, context: int = 24) -> tuple[str, str]:
    """The two texts trimmed to their differences with ``context`` characters around, changes marked
    ``[-removed-]`` / ``{+added+}``."""
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    ops = matcher.get_opcodes()
    marked_old, marked_new = [], []
    for tag, i1, i2, j1, j2 in ops:
        a, b = old[i1:i2], new[j1:j2]
        if tag == "equal":
            keep_a = a if len(a) <= 2 * context else f"{a[:context]}…{a[-context:]}"
            if ops[0][0] == "equal" and (i1, i2) == ops[0][1:3] and len(a) > context:
                keep_a = "…" + a[-context:]
            if ops[-1][0] == "equal" and (i1, i2) == ops[-1][1:3] and len(a) > context:
                keep_a = a[:context] + "…"
            marked_old.append(keep_a)
            marked_new.append(keep_a)
            continue
        if a:
            marked_old.append(f"[-{a}-]")
        if b:
            marked_new.append(f"{{+{b}+}}")
    return "".join(marked_old), "".join(marked_new)
