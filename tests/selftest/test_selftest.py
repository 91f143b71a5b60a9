"""The self-test judges correctly, and fails when a fault survives."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from conformance.harness.product import Machine
from conformance.results.summary import SCHEMA
from conformance.results.summary_model import summary_record
from conformance.selftest import command, plan, report, scoring

ROOT = Path(__file__).resolve().parents[2]
CATALOG = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text())
LIB = ROOT / "build" / "sim" / "libascendcl.so"


def _run(fault: dict | None, outcomes: dict[str, str], family: str = "atlas_a2") -> plan.Run:
    """A finished run whose summary holds the given case outcomes (all others PASS)."""
    rules: dict[str, dict] = {}
    for rule in CATALOG["rules"]:
        cases = {c["case_id"]: {"outcome": outcomes.get(c["case_id"], "PASS"), "message": "m"} for c in rule["cases"]}
        rules[rule["id"]] = {"cases": cases, "severity": rule["severity"]}
    run = plan.Run("r", {}, family, plan.MODERN_KERNEL, fault)
    run.summary = summary_record({"schema": SCHEMA, "environment": {}, "rules": rules, "totals": {}})
    return run


FAULT = {"name": "double_free_ok", "family": "pairing", "violates": ["HM-PAIR-DOUBLE-FREE"]}


def test_fault_killed_by_its_own_rule():
    verdict = scoring.score_fault(_run(FAULT, {"HM-PAIR-DOUBLE-FREE[free=free]": "FAIL"}))
    assert verdict["status"] == "killed" and verdict["on_target_rules"] == ["HM-PAIR-DOUBLE-FREE"]


def test_fault_caught_only_by_another_rule_is_not_killed():
    verdict = scoring.score_fault(_run(FAULT, {"HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=1]": "ERROR"}))
    assert verdict["status"] == "wrong-rule"


def test_surviving_fault_fails_the_selftest():
    verdict = scoring.score_fault(_run(FAULT, {}))
    assert verdict["status"] == "survived"
    result = scoring.report(CATALOG, [], [verdict], [], 1.0)
    assert not result["passed"] and result["mutation_score"]["killed"] == 0
    assert "HM-PAIR-DOUBLE-FREE" in result["unproven_rules"]
    assert "survived" in report.markdown(result)


def test_fault_killed_with_collateral_failures_is_imprecise():
    """A fault should show as its own rules failing and the rest BLOCKED by them: another rule that
    fails on its own is collateral, and a mandatory one fails the self-test."""
    outcomes = {"HM-PAIR-DOUBLE-FREE[free=free]": "FAIL",
                "HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=1]": "FAIL",  # mandatory collateral
                "HM-PAIR-OVERLAP-REGISTER[overlap=head]": "FAIL",  # recommended collateral
                "HM-VA-IDENTITY[size=4096]": "BLOCKED", "HM-VA-IDENTITY[size=2097152]": "BLOCKED"}
    assert set(outcomes) <= {c["case_id"] for r in CATALOG["rules"] for c in r["cases"]}
    verdict = scoring.score_fault(_run(FAULT, outcomes))
    assert verdict["status"] == "killed" and verdict["on_target_rules"] == ["HM-PAIR-DOUBLE-FREE"]
    assert verdict["collateral_rules"] == ["HM-ALIGN-MALLOC", "HM-PAIR-OVERLAP-REGISTER"]
    assert verdict["collateral_mandatory"] == ["HM-ALIGN-MALLOC"]
    assert verdict["blocked_cases"] == 2 and "HM-VA-IDENTITY" not in verdict["killing_rules"]  # BLOCKED kills nothing
    result = scoring.report(CATALOG, [], [verdict], [], 1.0, every_fault=False)
    assert result["schema"] == "acl-conformance-selftest/3" and not result["passed"]
    assert result["diagnostic_precision"] == {"collateral_mandatory_failures": 1, "collateral_failures": 2,
                                              "faults_with_collateral": {"double_free_ok": ["HM-ALIGN-MALLOC"]},
                                              "blocked_cases": 2}
    precise = scoring.score_fault(_run(FAULT, {"HM-PAIR-DOUBLE-FREE[free=free]": "FAIL",
                                             "HM-VA-IDENTITY[size=4096]": "BLOCKED"}))
    assert precise["collateral_rules"] == [] and precise["blocked_cases"] == 1
    assert scoring.report(CATALOG, [], [precise], [], 1.0, every_fault=False)["passed"]


def test_a_fault_whose_rule_is_only_blocked_survives():
    """BLOCKED names another rule's broken promise: it never proves the blocked rule can fail."""
    verdict = scoring.score_fault(_run(FAULT, {"HM-PAIR-DOUBLE-FREE[free=free]": "BLOCKED"}))
    assert verdict["status"] == "survived" and verdict["blocked_cases"] == 1


