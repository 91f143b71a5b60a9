"""verify recomputes instead of trusting: each self-consistent forgery of issue 10 fails with a named reason.

Every forgery here is completed the way a forger without the signing key would: the
checksums (SHA256SUMS and the manifest's file list) are recomputed afterwards, so only a
recomputation can find it. Signed bundles verify with the signer's key and fail with
another key or after any edit.
"""

from __future__ import annotations

import datetime
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from bundle_helpers import FAULTED_RULE, first_case, reseal, write_fake_bundle
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from conformance.certify.verify import verify
from conformance.cli import main as cli_main
from conformance.results.signing import SIGNATURE, load_public_key

#: An expiry an accepted waiver may have (within a year of today).
SOON = (datetime.date.today() + datetime.timedelta(days=200)).isoformat()


def _edit_json(path: Path, change: Any) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


@pytest.fixture
def failing_bundle(tmp_path, catalog, make_summary) -> Path:
    """An honest NOT CERTIFIED bundle: one mandatory case FAILs."""
    case = first_case(catalog, FAULTED_RULE)
    bundle = write_fake_bundle(tmp_path / "honest", make_summary({case: "FAIL"}))
    assert verify(bundle) == []
    return bundle


def _flip_to_pass(summary: dict[str, Any]) -> None:
    for rule in summary["rules"].values():
        for case in rule["cases"].values():
            case.update(outcome="PASS", category=None)
        rule["outcome"] = "PASS"
    summary["verdict"] = "PASS"


def test_outcomes_flipped_to_pass_disagree_with_the_allure_results(failing_bundle, catalog):
    _edit_json(failing_bundle / "summary.json", _flip_to_pass)
    for name in ("certificate.md", "certificate.html", "manifest.json"):
        path = failing_bundle / name
        path.write_text(path.read_text().replace("NOT CERTIFIED", "CERTIFIED"))
    reseal(failing_bundle)
    case = first_case(catalog, FAULTED_RULE)
    assert any(p.endswith(f"case {case} is failed in Allure but PASS in summary.json") for p in verify(failing_bundle))


def test_failing_rule_relabelled_informational_is_judged_by_the_spec_catalog(tmp_path, catalog, make_summary):
    case = first_case(catalog, FAULTED_RULE)
    summary = make_summary({case: "FAIL"})
    summary["rules"][FAULTED_RULE]["severity"] = "informational"
    summary["verdict"] = "PASS"
    forged_catalog = json.loads(json.dumps(catalog))
    next(r for r in forged_catalog["rules"] if r["id"] == FAULTED_RULE)["severity"] = "informational"
    (tmp_path / "catalog.json").write_text(json.dumps(forged_catalog))
    # Packaged with the forged severity, the certificate says CERTIFIED and agrees with itself.
    bundle = write_fake_bundle(tmp_path / "forged", summary, catalog=tmp_path / "catalog.json")
    assert "<!-- acl-verdict: CERTIFIED -->" in (bundle / "certificate.md").read_text()
    problems = verify(bundle)
    assert (f"summary.json: rule {FAULTED_RULE} has severity 'informational'; the spec "
            f"({catalog['spec_hash']}) says 'mandatory'") in problems
    assert "certificate.md: verdict CERTIFIED does not follow from the outcomes (NOT CERTIFIED)" in problems
    assert "summary.json: verdict PASS does not follow from the outcomes (FAIL)" in problems


def test_waived_without_a_bundled_expectations_file_is_found(tmp_path, catalog, make_summary):
    case = first_case(catalog, FAULTED_RULE)
    waiver = {"rule": FAULTED_RULE, "case": None, "families": ["atlas_a2"], "soc": None, "cann": None,
              "reason": "trust me", "tracking": "X-1", "expires": "2099-01-01", "accepted": True, "where": "none:1"}
    bundle = write_fake_bundle(tmp_path, make_summary({case: {"outcome": "WAIVED", "waiver": waiver}}))
    assert "<!-- acl-verdict: CERTIFIED -->" in (bundle / "certificate.md").read_text()
    assert (f"summary.json: case {case} is WAIVED by a waiver that no expectations file of the bundle holds"
            in verify(bundle))


