"""The state model (spec/state_model.yaml): lint, evidence from the cited rules, the generated predictions."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest
from specedit import ROOT, edit, find_issue, issues, line_of

from codegen.load import load_spec
from codegen.model import Condition
from codegen.render import render_all
from codegen.state_model import Cite, evidence_of

MODEL = "state_model.yaml"


def test_a_clause_that_names_an_undeclared_fact_is_reported(spec_dir: Path) -> None:
    edit(spec_dir, MODEL, "- {when: [target_interior], expect: failure, cite: {rule: HM-PAIR-FREE-FOREIGN}}",
         "- {when: [target_inside], expect: failure, cite: {rule: HM-PAIR-FREE-FOREIGN}}", count=2)
    line = line_of(spec_dir, MODEL, "when: [target_inside]")
    find_issue(issues(spec_dir), f"spec/state_model.yaml:{line}: interfaces.aclrtFreeHost[",
               "unknown fact 'target_inside'")


def test_a_citation_of_an_unknown_rule_or_error_condition_is_reported(spec_dir: Path) -> None:
    # aclrtHostRegisterV2 cites HM-PAIR-DOUBLE-REGISTER; aclrtHostRegister cites HM-PAIR-DOUBLE-REGISTER-V1
    edit(spec_dir, MODEL, "cite: {rule: HM-PAIR-DOUBLE-REGISTER}}", "cite: {rule: HM-PAIR-TRIPLE-REGISTER}}")
    edit(spec_dir, MODEL, "cite: {rule: HM-PAIR-DOUBLE-REGISTER-V1}}", "cite: {rule: HM-PAIR-TRIPLE-REGISTER-V1}}")
    found = issues(spec_dir)
    line = line_of(spec_dir, MODEL, "HM-PAIR-TRIPLE-REGISTER}}")
    find_issue(found, f"spec/state_model.yaml:{line}: ", "cites unknown rule 'HM-PAIR-TRIPLE-REGISTER'")
    line = line_of(spec_dir, MODEL, "HM-PAIR-TRIPLE-REGISTER-V1}}")
    find_issue(found, f"spec/state_model.yaml:{line}: ", "cites unknown rule 'HM-PAIR-TRIPLE-REGISTER-V1'")


def test_errors_of_must_name_the_rule_of_the_same_interface(spec_dir: Path) -> None:
    edit(spec_dir, MODEL, "    - errors_of: HM-INVAL-FREE-HOST\n", "    - errors_of: HM-INVAL-UNREGISTER\n")
    line = line_of(spec_dir, MODEL, "errors_of: HM-INVAL-UNREGISTER", 1)
    find_issue(issues(spec_dir), f"spec/state_model.yaml:{line}: interfaces.aclrtFreeHost[0].errors_of",
               "the error conditions of HM-INVAL-UNREGISTER are about aclrtHostUnregister, not aclrtFreeHost")


def test_the_last_clause_must_hold_always(spec_dir: Path) -> None:
    edit(spec_dir, MODEL, "    - {expect: failure, cite: {rule: HM-PAIR-UNREG-UNKNOWN}}\n",
         "    - {when: [no_device], expect: failure, cite: {rule: HM-PAIR-UNREG-UNKNOWN}}\n")
    find_issue(issues(spec_dir), "spec/state_model.yaml:", "interfaces.aclrtHostUnregister[",
               "the last clause must hold always (no `when`)")


def test_a_failure_clause_cannot_change_the_state(spec_dir: Path) -> None:
    edit(spec_dir, MODEL, "- {when: [registration_interior], expect: failure, cite: {rule: HM-PAIR-UNREG-INTERIOR}}",
         "- {when: [registration_interior], expect: failure, cite: {rule: HM-PAIR-UNREG-INTERIOR}, "
         "effects: [drop_registration]}")
    find_issue(issues(spec_dir), "spec/state_model.yaml:", "effects: a clause that expects failure changes nothing")


def test_an_unused_declaration_is_reported(spec_dir: Path) -> None:
    edit(spec_dir, MODEL, "facts:\n", "facts:\n  - {name: never_used, reads: [streams], meaning: \"Nothing.\"}\n")
    line = line_of(spec_dir, MODEL, "name: never_used")
    find_issue(issues(spec_dir), f"spec/state_model.yaml:{line}: facts[0].name",
               "fact 'never_used' is declared but no clause uses it")


def test_an_explorer_rule_cannot_take_an_id_of_rules_yaml(spec_dir: Path) -> None:
    edit(spec_dir, MODEL, "  - id: HM-EXPLORE-ALL\n", "  - id: HM-ALIGN-MALLOC\n")
    find_issue(issues(spec_dir), "spec/state_model.yaml:", "rules[1].id", "taken by rules.yaml")


def test_a_schema_violation_names_the_field(spec_dir: Path) -> None:
    edit(spec_dir, MODEL, "    - {when: [unsupported], expect: failure, cite: {rule: HM-PROD-SUPPORT}}\n",
         "    - {when: [unsupported], expect: maybe, cite: {rule: HM-PROD-SUPPORT}}\n", count=9)
    found = issues(spec_dir)
    assert any(".expect" in i or "is not valid under any of the given schemas" in i for i in found), found


@pytest.fixture(scope="module")
def spec() -> object:
    return load_spec(ROOT / "spec")


def test_evidence_comes_from_the_cited_rule(spec: object) -> None:
    rules = {r.id: r for r in spec.rules}  # type: ignore[attr-defined]
    double = evidence_of(rules, Cite("HM-PAIR-DOUBLE-UNREGISTER"))
    assert (double.provenance, double.severity, double.code, double.code_provenance) == (
        "documented", "mandatory", "ACL_ERROR_HOST_MEMORY_NOT_REGISTERED", "documented")
    assert double.strict and double.documented and double.code_documented
    interior = evidence_of(rules, Cite("HM-PAIR-UNREG-INTERIOR"))  # known from the runtime source only
    assert (interior.provenance, interior.code_provenance) == ("runtime-source", "runtime-source")
    assert interior.strict and not interior.documented and not interior.code_documented
    size_zero = evidence_of(rules, Cite("HM-INVAL-MALLOC-HOST", Condition("size", "equals", 0)))
    assert size_zero.code == "ACL_ERROR_INVALID_PARAM" and size_zero.rule == "HM-INVAL-MALLOC-HOST"
    assert evidence_of(rules, Cite(doc=True)).documented
    unspecified = evidence_of(rules, Cite(unspecified="nothing says"))
    assert unspecified.provenance == "unspecified" and not unspecified.documented
    assert evidence_of(rules, Cite("HM-PAIR-REG-UNREG")).documented


def test_the_explorer_rules_join_the_catalog_under_their_own_family(spec: object) -> None:
    catalog = json.loads(render_all(spec)["catalog.json"])  # type: ignore[arg-type]
    explorer = {r["id"]: r for r in catalog["rules"] if r["family"] == "explorer"}
    assert set(explorer) == {"HM-EXPLORE-DOCUMENTED", "HM-EXPLORE-ALL"}
    assert explorer["HM-EXPLORE-DOCUMENTED"]["severity"] == "mandatory"
    assert explorer["HM-EXPLORE-DOCUMENTED"]["provenance"] == "documented"
    assert explorer["HM-EXPLORE-ALL"]["provenance"] == "unspecified"  # the weakest clause it may use
    assert [c["case_id"] for c in explorer["HM-EXPLORE-ALL"]["cases"]] == ["HM-EXPLORE-ALL[paths=all]"]


def _generated_model(spec: object, tmp_path: Path) -> ModuleType:
    path = tmp_path / "state_model.py"
    path.write_text(render_all(spec)["state_model.py"], encoding="utf-8")  # type: ignore[arg-type]
    module_spec = importlib.util.spec_from_file_location("generated_state_model_under_test", path)
    assert module_spec and module_spec.loader
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_spec.name] = module  # dataclasses look their module up
    module_spec.loader.exec_module(module)
    return module


class Facts(SimpleNamespace):
    """Every fact false unless given; conditions from the given set of (param, kind, value)."""

    def __init__(self, conditions: frozenset[object] = frozenset(), **facts: bool) -> None:
        super().__init__(conditions=conditions, **facts)

    def __getattr__(self, name: str) -> bool:
        return False

    def condition(self, param: str, kind: str, value: object) -> bool:
        return (param, kind, value) in self.conditions

    def applies(self, rule: str | None) -> bool:
        return rule not in self.conditions  # a rule ID among the conditions stands for "does not apply"


def test_generated_predictions_follow_the_clause_order(spec: object, tmp_path: Path) -> None:
    model = _generated_model(spec, tmp_path)
    ok = model.predict("aclrtHostUnregister", Facts(registration_base=True))
    assert ok.expect == "success" and ok.effects == ("drop_registration",)
    twice = model.predict("aclrtHostUnregister", Facts(registration_removed=True))
    assert twice.expect == "failure" and twice.evidence.code == "ACL_ERROR_HOST_MEMORY_NOT_REGISTERED"
    alone = model.predict("aclrtHostUnregister", Facts(no_device=True))
    assert alone.expect == "failure" and alone.evidence.rule == "HM-CTX-NO-DEVICE"
    assert alone.evidence.code == "ACL_ERROR_RT_CONTEXT_NULL"


def test_several_failures_or_an_unsure_model_leave_the_code_unjudged(spec: object, tmp_path: Path) -> None:
    model = _generated_model(spec, tmp_path)
    null = ("hostPtr", "is_null", True)
    single = model.predict("aclrtMallocHost", Facts(conditions={null}))
    assert single.evidence.code_value == 100000
    several = model.predict("aclrtMallocHost", Facts(conditions={null, ("size", "equals", 0)}))
    assert several.expect == "failure" and several.evidence.code_value is None
    # aclrtHostUnregister(NULL) from a thread without a device: either check may come first.
    both = model.predict("aclrtHostUnregister", Facts(conditions={("ptr", "is_null", True)}, no_device=True))
    assert both.expect == "failure" and both.evidence.code_value is None
    # a clause whose rule does not apply to the product predicts nothing: the call is not judged
    skipped = model.predict("aclrtHostUnregister", Facts(conditions={"HM-CTX-NO-DEVICE"}, no_device=True))
    assert skipped.expect == "skip"
    # ... and after a failure it leaves the model unsure which comes first, so the code is not judged
    unsure = model.predict("aclrtHostUnregister", Facts(conditions={("ptr", "is_null", True), "HM-CTX-NO-DEVICE"},
                                                        no_device=True))
    assert unsure.expect == "failure" and unsure.evidence.code_value is None


def test_invalid_arguments_are_the_rules_error_conditions(spec: object, tmp_path: Path) -> None:
    model = _generated_model(spec, tmp_path)
    rule = next(r for r in spec.rules if r.id == "HM-INVAL-REGISTER")  # type: ignore[attr-defined]
    assert model.INVALID_ARGUMENTS["aclrtHostRegister"] == tuple(
        (e.when.param, e.when.kind, e.when.value) for e in rule.errors)


def test_a_v1_registration_over_a_stale_range_is_refused_only_where_the_driver_keeps_its_node(spec: object,
                                                                                            tmp_path: Path) -> None:
    """HM-PAIR-FREE-REGISTERED allows aclrtHostRegister over memory freed while registered to succeed or fail: the
    svm v2 driver keeps the registration's node and refuses it, while a free that succeeds under the svm v3 driver
    (the docs' side of HM-PAIR-FREE-WHILE-REGISTERED) may take the node with it. The model predicts the refusal on
    v2 only and leaves the call out elsewhere; aclrtHostRegisterV2 meets the runtime's own records everywhere."""
    model = _generated_model(spec, tmp_path)
    v2 = model.predict("aclrtHostRegister", Facts(range_overlaps_stale=True, range_overlaps_stale_node=True))
    assert v2.expect == "failure" and v2.evidence.rule == "HM-PAIR-FREE-REGISTERED"
    elsewhere = model.predict("aclrtHostRegister", Facts(range_overlaps_stale=True))
    assert elsewhere.expect == "skip"
    assert model.predict("aclrtHostRegisterV2", Facts(range_overlaps_stale=True)).expect == "failure"
