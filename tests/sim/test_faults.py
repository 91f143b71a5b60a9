"""Fault switches: parsing, the fault list's completeness, and a proof that each fault bites."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml
from fault_proofs import PROOF_ENV, PROOFS

ROOT = Path(__file__).resolve().parents[2]
FAULTS_YAML = ROOT / "spec" / "faults.yaml"
RULES_YAML = ROOT / "spec" / "rules.yaml"
STATE_MODEL_YAML = ROOT / "spec" / "state_model.yaml"  # the explorer's rules
FAMILIES = {
    "alignment",
    "content",
    "pairing",
    "va_identity",
    "sync",
    "invalid_argument",
    "capability",
    "product_support",
    "explorer",
}
# Rule IDs named in the simulator brief; used only while spec/rules.yaml does not exist.
BRIEF_RULE_IDS = {
    "HM-ALIGN-MALLOC",
    "HM-ALIGN-MALLOC-CFG",
    "HM-ALIGN-LIVE",
    "HM-CONTENT-RW-FULL",
    "HM-CONTENT-MEMSET",
    "HM-CONTENT-REGISTER-PRESERVES",
    "HM-CONTENT-FREE-ISOLATION",
    "HM-PAIR-MALLOC-FREE",
    "HM-PAIR-DOUBLE-FREE",
    "HM-PAIR-FREE-FOREIGN",
    "HM-PAIR-REG-UNREG",
    "HM-PAIR-DOUBLE-UNREGISTER",
    "HM-PAIR-UNREG-UNKNOWN",
    "HM-PAIR-DOUBLE-REGISTER",
    "HM-PAIR-OVERLAP-REGISTER",
    "HM-PAIR-GETDEVPTR-AFTER-UNREG",
    "HM-PAIR-V2-PINNED-ON-PINNED",
    "HM-PAIR-V2-PINNED-NO-MAPPED",
    "HM-PAIR-CONCURRENT-REGISTER",
    "HM-PAIR-EXHAUSTION",
    "HM-REG-RESERVED-TYPES",
    "HM-REG-PAGEABLE",
    "HM-REG-KERNEL-LEGACY",
    "HM-VA-IDENTITY",
    "HM-VA-UNSUPPORTED",
    "HM-VA-DEVPTR-CONSISTENT",
    "HM-VA-DEVPTR-HOST-ONLY",
    "HM-SYNC-MALLOC-NO-IMPLICIT",
    "HM-SYNC-FREE-NO-IMPLICIT",
    "HM-SYNC-DEVSYNC-WAITS",
    "HM-SYNC-DEVSYNC-ALL-STREAMS",
    "HM-INVAL-MALLOC-HOST",
    "HM-INVAL-MALLOC-CFG",
    "HM-INVAL-FREE-HOST",
    "HM-INVAL-FREE-DEVSYNC",
    "HM-INVAL-REGISTER",
    "HM-INVAL-REGISTER-V2",
    "HM-INVAL-GETDEVPTR",
    "HM-INVAL-UNREGISTER",
    "HM-INVAL-CAPABILITIES",
    "HM-CTX-NO-DEVICE",
    "HM-CAP-QUERY-ALL",
    "HM-CAP-STABLE",
    "HM-CAP-CONSISTENT",
    "HM-PROD-SUPPORT",
}


def load_faults() -> list[dict[str, Any]]:
    """The entries of spec/faults.yaml, in file order."""
    return yaml.safe_load(FAULTS_YAML.read_text())["faults"]


def rule_ids() -> set[str]:
    """Rule IDs from spec/rules.yaml and spec/state_model.yaml, or the brief's list while rules.yaml is absent."""
    explorer = {rule["id"] for rule in yaml.safe_load(STATE_MODEL_YAML.read_text())["rules"]}
    if RULES_YAML.is_file():
        return explorer | {rule["id"] for rule in yaml.safe_load(RULES_YAML.read_text())["rules"]}
    return BRIEF_RULE_IDS | explorer


FAULTS = load_faults()
HANGS = {"hang_in_free", "hang_in_malloc"}  # faults whose proof is a call that never returns
FAULT_NAMES = [f["name"] for f in FAULTS]


def test_fault_list_is_well_formed_and_complete():
    known = rule_ids()
    per_family: dict[str, int] = {}
    for fault in FAULTS:
        assert set(fault) <= {"name", "family", "violates", "description", "soc", "env", "legal", "covers",
                              "families", "environments", "since", "points"}, fault
        assert re.fullmatch(r"[a-z][a-z0-9_]*", fault["name"]), fault["name"]
        assert fault["family"] in FAMILIES, fault
        assert fault["description"].strip(), fault
        if fault.get("legal"):
            assert fault["name"].startswith("legal_") and set(fault["covers"]) <= known, fault
            continue
        assert fault["violates"] and set(fault["violates"]) <= known, fault
        per_family[fault["family"]] = per_family.get(fault["family"], 0) + 1
    assert len(set(FAULT_NAMES)) == len(FAULT_NAMES), "duplicate fault names"
    assert {f: n for f, n in per_family.items() if n < 2} == {}
    assert set(per_family) == FAMILIES
    assert set(PROOFS) == set(FAULT_NAMES), "every fault needs a proof scenario"


