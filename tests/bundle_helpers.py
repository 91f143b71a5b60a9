"""Shared constants and builders of the certification and gate tests: synthetic summaries and bundles."""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path
from typing import Any

from conformance.certify import runner as certify_mod
from conformance.certify.bundle import DEFAULT_CATALOG, file_digests, write_sums
from conformance.results.coverage import coverage
from conformance.results.environment import sha256_file
from conformance.results.observations import observation_provenance
from conformance.results.rootcause import root_causes
from conformance.results.signing import SIGNATURE
from conformance.results.summary import SCHEMA as SUMMARY_SCHEMA
from conformance.results.summary import mandatory_standing, run_verdict

REPO = Path(__file__).resolve().parents[1]
SIM_LIB = REPO / "build" / "sim" / "libascendcl.so"
FAULTED_RULE = "HM-PAIR-DOUBLE-UNREGISTER"
FAULT = "double_unregister_ok"
SECOND_FAULTED_RULE = "HM-PAIR-DOUBLE-REGISTER"
SECOND_FAULT = "double_register_ok"
PASSING_PAIR_RULE = "HM-PAIR-DOUBLE-FREE"
#: The library synthetic summaries and bundles name (any file will do: its path and sha256 must agree).
FAKE_LIB = SIM_LIB if SIM_LIB.is_file() else Path(sys.executable)
#: pytest -k expression selecting the pairing family's generated tests (a subset run).
PAIRING_ONLY = ["-k", "test_HM_PAIR_"]


def implied_observations(rule: dict[str, Any], case: dict[str, Any]) -> dict[str, Any]:
    """The observations a PASS of ``case`` records (those the spec states an ``expect`` of), as the
    summary carries them: what a synthetic PASS needs to be consistent."""
    found = {}
    for declared in rule.get("observations") or ():
        expect = declared.get("expect")
        if expect is None:
            continue
        if expect == "refused":
            value: Any = (case.get("expect") or {}).get("value", 1)  # the expected code, or any refusal
        elif "equals" in expect:
            value = expect["equals"]
        elif "at_least" in expect:
            value = expect["at_least"]
        else:
            value = expect["one_of"][0]
        if declared.get("many"):
            value = [value]
        elif declared.get("key"):
            value = {"0": value}
        found[declared["name"]] = {"value": value, "type": declared["type"],
                                   "provenance": observation_provenance(rule, case, declared)}
    return found


def build_summary(catalog: dict[str, Any], outcomes: dict[str, Any] | None = None, **env: Any) -> dict[str, Any]:
    """A summary.json in the plugin's format: every catalog case PASS, except ``outcomes``.

    ``outcomes`` maps a case ID to an outcome or to a dict of case fields.
    """
    outcomes = outcomes or {}
    rules = {}
    for rule in catalog["rules"]:
        cases = {}
        for case in rule["cases"]:
            value = outcomes.get(case["case_id"], "PASS")
            fields = value if isinstance(value, dict) else {"outcome": value}
            outcome = fields["outcome"]
            cases[case["case_id"]] = {
                "outcome": outcome,
                "category": fields.get("category", {"FAIL": "spec_violation", "ERROR": "crash"}.get(outcome)),
                "message": fields.get("message", ""),
                "observed_code": fields.get("observed_code"),
                "duration_s": 0.01,
                "waiver": fields.get("waiver"),
                "observations": fields.get("observations", implied_observations(rule, case) if outcome == "PASS"
                                           else {}),
            }
            for extra in ("blocked_by", "rests_on"):  # written only when there is something, as the plugin does
                if fields.get(extra):
                    cases[case["case_id"]][extra] = fields[extra]
        rules[rule["id"]] = {
            "title": rule["title"],
            "family": rule["family"],
            "severity": rule["severity"],
            "doc_url": rule["doc_url"],
            "doc_ref": rule["doc_ref"],
            "outcome": _worst([c["outcome"] for c in cases.values()]),
            "provenance": rule.get("provenance"),
            "evidence": rule.get("evidence", []),
            "cases": cases,
        }
    environment = {
        "library": str(FAKE_LIB.resolve()),
        "library_sha256": sha256_file(FAKE_LIB),
        "soc": "Ascend910B3",
        "product_family": "atlas_a2",
        "cann_version": "8.0.RC3",
        # The release the run was judged against (a synthetic run names it, as --acl-cann-release does).
        "cann_release": catalog["releases"][-1]["name"],
        "release": {"name": catalog["releases"][-1]["name"], "reported": "8.0.RC3", "source": "override",
                    "newer_than_known": False},
        "os_kernel": "6.1.0",
        "device_count": 1,
        "python": "3.11.7",
        "host": "test-host",
    }
    environment.update(env)
    return {
        "schema": SUMMARY_SCHEMA,
        "spec_hash": catalog["spec_hash"],
        "suite_version": "test",
        "environment": environment,
        "command": ["python", "-m", "conformance", "run"],
        "totals": {},
        "by_interface": {},
        "by_family": {},
        "root_causes": root_causes(rules),
        "rules": rules,
        "expectations": {"files": [], "expired": []},
        "unjudged_rules": mandatory_standing(rules)[1],
        "coverage": (covered := coverage(catalog, rules, environment)),
        "verdict": run_verdict(rules, covered["unexercised_interfaces"]),
    }


