"""Certification verdicts, certificates and verify, on bundles packaged from synthetic runs."""

from __future__ import annotations

import json
import shutil

import pytest
from bundle_helpers import FAULTED_RULE, PASSING_PAIR_RULE, first_case, write_fake_bundle

from conformance.certify.bundle import SUMS, check_sums, write_sums
from conformance.certify.certificate import verdict_in_html, verdict_in_markdown
from conformance.certify.verdict import CERTIFIED, NOT_CERTIFIED, assess
from conformance.certify.verify import verify
from conformance.cli import main as cli_main

ACCEPTED = {"rule": FAULTED_RULE, "case": None, "families": ["atlas_a2"], "reason": "agreed", "tracking": "T-1",
            "expires": "2099-01-01", "accepted": True, "where": "e.yaml:2"}
NOT_ACCEPTED = dict(ACCEPTED, accepted=False)


def test_all_pass_is_certified(catalog, make_summary):
    assert assess(make_summary(), catalog).verdict == CERTIFIED


@pytest.mark.parametrize("outcome", ["FAIL", "ERROR"])
def test_failing_mandatory_rule_is_not_certified(catalog, make_summary, outcome):
    result = assess(make_summary({first_case(catalog, FAULTED_RULE): outcome}), catalog)
    assert result.verdict == NOT_CERTIFIED
    assert [r.rule_id for r in result.blocking] == [FAULTED_RULE]


def test_waivers_count_unless_accepted(catalog, make_summary):
    case = first_case(catalog, FAULTED_RULE)
    waived = assess(make_summary({case: {"outcome": "WAIVED", "waiver": NOT_ACCEPTED}}), catalog)
    assert waived.verdict == NOT_CERTIFIED
    assert [r.rule_id for r in waived.blocking] == [FAULTED_RULE]
    accepted = assess(make_summary({case: {"outcome": "WAIVED", "waiver": ACCEPTED}}), catalog)
    assert accepted.verdict == CERTIFIED
    assert [r.rule_id for r in accepted.waived_mandatory] == [FAULTED_RULE]


def test_xpass_is_a_stale_waiver_not_a_failure(catalog, make_summary):
    result = assess(make_summary({first_case(catalog, PASSING_PAIR_RULE): "XPASS"}), catalog)
    assert result.verdict == CERTIFIED
    assert [r.rule_id for r in result.stale] == [PASSING_PAIR_RULE]


def test_recommended_rules_do_not_decide(catalog, make_summary):
    rule = next(r for r in catalog["rules"] if r["severity"] == "recommended")
    result = assess(make_summary({rule["cases"][0]["case_id"]: "FAIL"}), catalog)
    assert result.verdict == CERTIFIED
    assert [r.rule_id for r in result.advisory_findings] == [rule["id"]]


def test_missing_rule_is_not_certified(catalog, make_summary):
    summary = make_summary()
    del summary["rules"][PASSING_PAIR_RULE]
    result = assess(summary, catalog)
    assert result.verdict == NOT_CERTIFIED
    assert result.missing_rules == [PASSING_PAIR_RULE]


def test_certificate_names_failing_rule_with_doc_link(tmp_path, catalog, make_summary):
    bundle = write_fake_bundle(tmp_path, make_summary({first_case(catalog, FAULTED_RULE): "FAIL"}))
    # The release judged against, not the library's 8.0.RC3.
    assert bundle.name == "atlas_a2-master_681ef7610-20261129T080000Z"
    md = (bundle / "certificate.md").read_text()
    page = (bundle / "certificate.html").read_text()
    assert verdict_in_markdown(md) == verdict_in_html(page) == NOT_CERTIFIED
    rule = next(r for r in catalog["rules"] if r["id"] == FAULTED_RULE)
    assert FAULTED_RULE in md and rule["doc_url"] in md
    assert f'href="{rule["doc_url"]}"' in page
    assert "do not decide the verdict" in md
    for external in ("<script", "<link", "src=", "@import", "url("):
        assert external not in page


