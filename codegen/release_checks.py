"""Lint of the releases the spec knows and of what it says entered or left each contract.

``sources.releases`` in rules.yaml lists the CANN releases oldest first; the newest is the
pinned snapshot every unqualified citation points into. ``since``/``until`` on interfaces,
product-support cells and rules name a release and cite where that release shows it: a
citation qualified with the release's tag (``v8.5.0:docs/api_docs/aclrtMallocHost.md:13``) or, for a
release cut on a branch, its branch (``9.2.0-beta.2:docs/zh/api_ref/...``), or an unqualified one
when the release is the pinned snapshot. Every name is checked here;
the lines themselves are checked by ``lint --runtime-git`` at the tag or the branch release's commit.
"""

from __future__ import annotations

from typing import Any

from .errors import SpecIssue
from .evidence import SNAPSHOT_PREFIX, Citation, release_key
from .validate import Document


def _key(name: str) -> tuple[int, ...]:
    try:
        return release_key(name)
    except ValueError:  # the schema reports the name; order it first so that one issue is reported
        return ()


class ReleaseChecks:
    """Checks releases and ``since``/``until`` across rules.yaml and interfaces.yaml."""

    def __init__(self, docs: dict[str, Document]) -> None:
        self.docs = docs
        self.issues: list[SpecIssue] = []
        sources = docs["rules"].data.get("sources", {})
        self.releases: list[dict[str, Any]] = list(sources.get("releases", []))
        self.pinned = str(sources.get("runtime", {}).get("commit", ""))
        self.by_name = {str(r["name"]): r for r in self.releases}

    def report(self, doc: str, path: list[str | int], message: str) -> None:
        """Record an issue at ``path`` of document ``doc``."""
        self.issues.append(SpecIssue(self.docs[doc].where(path), message))

    def run(self) -> list[SpecIssue]:
        """Every problem of the releases and of the ``since``/``until`` claims."""
        self._releases()
        self._matrix_interfaces()
        self._faults()
        interfaces = self.docs["interfaces"].data["interfaces"]
        since_of: dict[str, str] = {}
        for i, interface in enumerate(interfaces):
            path: list[str | int] = ["interfaces", i]
            if interface.get("since"):
                since_of[interface["name"]] = self._since("interfaces", path + ["since"], interface["since"])
            elif self.releases and interface.get("group") == "host_memory":
                self.report("interfaces", path, f"{interface['name']} names no `since:` release although "
                                                "sources.releases lists the releases")
            if interface.get("declared_since"):
                declared = self._since("interfaces", path + ["declared_since"], interface["declared_since"])
                documented = since_of.get(interface["name"], "")
                if declared in self.by_name and documented in self.by_name and _key(declared) >= _key(documented):
                    self.report("interfaces", path + ["declared_since", "release"],
                                f"declared_since {declared} is not earlier than since {documented}; leave it out")
            for family, claim in (interface.get("support_since") or {}).items():
                self._since("interfaces", path + ["support_since", family], claim)
                if (interface.get("support") or {}).get(family) is not True:
                    self.report("interfaces", path + ["support_since", family],
                                f"support_since names {family}, which the support matrix does not mark supported")
        for i, rule in enumerate(self.docs["rules"].data["rules"]):
            path = ["rules", i]
            since = self._since("rules", path + ["since"], rule["since"]) if rule.get("since") else ""
            until = self._since("rules", path + ["until"], rule["until"]) if rule.get("until") else ""
            matrix = rule.get("matrix") or {}
            for key, values in (rule.get("matrix_since") or {}).items():
                for value, claim in values.items():
                    self._since("rules", path + ["matrix_since", key, value], claim)
                    if value not in self._matrix_values(matrix.get(key)):
                        self.report("rules", path + ["matrix_since", key, value],
                                    f"matrix_since names {key}={value}, which is not a value of the rule's matrix")
            for j, err in enumerate(rule.get("errors", [])):
                if err.get("since"):
                    self._since("rules", path + ["errors", j, "since"], err["since"])
            entered = [since_of[n] for n in rule.get("interfaces", []) if since_of.get(n) in self.by_name]
            if since and since in self.by_name and entered and _key(since) <= max(_key(e) for e in entered):
                self.report("rules", path + ["since", "release"],
                            f"{rule['id']} enters with its interfaces ({max(entered, key=_key)}) anyway; "
                            f"since {since} says nothing")
            starts = ([_key(since)] if since in self.by_name else []) + [_key(e) for e in entered]
            start = max(starts, default=())
            if until and until in self.by_name and start and _key(until) <= start:
                self.report("rules", path + ["until", "release"], f"{rule['id']} leaves the contract ({until}) "
                                                                   "before it enters it")
        return self.issues

    def _matrix_values(self, listed: Any) -> list[str]:
        """A rule's matrix entry as values: a list, or a list of items and ``@name`` references."""
        named = self.docs["rules"].data.get("matrices") or {}
        items = listed if isinstance(listed, list) else [listed]
        values: list[str] = []
        for item in items:
            if isinstance(item, str) and item.startswith("@") and item[1:] in named:
                values += [str(v) for v in named[item[1:]]]
            else:
                values.append(str(item))
        return values

    def _faults(self) -> None:
        faults = self.docs.get("faults")
        for i, fault in enumerate(faults.data.get("faults", []) if faults else []):
            if fault.get("since") and str(fault["since"]) not in self.by_name:
                known = ", ".join(self.by_name) or "none"
                assert faults is not None  # the loop runs only over a faults document
                self.issues.append(SpecIssue(faults.where(["faults", i, "since"]),
                                             f"unknown release {fault['since']!r}; the spec knows {known}"))

    def _matrix_interfaces(self) -> None:
        names = {str(i["name"]) for i in self.docs["interfaces"].data["interfaces"]}
        for value, name in (self.docs["rules"].data.get("matrix_interfaces") or {}).items():
            if name not in names:
                self.report("rules", ["matrix_interfaces", value], f"matrix_interfaces maps {value!r} to {name!r}, "
                                                                   "which is no interface of interfaces.yaml")

    def _releases(self) -> None:
        seen: list[tuple[int, ...]] = []
        for j, release in enumerate(self.releases):
            key = _key(str(release["name"]))
            if seen and key <= seen[-1]:
                self.report("rules", ["sources", "releases", j, "name"],
                            f"release {release['name']} is not newer than the one before it (oldest first)")
            seen.append(key)
            name = str(release["name"])
            if name.startswith(SNAPSHOT_PREFIX) and not str(release["commit"]).startswith(name[len(SNAPSHOT_PREFIX):]):
                self.report("rules", ["sources", "releases", j, "name"],
                            f"release {name} names another commit than its own ({str(release['commit'])[:12]})")
            self._differences(j, release)
            if j < len(self.releases) - 1 and not (release.get("tag") or release.get("branch")):
                self.report("rules", ["sources", "releases", j], f"release {name} names neither a tag nor a branch: "
                                                                 "citations into it cannot be qualified")
        if self.releases and not self.pinned.startswith(str(self.releases[-1]["commit"])):
            self.report("rules", ["sources", "releases", len(self.releases) - 1, "commit"],
                        "the newest release must be the pinned snapshot: its commit is sources.runtime.commit")

    def _differences(self, j: int, release: dict[str, Any]) -> None:
        """A release's ``differences`` cite its own pages: qualified with its tag or branch."""
        ref = str(release.get("tag") or release.get("branch") or "")
        for k, raw in enumerate(release.get("differences") or []):
            try:
                citation = Citation.parse(raw)
            except ValueError:
                continue  # the evidence lint reports it
            if citation.kind == "drv" or not ref or citation.release != ref:
                self.report("rules", ["sources", "releases", j, "differences", k],
                            f"{citation.ref} does not point into release {release['name']}; cite it as "
                            f"{ref or '<tag or branch>'}:path:lines")

    def _since(self, doc: str, path: list[str | int], claim: dict[str, Any]) -> str:
        """Check one ``{release, evidence}`` claim; returns its release name."""
        name = str(claim["release"])
        release = self.by_name.get(name)
        if release is None:
            known = ", ".join(str(r["name"]) for r in self.releases) or "none (sources.releases is empty)"
            self.report(doc, path + ["release"], f"unknown release {name!r}; the spec knows {known}")
            return name
        newest = release is self.releases[-1]
        for k, raw in enumerate(claim["evidence"]):
            try:
                citation = Citation.parse(raw)
            except ValueError:
                continue  # the evidence lint reports it
            ref = str(release.get("tag") or release.get("branch") or "")
            if citation.kind == "drv" or (citation.release and citation.release != ref) or \
                    (not citation.release and not newest):
                where = (f"tag {ref}" if release.get("tag") else f"branch {ref}") if ref else "the pinned commit"
                self.report(doc, path + ["evidence", k], f"{citation.ref} does not point into release {name} "
                                                         f"({where}); cite it as {ref or '<tag>'}:path:lines")
        return name
