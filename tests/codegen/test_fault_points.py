"""Fault points: the spec declares where each fault acts, and lint holds the simulator to it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from specedit import CHECKS, ROOT, edit, find_issue, issues

from codegen.cli import main
from codegen.load import load_spec
from codegen.sim_points import c_functions, check_fault_points, faults_referenced


@pytest.fixture
def sim_dir(tmp_path: Path) -> Path:
    """A copy of the simulator's sources (with sim/faults/), beside a copy of the spec."""
    shutil.copytree(ROOT / "sim", tmp_path / "sim")
    return tmp_path / "sim"


def sim_edit(sim_dir: Path, name: str, old: str, new: str) -> None:
    path = sim_dir / name
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{name}: {old!r} occurs {text.count(old)} time(s)"
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_the_kit_s_simulator_matches_its_declared_points() -> None:
    spec = load_spec(ROOT / "spec")
    assert check_fault_points(spec, ROOT / "sim") == []
    assert all(fault.points for fault in spec.faults)


def test_the_faithful_model_switches_no_fault_itself() -> None:
    """Outside sim/faults/, only the answer rewrites of hooks.c and the configuration's one setting
    (ACLSIM_PIN_REGISTER's alias, read at aclInit) name a fault: the runtime, driver and product
    files call points, so they read like the sources they cite."""
    spec = load_spec(ROOT / "spec")
    assert {p.kind for p in spec.fault_points} <= {"point", "hook", "setting"}
    allowed = {site for p in spec.fault_points if p.kind != "point" for site in p.sites}
    switching: set[str] = set()
    for path in sorted((ROOT / "sim").glob("*.c")):
        funcs = c_functions(path.read_text(encoding="utf-8"))
        switching |= {f"sim/{path.name}:{f}" for f, body in funcs.items() if faults_referenced(body)}
    beyond_hooks = {site for site in switching if not site.startswith("sim/hooks.c:")}
    assert beyond_hooks == {"sim/init.c:load_pin_register"}
    assert switching <= allowed


def test_only_the_configuration_holds_a_setting(spec_dir: Path) -> None:
    """A setting is read into the configuration in sim/init.c; a fault that acts in the model
    elsewhere needs a point of kind point."""
    edit(spec_dir, "faults.yaml", "    kind: point\n    sites: [sim/driver.c:sim_drv_pageable_allowed]\n",
         "    kind: setting\n    sites: [sim/driver.c:sim_drv_pageable_allowed]\n")
    assert check_fault_points(load_spec(spec_dir), ROOT / "sim")[0] == (
        "fault point driver.pageable: site sim/driver.c:sim_drv_pageable_allowed: a setting is read into the "
        "configuration in sim/init.c; a fault that acts in the model needs a point of kind point")


def test_an_inline_point_is_refused(spec_dir: Path) -> None:
    """`inline` (a site function that switches its faults itself) is gone from the kinds."""
    edit(spec_dir, "faults.yaml", "    kind: point\n    sites: [sim/driver.c:sim_drv_blocking]\n",
         "    kind: inline\n    sites: [sim/driver.c:sim_drv_blocking]\n")
    find_issue(issues(spec_dir), "spec/faults.yaml:", "'inline' is not one of: point, hook, setting")


