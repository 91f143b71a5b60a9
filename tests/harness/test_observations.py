"""Observations: ctx.observe checks values against the spec's declarations; summary.json carries them."""

from __future__ import annotations

import json

import pytest
from kit_runs import child_env, run_fake

from conformance.checks.memory import alignment_grain
from conformance.harness.observations import ObservationLog, value_problem
from conformance.harness.violations import HarnessError
from conformance.results.observations import case_observations, observation_provenance

CODE = {"name": "code", "type": "code", "evidence": "expect"}
ANSWER = {"name": "answer", "type": "enum", "values": ["YES", "NO"], "key": "device", "evidence": "none"}
CODES = {"name": "codes", "type": "code", "many": True, "evidence": "expect"}
GRAIN = {"name": "grain", "type": "int", "evidence": "none"}
RETURNED = {"name": "returned", "type": "enum", "values": ["before_gate", "after_gate"], "evidence": "rule"}
FREE_NULL = "HM-INVAL-FREE-HOST[hostPtr=NULL]"


def test_the_log_keeps_typed_values_keyed_and_as_sorted_lists():
    log = ObservationLog([CODE, ANSWER, CODES, GRAIN])
    log.record("code", 100000)
    log.record("code", 100000)  # the same value twice is one observation
    log.record("answer", "NO", key=1)
    log.record("answer", "YES", key=0)
    for code in (507910, 100000, 507910):
        log.record("codes", code)
    assert log.to_json() == {"answer": {"0": "YES", "1": "NO"}, "code": 100000, "codes": [100000, 507910]}


@pytest.mark.parametrize("name, value, key, message", [
    ("colour", 1, None, "'colour' is not declared for this rule (declared: answer, code, codes, grain)"),
    ("code", "100000", None, "observation 'code': '100000' is not a code"),
    ("code", True, None, "is not a code"),
    ("answer", "MAYBE", 0, "'MAYBE' is not one of YES, NO"),
    ("answer", "YES", None, "observation 'answer' is keyed by device"),
    ("grain", 64, 3, "observation 'grain' takes no key"),
])
def test_the_log_refuses_what_the_spec_does_not_declare(name, value, key, message):
    log = ObservationLog([CODE, ANSWER, CODES, GRAIN])
    with pytest.raises(HarnessError, match=message.replace("(", r"\(").replace(")", r"\)")):
        log.record(name, value, key)


def test_a_value_recorded_twice_differently_is_a_harness_error():
    log = ObservationLog([GRAIN])
    log.record("grain", 64)
    with pytest.raises(HarnessError, match="recorded twice with different values: 64 and 4096"):
        log.record("grain", 4096)


def test_value_problem_judges_whole_recorded_values():
    assert value_problem(ANSWER, {"0": "YES"}) is None
    assert value_problem(ANSWER, "YES") == "'YES' is not a mapping of device to values"
    assert value_problem(CODES, [1, 2]) is None
    assert value_problem(CODES, [2, 1]) == "[2, 1] is not sorted and free of repeats"
    assert value_problem(GRAIN, 64.0) == "64.0 is not a int"


def test_alignment_grain_is_the_largest_common_power_of_two_up_to_a_page():
    assert alignment_grain([0x10040, 0x20080]) == 64
    assert alignment_grain([0x10000, 0x30000]) == 4096
    assert alignment_grain([0x7f0000001000, 0x7f0000003000, 0x7f0000002000]) == 4096
    assert alignment_grain([0x1008]) == 8


def test_provenance_comes_from_the_rule_or_the_expected_code_else_unspecified():
    rule = {"provenance": "documented", "observations": [CODE, RETURNED, GRAIN]}
    strict = {"expect": {"code": "ACL_ERROR_INVALID_PARAM", "provenance": "runtime-source"}}
    any_failure = {"expect": {"code": None, "provenance": "documented"}}
    assert observation_provenance(rule, strict, CODE) == "runtime-source"
    assert observation_provenance(rule, any_failure, CODE) == "unspecified"
    assert observation_provenance(rule, None, RETURNED) == "documented"
    assert observation_provenance(rule, strict, GRAIN) == "unspecified"
    assert case_observations(rule, strict, {"code": 100000, "grain": 64}) == {
        "code": {"value": 100000, "type": "code", "provenance": "runtime-source"},
        "grain": {"value": 64, "type": "int", "provenance": "unspecified"},
    }


def test_summary_and_allure_carry_the_observations(sim_built, fake_suite, tmp_path):
    report = tmp_path / "r"
    run = run_fake(fake_suite, report, "-k", "FREE_HOST")
    assert run.returncode == 0, run.output
    assert run.summary["schema"] == "acl-conformance-summary/3"
    case = run.cases()[FREE_NULL]
    assert case["outcome"] == "PASS"
    assert case["observations"] == {"code": {"value": 100000, "type": "code", "provenance": "runtime-source"}}
    attachments = [a for f in (report / "allure-results").glob("*-result.json")
                   for a in json.loads(f.read_text())["attachments"] if a["name"] == "Observations"]
    assert len(attachments) == 1
    assert json.loads((report / "allure-results" / attachments[0]["source"]).read_text()) == {"code": 100000}


def test_an_undeclared_observation_is_a_harness_error(sim_built, fake_suite, tmp_path):
    run = run_fake(fake_suite, tmp_path / "r", "-k", "FREE_HOST", env=child_env(FAKE_MODE="observe_undeclared"))
    case = run.cases()[FREE_NULL]
    assert (case["outcome"], case["category"]) == ("ERROR", "harness_error")
    assert "observation 'colour' is not declared for this rule (declared: code)" in case["message"]
