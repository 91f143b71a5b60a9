"""End to end (issue 30.3): a run judged against a chosen release that documents no host-memory call on the
product is INCONCLUSIVE (exit 6), and the console says how many mandatory cases it judged."""

from __future__ import annotations

import json
import subprocess

from kit_runs import KIT, LIB, child_env

from conformance.results.vocabulary import EXIT_INCONCLUSIVE


def test_a_run_judged_against_a_chosen_older_release_is_inconclusive(sim_built, tmp_path):
    report = tmp_path / "r"
    proc = subprocess.run([*KIT, "run", "--no-html", "-n", "2", "--acl-lib", str(LIB),
                           "--acl-report-dir", str(report), "--acl-product", "atlas_training",
                           "--acl-cann-release", "9.0.0"], cwd=tmp_path, env=child_env(), capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == EXIT_INCONCLUSIVE, proc.stdout[-3000:] + proc.stderr[-3000:]
    summary = json.loads((report / "summary.json").read_text(encoding="utf-8"))
    assert summary["verdict"] == "INCONCLUSIVE"
    assert "aclrtMallocHost" in summary["coverage"]["unexercised_interfaces"]
    assert f"mandatory cases judged: {summary['coverage']['mandatory_judged']} of " in proc.stdout
    not_applicable = [r for r in summary["rules"].values() if r["outcome"] == "NOT_APPLICABLE"]
    assert not_applicable and all(r.get("message") for r in not_applicable)