def test_a_waiver_from_a_bundled_file_verifies_and_an_edited_one_does_not(tmp_path, catalog, make_summary):
    case = first_case(catalog, FAULTED_RULE)
    source = tmp_path / "waivers.yaml"
    source.write_text(
        "expectations:\n"
        f"  - case: '{case}'\n    families: [atlas_a2]\n    reason: known\n    tracking: T-9\n"
        f"    expires: {SOON}\n    accepted: true\n",
        encoding="utf-8",
    )
    waiver = {"rule": None, "case": case, "families": ["atlas_a2"], "soc": None, "cann": None, "reason": "known",
              "tracking": "T-9", "expires": SOON, "accepted": True, "where": f"{source}:2",
              "waived_category": "spec_violation"}
    summary = make_summary({case: {"outcome": "WAIVED", "waiver": waiver}})
    bundle = write_fake_bundle(tmp_path / "b", summary, expectations=[source])
    assert (bundle / "expectations" / "1-waivers.yaml").read_text() == source.read_text()
    assert verify(bundle) == []
    _edit_json(bundle / "summary.json",
               lambda s: s["rules"][FAULTED_RULE]["cases"][case]["waiver"].update(reason="something else"))
    reseal(bundle)
    assert any("no expectations file of the bundle holds" in p for p in verify(bundle))


def test_summary_of_another_library_disagrees_with_the_manifest(failing_bundle):
    _edit_json(failing_bundle / "summary.json", lambda s: s["environment"].update(library_sha256="ab" * 32))
    reseal(failing_bundle)
    problems = verify(failing_bundle)
    assert any(p.startswith("manifest.json: library sha256 ") and "(the summary is of another library)" in p
               for p in problems), problems


def test_certificate_facts_must_match_the_manifest(failing_bundle):
    path = failing_bundle / "certificate.md"
    path.write_text(path.read_text().replace("- **SoC:** Ascend910B3", "- **SoC:** Ascend910_9391"))
    reseal(failing_bundle)
    assert "certificate.md: SoC is not shown as manifest.json has it (Ascend910B3)" in verify(failing_bundle)


def test_visible_verdict_edited_against_the_machine_readable_one(failing_bundle):
    md = failing_bundle / "certificate.md"
    md.write_text(md.read_text().replace("## Verdict: **NOT CERTIFIED**", "## Verdict: **CERTIFIED**"))
    page = failing_bundle / "certificate.html"
    page.write_text(page.read_text().replace('<p class="verdict bad">NOT CERTIFIED</p>',
                                             '<p class="verdict ok">CERTIFIED</p>'))
    reseal(failing_bundle)
    problems = verify(failing_bundle)
    assert ("certificate.md: the visible verdict (## Verdict: **CERTIFIED**) is not the verdict of the outcomes "
            "(NOT CERTIFIED)") in problems
    assert "certificate.html: the visible verdict (CERTIFIED) is not the verdict of the outcomes (NOT CERTIFIED)" \
        in problems


def test_deleted_allure_result_is_found(failing_bundle, catalog):
    results = sorted((failing_bundle / "allure-results").glob("*-result.json"))
    victim = json.loads(results[3].read_text())
    results[3].unlink()
    reseal(failing_bundle)
    problems = verify(failing_bundle)
    assert len(problems) == 1 and problems[0].startswith("allure-results: no result for case ")
    assert victim["labels"][0]["value"] in problems[0]


@pytest.mark.parametrize("junk", ["[]", "{}", '{"schema": "acl-conformance-summary/1", "rules": []}', "null", "{"])
def test_structurally_wrong_summary_gives_one_line(failing_bundle, junk, capsys):
    (failing_bundle / "summary.json").write_text(junk)
    reseal(failing_bundle)
    problems = verify(failing_bundle)
    assert problems and all("\n" not in p for p in problems)
    assert any(p.startswith("summary.json: ") for p in problems)
    assert cli_main(["verify", str(failing_bundle)]) == 1
    assert "Traceback" not in capsys.readouterr().err


