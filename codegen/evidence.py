"""The evidence model and the severity policy.

Every rule, every structured error condition and every expected error code of the spec
cites its evidence. A citation points at one of three pinned sources:

- a page of the official API reference, an anchor on it and a line range
  (``11-02_host_memory_management.md#aclrtMallocHost:50``),
- a location in the runtime's public source at the commit named once in ``rules.yaml``
  (``{src: "src/runtime/api/impl/api_impl.cc:2592-2609"}``), or
- a location in the driver's public source (hicann/driver) at its commit, named there too
  (``{drv: "src/ascend_hal/svm/v2/devmm/devmm_svm.c:3501-3503"}``): where the runtime hands a
  call to the driver, what the driver does is the evidence, not the runtime's silence,

with a one-line paraphrase of what it establishes and a stance: it ``supports`` the claim,
``contradicts`` it, or is ``silent`` (the place where it would be said says nothing).

Provenance is derived from the citations, never typed by hand. The docs are one kind of
evidence; the runtime and the driver source together are the other, the code that runs:

====================  =====================================================  ================
provenance            derived when                                            highest severity
====================  =====================================================  ================
``documented``        a doc citation supports it, no code citation            mandatory
                      contradicts it
``runtime-source``    only code supports it, the runtime among it             recommended
``driver-source``     only driver citations support it                        recommended
``conflict``          the docs support it and code contradicts it, or the    advisory
                      other way round
``unspecified``       nothing supports it (only silent citations)             informational
====================  =====================================================  ================

Severity ``advisory`` is reserved for conflicts and a conflict is always advisory. When a
case must fail, failing is judged at the rule's severity and the exact code at the code's
own level (:func:`code_level`): a code whose evidence reaches the rule's severity decides
the case; a weaker one only yields a finding of its own level.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

DOCUMENTED = "documented"
RUNTIME_SOURCE = "runtime-source"
DRIVER_SOURCE = "driver-source"
CONFLICT = "conflict"
UNSPECIFIED = "unspecified"

MANDATORY = "mandatory"
RECOMMENDED = "recommended"
ADVISORY = "advisory"
INFORMATIONAL = "informational"

#: The highest severity each provenance allows.
SEVERITY_CAP: dict[str, str] = {
    DOCUMENTED: MANDATORY,
    RUNTIME_SOURCE: RECOMMENDED,
    DRIVER_SOURCE: RECOMMENDED,
    CONFLICT: ADVISORY,
    UNSPECIFIED: INFORMATIONAL,
}
#: Strength of a severity: a finding or check of higher rank weighs more.
SEVERITY_RANK: dict[str, int] = {MANDATORY: 3, RECOMMENDED: 2, ADVISORY: 1, INFORMATIONAL: 0}

DOC_CITATION = re.compile(
    r"^(?P<page>[0-9][0-9A-Za-z_.-]*\.md)#(?P<anchor>[A-Za-z_][A-Za-z0-9_]*):(?P<lines>[0-9]+(-[0-9]+)?)$"
)
CODE_CITATION = re.compile(r"^(?P<path>[A-Za-z0-9_][A-Za-z0-9_./-]*):(?P<lines>[0-9]+(-[0-9]+)?)$")
#: A citation into a release of the runtime repository, docs or source alike: ``v8.5.0:docs/api_docs/x.md:13``.
#: Release docs may have Chinese file names (``docs/03_api_ref/11-02_主机内存管理.md`` at v9.1.0).
#: A branch release is cited by its branch name: ``9.2.0-beta.2:docs/zh/api_ref/x.md:13``.
RELEASE_CITATION = re.compile(r"^(?P<tag>v?[0-9]+(\.[0-9]+)*(-[0-9A-Za-z.]+)?):(?P<rest>.+)$")
RELEASE_PATH = re.compile(r"^(?P<path>[A-Za-z0-9_\u4e00-\u9fff][A-Za-z0-9_./\u4e00-\u9fff-]*):"
                          r"(?P<lines>[0-9]+(-[0-9]+)?)$")
RUNTIME_REPO_URL = "https://github.com/hicann/runtime"
DRIVER_REPO_URL = "https://github.com/hicann/driver"
DOCS_PATH = "docs/zh/api_ref"
#: Citation kinds: the docs, and the two kinds of code (runtime and driver source).
CODE_KINDS = frozenset({"src", "drv"})
KINDS = ("doc", "src", "drv")


#: A release name: ``X.Y.Z`` with an optional pre-release stage (``9.2.0-beta.2``), or a development
#: snapshot ``master@<short commit>``.
RELEASE_NAME = re.compile(r"^(?P<x>[0-9]+)\.(?P<y>[0-9]+)\.(?P<z>[0-9]+)(-(?P<stage>alpha|beta|rc)\.(?P<n>[0-9]+))?$")
SNAPSHOT_PREFIX = "master@"
#: Pre-release stages, oldest first; a final release ranks above all of them.
STAGES = {"alpha": 0, "beta": 1, "rc": 2}
FINAL_STAGE = len(STAGES)
#: A development snapshot is newer than every numbered release the spec knows.
SNAPSHOT_KEY = (1 << 30,)


def release_key(name: str) -> tuple[int, ...]:
    """A release name as numbers, for ordering: ``9.1.0`` -> ``(9, 1, 0, 3, 0)``, ``9.2.0-beta.2`` ->
    ``(9, 2, 0, 1, 2)`` (a beta is older than its final), ``master@681ef7610`` above every numbered one.
    Raises ValueError for a name that is neither."""
    if name.startswith(SNAPSHOT_PREFIX):
        return SNAPSHOT_KEY
    match = RELEASE_NAME.match(name)
    if match is None:
        raise ValueError(f"{name!r} is no release name (X.Y.Z, X.Y.Z-beta.N or master@<commit>)")
    stage = match["stage"]
    return (int(match["x"]), int(match["y"]), int(match["z"]), STAGES[stage] if stage else FINAL_STAGE,
            int(match["n"] or 0))


@dataclass(frozen=True)
class Release:
    """A CANN release the spec knows: its name, its tag or branch and commit in hicann/runtime, where its
    docs live, and the hicann/driver commit that goes with it where the driver has one."""

    name: str
    commit: str
    docs: str
    tag: str = ""
    date: str = ""
    driver: str = ""
    note: str = ""
    acl_api: str = ""
    branch: str = ""
    driver_tag: str = ""

    @property
    def key(self) -> tuple[int, ...]:
        """The release name as numbers, for ordering (:func:`release_key`)."""
        return release_key(self.name)

    @property
    def ref(self) -> str:
        """What citations into the release are qualified with: its tag, else its branch ("" for neither)."""
        return self.tag or self.branch


@dataclass(frozen=True)
class Sources:
    """The pinned sources citations point into: the runtime commit, the docs snapshot, the driver commit."""

    runtime_commit: str
    docs_snapshot: str = ""
    driver_commit: str = ""
    releases: tuple[Release, ...] = ()  # oldest first; the newest is the pinned commit


@dataclass(frozen=True)
class Citation:
    """One piece of evidence: where, which lines, what it says, and whether it backs the claim."""

    kind: str  # "doc" | "src" | "drv"
    target: str  # doc: "page#anchor"; src: repository path; with a release: its repository path
    first: int
    last: int
    says: str
    stance: str = "supports"
    release: str = ""  # the runtime tag or branch a doc or src citation points into ("" : the pinned commit)

    @classmethod
    def parse(cls, raw: dict[str, str]) -> Citation:
        """Build from the spec's ``{doc|src|drv: "...", says: ..., stance: ...}``; raises ValueError.

        A doc or src citation may name a release of the runtime repository first
        (``v8.5.0:docs/api_docs/aclrtMallocHost.md:13``): the file and lines at that tag.
        """
        kind = next((k for k in KINDS if k in raw), "src")
        text = raw[kind]
        release = ""
        tagged = RELEASE_CITATION.match(text) if kind != "drv" else None
        if tagged is not None:
            release, text = tagged.group("tag"), tagged.group("rest")
        pattern = RELEASE_PATH if release else DOC_CITATION if kind == "doc" else CODE_CITATION
        match = pattern.match(text)
        if match is None:
            raise ValueError(f"{raw[kind]!r} is not a {kind} citation")
        first, _, last = match.group("lines").partition("-")
        start, end = int(first), int(last or first)
        if start < 1 or end < start:
            raise ValueError(f"{raw[kind]!r}: line range must be ascending and start at 1 or later")
        target = text[: text.rindex(":")]
        return cls(kind, target, start, end, raw["says"], raw.get("stance", "supports"), release)

    @property
    def lines(self) -> str:
        """``50`` or ``50-52``."""
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"

    @property
    def ref(self) -> str:
        """The citation as written in the spec."""
        return f"{self.release}:{self.target}:{self.lines}" if self.release else f"{self.target}:{self.lines}"

    @property
    def page(self) -> str:
        """The doc page file name (doc citations)."""
        return self.target.partition("#")[0]

    @property
    def anchor(self) -> str:
        """The anchor on the doc page (doc citations)."""
        return self.target.partition("#")[2]

    @property
    def side(self) -> str:
        """``doc`` for the docs, ``code`` for the runtime and the driver source."""
        return "code" if self.kind in CODE_KINDS else "doc"

    def url(self, sources: Sources) -> str:
        """A link to the cited lines at the pinned commit (the docs snapshot equals the runtime commit's docs)."""
        span = f"L{self.first}" if self.first == self.last else f"L{self.first}-L{self.last}"
        if self.kind == "drv":
            return f"{DRIVER_REPO_URL}/blob/{sources.driver_commit}/{self.target}#{span}"
        path = f"{DOCS_PATH}/{self.page}" if self.kind == "doc" and not self.release else self.target
        plain = "?plain=1" if path.endswith(".md") else ""
        return f"{RUNTIME_REPO_URL}/blob/{self.release or sources.runtime_commit}/{path}{plain}#{span}"


def derive_provenance(citations: Iterable[Citation]) -> str:
    """The provenance a set of citations establishes (see the module docstring)."""
    cited = list(citations)
    supports = {c.side for c in cited if c.stance == "supports"}
    contradicts = {c.side for c in cited if c.stance == "contradicts"}
    if ("doc" in supports and "code" in contradicts) or ("code" in supports and "doc" in contradicts):
        return CONFLICT
    if "doc" in supports:
        return DOCUMENTED
    supporting = {c.kind for c in cited if c.stance == "supports"}
    if "src" in supporting:
        return RUNTIME_SOURCE
    if "drv" in supporting:
        return DRIVER_SOURCE
    return UNSPECIFIED


def unanswered_contradiction(citations: Iterable[Citation]) -> str | None:
    """The side ("doc"/"code") of a contradicting citation that no citation of the other side
    answers with support, or None. Such a rule claims what its own evidence denies."""
    cited = list(citations)
    supports = {c.side for c in cited if c.stance == "supports"}
    for c in cited:
        other = "code" if c.side == "doc" else "doc"
        if c.stance == "contradicts" and other not in supports:
            return c.side
    return None


def weakest(provenances: Iterable[str]) -> str:
    """The provenance that allows the lowest severity (a claim is as strong as its weakest part)."""
    return min(provenances, key=lambda p: SEVERITY_RANK[SEVERITY_CAP[p]], default=UNSPECIFIED)


def severity_allowed(severity: str, provenance: str) -> bool:
    """Whether the policy lets a claim of ``provenance`` carry ``severity``.

    A conflict is advisory and only a conflict is advisory; otherwise the severity may not
    exceed the provenance's cap.
    """
    if provenance == CONFLICT or severity == ADVISORY:
        return provenance == CONFLICT and severity == ADVISORY
    return SEVERITY_RANK[severity] <= SEVERITY_RANK[SEVERITY_CAP[provenance]]


def code_level(rule_severity: str, code_provenance: str) -> str:
    """The severity at which a case judges the exact error code.

    The code's own cap, but never above the rule: a documented code in a recommended rule
    is judged at recommended; a source-only code in a mandatory rule at recommended.
    """
    cap = SEVERITY_CAP[code_provenance]
    return rule_severity if SEVERITY_RANK[cap] >= SEVERITY_RANK[rule_severity] else cap


def code_decides(rule_severity: str, code_provenance: str) -> bool:
    """True when a differing code fails the case (the code's evidence reaches the rule's severity)."""
    return code_level(rule_severity, code_provenance) == rule_severity
