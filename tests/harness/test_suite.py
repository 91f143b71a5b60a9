"""The generated suite against the simulator: every product family, and crash/hang isolation.

The seven family runs start together (each `python -m conformance run -n 1`) so that the
whole module stays well inside CI's budget on two cores.
"""

from __future__ import annotations

import json

from conftest import KERNEL, ROOT, child_env, finish, start_suite

from conformance import product

CATALOG = json.loads((ROOT / "generated" / "catalog.json").read_text())


def predicted_not_applicable(family: dict) -> set[str]:
    """Case ids the catalog says are NOT_APPLICABLE on ``family`` (kernel KERNEL)."""
    out = set()
    for rule in CATALOG["rules"]:
        if not product.applicability(CATALOG, rule, family, KERNEL).applies:
            out.update(case["case_id"] for case in rule["cases"])
    return out


def _family_problems(family: dict, run) -> list[str]:
    """What is wrong with one family's run (empty when it matches the catalog)."""
    if run.returncode != 0:
        return [f"exit {run.returncode}: {run.output[-2000:]}"]
    summary = run.summary
    problems = []
    if summary["environment"]["product_family"] != family["id"]:
        problems.append(f"detected {summary['environment']['product_family']}")
    cases = run.cases()
    catalog_cases = {c["case_id"] for rule in CATALOG["rules"] for c in rule["cases"]}
    if set(cases) != catalog_cases:
        problems.append(f"cases differ from the catalog: {sorted(set(cases) ^ catalog_cases)[:5]}")
    not_applicable = {cid for cid, c in cases.items() if c["outcome"] == "NOT_APPLICABLE"}
    predicted = predicted_not_applicable(family)
    if not_applicable != predicted:
        extra, missing = sorted(not_applicable - predicted), sorted(predicted - not_applicable)
        problems.append(f"N/A extra {extra[:5]}, missing {missing[:5]}")
    bad = {cid: (c["outcome"], c["message"][:200]) for cid, c in cases.items()
           if c["outcome"] not in ("PASS", "NOT_APPLICABLE")}
    if bad:
        problems.append(f"{len(bad)} cases neither PASS nor NOT_APPLICABLE: {list(bad.items())[:5]}")
    if summary["verdict"] != "PASS":
        problems.append(f"verdict {summary['verdict']}")
    return problems


def test_every_family_matches_catalog(sim_built, tmp_path):
    """All seven families at once (-n 1 each): N/A set as the catalog predicts, nothing else but PASS."""
    procs = {}
    for family in CATALOG["families"]:
        report = tmp_path / family["id"]
        procs[family["id"]] = (family, start_suite(report, env=child_env(ACLSIM_SOC=family["sample_soc"])), report)
    problems = {}
    for fid, (family, proc, report) in procs.items():
        found = _family_problems(family, finish(proc, report))
        if found:
            problems[fid] = found
    assert not problems


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
    assert run.returncode == 1 and run.summary["verdict"] == "FAIL"


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