def test_false_alarm_and_applicability_mismatch_are_reported():
    modern = Machine(plan.MODERN_KERNEL, devices=plan.DEVICES)
    predicted = scoring.predicted_not_applicable(CATALOG, "atlas_a2", modern)
    assert predicted, "the A2 family has rules that do not apply on a modern kernel"
    one_na = sorted(predicted)[0]
    outcomes = {c: "NOT_APPLICABLE" for c in predicted if c != one_na}
    outcomes["HM-PAIR-DOUBLE-FREE[free=free]"] = "FAIL"
    outcomes["HM-VA-IDENTITY[size=4096]"] = "BLOCKED"  # mandatory: a blocked case is no pass either
    problems = scoring.score_faithful(CATALOG, _run(None, outcomes))
    assert any("false alarm HM-PAIR-DOUBLE-FREE[free=free]" in p for p in problems)
    assert any("false alarm HM-VA-IDENTITY[size=4096]: BLOCKED" in p for p in problems)
    run_mode_na = scoring.predicted_not_applicable(CATALOG, "atlas_inference",
                                                 Machine(plan.MODERN_KERNEL, run_mode="device"))
    assert "HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=1]" in run_mode_na  # RC form, detected at run time
    one_device = scoring.predicted_not_applicable(CATALOG, "atlas_a2", Machine(plan.MODERN_KERNEL))
    assert "HM-SYNC-DEVSYNC-CURRENT-DEVICE" in one_device and "HM-SYNC-DEVSYNC-CURRENT-DEVICE" not in predicted
    assert any(one_na in p and "predicts NOT_APPLICABLE" in p for p in problems)
    # the host page and the allocator decide too (--acl-host-page, --acl-host-alloc)
    large = scoring.predicted_not_applicable(CATALOG, "atlas_a2", Machine(plan.MODERN_KERNEL, devices=2,
                                                                         host_page=65536))
    assert {"HM-REG-NEIGHBOURS[api=v1]", "HM-REG-NEIGHBOURS[api=v2_mapped]"} <= large - predicted
    assert not any(c.startswith("HM-REG-NEIGHBOURS-LARGE-PAGE[") for c in large)
    fallback = scoring.predicted_not_applicable(CATALOG, "atlas_a2", Machine(plan.MODERN_KERNEL, devices=2,
                                                                            host_alloc="malloc_fallback"))
    assert "HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=1]" in fallback
    assert not any(c.startswith("HM-ALIGN-MALLOC-FALLBACK[") for c in fallback)


