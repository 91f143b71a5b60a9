"""Certification runs are reproducible: the same seed draws the same explorer step sequence."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import KERNEL, LIB, ROOT, explorer_env, run_explorer
from kit_runs import KIT

from conformance.results.vocabulary import EXIT_INCONCLUSIVE

STEPS = "400"


def _certify(out: Path, *extra: str) -> Path:
    """A certification bundle of the explorer cases alone (incomplete, so NOT CERTIFIED as INCONCLUSIVE, but a
    bundle)."""
    command = [*KIT, "certify", "--acl-lib", str(LIB), "--out-dir", str(out),
               "-n", "1", "--", "--no-html", "-k", "EXPLORE", "--acl-os-kernel", KERNEL, "--acl-explore-steps",
               STEPS, *extra]
    proc = subprocess.run(command, cwd=ROOT, env=explorer_env(), capture_output=True, text=True, timeout=600)
    # NOT CERTIFIED as INCONCLUSIVE: nothing failed, but the other rules did not run.
    assert proc.returncode == EXIT_INCONCLUSIVE, proc.stdout + proc.stderr
    return next(p for p in out.iterdir() if p.is_dir() and not p.name.startswith("."))


def _digests(report_dir: Path) -> dict[str, str]:
    found = {}
    for path in sorted((report_dir / "artifacts").glob("*/exploration.json")):
        data = json.loads(path.read_text())
        assert data["found"] is False and 0 < data["steps"] <= int(STEPS), data
        found[path.parent.name] = data["step_digest"]
    assert len(found) == 2, found
    return found


def test_two_certify_runs_with_the_same_seed_draw_the_same_steps(sim_built: Path, tmp_path: Path) -> None:
    first = _digests(_certify(tmp_path / "one"))
    second = _digests(_certify(tmp_path / "two"))
    assert first == second
    other = _digests(run_explorer(tmp_path / "other", "--acl-explore-steps", STEPS, "--acl-explore-seed", "7")
                     .report_dir)
    assert set(other.values()).isdisjoint(first.values())
