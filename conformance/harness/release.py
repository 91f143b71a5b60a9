"""Which CANN release's contract a run is judged against.

The spec knows a list of releases (catalog ``releases``, oldest first; the newest is the
pinned snapshot). The library reports its release through ``aclsysGetVersionStr("runtime")``
(the text after ``Version=`` in the runtime package's version.info) or, where that call is
missing or fails, only the ACL API version through ``aclrtGetVersion``; ``--acl-cann-release``
overrides both; an ACL API version that several releases share does not say which, so it is a
set-up error unless ``--acl-cann-release`` chooses. Releases carry their real refs: ``9.1.0``,
``9.2.0-beta.2`` (a branch) and the pinned development snapshot ``master@681ef7610``, which is
newer than every numbered release.

A reported version maps to the newest known numbered release not newer than it, so a patch
release (9.0.1) is judged by its minor release's contract (9.0.0) and a beta by the newest
release before it that the spec knows (9.2.0-beta.1, which the spec does not know, by 9.1.0;
a beta is older than its final). A version newer than every numbered release (9.2.0, 10.0.0)
is judged against the newest contract, the snapshot, and the run says so when its X.Y is not
the snapshot's line; a version string that names a known release (``master@681ef7610-aclsim``)
is that release. One older than the oldest cannot be judged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from acl_hostmem_generated.catalog_types import CaseEntry, Catalog, RuleEntry
from codegen.evidence import FINAL_STAGE, SNAPSHOT_KEY, SNAPSHOT_PREFIX, STAGES, release_key

from ..i18n import _
from .violations import HarnessError

if TYPE_CHECKING:  # the judge judges releases too, and never needs cffi or the bindings
    from acl_hostmem_generated.acl_bindings import AclLibrary

#: X.Y.Z, or CANN's release-candidate spelling X.Y.RCn (a candidate of X.Y.0), with an optional
#: pre-release stage (``-beta.2``).
_VERSION = re.compile(r"^\s*(\d+)\.(\d+)\.(?:(\d+)|RC(\d+))(?:-(alpha|beta|rc)\.?(\d+))?", re.IGNORECASE)


class ReleaseError(HarnessError):
    """The run cannot be judged against any release the spec knows (a set-up error)."""


class AmbiguousReleaseError(ReleaseError):
    """The library's ACL API version is that of several releases, and nothing else says which (a set-up error)."""


class ReleaseJSON(TypedDict):
    """A judged release as summary.json's environment carries it."""

    name: str
    reported: str
    source: str
    newer_than_known: bool


@dataclass(frozen=True)
class JudgedRelease:
    """The release a run is judged against and where that came from."""

    name: str  # a release of the catalog
    reported: str  # what the library said (version string, or "ACL API x.y.z"), "" when nothing
    source: str  # "library", "acl-api" or "override"
    newer_than_known: bool = False

    def to_json(self) -> ReleaseJSON:
        """The environment entry of summary.json."""
        return {"name": self.name, "reported": self.reported, "source": self.source,
                "newer_than_known": self.newer_than_known}

    def line(self) -> str:
        """One line for reports: ``judged against CANN 9.1.0 (the library reports 9.1.0)``."""
        said = {"library": f"the library reports {self.reported!r}",
                "acl-api": f"inferred from the library's {self.reported}",
                "override": "--acl-cann-release" + (f"; the library reports {self.reported!r}" if self.reported
                                                    else "")}[self.source]
        newer = (f"; {self.reported!r} is newer than every release the spec knows, so the newest known "
                 "contract applies") if self.newer_than_known else ""
        return f"judged against CANN {self.name} ({said}{newer})"


def version_key(text: str) -> tuple[int, ...] | None:
    """An ordering key: ``"9.2.0-beta.1"`` < ``"9.2.0-beta.2"`` < ``"9.2.0"`` (a beta is older than its
    final) < ``"master@681ef7610"`` (a snapshot is newer than every numbered release); CANN's
    ``"8.0.RC3"`` spelling orders as 8.0.0. None when the text starts with neither."""
    text = text or ""
    if text.strip().startswith(SNAPSHOT_PREFIX):
        return SNAPSHOT_KEY
    match = _VERSION.match(text)
    if match is None:
        return None
    # CANN's X.Y.RCn spelling keeps its meaning here: judged by X.Y.0's contract, as before.
    stage, number = (STAGES[match[5].lower()], int(match[6])) if match[5] else (FINAL_STAGE, 0)
    return int(match[1]), int(match[2]), int(match[3] or 0), stage, number