def test_every_fault_is_planned_once_with_its_environment():
    runs = plan.plan_runs(CATALOG, None, None)
    faults = [r for r in runs if r.fault is not None and not r.legal and r.release is None]
    assert [r.fault["name"] for r in faults] == [f["name"] for f in CATALOG["faults"] if not f.get("legal")]
    legacy = next(r for r in faults if r.fault["name"] == "legacy_kernel_accepts")
    assert legacy.kernel == "5.10.0" and legacy.env["ACLSIM_KERNEL"] == "5.10.0"
    sequence = [r for r in faults if r.fault["family"] == plan.SEQUENCE_FAMILY]
    assert len(sequence) >= 6
    assert all(r.select == () for r in faults), "a fault runs the whole suite, so that its collateral counts"
    assert all(r.env["ACLSIM_FAULTS"] == r.fault["name"] for r in faults)
    # The long sync window only where it can matter: faithful runs and the runs of sync faults.
    sync = [r for r in faults if r.fault["family"] == "sync"]
    assert sync and all(r.env.get("ACL_SYNC_WINDOW") == r.fault.get("env", {}).get("ACL_SYNC_WINDOW") for r in sync)
    assert sum("ACL_SYNC_WINDOW" not in r.env for r in sync) > len(sync) / 2, "a sync fault keeps the long window"
    # A fault that blocks forever waits a short time a call (its own env says so): any timeout proves it.
    hangs = [r for r in faults if r.fault["name"].startswith("hang_")]
    assert hangs and all(r.env["ACL_TIMEOUT"] == "1" for r in hangs)
    # The sampled-size cases run where the fault breaks a rule that has one, and nowhere else among the faults.
    sampled = plan.sampled_rules(CATALOG)
    assert sampled == {"HM-ALIGN-MALLOC", "HM-ALIGN-MALLOC-CFG", "HM-CONTENT-RW-FULL", "HM-VA-IDENTITY"}
    assert all(r.sampled == bool(set(r.fault["violates"]) & sampled) for r in faults)
    assert any(r.sampled for r in faults) and all(r.sampled for r in runs if r.fault is None)
    # A legal variant keeps them where it concerns one of those rules (by family or by what it covers).
    legal = {r.fault["name"]: r.sampled for r in runs if r.legal}
    assert legal["legal_min_alignment"] and legal["legal_page_alignment"]
    assert plan.DRIVER_PINS_VARIANT not in legal, "the driver setting's legal name has no run of its own"
    assert not legal["legal_alt_codes"] and not legal["legal_other_choices"] and not legal["legal_public_driver"]
    assert all(r.env["ACL_SYNC_WINDOW"] == plan.SHORT_SYNC_WINDOW for r in faults if r not in sync)
    assert all(r.env["ACL_SYNC_WINDOW"] == plan.SHORT_SYNC_WINDOW for r in runs if r.legal)
    # The explorer's full budget where a fault needs a history or targets it; a small one elsewhere.
    explorer_rules = {r["id"] for r in CATALOG["rules"] if r["family"] == plan.SEQUENCE_FAMILY}
    for run in faults:
        full = run in sequence or set(run.fault["violates"]) & explorer_rules
        steps = run.env.get("ACL_EXPLORE_STEPS")
        assert steps is None if full else steps == plan.SHORT_EXPLORE_STEPS
    assert all("ACL_EXPLORE_STEPS" not in r.env for r in runs if r.legal or r.fault is None)
    faithful = [r for r in runs if r.fault is None and r.release is None and r.pin_register == plan.RUNTIME_PINS]
    assert {r.family for r in faithful} == {f["id"] for f in CATALOG["families"]}
    # The faithful simulator as every older release, on the families whose contract changed most.
    older = [r for r in runs if r.release is not None and r.fault is None and r.pin_register == plan.RUNTIME_PINS]
    releases = [rel["name"] for rel in CATALOG["releases"][:-1]]
    assert [(r.release, r.family) for r in older] == [(rel, fam) for rel in releases
                                                      for fam in ("atlas_a2", "ascend_950", "atlas_inference")]
    for run in older:
        assert run.fault is None and run.env["ACLSIM_CANN_VERSION"] == f"{run.release}-aclsim"
        built = plan.release_lib(plan.DEFAULT_LIB, run.release)
        assert built.parent.name == f"sim-{run.release}" and built.parent.parent == plan.DEFAULT_LIB.parent.parent
        assert run.machine.release == run.release
    assert all("ACL_SYNC_WINDOW" not in r.env for r in faithful)
    names = [r.name for r in faithful]
    assert names == [f"faithful-{f['id']}" for f in CATALOG["families"]] + [
        "faithful-atlas_a2-kernel5.10", "faithful-atlas_a2-page64k"]
    large = faithful[-1]
    assert (large.family, large.env["ACLSIM_HOST_PAGE"], large.env["ACL_HOST_PAGE"]) == ("atlas_a2", "65536", "65536")
    assert large.machine.host_page == 65536 and faithful[0].machine.host_page == 4096
    assert all(r.env["ACLSIM_DEVICE_COUNT"] == "2" for r in runs)


