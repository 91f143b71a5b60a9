"""spec/observations.yaml: declared per rule, checked by schema and lint, carried into the catalog."""

from __future__ import annotations

import json
from pathlib import Path

from specedit import ROOT, append, edit, find_issue, issues, line_of

from codegen.load import load_spec


def test_the_spec_declares_observations_and_the_catalog_carries_them() -> None:
    spec = load_spec(ROOT / "spec")
    declared = {r.id: r.observations for r in spec.rules if r.observations}
    assert {o.name for o in declared["HM-ALIGN-MALLOC"]} == {"grain", "sampled_sizes"}
    sampled = next(o for o in declared["HM-ALIGN-MALLOC"] if o.name == "sampled_sizes")
    assert sampled.type == "int" and sampled.many
    answer = next(o for o in declared["HM-CAP-QUERY-ALL"] if o.name == "answer")
    assert answer.type == "enum" and answer.key == "device" and "ACL_RT_HOST_MEM_MAP_SUPPORTED" in answer.values
    catalog = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text(encoding="utf-8"))
    rules = {r["id"]: r for r in catalog["rules"]}
    assert rules["HM-PAIR-DOUBLE-UNREGISTER"]["observations"] == [
        {"name": "code", "type": "code", "meaning": "The code the second unregister returned.", "evidence": "expect",
         "values": [], "key": None, "many": False, "expect": "refused"}]
    assert rules["HM-PROD-SUPPORT"]["observations"] == []
    assert "| `HM-CAP-QUERY-ALL` | `answer` | enum of ACL\\_RT\\_HOST\\_MEM\\_MAP\\_NOT\\_SUPPORTED" in (
        ROOT / "acl_hostmem_generated" / "traceability.md").read_text(encoding="utf-8")


def test_unknown_rule_id(spec_dir: Path) -> None:
    append(spec_dir, "observations.yaml",
           "  HM-NO-SUCH-RULE:\n    - {name: x, type: int, meaning: m., evidence: none}\n")
    line = line_of(spec_dir, "observations.yaml", "HM-NO-SUCH-RULE:")
    find_issue(issues(spec_dir),
               f"spec/observations.yaml:{line}: observations.HM-NO-SUCH-RULE: observations of unknown rule")


def test_bad_type(spec_dir: Path) -> None:
    edit(spec_dir, "observations.yaml", "  HM-ALIGN-MALLOC:\n    - name: grain\n      type: int\n",
         "  HM-ALIGN-MALLOC:\n    - name: grain\n      type: float\n")
    line = line_of(spec_dir, "observations.yaml", "type: float")
    find_issue(issues(spec_dir), f"spec/observations.yaml:{line}: observations.HM-ALIGN-MALLOC[0].type: 'float' "
                                 "is not one of: bool, int, code, enum, text")


def test_an_enum_needs_values_and_only_enums_take_them(spec_dir: Path) -> None:
    edit(spec_dir, "observations.yaml", "      values: [page, exact, refused, base_only]\n", "")
    edit(spec_dir, "observations.yaml", "  HM-ALIGN-MALLOC:\n    - name: grain\n      type: int\n",
         "  HM-ALIGN-MALLOC:\n    - name: grain\n      type: int\n      values: [a, b]\n")
    found = issues(spec_dir)
    find_issue(found, "spec/observations.yaml:", "observations.HM-PAIR-REG-UNREG[0].values: an enum observation "
                                                  "needs 'values'")
    line = line_of(spec_dir, "observations.yaml", "values: [a, b]")
    find_issue(found, f"spec/observations.yaml:{line}: observations.HM-ALIGN-MALLOC[0].values: only enum")


def test_duplicate_name_unknown_key_and_expect_without_an_expected_error(spec_dir: Path) -> None:
    append(spec_dir, "observations.yaml",
           "  HM-PROD-SUPPORT:\n"
           "    - {name: code, type: code, meaning: m., evidence: expect}\n"
           "    - {name: code, type: int, meaning: m., evidence: none, colour: red}\n")
    found = issues(spec_dir)
    line = line_of(spec_dir, "observations.yaml", "colour: red")
    find_issue(found, f"spec/observations.yaml:{line}: observations.HM-PROD-SUPPORT[1].colour: unknown key 'colour'")
    # The schema error stops the run before the cross-references; without it both show.
    edit(spec_dir, "observations.yaml", ", colour: red", "")
    found = issues(spec_dir)
    find_issue(found, f"spec/observations.yaml:{line}: observations.HM-PROD-SUPPORT[1].name: duplicate observation")
    find_issue(found, f"spec/observations.yaml:{line - 1}: observations.HM-PROD-SUPPORT[0].evidence: "
                      "HM-PROD-SUPPORT expects no error")
