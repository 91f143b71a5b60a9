"""verify: the observations of a bundle's summary.json agree with the spec's declarations."""

from __future__ import annotations

import json

import pytest
from bundle_helpers import first_case, write_fake_bundle

from conformance.certify.bundle import write_sums
from conformance.certify.verify import verify

RULE = "HM-PAIR-DOUBLE-UNREGISTER"  # declares `code`, evidence expect; its expected code is documented
GOOD = {"code": {"value": 507911, "type": "code", "provenance": "documented"}}


def _bundle(tmp_path, catalog, make_summary, observations):
    case = first_case(catalog, RULE)
    return write_fake_bundle(tmp_path, make_summary({case: {"outcome": "PASS", "observations": observations}})), case


def test_declared_observations_verify(tmp_path, catalog, make_summary):
    bundle, _case = _bundle(tmp_path, catalog, make_summary, GOOD)
    assert verify(bundle) == []


@pytest.mark.parametrize("observations, problem", [
    ({"colour": {"value": 1, "type": "int", "provenance": "unspecified"}}, "not declared for " + RULE + " in the spec"),
    ({"code": {"value": "507911", "type": "code", "provenance": "documented"}}, "'507911' is not a code"),
    ({"code": {"value": 507911, "type": "int", "provenance": "documented"}}, "type 'int', declared 'code'"),
    ({"code": {"value": 507911, "type": "code", "provenance": "unspecified"}},
     "provenance 'unspecified' does not follow from the spec ('documented')"),
    ({"code": 507911}, "expected an object with value, type and provenance"),
], ids=["undeclared", "bad-value", "bad-type", "bad-provenance", "bare-value"])
def test_bad_observations_are_found_even_with_fixed_sums(tmp_path, catalog, make_summary, observations, problem):
    bundle, case = _bundle(tmp_path, catalog, make_summary, GOOD)
    summary = json.loads((bundle / "summary.json").read_text())
    summary["rules"][RULE]["cases"][case]["observations"] = observations
    (bundle / "summary.json").write_text(json.dumps(summary))
    write_sums(bundle)  # a forger who also rewrites the sums
    name = next(iter(observations))
    assert f"summary.json: case {case}: observation {name!r}: {problem}" in verify(bundle)


@pytest.mark.parametrize("old", ["acl-conformance-summary/1", "acl-conformance-summary/2"])
def test_a_summary_of_an_old_schema_is_refused_and_named(tmp_path, catalog, make_summary, old):
    bundle, _case = _bundle(tmp_path, catalog, make_summary, GOOD)
    summary = json.loads((bundle / "summary.json").read_text())
    assert summary["schema"] == "acl-conformance-summary/3"
    summary["schema"] = old
    (bundle / "summary.json").write_text(json.dumps(summary))
    write_sums(bundle)
    assert any(f"schema is '{old}'" in problem for problem in verify(bundle)), verify(bundle)