def test_library_knows_exactly_the_listed_faults_in_order(run_sim):
    r = run_sim("""
        print("|".join(ffi.string(lib.aclsimFaultName(i)).decode()
                       for i in range(lib.aclsimFaultCount())))
        assert lib.aclsimFaultName(lib.aclsimFaultCount()) == ffi.NULL
    """)
    assert r.stdout.strip().split("|") == FAULT_NAMES


def test_every_fault_name_parses(run_sim):
    run_sim(f"""
        import os
        for name in {FAULT_NAMES!r}:
            os.environ["ACLSIM_FAULTS"] = name
            expect(lib.aclInit(ffi.NULL), SUCCESS, name)
            assert ffi.string(lib.aclsimActiveFaults()).decode() == name
            expect(lib.aclFinalize(), SUCCESS)
        os.environ["ACLSIM_FAULTS"] = " free_null_ok,,cap_none, "
        expect(lib.aclInit(ffi.NULL), SUCCESS)
        assert ffi.string(lib.aclsimActiveFaults()) == b"free_null_ok,cap_none"
        expect(lib.aclFinalize(), SUCCESS)
        os.environ["ACLSIM_FAULTS"] = ""
        expect(lib.aclInit(ffi.NULL), SUCCESS)
        assert ffi.string(lib.aclsimActiveFaults()) == b""
    """)


def test_unknown_fault_name_fails_init(run_sim):
    r = run_sim(
        """
        expect(lib.aclInit(ffi.NULL), INVALID_PARAM)
        out = ffi.new("void **")
        expect(lib.aclrtMallocHost(out, 64), UNINITIALIZE)
    """,
        env={"ACLSIM_FAULTS": "free_null_ok,no_such_fault"},
    )
    assert "no_such_fault" in r.stderr and "align_malloc_off16" in r.stderr, r.stderr


def _prove(base_env: dict[str, str], fault: dict[str, Any]) -> tuple[int | str, str, str]:
    env = dict(base_env)
    env["ACLSIM_FAULTS"] = fault["name"]
    env["ACLSIM_SOC"] = fault.get("soc", "Ascend910B3")
    env["ACLSIM_DEVICE_COUNT"] = "2"
    env.update({k: str(v) for k, v in (fault.get("env") or {}).items()})
    env.update(PROOF_ENV.get(fault["name"], {}))
    script = "from simrun import *\n" + textwrap.dedent(PROOFS[fault["name"]])
    timeout = 3 if fault["name"] in HANGS else 30
    try:
        proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", "", ""
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize("name", FAULT_NAMES)
def test_given_fault_when_proof_runs_then_rule_is_broken(base_env, name):
    rc, out, err = _prove(base_env, next(f for f in FAULTS if f["name"] == name))
    if name == "crash_in_register":
        assert rc == -signal.SIGSEGV or "SEGV" in err, (rc, out, err)
    elif name in HANGS:
        assert rc == "timeout", (rc, out, err)
    elif name.startswith("legal_"):
        assert rc == 0 and out.strip().endswith("VARIANT"), (rc, out, err)
    else:
        assert rc == 0 and out.strip().endswith("VIOLATED"), (rc, out, err)


def test_given_no_fault_when_proofs_run_then_rules_hold(base_env):
    """The proofs must not report a violation on the faithful simulator (a sample, for time)."""
    sample = [
        "align_malloc_off16",
        "short_alloc",
        "free_scribbles_neighbour",
        "devptr_mismatch",
        "devsync_one_stream",
        "cap_flaky",
        "exhaustion_leak",
        "pinned_maps",
        "reregister_stale_devptr",
        "devsync_skips_old_streams",
        "unregister_drops_newer",
        "thread_stale_devptr_cache",
        "register_rounds_2m",
        "prot_read_registers",
        "second_device_v2_ok",
        "fork_inherits",
        "content_between_points",
        "va_between_points",
        "cap_none_second_device",
        "align_between_points",
        "cap_supported_without_registration",
    ]
    env = {k: v for k, v in base_env.items()}
    for name in sample:
        fault = dict(next(f for f in FAULTS if f["name"] == name))
        env_extra = fault.get("env") or {}
        script = "from simrun import *\n" + textwrap.dedent(PROOFS[name])
        child = dict(env, ACLSIM_SOC=fault.get("soc", "Ascend910B3"), ACLSIM_DEVICE_COUNT="2",
                     **{k: str(v) for k, v in env_extra.items()}, **PROOF_ENV.get(name, {}))
        proc = subprocess.run([sys.executable, "-c", script], env=child, capture_output=True, text=True, timeout=30)
        assert proc.returncode == 0 and proc.stdout.strip().endswith("intact"), (name, proc)