# A release name of the catalog is ordered as the generator's lint ordered it (codegen.evidence);
# version_key orders what a library reports the same way.
_key = release_key


def known(catalog: Catalog) -> list[str]:
    """The release names of the catalog, oldest first."""
    return [str(r["name"]) for r in catalog.get("releases") or []]


def newest(catalog: Catalog) -> str | None:
    """The newest release the spec knows (the pinned snapshot), or None when it knows none."""
    names = known(catalog)
    return names[-1] if names else None


def judge_release(catalog: Catalog, reported: str | None, override: str | None = None,
                  acl_api: str | None = None) -> JudgedRelease | None:
    """The release to judge against; None when the spec knows no releases. Raises ReleaseError."""
    names = known(catalog)
    if not names:
        return None
    listing = ", ".join(names)
    if override:
        if override not in names:
            raise ReleaseError(_("--acl-cann-release {release} is no release the spec knows ({known})").format(
                release=repr(override), known=listing))
        return JudgedRelease(override, reported or "", "override")
    if reported:
        named = _named_release(names, reported)
        if named:
            return JudgedRelease(named, reported, "library")
        key = version_key(reported)
        if key is None or key == SNAPSHOT_KEY:
            raise ReleaseError(_("the library reports the version {reported}, which is not X.Y.Z (or X.Y.RCn, "
                                 "X.Y.Z-beta.N) nor a release the spec knows; pass --acl-cann-release (one of "
                                 "{known})").format(reported=repr(reported), known=listing))
        return _by_key(names, key, reported, "library")
    if acl_api:
        by_api = [str(r["name"]) for r in catalog["releases"] if r.get("acl_api") == acl_api]
        if not by_api:
            raise ReleaseError(_("aclsysGetVersionStr gave nothing and the ACL API version {api} matches no "
                                 "release the spec knows; pass --acl-cann-release (one of {known})").format(
                                     api=acl_api, known=listing))
        if len(by_api) > 1:
            # Judging against the oldest would be a silently weaker contract than the library may owe (a
            # training-series library of 9.2.0 judged by 9.0.0 runs next to nothing): the user chooses.
            raise AmbiguousReleaseError(_("aclsysGetVersionStr gave nothing and the ACL API version {api} is that "
                                          "of several releases ({releases}); pass --acl-cann-release with "
                                          "the library's release").format(api=acl_api, releases=", ".join(by_api)))
        return JudgedRelease(by_api[0], f"ACL API {acl_api}", "acl-api")
    raise ReleaseError(_("the library reports no version (aclsysGetVersionStr and aclrtGetVersion fail); pass "
                         "--acl-cann-release (one of {known})").format(known=listing))


def _named_release(names: list[str], reported: str) -> str | None:
    """The known release a version string names exactly (``9.2.0-beta.2``, ``master@681ef7610-aclsim``),
    the longest when several fit; None for every other string."""
    text = reported.strip()
    fitting = [name for name in names if text == name or text.startswith(name + "-")]
    return max(fitting, key=len) if fitting else None


def _by_key(names: list[str], key: tuple[int, ...], reported: str, source: str) -> JudgedRelease:
    numbered = [name for name in names if _key(name) != SNAPSHOT_KEY]
    fitting = [name for name in numbered if _key(name) <= key]
    if numbered and key > _key(numbered[-1]) and names[-1] not in numbered:
        # Newer than every numbered release: the development snapshot is the newest contract. It
        # develops the line after the newest numbered release; another line is "newer than known".
        return JudgedRelease(names[-1], reported, source, newer_than_known=key[:2] != _key(numbered[-1])[:2])
    if not fitting:
        raise ReleaseError(_("the library reports {reported}, older than every release the spec knows "
                             "({known}); it cannot be judged").format(reported=repr(reported), known=", ".join(names)))
    return JudgedRelease(fitting[-1], reported, source, newer_than_known=key > _key(names[-1]) and
                         key[:2] != _key(names[-1])[:2])