# ----------------------------------------------------------------------------- BLOCKED and root causes

BLOCKER = "HM-PAIR-REG-UNREG"


def _blocked(by: str, **extra: Any) -> dict[str, Any]:
    return {"outcome": "BLOCKED", "category": "blocked", "blocked_by": by, "message": f"BLOCKED by {by}", **extra}


def test_a_case_blocked_by_a_rule_its_rule_needs_verifies(tmp_path, catalog, make_summary):
    blocked = first_case(catalog, "HM-VA-IDENTITY")  # HM-VA-IDENTITY needs HM-PAIR-REG-UNREG
    summary = make_summary({first_case(catalog, BLOCKER): "FAIL", blocked: _blocked(BLOCKER)})
    assert [c["rule"] for c in summary["root_causes"]] == [BLOCKER]
    assert verify(write_fake_bundle(tmp_path, summary)) == []


@pytest.mark.parametrize("rule_id, by, problem", [
    # HM-PAIR-MALLOC-FREE needs nothing, and HM-VA-IDENTITY promises no set-up step: a failure of
    # its own cannot be passed off as another rule's
    ("HM-PAIR-MALLOC-FREE", "HM-VA-IDENTITY", "which HM-PAIR-MALLOC-FREE does not need"),
    ("HM-VA-IDENTITY", "HM-NO-SUCH-RULE", "'HM-NO-SUCH-RULE', which is no rule of the spec"),
], ids=["not-needed", "unknown-rule"])
def test_a_case_blocked_by_a_rule_it_does_not_rest_on_is_found(tmp_path, catalog, make_summary, rule_id, by,
                                                                problem):
    case = first_case(catalog, rule_id)
    # self-consistent: root_causes recomputed from the forged outcomes by the helper
    assert by not in (catalog.get("setup_promises") or {}).values()
    bundle = write_fake_bundle(tmp_path, make_summary({first_case(catalog, BLOCKER): "FAIL", case: _blocked(by)}))
    problems = verify(bundle)
    assert any(p.startswith(f"summary.json: case {case} is BLOCKED by ") and p.endswith(problem) for p in problems), \
        problems


def test_root_causes_that_do_not_follow_from_the_outcomes_are_found(tmp_path, catalog, make_summary):
    bundle = write_fake_bundle(tmp_path, make_summary({first_case(catalog, BLOCKER): "FAIL",
                                                       first_case(catalog, "HM-VA-IDENTITY"): _blocked(BLOCKER)}))
    _edit_json(bundle / "summary.json", lambda s: s.update(root_causes=[]))  # hide the root cause
    reseal(bundle)
    assert verify(bundle) == ["summary.json: root_causes do not follow from the case outcomes"]


@pytest.mark.parametrize("blocker_outcome, verifies", [("FAIL", True), ("PASS", False)])
def test_an_explorer_case_is_blocked_only_by_a_failing_rule_its_path_rests_on(tmp_path, catalog, make_summary,
                                                                              blocker_outcome, verifies):
    explorer = first_case(catalog, "HM-EXPLORE-DOCUMENTED")
    summary = make_summary({first_case(catalog, BLOCKER): blocker_outcome,
                            explorer: _blocked(BLOCKER, rests_on=[BLOCKER, "HM-PAIR-MALLOC-FREE"])})
    problems = verify(write_fake_bundle(tmp_path, summary))
    problem = (f"summary.json: explorer case {explorer} is BLOCKED by {BLOCKER}, which its finding does not rest on "
               "or which did not fail in this run")
    assert problems == ([] if verifies else [problem])
    elsewhere = make_summary({first_case(catalog, BLOCKER): "FAIL",
                              explorer: _blocked(BLOCKER, rests_on=["HM-VA-IDENTITY"])})
    assert problem in verify(write_fake_bundle(tmp_path / "elsewhere", elsewhere))


