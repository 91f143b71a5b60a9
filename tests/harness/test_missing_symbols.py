"""A library that does not export a function: NOT_APPLICABLE where the spec says so, else FAIL missing_symbol.

build/sim-nov2 is the simulator without aclrtHostRegisterV2, like a CANN release that
predates it. On a 310P-class product (no registration at all) it must be judged exactly as
the full library; on Atlas A2 exactly the cases that call aclrtHostRegisterV2 with the full
library (read from their ACL call traces) FAIL with category missing_symbol.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kit_runs import ROOT, Run, child_env, finish, start_suite

from conformance.certify.evidence import case_of

NOV2 = ROOT / "build" / "sim-nov2" / "libascendcl.so"


def _both(tmp_path: Path, soc: str) -> tuple[Run, Run]:
    """The whole suite as ``soc`` against the full simulator and against the one without V2, side by side."""
    if not NOV2.is_file():
        pytest.fail(f"{NOV2} is missing: build it with `make sim`")
    started = [(start_suite(tmp_path / name, "--acl-lib", str(lib), env=child_env(ACLSIM_SOC=soc)), tmp_path / name)
               for name, lib in (("full", ROOT / "build" / "sim" / "libascendcl.so"), ("nov2", NOV2))]
    full, nov2 = (finish(proc, report) for proc, report in started)
    return full, nov2


def _outcomes(run: Run) -> dict[str, tuple[str, str | None]]:
    return {cid: (c["outcome"], c["category"]) for cid, c in run.cases().items()}


def _cases_calling(run: Run, function: str) -> set[str]:
    """Cases whose ACL call trace (an Allure attachment) shows a call of ``function``."""
    results = run.report_dir / "allure-results"
    owner = {cid: rid for rid, rule in run.summary["rules"].items() for cid in rule["cases"]}
    found = set()
    for path in results.glob("*-result.json"):
        result = json.loads(path.read_text())
        traces = [a["source"] for a in result.get("attachments", []) if a.get("name") == "ACL call trace"]
        if any(f"] {function}(" in (results / source).read_text() for source in traces):
            found.add(case_of(result, owner))
    return found


def test_on_310p_the_library_without_v2_is_judged_as_the_full_one(tmp_path):
    full, nov2 = _both(tmp_path, "Ascend310P3")
    assert nov2.summary["verdict"] == full.summary["verdict"] == "PASS", nov2.output[-3000:]
    assert _outcomes(nov2) == _outcomes(full)
    assert sum(1 for o, _ in _outcomes(nov2).values() if o == "NOT_APPLICABLE") >= 40


def test_on_a2_exactly_the_cases_calling_v2_fail_as_missing_symbol(tmp_path):
    full, nov2 = _both(tmp_path, "Ascend910B3")
    assert nov2.summary["environment"]["missing_functions"] == ["aclrtHostRegisterV2"]
    assert full.summary["environment"]["missing_functions"] == []
    assert full.summary["verdict"] == "PASS" and nov2.summary["verdict"] == "FAIL"
    calling = _cases_calling(full, "aclrtHostRegisterV2")
    missing = {cid for cid, (outcome, category) in _outcomes(nov2).items() if category == "missing_symbol"}
    assert len(calling) >= 20 and missing == calling
    assert all(_outcomes(nov2)[cid][0] == "FAIL" for cid in missing)
    others = {cid: o for cid, o in _outcomes(nov2).items() if cid not in missing}
    assert others == {cid: o for cid, o in _outcomes(full).items() if cid not in missing}
    assert "HM-PAIR-REG-UNREG[api=v1]" in others  # V1-only cases never need V2
