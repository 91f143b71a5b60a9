"""Synthetic fleet runs: summary.json files (and bundles) shaped like real ones, made in milliseconds.

``make bench`` merges 500 of them to measure ``merge``; the fleet tests use small sets. Every
case of the catalog gets an outcome (PASS, or NOT_APPLICABLE where the family's rules say so
is not modelled: all PASS unless told), and every alignment case records a ``grain``
observation, so that a changed grain between two versions shows as drift.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from conformance.certify.bundle import file_digests, write_sums  # noqa: E402  (a script beside the kit)
from conformance.results.summary import SCHEMA  # noqa: E402

VERSIONS = ("8.0.RC3", "8.0.0", "8.1.RC1", "8.1.0", "8.2.0", "8.3.0", "8.5.0")


def load_catalog() -> dict[str, Any]:
    """acl_hostmem_generated/catalog.json of this checkout."""
    return json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text(encoding="utf-8"))


def synthetic_summary(catalog: dict[str, Any], family: str, cann_version: str, *, grain: int = 64,
                      outcomes: dict[str, str] | None = None, host: str = "node-0") -> dict[str, Any]:
    """A summary.json of one run: every case PASS unless ``outcomes`` (case ID -> outcome) says otherwise."""
    outcomes = outcomes or {}
    soc = next((f["sample_soc"] for f in catalog["families"] if f["id"] == family), "unknown")
    rules = {}
    for rule in catalog["rules"]:
        declared = {o["name"] for o in rule["observations"]}
        cases = {}
        for case in rule["cases"]:
            observed = {"grain": {"value": grain, "type": "int", "provenance": "unspecified"}} \
                if "grain" in declared else {}
            cases[case["case_id"]] = {"outcome": outcomes.get(case["case_id"], "PASS"), "category": None,
                                      "message": "", "observed_code": None, "duration_s": 0.01, "waiver": None,
                                      "observations": observed}
        worst = "FAIL" if any(c["outcome"] == "FAIL" for c in cases.values()) else "PASS"
        rules[rule["id"]] = {"title": rule["title"], "family": rule["family"], "severity": rule["severity"],
                             "doc_url": rule["doc_url"], "doc_ref": rule["doc_ref"], "outcome": worst, "cases": cases}
    return {
        "schema": SCHEMA, "spec_hash": catalog["spec_hash"], "suite_version": "synthetic",
        "environment": {"soc": soc, "product_family": family, "cann_version": cann_version, "host": host},
        "command": ["synthetic"], "totals": {}, "by_interface": {}, "by_family": {}, "rules": rules,
        "expectations": {"files": [], "expired": []}, "verdict": "PASS",
    }


def write_run(folder: Path, summary: dict[str, Any], *, bundle: bool = True) -> Path:
    """Write a run's report folder; as a bundle it also gets a result file, a manifest listing the SHA-256 of
    every other file (as merge and gate check it) and SHA256SUMS."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    if bundle:
        env = summary["environment"]
        (folder / "allure-results").mkdir(exist_ok=True)
        (folder / "allure-results" / "0-result.json").write_text('{"name": "synthetic"}\n', encoding="utf-8")
        files = file_digests(folder, frozenset({"manifest.json"}))
        (folder / "manifest.json").write_text(json.dumps({"environment": env, "verdict": "CERTIFIED",
                                                          "files": files}), encoding="utf-8")
        write_sums(folder)
    return folder


def make_fleet(root: Path, count: int, catalog: dict[str, Any] | None = None) -> list[Path]:
    """``count`` bundles over every product family and :data:`VERSIONS`; the grain doubles on odd versions."""
    catalog = catalog or load_catalog()
    families = [f["id"] for f in catalog["families"]]
    base = synthetic_summary(catalog, families[0], VERSIONS[0])
    paths = []
    for index in range(count):
        family = families[index % len(families)]
        version_index = (index // len(families)) % len(VERSIONS)
        summary = json.loads(json.dumps(base))
        summary["environment"].update(product_family=family, cann_version=VERSIONS[version_index],
                                      host=f"node-{index}")
        grain = 128 if version_index % 2 else 64
        for rule in summary["rules"].values():
            for case in rule["cases"].values():
                if "grain" in case["observations"]:
                    case["observations"]["grain"]["value"] = grain
        paths.append(write_run(root / f"run-{index:04d}", summary))
    return paths
