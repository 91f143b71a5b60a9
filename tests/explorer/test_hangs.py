"""A call that never returns: the explorer gives up the exploration after one timeout and reports the hang.

The call cannot be interrupted, so the case must not wait for its hard limit (3 x timeout +
5 s): it FAILs with category timeout, the hung call last on the attached path.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_explorer

TIMEOUT_S = 2


def test_a_call_that_never_returns_fails_the_case_after_one_timeout(tmp_path: Path) -> None:
    run = run_explorer(tmp_path, "--acl-timeout", str(TIMEOUT_S), "-k", "DOCUMENTED", faults="hang_in_malloc")
    case = run.summary["rules"]["HM-EXPLORE-DOCUMENTED"]["cases"]["HM-EXPLORE-DOCUMENTED[paths=documented]"]
    assert (case["outcome"], case["category"]) == ("FAIL", "timeout"), case
    assert TIMEOUT_S <= case["duration_s"] < 2 * TIMEOUT_S, case
    assert f"aclrtMallocHost did not return within {TIMEOUT_S}" in case["message"], case["message"]
    path = (run.artifacts("HM-EXPLORE-DOCUMENTED[paths=documented]") / "path.txt").read_text()
    assert path.rstrip().splitlines()[-2].endswith("got no return"), path
    figures = json.loads((run.artifacts("HM-EXPLORE-DOCUMENTED[paths=documented]") / "exploration.json").read_text())
    assert figures["hung"] is True and figures["found"] is True, figures
