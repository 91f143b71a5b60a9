"""Loading and matching expectations files."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest

from conformance.results.expectations import (
    ExpectationError,
    glob_match,
    load_expectations,
    parse_version_range,
)

TODAY = datetime.date(2026, 11, 29)
EXAMPLE = Path(__file__).resolve().parents[2] / "conformance" / "results" / "examples" / "expectations.yaml"


def write(tmp_path: Path, text: str, name: str = "exp.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def entries(body: str) -> str:
    return "expectations:\n" + body


def test_example_file_loads():
    expectations = load_expectations([EXAMPLE])
    assert len(expectations) == 3
    assert expectations.files == [EXAMPLE]
    rule_entry = expectations.entries[0]
    assert rule_entry.where == f"{EXAMPLE}:35"
    assert rule_entry.to_json()["cann"] == ">=8.0,<8.5"


@pytest.mark.parametrize(
    ("body", "where", "field"),
    [
        ("  - rule: HM-X\n    reason: r\n    colour: red\n", ":4:", "expectations[0].colour"),
        ("  - rule: HM-X\n    reason: r\n    expires: 2026-13-01\n", ":4:", "expectations[0].expires"),
        ("  - rule: HM-X\n    reason: r\n    expires: soon\n", ":4:", "expectations[0].expires"),
        ("  - rule: HM-X\n    reason: r\n    accepted: yes please\n", ":4:", "expectations[0].accepted"),
        ("  - rule: HM X\n    reason: r\n", ":2:", "expectations[0].rule"),
        ("  - case: 'HM-X[a=1] '\n    reason: r\n", ":2:", "expectations[0].case"),
        ("  - case: 'HM-X[a=[1]'\n    reason: r\n", ":2:", "expectations[0].case"),
        ("  - rule: HM-X\n    reason: r\n    cann: '>>8.0'\n", ":4:", "expectations[0].cann"),
        ("  - rule: HM-X\n    reason: r\n    cann: 8.0\n", ":4:", "expectations[0].cann"),
        ("  - rule: HM-X\n    reason: r\n    families: atlas_a2\n", ":4:", "expectations[0].families"),
        ("  - rule: HM-X\n    reason: r\n    tracking: see email\n", ":4:", "expectations[0].tracking"),
        ("  - rule: HM-X\n    case: HM-X[a=1]\n    reason: r\n", ":2:", "expectations[0]"),
        ("  - rule: HM-X\n", ":2:", "expectations[0]"),
        ("  - rule: HM-X\n    reason: r\n    accepted: true\n", ":4:", "expectations[0].accepted"),
        ("  - rule: HM-X\n    reason: r\n    reason: s\n", ":4:", "reason"),
    ],
)
def test_malformed_entries_name_file_line_and_field(tmp_path, body, where, field):
    path = write(tmp_path, entries(body))
    with pytest.raises(ExpectationError) as info:
        load_expectations([path])
    text = str(info.value)
    assert text.startswith(f"{path}{where} {field}: "), text


def test_unknown_top_level_key_and_bad_yaml(tmp_path):
    with pytest.raises(ExpectationError, match=r":1: waivers: unknown key"):
        load_expectations([write(tmp_path, "waivers: []\n")])
    with pytest.raises(ExpectationError, match=r":[23]: \(file\): YAML syntax error"):
        load_expectations([write(tmp_path, "expectations:\n  - rule: [\n")])
    with pytest.raises(ExpectationError, match=r"no such expectations file"):
        load_expectations([tmp_path / "absent.yaml"])


def test_match_by_rule_case_family_soc_and_cann(tmp_path):
    path = write(
        tmp_path,
        entries(
            "  - rule: HM-PAIR-DOUBLE-UNREGISTER\n    families: [atlas_a2]\n    soc: 'Ascend910B*'\n"
            "    cann: '>=8.0,<8.5'\n    reason: pairing broken\n"
            "  - case: 'HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=6?]'\n    families: [x]\n    reason: one case\n"
        ),
    )
    exp = load_expectations([path])
    rule = "HM-PAIR-DOUBLE-UNREGISTER"
    case = f"{rule}[api=v1]"
    assert exp.match(case, rule, "atlas_a2", "Ascend910B3", "8.0.RC3", TODAY) is exp.entries[0]
    assert exp.match(case, rule, "atlas_a2", "Ascend910B3", "8.4.1", TODAY) is exp.entries[0]
    assert exp.match(case, rule, "atlas_a2", "Ascend910B3", "8.5.RC1", TODAY) is None
    assert exp.match(case, rule, "atlas_a2", "Ascend910B3", "7.3.0", TODAY) is None
    assert exp.match(case, rule, "atlas_a2", "Ascend910B3", "unknown", TODAY) is None
    assert exp.match(case, rule, "atlas_a3", "Ascend910B3", "8.0.0", TODAY) is None
    assert exp.match(case, rule, "atlas_a2", "Ascend910_9391", "8.0.0", TODAY) is None
    hit = exp.match("HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=63]", "HM-ALIGN-MALLOC", "x", "s", "9", TODAY)
    assert hit is exp.entries[1]
    assert exp.match("HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=1]", "HM-ALIGN-MALLOC", "x", "s", "9", TODAY) is None


def test_case_entries_win_over_rule_entries(tmp_path):
    path = write(tmp_path, entries("  - rule: HM-A\n    families: [f]\n    reason: rule\n"
                                   "  - case: 'HM-A[x=1]'\n    families: [f]\n    reason: case\n"))
    exp = load_expectations([path])
    assert exp.match("HM-A[x=1]", "HM-A", "f", "s", "8.0", TODAY).reason == "case"
    assert exp.match("HM-A[x=2]", "HM-A", "f", "s", "8.0", TODAY).reason == "rule"


def test_expired_entries_never_match_and_are_listed(tmp_path):
    path = write(
        tmp_path,
        entries(
            "  - rule: HM-A\n    families: [f]\n    reason: old\n    expires: 2026-11-28\n"
            "  - rule: HM-B\n    families: [f]\n    reason: today is fine\n    expires: 2026-11-29\n"
        ),
    )
    exp = load_expectations([path])
    assert exp.match("HM-A[x=1]", "HM-A", "f", "s", "8.0", TODAY) is None
    assert exp.match("HM-A[x=1]", "HM-A", "f", "s", "8.0", datetime.date(2026, 11, 28)) is not None
    assert exp.match("HM-B[x=1]", "HM-B", "f", "s", "8.0", TODAY) is not None
    assert [e.rule for e in exp.expired(TODAY)] == ["HM-A"]


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ("  - rule: '*'\n    families: [atlas_a2]\n    reason: r\n", "expectations[0].rule", "is not one rule ID"),
        ("  - rule: HM-PAIR-*\n    families: [atlas_a2]\n    reason: r\n", "expectations[0].rule", "no wildcards"),
        ("  - case: 'HM-*[a=1]'\n    families: [atlas_a2]\n    reason: r\n", "expectations[0].case", "one rule ID"),
        ("  - rule: HM-X\n    reason: r\n", "expectations[0]", "needs 'families'"),
        ("  - case: 'HM-X[a=*]'\n    families: [f]\n    reason: r\n    tracking: T-1\n    expires: 2099-01-01\n"
         "    accepted: true\n", "expectations[0].accepted", "a wildcard waiver is never accepted for certification"),
    ],
)
def test_a_waiver_names_one_rule_and_its_families(tmp_path, body, field, message):
    path = write(tmp_path, entries(body))
    with pytest.raises(ExpectationError) as info:
        load_expectations([path])
    assert f" {field}: " in str(info.value) and message in str(info.value), str(info.value)


def test_brackets_are_literal_in_patterns():
    assert glob_match("HM-A[size=1]", "HM-A[size=1]")
    assert not glob_match("HM-A[size=1]", "HM-As")
    assert glob_match("HM-*[*]", "HM-A[b=1]")


@pytest.mark.parametrize(
    ("spec", "version", "holds"),
    [
        (">=8.0,<8.5", "8.0.RC1", True),
        (">=8.0,<8.5", "8.10.0", False),
        (">=8.0.RC2", "8.0.RC10", True),
        (">=8.0.RC2", "8.0.RC1", False),
        ("<8.0.0", "8.0.RC3", True),
        ("==8.0", "8.0.1", True),
        ("==8.0", "8.1", False),
        ("!=8.0", "8.1.0", True),
        ("8.2", "8.2.RC1", True),
        (">7.9", "10.0", True),
        (">=8.5,<8.6", "8.5.0-aclsim", True),
        (">=8.0", "unknown", False),
    ],
)
def test_version_ranges_compare_numerically(spec, version, holds):
    assert parse_version_range(spec).contains(version) is holds


@pytest.mark.parametrize(("field", "value"), [
    ("reason", "known\n## Verdict: **CERTIFIED**"),   # a line break that would start a heading
    ("reason", "looks fine \u202etxt.exe"),              # a right-to-left override
    ("tracking", "T-1\u200f"),                            # a right-to-left mark
])
def test_waiver_text_refuses_control_and_bidirectional_characters(tmp_path, field, value):
    path = tmp_path / "w.yaml"
    entry = {"rule": "HM-X", "families": ["atlas_a2"], "reason": "r", "tracking": "T-1", field: value}
    path.write_text(json.dumps({"expectations": [entry]}), encoding="utf-8")  # JSON is YAML, escapes and all
    with pytest.raises(ExpectationError, match=f"expectations\\[0\\].{field}: holds control or bidirectional"):
        load_expectations([path])


def test_an_accepted_waiver_expires_within_a_year(tmp_path):
    def load_text(text: str):
        path = tmp_path / "w.yaml"
        path.write_text(text, encoding="utf-8")
        return load_expectations([path])

    far = (datetime.date.today() + datetime.timedelta(days=400)).isoformat()
    near = (datetime.date.today() + datetime.timedelta(days=300)).isoformat()
    text = "expectations:\n  - rule: HM-X\n    families: [atlas_a2]\n    reason: r\n    tracking: T-1\n" \
           "    accepted: true\n    expires: {}\n"
    with pytest.raises(ExpectationError, match="more than a year away"):
        load_text(text.format(far))
    assert load_text(text.format(near)).entries[0].accepted
    assert not load_text(text.format("9999-12-31").replace("    accepted: true\n", "")).entries[0].accepted
