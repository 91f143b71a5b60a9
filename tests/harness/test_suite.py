"""The generated suite against the simulator: crash and hang isolation.

The seven product families (no failure, NOT_APPLICABLE exactly as the catalog predicts)
are covered by the self-test (`conformance/selftest.py`, `make selftest`), which `make test`
runs; this module does not repeat them.
"""

from __future__ import annotations

import json

from conftest import ROOT, child_env, finish, start_suite

CATALOG = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text())


def _select(rules: list[str]) -> str:
    return " or ".join(f"test_{r.replace('-', '_')}" for r in rules)


def _selected_cases(rules: list[str]) -> set[str]:
    """Case ids pytest's ``-k`` selects for ``rules`` (substring match on the test names)."""
    names = [f"test_{r.replace('-', '_')}" for r in rules]
    return {c["case_id"] for r in CATALOG["rules"] if any(n in f"test_{r['id'].replace('-', '_')}" for n in names)
            for c in r["cases"]}


def _check_isolated(run, rules: list[str], category: str, violated: str, untouched: str) -> None:
    """Every selected case has a result; the faulty calls lost their case alone."""
    ran = run.ran()
    assert set(ran) == _selected_cases(rules), run.output[-3000:]
    lost = {cid for cid, c in ran.items() if c["category"] == category}
    assert any(cid.startswith(f"{violated}[") for cid in lost), sorted(lost)
    # A hang the check bounds itself is a FAIL (category timeout); one that only the hard
    # per-case limit ends, and every crash, is an ERROR.
    assert all(ran[cid]["outcome"] in ("FAIL", "ERROR") for cid in lost)
    others = {cid: (c["outcome"], c["category"]) for cid, c in ran.items() if cid not in lost}
    assert all(outcome == "PASS" for outcome, _ in others.values()), others
    assert all(c["outcome"] == "PASS" for cid, c in ran.items() if cid.startswith(f"{untouched}["))
    assert run.returncode == 1 and run.summary["verdict"] == "PARTIAL"  # a selection, with a failing mandatory rule


def test_crash_in_register_is_isolated(sim_built, tmp_path):
    rules = ["HM-PAIR-REG-UNREG", "HM-ALIGN-MALLOC", "HM-INVAL-FREE-HOST", "HM-CAP-STABLE"]
    run = finish(start_suite(tmp_path / "r", "-k", _select(rules), workers="2",
                             env=child_env(ACLSIM_FAULTS="crash_in_register")), tmp_path / "r")
    _check_isolated(run, rules, "crash", "HM-PAIR-REG-UNREG", "HM-ALIGN-MALLOC")


def test_hang_in_free_is_isolated(sim_built, tmp_path):
    rules = ["HM-SYNC-FREE-NO-IMPLICIT", "HM-INVAL-FREE-HOST", "HM-INVAL-MALLOC-HOST"]
    run = finish(start_suite(tmp_path / "r", "-k", _select(rules), "--acl-timeout", "1", workers="2",
                             env=child_env(ACLSIM_FAULTS="hang_in_free")), tmp_path / "r")
    _check_isolated(run, rules, "timeout", "HM-SYNC-FREE-NO-IMPLICIT", "HM-INVAL-MALLOC-HOST")