def test_a_runs_selection_is_its_rules_less_the_sampled_cases_it_leaves_out():
    run = plan.Run("r", {}, "atlas_a2", plan.MODERN_KERNEL)
    assert plan.selection_args(run) == []
    run.sampled = False
    assert plan.selection_args(run) == ["-k", "not sampled"]
    run.select = ("HM-ALIGN-MALLOC", "HM-PAIR-DOUBLE-FREE")
    assert plan.selection_args(run) == ["-k", "(test_HM_ALIGN_MALLOC or test_HM_PAIR_DOUBLE_FREE) and not sampled"]
    run.sampled = True
    assert plan.selection_args(run) == ["-k", "(test_HM_ALIGN_MALLOC or test_HM_PAIR_DOUBLE_FREE)"]


def test_every_legal_variant_runs_on_each_family_and_environment_it_concerns():
    runs = [r for r in plan.plan_runs(CATALOG, None, None) if r.legal]
    for variant in (f for f in CATALOG["faults"] if f.get("legal") and f["name"] != plan.DRIVER_PINS_VARIANT):
        mine = [r for r in runs if r.fault["name"] == variant["name"]]
        families = set(variant["families"] or [f["id"] for f in CATALOG["families"]])
        assert {r.family for r in mine} == families, variant["name"]
        settings = sum(len(plan.pin_settings(CATALOG, family)) for family in families)
        assert len(mine) == settings * max(1, len(variant.get("environments") or [])), variant["name"]
        assert len({r.name for r in mine}) == len(mine), variant["name"]  # each environment has its own run name
    rc = next(r for r in runs if r.fault["name"] == "legal_rc_form")
    assert rc.run_mode == "device" and rc.env["ACLSIM_RUN_MODE"] == "device" and not rc.select
    driver = {r.name: r for r in runs if r.fault["name"] == "legal_public_driver" and r.family == "atlas_a2"
              and r.pin_register == plan.RUNTIME_PINS}
    assert set(driver) == {"legal-legal_public_driver-atlas_a2",
                           "legal-legal_public_driver-atlas_a2-aclsim_host_page=65536",
                           "legal-legal_public_driver-atlas_a2-aclsim_kernel=5.10.0"}
    large = driver["legal-legal_public_driver-atlas_a2-aclsim_host_page=65536"]
    assert large.machine.host_page == 65536 and large.env["ACLSIM_FAULTS"] == "legal_public_driver"
    assert driver["legal-legal_public_driver-atlas_a2-aclsim_kernel=5.10.0"].kernel == "5.10.0"
    fallback = next(r for r in runs if r.fault["name"] == "legal_drv_malloc_fallback")
    assert fallback.machine.host_alloc == "malloc_fallback"


