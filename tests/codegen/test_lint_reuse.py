"""``lint`` on a rule that reuses a check: the check's observations must be declared for it, and a mandatory
rule no fault breaks is warned about."""

from __future__ import annotations

from pathlib import Path

from specedit import CHECKS, edit, find_issue, issues, line_of, run_main

from codegen.checkrefs import observed_names


def test_a_rule_whose_check_records_an_undeclared_observation_is_refused(spec_dir: Path) -> None:
    # HM-CFG-MULTI-ATTR reuses config_accepted, which records the grain; without its declaration every case
    # of the rule would end ERROR at run time.
    edit(spec_dir, "observations.yaml", "  HM-CFG-MULTI-ATTR:\n    - *cfg_grain\n", "")
    line = line_of(spec_dir, "rules.yaml", "check: config_accepted")
    found = issues(spec_dir)
    issue = find_issue(found, "spec/rules.yaml:", "HM-CFG-MULTI-ATTR", "'grain'", "observations.yaml")
    assert int(issue.split(":")[1]) >= line


def test_only_what_a_check_records_whatever_its_matrix_counts() -> None:
    names = observed_names("alignment", CHECKS)
    assert names["config_accepted"] == {"grain"} and "grain" in names["alloc_alignment"]
    # recorded only when flag == "pinned": a rule whose matrix never says so need not declare it
    assert "code" not in observed_names("pairing", CHECKS)["v2_pinned_device_pointer"]


def test_lint_warns_of_a_mandatory_rule_no_fault_breaks(spec_dir: Path, capsys) -> None:
    edit(spec_dir, "faults.yaml", "violates: [HM-ALIGN-MALLOC-CFG]", "violates: [HM-ALIGN-MALLOC]")
    result = run_main(capsys, "lint", "--spec", str(spec_dir), "--checks", str(CHECKS))
    assert result.code == 0, result.err
    warnings = [line for line in result.err.splitlines() if line.startswith("warning: ")]
    assert len(warnings) == 1 and "HM-ALIGN-MALLOC-CFG is mandatory and no fault" in warnings[0]
    line = line_of(spec_dir, "rules.yaml", "id: HM-ALIGN-MALLOC-CFG")
    assert warnings[0].startswith(f"warning: spec/rules.yaml:{line}")
