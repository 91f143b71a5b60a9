"""The release a run is judged against, and what lies outside its contract."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from conformance.harness.release import (
    JUDGED_AGAINST,
    AmbiguousReleaseError,
    ReleaseError,
    judge_release,
    outside_contract,
    outside_reason,
    supported_in,
    version_key,
)
from conformance.session.preflight import Problem, SetupError, check_release

ROOT = Path(__file__).resolve().parents[2]
CATALOG: dict[str, Any] = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text(encoding="utf-8"))
NAMES = [r["name"] for r in CATALOG["releases"]]


def rule(rule_id: str) -> dict[str, Any]:
    return next(r for r in CATALOG["rules"] if r["id"] == rule_id)


def case(rule_id: str, param_id: str) -> dict[str, Any]:
    return next(c for c in rule(rule_id)["cases"] if c["param_id"] == param_id)


@pytest.mark.parametrize(("reported", "name", "newer"), [
    ("8.5.0", "8.5.0", False),
    ("8.5.0-aclsim", "8.5.0", False),
    ("9.0.1", "9.0.0", False),  # a patch release: its minor release's contract
    ("9.1.0.alpha001", "9.1.0", False),
    ("9.1.RC1", "9.1.0", False),
    (f"{NAMES[-1]}-beta.1", NAMES[-1], False),
    ("12.0.0", NAMES[-1], True),  # newer than every release: the newest contract, and the run says so
    ("9.2.0-beta.1", "9.1.0", False),  # a beta the spec does not know: the newest known release before it
    ("9.2.0-beta.2", "9.2.0-beta.2", False),  # the branch release, by its real name
    ("9.2.0-beta.2-aclsim", "9.2.0-beta.2", False),
    ("9.2.0-beta.3", NAMES[-1], False),  # newer than every numbered release: the master snapshot
    ("9.2.0", NAMES[-1], False),  # its final too: the snapshot develops the 9.2 line
    (f"{NAMES[-1]}-aclsim", NAMES[-1], False),  # the simulator's own version string names the snapshot
])
def test_a_reported_version_is_judged_by_the_newest_release_not_newer_than_it(reported, name, newer):
    judged = judge_release(CATALOG, reported)
    assert judged is not None
    assert (judged.name, judged.source, judged.newer_than_known) == (name, "library", newer)
    assert judged.line().startswith(f"judged against CANN {name}")
    assert ("newer than every release" in judged.line()) == newer


@pytest.mark.parametrize(("reported", "override", "words"), [
    ("8.0.0", None, ["older than every release", "8.5.0"]),
    ("8.0.RC3", None, ["older than every release", "8.5.0"]),  # CANN's release-candidate spelling
    ("banana", None, ["'banana'", "not X.Y.Z"]),
    ("master@0123456789", None, ["'master@0123456789'", "nor a release the spec knows"]),  # another snapshot
    (None, None, ["reports no version"]),
    ("9.1.0", "7.0.0", ["'7.0.0'", "is no release the spec knows"]),
])
def test_a_release_that_cannot_be_judged_is_one_line_naming_the_known_releases(reported, override, words):
    with pytest.raises(ReleaseError) as raised:
        judge_release(CATALOG, reported, override)
    message = str(raised.value)
    assert "\n" not in message and all(word in message for word in words), message


def test_releases_are_named_by_their_real_refs_and_ordered_beta_final_snapshot():
    assert NAMES[-1].startswith("master@") and CATALOG["releases"][-1]["commit"].startswith(NAMES[-1][7:])
    beta2 = next(r for r in CATALOG["releases"] if r["name"] == "9.2.0-beta.2")
    assert beta2["branch"] == "9.2.0-beta.2" and not beta2["tag"]
    order = ["9.1.0", "9.2.0-beta.1", "9.2.0-beta.2", "9.2.0", NAMES[-1]]
    keys = [version_key(name) for name in order]
    assert all(k is not None for k in keys)
    assert sorted(keys) == keys and len(set(keys)) == len(keys)  # type: ignore[type-var]
    assert version_key("9.1.RC1") == version_key("9.1.0")  # CANN's RC spelling keeps its meaning


def test_the_override_wins_and_the_acl_api_version_is_the_fallback():
    judged = judge_release(CATALOG, "9.1.0", override="8.5.0")
    assert judged is not None and (judged.name, judged.source) == ("8.5.0", "override")
    assert "--acl-cann-release" in judged.line()
    by_api = judge_release(CATALOG, None, acl_api="1.16.0")
    assert by_api is not None and (by_api.name, by_api.source) == ("8.5.0", "acl-api")  # the one with that API
    with pytest.raises(ReleaseError, match="1.99.0"):
        judge_release(CATALOG, None, acl_api="1.99.0")


def test_a_case_outside_the_release_contract_says_since_when_and_against_what():
    v2 = case("HM-PAIR-REG-UNREG", "api=v2_mapped")
    v1 = case("HM-PAIR-REG-UNREG", "api=v1")
    reason = outside_reason(rule("HM-PAIR-REG-UNREG"), "8.5.0", v2)
    assert reason is not None and "from CANN 9.0.0 on" in reason and outside_contract(reason)
    assert outside_reason(rule("HM-PAIR-REG-UNREG"), "8.5.0", v1) is None  # V1 is in the 8.5.0 contract
    assert outside_reason(rule("HM-PAIR-REG-UNREG"), "9.0.0", v2) is None
    assert outside_reason(rule("HM-PAIR-REG-UNREG"), None, v2) is None  # no releases known: everything holds
    unregistered = case("HM-INVAL-GETDEVPTR", "pHost=unregistered")
    assert outside_reason(rule("HM-INVAL-GETDEVPTR"), "9.0.0", unregistered) is not None
    assert outside_reason(rule("HM-INVAL-GETDEVPTR"), "9.0.0", case("HM-INVAL-GETDEVPTR", "pHost=NULL")) is None


def test_a_family_a_release_does_not_document_yet_is_outside_its_contract():
    malloc = case("HM-ALIGN-MALLOC", rule("HM-ALIGN-MALLOC")["cases"][0]["param_id"])
    reason = outside_reason(rule("HM-ALIGN-MALLOC"), "9.1.0", malloc, CATALOG, "atlas_inference")
    assert reason is not None and "atlas_inference" in reason and JUDGED_AGAINST in reason
    assert outside_reason(rule("HM-ALIGN-MALLOC"), NAMES[-1], malloc, CATALOG, "atlas_inference") is None
    assert outside_reason(rule("HM-ALIGN-MALLOC"), "8.5.0", malloc, CATALOG, "atlas_a2") is None
    assert not supported_in(CATALOG, "aclrtMallocHost", "atlas_inference", "9.1.0")
    assert supported_in(CATALOG, "aclrtMallocHost", "atlas_inference", None)
    assert not supported_in(CATALOG, "aclrtHostMemMapCapabilities", "atlas_a2", "8.5.0")


def test_a_rule_that_left_the_contract_is_outside_from_that_release_on():
    retired = copy.deepcopy(rule("HM-ALIGN-MALLOC"))
    retired["until"] = "9.1.0"
    assert outside_reason(retired, "9.0.0") is None
    reason = outside_reason(retired, "9.1.0")
    assert reason is not None and "left the contract in CANN 9.1.0" in reason


def test_an_acl_api_version_of_several_releases_is_a_setup_error_naming_them_unless_the_user_chooses():
    shared = [str(r["name"]) for r in CATALOG["releases"] if r.get("acl_api") == "1.17.0"]
    assert len(shared) > 1  # the spec's own releases share it: the oldest would be a weaker contract
    with pytest.raises(AmbiguousReleaseError) as raised:
        judge_release(CATALOG, None, acl_api="1.17.0")
    assert all(name in str(raised.value) for name in shared) and "--acl-cann-release" in str(raised.value)
    chosen = judge_release(CATALOG, None, override=shared[-1], acl_api="1.17.0")
    assert chosen is not None and (chosen.name, chosen.source) == (shared[-1], "override")
    with pytest.raises(SetupError) as setup:
        check_release({"cann_version": None, "acl_api": "1.17.0"}, None, CATALOG)
    assert setup.value.problem == Problem.AMBIGUOUS_RELEASE and len(setup.value.render().splitlines()) == 2