@pytest.mark.parametrize("blocker_outcome, verifies", [("FAIL", True), ("PASS", False)])
def test_a_fixed_case_whose_failure_rests_on_a_rule_is_blocked_only_when_that_rule_failed(
        tmp_path, catalog, make_summary, blocker_outcome, verifies):
    # HM-PAIR-CONCURRENT-REGISTER is not among HM-REG-NEIGHBOURS' needs: only the rests_on of the
    # case (a range an earlier case left registered) and that rule's own failure can justify it.
    blocker = "HM-PAIR-CONCURRENT-REGISTER"
    case = first_case(catalog, "HM-REG-NEIGHBOURS")
    summary = make_summary({first_case(catalog, blocker): blocker_outcome,
                            case: _blocked(blocker, rests_on=[blocker])})
    problems = verify(write_fake_bundle(tmp_path, summary))
    assert problems == ([] if verifies else [f"summary.json: case {case} is BLOCKED by {blocker}, which its failure "
                                             "rests on but which did not fail in this run"])


# ----------------------------------------------------------------------------- signatures


def _keypair(directory: Path, name: str) -> tuple[Ed25519PrivateKey, Path, Path]:
    key = Ed25519PrivateKey.generate()
    private = directory / f"{name}.pem"
    private.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
    public = directory / f"{name}.pub.pem"
    public.write_bytes(key.public_key().public_bytes(serialization.Encoding.PEM,
                                                     serialization.PublicFormat.SubjectPublicKeyInfo))
    return key, private, public


def test_signed_bundle_verifies_with_its_key_and_fails_with_another(tmp_path, make_summary, capsys):
    key, _, public = _keypair(tmp_path, "signer")
    _, _, other = _keypair(tmp_path, "other")
    bundle = write_fake_bundle(tmp_path / "b", make_summary(), key=key)
    assert (bundle / SIGNATURE).is_file()
    assert verify(bundle, trusted=load_public_key(public)) == []
    assert cli_main(["verify", str(bundle), "--trust", str(public)]) == 0
    assert "signature by the trusted key" in capsys.readouterr().out
    problems = verify(bundle, trusted=load_public_key(other))
    assert len(problems) == 1 and "not by the trusted key" in problems[0]
    assert cli_main(["verify", str(bundle), "--trust", str(other)]) == 1


def test_any_edit_of_a_signed_bundle_fails_its_signature(tmp_path, make_summary):
    key, _, public = _keypair(tmp_path, "signer")
    trusted = load_public_key(public)
    original = write_fake_bundle(tmp_path / "b", make_summary(), key=key)
    files = sorted(p.relative_to(original) for p in original.rglob("*") if p.is_file() and p.name != "SHA256SUMS")
    results = [rel for rel in files if rel.parts[0] == "allure-results"]
    files = [rel for rel in files if rel.parts[0] != "allure-results"] + results[:2]  # every kind of file
    assert len(files) >= 10
    for number, rel in enumerate(files):
        copy = tmp_path / f"copy{number}"
        shutil.copytree(original, copy)
        data = bytearray((copy / rel).read_bytes())
        data[len(data) // 2] ^= 0x01
        (copy / rel).write_bytes(bytes(data))
        if rel.name not in ("manifest.json", SIGNATURE):
            reseal(copy)  # the forger fixes every checksum it can
        assert verify(copy, trusted=trusted), f"an edit of {rel} went unnoticed"


def test_unsigned_bundle_fails_when_a_key_is_trusted_and_bad_keys_exit_2(tmp_path, make_summary, capsys):
    _, private, public = _keypair(tmp_path, "signer")
    bundle = write_fake_bundle(tmp_path / "b", make_summary())
    assert verify(bundle, trusted=load_public_key(public)) == [f"{SIGNATURE}: missing: the bundle is not signed"]
    assert cli_main(["verify", str(bundle), "--trust", str(private)]) == 2
    assert "not a PEM public key" in capsys.readouterr().err
    not_a_key = tmp_path / "junk.pem"
    not_a_key.write_text("hello")
    assert cli_main(["certify", "--acl-lib", str(not_a_key), "--sign", str(not_a_key)]) == 2
    assert "not an unencrypted PEM private key" in capsys.readouterr().err