def test_faithful_and_legal_runs_take_both_pin_settings_where_the_driver_can_pin():
    """ACLSIM_PIN_REGISTER=driver where legal_driver_pin_register's families and since say the driver
    can take the path (Atlas A2/A3, Ascend 950; runtime 9.2.0-beta.2 on); fault runs keep the default."""
    variant = next(f for f in CATALOG["faults"] if f["name"] == plan.DRIVER_PINS_VARIANT)
    assert variant["legal"] and variant["env"] == {plan.PIN_REGISTER: plan.DRIVER_PINS}
    # The families whose driver can take the path are those the simulator models it for: a public svm driver.
    assert set(variant["families"]) == {f["id"] for f in CATALOG["families"] if f["driver"] != "none"}
    assert plan.pin_settings(CATALOG, "atlas_a2") == (plan.RUNTIME_PINS, plan.DRIVER_PINS)
    assert plan.pin_settings(CATALOG, "atlas_inference") == (plan.RUNTIME_PINS,)
    assert plan.pin_settings(CATALOG, "atlas_a2", "9.1.0") == (plan.RUNTIME_PINS,)
    assert plan.pin_settings(CATALOG, "atlas_a2", "9.2.0-beta.2") == (plan.RUNTIME_PINS, plan.DRIVER_PINS)
    runs = plan.plan_runs(CATALOG, None, None)
    by_name = {r.name: r for r in runs}
    assert len(by_name) == len(runs), "every run has its own name"
    for run in runs:
        twin = by_name.get(f"{run.name}-aclsim_pin_register=driver")
        if run.pin_register == plan.DRIVER_PINS or (run.fault is not None and not run.legal):
            assert twin is None, run.name
            continue
        wanted = plan.DRIVER_PINS in plan.pin_settings(CATALOG, run.family, run.release)
        assert (twin is not None) == wanted, run.name
        if twin is not None:
            assert twin.env == {**run.env, plan.PIN_REGISTER: plan.DRIVER_PINS} and twin.problems is not run.problems
            assert (twin.fault, twin.sampled, twin.release, twin.kernel) == (run.fault, run.sampled, run.release,
                                                                             run.kernel)
    assert all(r.pin_register == plan.RUNTIME_PINS for r in runs if r.fault is not None and not r.legal)
    assert "faithful-atlas_a2-page64k-aclsim_pin_register=driver" in by_name
    assert "legal-legal_public_driver-ascend_950-aclsim_kernel=5.10.0-aclsim_pin_register=driver" in by_name
    assert "faithful-atlas_a2-cann9.1.0-aclsim_pin_register=driver" not in by_name
    # --pin-register limits the faithful and legal runs to one setting.
    only = plan.plan_runs(CATALOG, ["atlas_a2"], [], pins=[plan.DRIVER_PINS])
    assert only and all(r.pin_register == plan.DRIVER_PINS for r in only)
    assert command.build_parser().parse_args(["--pin-register", "driver"]).pin_register == ["driver"]


def test_on_the_driver_pinning_path_a_faithful_run_may_deviate_below_mandatory_only():
    outcomes = {"HM-REG-SECOND-DEVICE[first=v1]": "FAIL", "HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=1]": "FAIL"}
    runtime = _run(None, outcomes)
    driver = _run(None, outcomes)
    driver.env = {plan.PIN_REGISTER: plan.DRIVER_PINS}
    alarms = {p.split(": ")[1] for p in scoring.score_faithful(CATALOG, runtime) if "false alarm" in p}
    assert alarms == {"false alarm HM-REG-SECOND-DEVICE[first=v1]",
                      "false alarm HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=1]"}
    alarms = {p.split(": ")[1] for p in scoring.score_faithful(CATALOG, driver) if "false alarm" in p}
    assert alarms == {"false alarm HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=1]"}
    result = scoring.report(CATALOG, [runtime, driver], [], [], 1.0)
    assert [(r["pin_register"], r["deviating_rules"]) for r in result["faithful_runs"]] == [
        ("runtime", ["HM-REG-SECOND-DEVICE"]), ("driver", ["HM-REG-SECOND-DEVICE"])]
    legal = scoring.score_legal(dataclasses.replace(driver, fault=LEGAL))
    assert legal["pin_register"] == "driver" and scoring.score_fault(_run(FAULT, {}))["pin_register"] == "runtime"
    assert "| r | atlas_a2 | 6.1.0 | driver |" in report.markdown(result)


LEGAL = {"name": "legal_alt_codes", "legal": True, "family": "invalid_argument", "covers": ["HM-INVAL-FREE-HOST"]}