def test_advisory_conflicts_are_listed_with_both_citations_and_do_not_decide(tmp_path, catalog, make_summary):
    conflict = first_case(catalog, "HM-PAIR-V2-PINNED-ON-PINNED")
    recommended = first_case(catalog, "HM-PAIR-OVERLAP-REGISTER")
    summary = make_summary({conflict: "FAIL", recommended: "FAIL"})
    summary["findings"] = [{"case_id": "HM-VA-UNSUPPORTED[size=4096]", "rule_id": "HM-VA-UNSUPPORTED",
                            "severity": "recommended", "message": "failed with 107000, expected 207000"}]
    assert assess(summary, catalog).verdict == CERTIFIED
    bundle = write_fake_bundle(tmp_path, summary)
    md = (bundle / "certificate.md").read_text()
    title = "Advisory: documentation and runtime or driver source disagree"
    advisory = md.split(f"## {title}", 1)[1].split("\n## ", 1)[0]
    for rule_id in ("HM-PAIR-V2-PINNED-ON-PINNED", "HM-CFG-DEVICE-ID-MATCHING", "HM-PROD-TRAINING-REGISTER",
                    "HM-PAIR-FREE-WHILE-REGISTERED", "HM-REG-KERNEL-LEGACY"):
        assert rule_id in advisory
    assert "HM-PAIR-V2-PINNED-ON-PINNED: V2 PINNED" in advisory and "FAIL, takes the runtime source's side" in advisory
    assert "documentation 11-02_host_memory_management.md#aclrtHostRegisterV2:350" in advisory
    assert "runtime source src/runtime/api/impl/api_impl.cc:2592-2609 (contradicts the docs)" in advisory
    # a driver citation is named as such, with its stance
    assert ("driver source src/ascend_hal/svm/v3/assign/malloc_mng/malloc_mng.c:283-286 (contradicts the docs)"
            in advisory)
    assert "HM-PAIR-OVERLAP-REGISTER" not in advisory  # a recommended finding, listed in its own section
    findings = md.split("## Findings below the rule's severity", 1)[1]
    assert "HM-VA-UNSUPPORTED[size=4096] (recommended)" in findings and "expected 207000" in findings
    assert title in (bundle / "certificate.html").read_text()


def test_certificate_leads_with_the_root_causes(tmp_path, catalog, make_summary):
    failing = first_case(catalog, "HM-PAIR-REG-UNREG")
    blocked = first_case(catalog, "HM-VA-IDENTITY")  # HM-VA-IDENTITY needs HM-PAIR-REG-UNREG
    recommended = first_case(catalog, "HM-PAIR-OVERLAP-REGISTER")
    summary = make_summary({failing: "FAIL", recommended: "FAIL",
                            blocked: {"outcome": "BLOCKED", "category": "blocked", "blocked_by": "HM-PAIR-REG-UNREG",
                                      "message": "BLOCKED by HM-PAIR-REG-UNREG: registering failed"}})
    result = assess(summary, catalog)
    assert result.verdict == NOT_CERTIFIED
    assert [c["rule"] for c in summary["root_causes"]] == ["HM-PAIR-REG-UNREG", "HM-PAIR-OVERLAP-REGISTER"]
    bundle = write_fake_bundle(tmp_path, summary)
    assert verify(bundle) == []
    md = (bundle / "certificate.md").read_text()
    headings = [line for line in md.splitlines() if line.startswith("## ")]
    assert headings.index("## Root causes") < headings.index("## Rule families") < headings.index(
        "## Failing, unjudged or waived mandatory rules")
    causes = md.split("## Root causes", 1)[1].split("\n## ", 1)[0]
    assert "HM-PAIR-REG-UNREG (mandatory): 1 failing case(s), blocks 1 case(s) of 1 rule(s)" in causes
    assert "blocked rules: HM-VA-IDENTITY" in causes
    assert "HM-PAIR-OVERLAP-REGISTER (recommended): 1 failing case(s)" in causes
    assert causes.index("HM-PAIR-REG-UNREG") < causes.index("HM-PAIR-OVERLAP-REGISTER")  # mandatory first
    page = (bundle / "certificate.html").read_text()
    assert page.index("<h2>Root causes</h2>") < page.index("<h2>Rule families</h2>")


def test_intact_bundle_verifies(tmp_path, make_summary):
    bundle = write_fake_bundle(tmp_path, make_summary())
    assert verify(bundle) == []
    assert cli_main(["verify", str(bundle)]) == 0