DRIFTS = {
    "a fault switched outside any point": (
        "hostmem.c", "    if (hostPtr == NULL || size == 0) {\n",
        "    if (hostPtr == NULL || size == 0 || aclsim_fault(ACLSIM_FAULT_MEMSET_PARTIAL)) {\n",
        "sim/hostmem.c:model_aclrtMallocHost: switches fault memset_partial outside any declared fault point"),
    "a fault switched inline in a driver generation": (
        "drv_v2.c", "    if (rq->readonly) {\n        return sim_open_code(ACL_ERROR_RT_FEATURE_NOT_SUPPORT); /* devmm",
        "    if (rq->readonly || aclsim_fault(ACLSIM_FAULT_PAGEABLE_REJECTED)) {\n"
        "        return sim_open_code(ACL_ERROR_RT_FEATURE_NOT_SUPPORT); /* devmm",
        "sim/drv_v2.c:v2_check: switches fault pageable_rejected outside any declared fault point"),
    "a product table that switches a fault": (
        "products.c", "    return site.supported;\n}\n\nint sim_kernel_is_legacy",
        "    return site.supported || aclsim_fault(ACLSIM_FAULT_VA_FLAG_EVERYWHERE);\n}\n\nint sim_kernel_is_legacy",
        "sim/products.c:sim_va_flag_supported: switches fault va_flag_everywhere outside any declared fault point"),
    "a handler that drops a declared fault": (
        "faults/registry.c", "    if (site->v1 && aclsim_fault(ACLSIM_FAULT_CRASH_IN_REGISTER)) {",
        "    if (site->v1 && 0) {",
        "fault point register.accepted: fault crash_in_register declares the point, but its code there never "
        "switches it"),
    "a handler that switches an undeclared fault": (
        "faults/hostmem.c", "    if (aclsim_fault(ACLSIM_FAULT_FREE_NEEDS_CONTEXT) ||",
        "    if (aclsim_fault(ACLSIM_FAULT_FREE_NEEDS_CONTEXT) || aclsim_fault(ACLSIM_FAULT_CAP_NONE) ||",
        "fault point free.gate: switches fault cap_none, which does not declare the point (add it to the fault's "
        "points: in spec/faults.yaml)"),
    "a site that no longer calls its point": (
        "registry.c", "    FAULT_POINT(REGISTER_MODE, &mode_site);\n", "",
        "fault point register.mode: site sim/registry.c:register_range: register_range does not call "
        "FAULT_POINT(REGISTER_MODE, ...)"),
    "a point called away from its site": (
        "registry.c", "    aclError rc = sim_hostmem_gate(SIM_API_UNREGISTER",
        "    FAULT_POINT(RECORDS_KEY, NULL);\n    aclError rc = sim_hostmem_gate(SIM_API_UNREGISTER",
        "sim/registry.c:model_aclrtHostUnregister: FAULT_POINT(RECORDS_KEY, ...) outside the point's declared sites "
        "(sim/registry.c:per_device_records)"),
}


@pytest.mark.parametrize("drift", DRIFTS, ids=list(DRIFTS))
def test_a_drifted_simulator_is_reported(sim_dir: Path, drift: str) -> None:
    name, old, new, expected = DRIFTS[drift]
    sim_edit(sim_dir, name, old, new)
    assert check_fault_points(load_spec(ROOT / "spec"), sim_dir) == [expected]


def test_a_fault_naming_an_undeclared_point_is_refused(spec_dir: Path) -> None:
    edit(spec_dir, "faults.yaml", "    points: [hook.memset]\n", "    points: [hook.memset, memset.nowhere]\n")
    find_issue(issues(spec_dir), "spec/faults.yaml:", "unknown fault point 'memset.nowhere'")


def test_a_point_no_fault_uses_is_refused(spec_dir: Path) -> None:
    edit(spec_dir, "faults.yaml", "    points: [hook.memset]\n", "    points: [hook.run_mode]\n")
    find_issue(issues(spec_dir), "spec/faults.yaml:", "fault point 'hook.memset' is declared but no fault acts at it")


def test_lint_with_sim_fails_on_a_drifted_simulator(sim_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint", "--spec", str(ROOT / "spec"), "--checks", str(CHECKS), "--sim", str(sim_dir)]) == 0
    sim_edit(sim_dir, "faults/registry.c", "    if (site->v1 && aclsim_fault(ACLSIM_FAULT_CRASH_IN_REGISTER)) {",
             "    if (site->v1 && 0) {")
    assert main(["lint", "--spec", str(ROOT / "spec"), "--checks", str(CHECKS), "--sim", str(sim_dir)]) == 2
    assert "fault crash_in_register declares the point" in capsys.readouterr().err


def test_the_generated_table_lists_each_point_s_faults() -> None:
    header = (ROOT / "acl_hostmem_generated" / "sim" / "aclsim_faults.h").read_text(encoding="utf-8")
    spec = load_spec(ROOT / "spec")
    points = [p for p in spec.fault_points if p.kind == "point"]
    assert f"ACLSIM_POINT_COUNT = {len(points)}" in header
    for point in points:
        assert f"#define ACLSIM_POINT_HANDLER_{point.enum_suffix} {point.handler}\n" in header
    acting = sum(1 for p in points for f in spec.faults if p.name in f.points)
    assert f"\n    {acting}\n}};" in header