def test_mandatory_failure_under_a_legal_variant_is_a_false_alarm():
    run = _run(LEGAL, {"HM-INVAL-FREE-HOST[hostPtr=NULL]": "FAIL",
                       "HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=1]": "FAIL"})
    verdict = scoring.score_legal(run)
    assert verdict["status"] == "false-alarm"
    assert [a.split(":")[0] for a in verdict["false_alarms"]] == ["HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=1]"]
    assert verdict["deviating_rules"] == ["HM-INVAL-FREE-HOST"]  # recommended: an allowed deviation
    result = scoring.report(CATALOG, [], [], [], 1.0, [verdict])
    assert not result["passed"] and result["false_alarm_score"]["mandatory_failures"] == 1
    assert "false alarms 1 mandatory failure(s) over 1 legal-variant run(s)" in report.markdown(result)
    assert "HM-INVAL-FREE-HOST" not in result["unproven_rules"]  # the covering variant showed it can fail


@pytest.mark.parametrize(("sampled", "verdict", "clean"), [(True, "PASS", True), (False, "PARTIAL", True),
                                                         (False, "PASS", False), (True, "PARTIAL", False)])
def test_a_legal_run_that_left_the_sampled_sizes_out_is_clean_as_partial(sampled, verdict, clean):
    """A run without the sampled-size cases is a selection, so its clean verdict is PARTIAL, not PASS;
    either verdict in the other kind of run is a problem of the run."""
    run = _run(LEGAL, {})
    run.sampled = sampled
    assert run.summary is not None
    run.summary = dataclasses.replace(run.summary, verdict=verdict)
    assert (scoring.score_legal(run)["status"] == "clean") is clean


@pytest.mark.parametrize("weakened", [False, True], ids=["intact-checks", "weakened-checks"])
def test_selftest_on_a_real_fault_run(weakened, tmp_path, monkeypatch):
    """With the alignment checks weakened, align_malloc_off16 survives and the self-test fails."""
    assert LIB.exists(), "build the simulator first (make sim)"
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent))
    extra = ["-p", "weakened_checks"] if weakened else []
    result = command.run_selftest(LIB, tmp_path, jobs=1, timeout=5.0, families=[],
                                   faults=["align_malloc_off16"], extra=extra)
    verdict = result["faults"][0]
    if weakened:
        assert verdict["status"] == "survived" and not result["passed"], verdict
    else:
        assert verdict["status"] == "killed", verdict
        assert "HM-ALIGN-MALLOC" in verdict["on_target_rules"]
        # The whole suite ran: HM-ALIGN-LIVE rests on HM-ALIGN-MALLOC's alignment and is BLOCKED by it,
        # no other mandatory rule fails on its own.
        assert verdict["collateral_mandatory"] == [] and verdict["blocked_cases"] >= 3, verdict
        summary = json.loads((tmp_path / "fault-align_malloc_off16" / "summary.json").read_text())
        live = summary["rules"]["HM-ALIGN-LIVE"]["cases"]
        assert {(c["outcome"], c.get("blocked_by")) for cid, c in live.items() if "api=malloc," in cid} == {
            ("BLOCKED", "HM-ALIGN-MALLOC")}
        assert sum(len(r["cases"]) for r in summary["rules"].values()) == sum(
            len(r["cases"]) for r in CATALOG["rules"])
        assert result["diagnostic_precision"]["collateral_mandatory_failures"] == 0


def test_selftest_fails_when_a_rule_is_made_too_strict(tmp_path, monkeypatch):
    """A check that demands codes the docs do not give raises false alarms under legal_alt_codes."""
    assert LIB.exists(), "build the simulator first (make sim)"
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent))
    result = command.run_selftest(LIB, tmp_path, jobs=1, timeout=5.0, families=["atlas_a2"], faults=[],
                                   extra=["-p", "strict_checks"], variants=["legal_alt_codes"], faithful=False,
                                   pins=[plan.RUNTIME_PINS])
    assert result["legal_variants"][0]["status"] == "false-alarm"
    alarms = result["legal_variants"][0]["false_alarms"]
    assert result["false_alarm_score"]["mandatory_failures"] == len(alarms) > 0
    assert any(a.startswith("HM-INVAL-CFG-OTHER-DEVICE[cfg=other_device]: FAIL") for a in alarms), alarms


