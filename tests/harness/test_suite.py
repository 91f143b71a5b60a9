"""The generated suite against the simulator: crash and hang isolation.

The seven product families (no failure, NOT_APPLICABLE exactly as the catalog predicts)
are covered by the self-test (`conformance/selftest.py`, `make selftest`), which `make test`
runs; this module does not repeat them.
"""

from __future__ import annotations

import json

from kit_runs import KERNEL, ROOT, child_env, finish, start_suite

from conformance.harness.product import Machine
from conformance.selftest.scoring import predicted_not_applicable

CATALOG = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text())
NEEDS = {r["id"]: r.get("needs", []) for r in CATALOG["rules"]}


def _select(rules: list[str]) -> str:
    return " or ".join(f"test_{r.replace('-', '_')}" for r in rules)


def _selected_cases(rules: list[str]) -> set[str]:
    """Case ids pytest's ``-k`` selects for ``rules`` (substring match on the test names)."""
    names = [f"test_{r.replace('-', '_')}" for r in rules]
    return {c["case_id"] for r in CATALOG["rules"] if any(n in f"test_{r['id'].replace('-', '_')}" for n in names)
            for c in r["cases"]}


def _check_isolated(run, rules: list[str], category: str, violated: str, untouched: str, blocker: str) -> dict:
    """Every selected case has a result; the faulty calls lost the violated rule's cases alone.

    A case of another rule whose set-up made the faulty call rests on ``blocker``'s promise:
    it is BLOCKED by ``blocker`` (the deviation is that rule's), never FAIL or ERROR. Returns
    the BLOCKED cases.
    """
    ran = run.ran()
    assert set(ran) == _selected_cases(rules), run.output[-3000:]
    lost = {cid for cid, c in ran.items() if c["category"] == category}
    assert any(cid.startswith(f"{violated}[") for cid in lost), sorted(lost)
    assert all(cid.startswith(f"{violated}[") for cid in lost), sorted(lost)
    # A hang the check bounds itself is a FAIL (category timeout); one that only the hard
    # per-case limit ends, and every crash, is an ERROR.
    assert all(ran[cid]["outcome"] in ("FAIL", "ERROR") for cid in lost)
    environment = run.summary["environment"]
    machine = Machine(KERNEL, devices=int(environment.get("device_count") or 1))
    not_applicable = predicted_not_applicable(CATALOG, environment["product_family"], machine)
    others = {cid: (c["outcome"], c.get("blocked_by")) for cid, c in ran.items() if cid not in lost}
    assert all(outcome == ("NOT_APPLICABLE" if cid in not_applicable else "PASS") or
               (outcome == "BLOCKED" and by == blocker and blocker in NEEDS[cid.partition("[")[0]])
               for cid, (outcome, by) in others.items()), others
    assert not any(c["outcome"] == "FAIL" for cid, c in ran.items() if cid not in lost)
    assert all(c["outcome"] == "PASS" for cid, c in ran.items() if cid.startswith(f"{untouched}["))
    assert run.returncode == 1 and run.summary["verdict"] == "PARTIAL"  # a selection, with a failing mandatory rule
    roots = [c["rule"] for c in run.summary["root_causes"]]
    assert roots == [violated] + ([blocker] if blocker != violated and any(o == "BLOCKED" for o, _ in others.values())
                                  else []), run.summary["root_causes"]
    return {cid: ran[cid] for cid, (outcome, _) in others.items() if outcome == "BLOCKED"}


def test_crash_in_register_is_isolated(sim_built, tmp_path):
    # HM-VA-DEVPTR-CONSISTENT registers in its set-up: with V1 that set-up crashes.
    rules = ["HM-PAIR-REG-UNREG", "HM-ALIGN-MALLOC", "HM-INVAL-FREE-HOST", "HM-CAP-STABLE", "HM-VA-DEVPTR-CONSISTENT"]
    run = finish(start_suite(tmp_path / "r", "-k", _select(rules), workers="2",
                             env=child_env(ACLSIM_FAULTS="crash_in_register")), tmp_path / "r")
    blocked = _check_isolated(run, rules, "crash", "HM-PAIR-REG-UNREG", "HM-ALIGN-MALLOC", "HM-PAIR-REG-UNREG")
    v1 = {c["case_id"] for r in CATALOG["rules"] if r["id"] == "HM-VA-DEVPTR-CONSISTENT" for c in r["cases"]
          if c["params"]["api"] == "v1"}
    assert set(blocked) == v1, sorted(blocked)
    assert all("died in aclrtHostRegister" in c["message"] for c in blocked.values())


def test_hang_in_free_is_isolated(sim_built, tmp_path):
    rules = ["HM-SYNC-FREE-NO-IMPLICIT", "HM-INVAL-FREE-HOST", "HM-INVAL-MALLOC-HOST"]
    run = finish(start_suite(tmp_path / "r", "-k", _select(rules), "--acl-timeout", "1", workers="2",
                             env=child_env(ACLSIM_FAULTS="hang_in_free")), tmp_path / "r")
    _check_isolated(run, rules, "timeout", "HM-SYNC-FREE-NO-IMPLICIT", "HM-INVAL-MALLOC-HOST", "HM-PAIR-MALLOC-FREE")


def test_a_registration_that_cannot_be_removed_fails_one_rule_and_blocks_the_rest(sim_built, tmp_path):
    """unregister_fails (MAPPED registrations stay although aclrtHostUnregister says they were never
    there), whole suite, two devices: HM-PAIR-REG-UNREG fails; every other case that touches what the
    stuck registrations hold is BLOCKED by it (their memory is kept, their ranges remembered), none FAILs."""
    report = tmp_path / "r"
    run = finish(start_suite(report, workers="2", env=child_env(ACLSIM_FAULTS="unregister_fails",
                                                                ACLSIM_DEVICE_COUNT="2", ACL_SYNC_WINDOW="0.05",
                                                                ACL_EXPLORE_STEPS="300")), report)
    summary = json.loads((report / "summary.json").read_text())
    failing = {rid for rid, rule in summary["rules"].items()
               if any(c["outcome"] in ("FAIL", "ERROR") for c in rule["cases"].values())}
    mandatory = {rid for rid in failing if summary["rules"][rid]["severity"] == "mandatory"}
    assert mandatory == {"HM-PAIR-REG-UNREG"}, (sorted(failing), run.output[-2000:])
    causes = [c for c in summary["root_causes"] if c["severity"] == "mandatory"]
    assert [c["rule"] for c in causes] == ["HM-PAIR-REG-UNREG"] and causes[0]["blocked_cases"] > 20, causes