def _worst(outcomes: list[str]) -> str:
    order = ("ERROR", "FAIL", "BLOCKED", "WAIVED", "XPASS", "PASS", "NOT_APPLICABLE")
    return min(outcomes, key=order.index)


def first_case(catalog: dict[str, Any], rule_id: str) -> str:
    return next(r for r in catalog["rules"] if r["id"] == rule_id)["cases"][0]["case_id"]


ALLURE_STATUS = {"PASS": "passed", "XPASS": "passed", "FAIL": "failed", "WAIVED": "failed", "BLOCKED": "broken",
                 "NOT_APPLICABLE": "skipped", "ERROR": "broken"}


def allure_result(case_id: str, rule_id: str, outcome: str) -> dict[str, Any]:
    """An Allure result as allure-pytest writes it for a generated case (the fields verify reads)."""
    param = case_id[len(rule_id) + 1 : -1] if case_id != rule_id else None
    name = "test_" + rule_id.replace("-", "_") + (f"[{param}]" if param is not None else "")
    parameters = [{"name": "case", "value": repr(param), "mode": "hidden"}] if param is not None else []
    return {"name": name, "status": ALLURE_STATUS[outcome], "parameters": parameters,
            "labels": [{"name": "rule", "value": rule_id}, {"name": "outcome", "value": outcome}]}


def write_allure_results(directory: Path, summary: dict[str, Any]) -> None:
    """One Allure result per case of ``summary`` that ran, agreeing with its outcome."""
    directory.mkdir(parents=True, exist_ok=True)
    number = 0
    for rule_id, rule in summary["rules"].items():
        for case_id, case in rule["cases"].items():
            number += 1
            data = allure_result(case_id, rule_id, case["outcome"])
            (directory / f"{number:04d}-result.json").write_text(json.dumps(data), encoding="utf-8")


def write_fake_bundle(root: Path, summary: dict[str, Any], *, expectations: list[Path] = (),
                      catalog: Path = DEFAULT_CATALOG, key: Any = None) -> Path:
    """A bundle packaged from a synthetic run (no suite run): the real packaging code."""
    staging = root / "staging"
    write_allure_results(staging / "allure-results", summary)
    if expectations:
        summary = dict(summary, expectations={"files": [str(p) for p in expectations], "expired": []})
    (staging / "allure-report").mkdir()
    (staging / "allure-report" / "index.html").write_text("<html></html>\n", encoding="utf-8")
    (staging / "junit.xml").write_text("<testsuites/>\n", encoding="utf-8")
    (staging / "history.jsonl").write_text('{"uuid": "baseline-run"}\n', encoding="utf-8")
    (staging / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    created = datetime.datetime(2026, 11, 29, 8, 0, 0, tzinfo=datetime.timezone.utc)
    return certify_mod.package_bundle(staging, root, FAKE_LIB, ["run"], created, catalog, [], [], key)


def reseal(bundle: Path) -> None:
    """What a forger without the signing key can do: recompute manifest.json's file list and SHA256SUMS."""
    manifest = json.loads((bundle / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"] = file_digests(bundle, frozenset({"manifest.json", SIGNATURE}))
    (bundle / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    write_sums(bundle)