def test_selftest_reports_no_false_alarm_for_the_intact_checks(tmp_path):
    assert LIB.exists(), "build the simulator first (make sim)"
    result = command.run_selftest(LIB, tmp_path, jobs=1, timeout=5.0, families=["atlas_a2"], faults=[],
                                   variants=["legal_alt_codes"], faithful=False)
    assert [(v["pin_register"], v["status"]) for v in result["legal_variants"]] == [
        ("runtime", "clean"), ("driver", "clean")], result["legal_variants"]
    assert result["false_alarm_score"] == {"mandatory_failures": 0, "runs": 2, "variants": ["legal_alt_codes"],
                                           "clean_runs": 2}
    # What each run cost in CPU, and the whole self-test's (the figure its speed goal is read against).
    assert all(v["cpu_seconds"] for v in result["legal_variants"])
    assert result["cpu_seconds"] == round(sum(v["cpu_seconds"] or 0 for v in result["legal_variants"]), 1)


def test_faults_run_on_the_older_releases_whose_contract_holds_their_rules():
    everywhere = [r for r in plan.plan_runs(CATALOG, None, None, all_releases=True) if r.release and r.fault]
    default = [r for r in plan.plan_runs(CATALOG, None, None) if r.release and r.fault]
    assert set(r.name for r in default) < set(r.name for r in everywhere)
    assert {r.release for r in default} <= {rel["name"] for rel in CATALOG["releases"][:-1]}
    by_name = {r.name: r for r in everywhere}
    # Only the rules the fault breaks run there, on that release's build and version string.
    run = by_name["fault-devptr_interior_base-cann9.1.0"]
    assert run.select == ("HM-VA-DEVPTR-INTERIOR",) and run.env["ACLSIM_CANN_VERSION"] == "9.1.0-aclsim"
    assert run.env["ACLSIM_FAULTS"] == "devptr_interior_base"
    # Not where the release's contract holds none of its rules (capabilities are documented from 9.0.0 on),
    # nor before the release the fault names as the first it breaks.
    assert "fault-cap_flaky-cann8.5.0" not in by_name and "fault-cap_flaky-cann9.0.0" in by_name
    assert "fault-prod_register_missing-cann8.5.0" not in by_name
    assert "fault-prod_register_missing-cann9.0.0" in by_name
    assert "fault-devptr_mismatch-cann9.0.0" not in by_name  # shows only against V1, documented from 9.1.0
    # A release where a rule's contract differs from the newest always runs in the default plan.
    assert "fault-double_unregister_ok-cann8.5.0" in {r.name for r in default}


def test_runs_start_longest_first_by_the_last_selftest_and_keep_the_plans_order(tmp_path, monkeypatch):
    faults = ["align_malloc_off16", "double_free_ok", "alloc_overlap"]
    (tmp_path / "selftest.json").write_text(json.dumps({"faults": [
        {"run": "fault-double_free_ok", "seconds": 9.0}, {"run": "fault-align_malloc_off16", "seconds": 1.0},
        {"run": 3, "seconds": "junk"}], "legal_variants": "junk"}))
    assert command.previous_seconds(tmp_path / "selftest.json") == {
        "fault-double_free_ok": 9.0, "fault-align_malloc_off16": 1.0}
    for junk in ("[1, 2]", "{not json", '{"faults": [null, {"run": "x"}]}'):
        (tmp_path / "junk.json").write_text(junk)
        assert command.previous_seconds(tmp_path / "junk.json") == {}
    assert command.previous_seconds(tmp_path / "missing.json") == {}
    started = []

    def execute(run, lib, out_dir, timeout, extra, judge=None, executors=1):
        started.append(run.name)
        return run

    monkeypatch.setattr(command, "execute", execute)
    result = command.run_selftest(LIB, tmp_path, jobs=1, timeout=5.0, families=[], faults=faults, variants=[])
    # Unknown first (no time on record), then the longest known.
    assert started == ["fault-alloc_overlap", "fault-double_free_ok", "fault-align_malloc_off16"]
    assert [v["fault"] for v in result["faults"]] == [f["name"] for f in CATALOG["faults"] if f["name"] in faults]