def outside_reason(rule: RuleEntry, release: str | None, case: CaseEntry | None = None,
                   catalog: Catalog | None = None, family_id: str | None = None) -> str | None:
    """Why ``rule`` (or one ``case`` of it) is outside the contract of ``release`` (NOT_APPLICABLE), or None.

    With the ``catalog`` and the product's ``family_id`` it is outside too where the release does
    not document one of the case's calls on that family yet (``support_since``), even though a later
    release does: such a product is not in that release's contract, neither supported nor refused.
    """
    if not release:
        return None
    since, until = (case or rule).get("since"), rule.get("until")
    what = f"{case['case_id']}" if case else rule["id"]
    if since and _key(release) < _key(since):
        return f"{what} is in the contract from CANN {since} on; {JUDGED_AGAINST} {release}"
    if until and _key(release) >= _key(until):
        return f"{rule['id']} left the contract in CANN {until}; {JUDGED_AGAINST} {release}"
    if catalog and family_id:
        for name in case_calls(catalog, rule, case):
            entry = catalog["interfaces"].get(name)
            cell = entry["support_since"].get(family_id) if entry else None
            if cell and _key(release) < _key(cell):
                return (f"{name} is documented on {family_id} from CANN {cell} on; {JUDGED_AGAINST} {release}")
    return None


def case_calls(catalog: Catalog, rule: RuleEntry, case: CaseEntry | None,
               needed_only: bool = False) -> list[str]:
    """The interfaces a case calls: the rule's, except that a case whose parameters name an interface
    (HM-PROD-SUPPORT per interface, HM-CTX-NO-DEVICE per call, or ``v1`` through the catalog's
    matrix_interfaces) calls that one instead of the others its rule's cases name (as the generator's
    Spec.case_since does); a rule's ``calls`` (the explorer's) are called by every case.

    ``needed_only``: the calls whose support the case needs, for the support matrix. The explorer
    predicts refusals where the matrix has them, and HM-PROD-SUPPORT's parameter names the interface
    it probes, not one it relies on; only the rule's own ``interfaces`` are needed."""
    extra = set() if needed_only else set(rule.get("calls") or ())
    if case is None:  # the rule as a whole calls all of its interfaces
        return sorted(set(rule.get("interfaces", [])) | extra)
    named = catalog.get("interfaces") or {}
    alias = catalog.get("matrix_interfaces") or {}

    def called(value: object) -> str | None:
        name = alias.get(value, value) if isinstance(value, str) else None
        return name if name in named else None

    chosen = {n for n in map(called, ((case or {}).get("params") or {}).values()) if n}
    listed = {n for c in rule.get("cases", []) for n in map(called, (c.get("params") or {}).values()) if n}
    fixed = {n for n in rule.get("interfaces", []) if n not in listed}
    if needed_only:
        chosen &= set(rule.get("interfaces", []))
    return sorted(chosen | fixed | extra)


JUDGED_AGAINST = "this run is judged against"


def outside_contract(message: str) -> bool:
    """Whether a NOT_APPLICABLE reason says the case is outside the judged release's contract."""
    return JUDGED_AGAINST in (message or "")


def supported_in(catalog: Catalog, interface: str, family_id: str, release: str | None) -> bool:
    """Whether ``interface`` is documented and supported on the family in ``release`` (the support matrix
    says whether at all; ``since`` and ``support_since`` whether already then)."""
    entry = catalog["interfaces"].get(interface)
    if entry is None or not release:  # a function the spec does not describe is not the matrix's to refuse
        return entry is None or entry["support"].get(family_id, True) is not False
    if entry["support"].get(family_id, True) is False:
        return False
    since = entry["since"]
    if since and _key(release) < _key(since):
        return False
    cell = entry["support_since"].get(family_id)
    return not (cell and _key(release) < _key(cell))


def read_versions(lib: AclLibrary) -> tuple[str | None, str | None]:
    """(the runtime package's version string, the ACL API version "x.y.z") as the library answers;
    the API version is asked only when the version string cannot be had."""
    try:
        reported = lib.aclsysGetVersionStr("runtime")
        if reported:
            return str(reported), None
    except Exception:  # noqa: BLE001 - missing on old releases, or refused: fall back
        pass
    try:
        major, minor, patch = lib.aclrtGetVersion()
        return None, f"{major}.{minor}.{patch}"
    except Exception:  # noqa: BLE001
        return None, None
