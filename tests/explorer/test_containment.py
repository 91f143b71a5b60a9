"""What an exploration that met a deviation leaves behind does not reach the cases after it."""

from __future__ import annotations

from pathlib import Path

from conftest import run_explorer

# The explorer frees registered memory and then unregisters it; under this fault the driver keeps
# its mapping of that memory at addresses the case does not remember holding, and a later
# allocation at the same addresses cannot be registered.
LEAVES_STATE = "unregister_freed_leaves_mapping"


def test_given_an_exploration_that_met_a_deviation_when_a_case_follows_then_it_meets_the_fault_itself(
        sim_built: Path, tmp_path: Path) -> None:
    run = run_explorer(tmp_path, "-k", "EXPLORE or FREE_REGISTERED", faults=LEAVES_STATE)
    cases = run.summary["rules"]["HM-PAIR-FREE-REGISTERED"]["cases"]
    explorer = run.summary["rules"]["HM-EXPLORE-ALL"]["cases"]["HM-EXPLORE-ALL[paths=all]"]
    assert "state model does not predict" in explorer["message"], explorer
    for case_id in ("HM-PAIR-FREE-REGISTERED[api=v1]", "HM-PAIR-FREE-REGISTERED[api=v2_mapped]"):
        # Its own steps show the fault: the registration after unregistering freed memory is refused.
        # In the explorer's process its first registration was refused instead, over the explorer's leftovers.
        assert cases[case_id]["outcome"] == "FAIL", cases[case_id]
        assert "registration after unregistering the old base failed" in cases[case_id]["message"], cases[case_id]
