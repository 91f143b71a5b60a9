"""Shared constants and builders of the certification tests (imported by conftest and tests)."""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path
from typing import Any

from conformance.certify import runner as certify_mod
from conformance.certify.bundle import DEFAULT_CATALOG

REPO = Path(__file__).resolve().parents[2]
SIM_LIB = REPO / "build" / "sim" / "libascendcl.so"
FAULTED_RULE = "HM-PAIR-DOUBLE-UNREGISTER"
FAULT = "double_unregister_ok"
SECOND_FAULTED_RULE = "HM-PAIR-DOUBLE-REGISTER"
SECOND_FAULT = "double_register_ok"
PASSING_PAIR_RULE = "HM-PAIR-DOUBLE-FREE"
#: pytest -k expression selecting the pairing family's generated tests (a subset run).
PAIRING_ONLY = ["-k", "test_HM_PAIR_"]


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
                "observations": fields.get("observations", {}),
            }
        rules[rule["id"]] = {
            "title": rule["title"],
            "family": rule["family"],
            "severity": rule["severity"],
            "doc_url": rule["doc_url"],
            "doc_ref": rule["doc_ref"],
            "outcome": _worst([c["outcome"] for c in cases.values()]),
            "cases": cases,
        }
    failing = any(
        c["outcome"] in ("FAIL", "ERROR")
        for r in rules.values()
        if r["severity"] == "mandatory"
        for c in r["cases"].values()
    )
    environment = {
        "library": str(SIM_LIB),
        "library_sha256": "0" * 64,
        "soc": "Ascend910B3",
        "family": "atlas_a2",
        "cann_version": "8.0.RC3",
        "os_kernel": "6.1.0",
        "device_count": 1,
        "python": "3.11.7",
        "host": "test-host",
    }
    environment.update(env)
    return {
        "schema": "acl-conformance-summary/2",
        "spec_hash": catalog["spec_hash"],
        "suite_version": "test",
        "environment": environment,
        "command": ["python", "-m", "conformance", "run"],
        "totals": {},
        "by_interface": {},
        "by_family": {},
        "rules": rules,
        "expectations": {"files": [], "expired": []},
        "verdict": "FAIL" if failing else "PASS",
    }


def _worst(outcomes: list[str]) -> str:
    order = ("ERROR", "FAIL", "WAIVED", "XPASS", "PASS", "NOT_APPLICABLE")
    return min(outcomes, key=order.index)


def first_case(catalog: dict[str, Any], rule_id: str) -> str:
    return next(r for r in catalog["rules"] if r["id"] == rule_id)["cases"][0]["case_id"]


def write_fake_bundle(root: Path, summary: dict[str, Any]) -> Path:
    """A bundle packaged from a synthetic run (no suite run): the real packaging code."""
    staging = root / "staging"
    (staging / "allure-results").mkdir(parents=True)
    (staging / "allure-results" / "0-result.json").write_text('{"name": "x"}\n', encoding="utf-8")
    (staging / "allure-report").mkdir()
    (staging / "allure-report" / "index.html").write_text("<html></html>\n", encoding="utf-8")
    (staging / "junit.xml").write_text("<testsuites/>\n", encoding="utf-8")
    (staging / "history.jsonl").write_text('{"uuid": "baseline-run"}\n', encoding="utf-8")
    (staging / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    created = datetime.datetime(2026, 11, 29, 8, 0, 0, tzinfo=datetime.timezone.utc)
    return certify_mod.package_bundle(
        staging, root, SIM_LIB if SIM_LIB.is_file() else Path(sys.executable), ["run"], created, DEFAULT_CATALOG, [], []
    )