def test_one_changed_byte_in_any_file_is_found(tmp_path, make_summary):
    original = write_fake_bundle(tmp_path / "src", make_summary())
    files = sorted(p for p in original.rglob("*") if p.is_file())
    results = [p for p in files if p.parent.name == "allure-results"]
    files = [p for p in files if p.parent.name != "allure-results"] + results[:2]  # every kind of file
    assert len(files) >= 8
    for number, path in enumerate(files):
        copy = tmp_path / f"copy{number}"
        shutil.copytree(original, copy)
        target = copy / path.relative_to(original)
        data = bytearray(target.read_bytes())
        data[len(data) // 2] ^= 0x01
        target.write_bytes(bytes(data))
        problems = verify(copy)
        assert problems, f"changing one byte of {target.name} went unnoticed"


def test_missing_and_extra_files_are_found(tmp_path, make_summary):
    bundle = write_fake_bundle(tmp_path, make_summary())
    (bundle / "junit.xml").unlink()
    (bundle / "notes.txt").write_text("hello")
    problems = check_sums(bundle)
    assert "junit.xml: listed in SHA256SUMS but missing" in problems
    assert "notes.txt: not listed in SHA256SUMS (extra file)" in problems
    assert "junit.xml: missing (bundle incomplete)" in verify(bundle)


def test_removed_case_result_is_found_even_with_fixed_sums(tmp_path, catalog, make_summary, capsys):
    bundle = write_fake_bundle(tmp_path, make_summary())
    case = first_case(catalog, FAULTED_RULE)
    summary = json.loads((bundle / "summary.json").read_text())
    del summary["rules"][FAULTED_RULE]["cases"][case]
    (bundle / "summary.json").write_text(json.dumps(summary))
    assert "summary.json: checksum mismatch" in verify(bundle)
    write_sums(bundle)  # a forger who also rewrites the sums
    assert f"summary.json: case {case} of rule {FAULTED_RULE} has no outcome" in verify(bundle)
    assert cli_main(["verify", str(bundle)]) == 1
    assert f"case {case}" in capsys.readouterr().out


def test_unknown_and_duplicate_cases_are_found(tmp_path, catalog, make_summary):
    bundle = write_fake_bundle(tmp_path, make_summary())
    summary = json.loads((bundle / "summary.json").read_text())
    cases = summary["rules"][FAULTED_RULE]["cases"]
    cases[f"{FAULTED_RULE}[bogus=1]"] = dict(next(iter(cases.values())))
    other = summary["rules"][PASSING_PAIR_RULE]["cases"]
    other[first_case(catalog, FAULTED_RULE)] = dict(next(iter(other.values())))
    (bundle / "summary.json").write_text(json.dumps(summary))
    write_sums(bundle)
    problems = verify(bundle)
    assert f"summary.json: unknown case {FAULTED_RULE}[bogus=1] for rule {FAULTED_RULE}" in problems
    assert any(p.startswith(f"summary.json: duplicate case {first_case(catalog, FAULTED_RULE)}") for p in problems)
    text = (bundle / "summary.json").read_text()
    key = f'"{PASSING_PAIR_RULE}": {{'
    (bundle / "summary.json").write_text(text.replace(key, f'"{PASSING_PAIR_RULE}": {{"title": "dup", ', 1))
    write_sums(bundle)
    assert "summary.json: duplicate key 'title'" in verify(bundle)


def test_verdict_that_does_not_follow_is_found(tmp_path, catalog, make_summary):
    bundle = write_fake_bundle(tmp_path, make_summary())
    summary = json.loads((bundle / "summary.json").read_text())
    summary["rules"][FAULTED_RULE]["cases"][first_case(catalog, FAULTED_RULE)]["outcome"] = "FAIL"
    summary["rules"][FAULTED_RULE]["outcome"] = "FAIL"
    (bundle / "summary.json").write_text(json.dumps(summary))
    write_sums(bundle)
    problems = verify(bundle)
    assert "certificate.md: verdict CERTIFIED does not follow from the outcomes (NOT CERTIFIED)" in problems
    assert "certificate.html: verdict CERTIFIED does not follow from the outcomes (NOT CERTIFIED)" in problems
    assert "summary.json: verdict PASS does not follow from the outcomes (FAIL)" in problems


def test_other_spec_hash_cannot_be_verified_for_completeness(tmp_path, catalog, make_summary):
    bundle = write_fake_bundle(tmp_path, make_summary())
    other = dict(catalog, spec_hash="0123456789abcdef")
    catalog_path = tmp_path / "catalog.json"
    catalog_path.write_text(json.dumps(other))
    problems = verify(bundle, catalog_path)
    assert len(problems) == 1 and "completeness not verifiable" in problems[0]
    assert "0123456789abcdef" in problems[0] and catalog["spec_hash"] in problems[0]


def test_sums_file_format(tmp_path, make_summary):
    bundle = write_fake_bundle(tmp_path, make_summary())
    lines = (bundle / SUMS).read_text().splitlines()
    paths = [line.split("  ", 1)[1] for line in lines]
    assert paths == sorted(paths) and SUMS not in paths
    assert {"summary.json", "manifest.json", "certificate.md", "certificate.html", "junit.xml"} <= set(paths)
    assert all(len(line.split("  ", 1)[0]) == 64 for line in lines)
