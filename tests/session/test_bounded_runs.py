"""Bounded runs and kept evidence: a hung backend costs a bounded time, and what a failure leaves is kept.

Each run here is the generated suite against the simulator with one fault switched on:
hang_in_malloc (aclrtMallocHost never returns), crash_in_register (SIGSEGV) and
devsync_free_leaks (a free that keeps its block).
"""

from __future__ import annotations

import json
import time

import pytest
from kit_runs import CATALOG_CASES, ROOT, child_env, finish, start_suite

from conformance.harness.options import OptionError, seconds

ASAN_LIB = ROOT / "build" / "sim-asan" / "libascendcl.so"


def test_a_backend_hanging_in_malloc_ends_within_the_deadline_with_a_complete_summary(sim_built, tmp_path):
    deadline = 20
    begin = time.monotonic()
    run = finish(start_suite(tmp_path / "r", "--acl-deadline", str(deadline), workers="2",
                             env=child_env(ACLSIM_FAULTS="hang_in_malloc")), tmp_path / "r")
    took = time.monotonic() - begin
    # The deadline counts from the start of `run`; starting its interpreter comes before it and writing the
    # reports after it (a few seconds on a loaded machine). Unbounded, this fault costs about 114 x 35 s.
    assert took < deadline + 10, f"the run took {took:.1f} s with --acl-deadline {deadline}"
    cases = run.cases()
    assert set(cases) == CATALOG_CASES and not run.ran().keys() ^ cases.keys(), "a case was left without a result"
    deadline_cases = {cid for cid, c in cases.items() if c["category"] == "deadline"}
    assert len(deadline_cases) > 100 and all(cases[cid]["outcome"] == "ERROR" for cid in deadline_cases)
    # Every case hung past the deadline, none past its own time limit: nothing was judged, and the run says so
    # (ERROR deadline is a case the run could not judge: INCONCLUSIVE, exit 6, not a pass and not a FAIL).
    assert run.summary["verdict"] == "INCONCLUSIVE" and run.returncode == 6


def test_a_call_that_hung_twice_is_not_waited_for_again(sim_built, tmp_path):
    selected = "HM_ALIGN_MALLOC or HM_ALIGN_LIVE or HM_INVAL_MALLOC_HOST or HM_CAP_STABLE or HM_CAP_QUERY"
    begin = time.monotonic()
    run = finish(start_suite(tmp_path / "r", "--acl-timeout", "1", "-k", selected, workers="2",
                             env=child_env(ACLSIM_FAULTS="hang_in_malloc")), tmp_path / "r")
    took = time.monotonic() - begin
    cases = run.ran()
    killed = {cid for cid, c in cases.items() if "its process was killed" in c["message"]}
    given_up = {cid for cid, c in cases.items() if "hung in 2 cases of this run already" in c["message"]}
    # Two hangs give the call up. With two executors, one more case may have started in the first one's fresh
    # executor while the second hang was still running out its limit (a forked executor is ready in tens of
    # milliseconds): it hangs too, and every case that starts after the second hang is counted is given up.
    assert len(killed) in (2, 3) and all("in aclrtMallocHost" in cases[cid]["message"] for cid in killed)
    # aclrtMallocHost is a call HM-PAIR-MALLOC-FREE promises (setup_promises: allocate) and none of
    # the selected cases is of that rule: both the killed and the given-up cases are BLOCKED by it.
    assert len(given_up) >= 10
    assert all((cases[cid]["outcome"], cases[cid]["blocked_by"]) == ("BLOCKED", "HM-PAIR-MALLOC-FREE")
               for cid in given_up | killed), {cid: cases[cid]["outcome"] for cid in given_up | killed}
    assert all("timeout:" in cases[cid]["message"] for cid in killed)
    assert not any(c["outcome"] in ("FAIL", "ERROR") for c in cases.values())
    assert [(c["rule"], c["blocked_cases"]) for c in run.summary["root_causes"]] == [
        ("HM-PAIR-MALLOC-FREE", len(given_up | killed))]
    untouched = {cid for cid in cases if cid.startswith(("HM-CAP-STABLE", "HM-CAP-QUERY-ALL"))}
    assert untouched and all(cases[cid]["outcome"] == "PASS" for cid in untouched)
    hard = 3 * 1 + 5
    assert took < 4 * hard, f"{took:.1f} s: the cases after the second hang waited for it"


def test_a_backend_leak_is_a_fail_of_the_rule_that_leaked(sim_built, tmp_path):
    run = finish(start_suite(tmp_path / "r", "-k", "HM_PAIR_MALLOC_FREE", workers="2",
                             env=child_env(ACLSIM_FAULTS="devsync_free_leaks")), tmp_path / "r")
    cases = run.ran()
    leaked = {cid: c for cid, c in cases.items() if c["category"] == "leak"}
    assert set(leaked) == {"HM-PAIR-MALLOC-FREE[alloc=malloc,free=free_devsync]",
                           "HM-PAIR-MALLOC-FREE[alloc=malloc_cfg,free=free_devsync]"}
    assert all(c["outcome"] == "FAIL" and "still holds" in c["message"] and "host allocation" in c["message"]
               for c in leaked.values()), {cid: (c["outcome"], c["message"]) for cid, c in leaked.items()}
    assert all(c["outcome"] == "PASS" for cid, c in cases.items() if cid not in leaked)


def test_a_crashed_workers_stderr_stays_with_its_case_and_in_allure(sim_built, tmp_path):
    run = finish(start_suite(tmp_path / "r", "-k", "HM_PAIR_REG_UNREG", workers="2",
                             env=child_env(ACLSIM_FAULTS="crash_in_register")), tmp_path / "r")
    crashed = {cid: c for cid, c in run.ran().items() if c["category"] == "crash"}
    assert list(crashed) == ["HM-PAIR-REG-UNREG[api=v1]"]
    stderr = crashed["HM-PAIR-REG-UNREG[api=v1]"]["stderr"]
    assert "Segmentation fault" in stderr and "in aclrtHostRegister" in crashed["HM-PAIR-REG-UNREG[api=v1]"]["message"]
    results = tmp_path / "r" / "allure-results"
    crash = next(json.loads(p.read_text()) for p in results.glob("*-result.json")
                 if json.loads(p.read_text()).get("name") == "HM-PAIR-REG-UNREG[api=v1]")
    attachment = next(a for a in crash["attachments"] if a["name"].startswith("stderr of the executor"))
    assert (results / attachment["source"]).read_text() == stderr


def test_an_asan_library_without_its_runtime_is_said_once(tmp_path):
    if not ASAN_LIB.is_file():
        pytest.fail(f"{ASAN_LIB} is missing: build it with `make sim-asan`")
    env = {k: v for k, v in child_env().items() if k != "LD_PRELOAD"}
    run = finish(start_suite(tmp_path / "r", "--acl-lib", str(ASAN_LIB), "-k", "HM_CAP_CONSISTENT", workers="2",
                             env=env), tmp_path / "r")
    assert run.returncode == 13, run.output[-2000:]  # a set-up error: no case is run, let alone crashes
    assert run.output.count("is built with AddressSanitizer and needs libasan") == 1, run.output[-2000:]
    assert "LD_PRELOAD=$(cc -print-file-name=libasan" in run.output


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-1", "1e9", "soon"])
def test_durations_must_be_finite_and_positive(value):
    with pytest.raises(OptionError, match="--acl-timeout"):
        seconds("--acl-timeout", value, 10.0)
    assert seconds("--acl-deadline", "2.5", 1800.0) == 2.5 and seconds("--acl-deadline", None, 1800.0) == 1800.0
