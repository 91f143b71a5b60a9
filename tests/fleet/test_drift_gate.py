"""The gate between two simulator runs that differ only in an unspecified behaviour: the allocator's grain.

The candidate runs with ACLSIM_HOST_ALIGN=4096 (blocks start on a page instead of 64 bytes,
which the docs leave open). The gate must report exactly that drift, the `grain` observations
of the alignment rules, and no outcome change: it passes by default and fails on drift.
"""

from __future__ import annotations

from conftest import finish_all, read_json, start_run

from conformance.cli import main as cli_main


def test_a_changed_allocator_grain_is_exactly_grain_drift(tmp_path, capsys, catalog):
    base, cand = tmp_path / "baseline", tmp_path / "candidate"
    finish_all([start_run(base, {}), start_run(cand, {"ACLSIM_HOST_ALIGN": "4096"})])
    summary = read_json(base / "summary.json")
    assert summary["verdict"] == read_json(cand / "summary.json")["verdict"] == "PASS"
    for rule in catalog["rules"]:  # every rule that declares observations and ran carries them
        ran = summary["rules"][rule["id"]]["outcome"] != "NOT_APPLICABLE"
        recorded = {name for case in summary["rules"][rule["id"]]["cases"].values() for name in case["observations"]}
        assert recorded == ({o["name"] for o in rule["observations"]} if ran else set()), rule["id"]
    out = ["--markdown", str(tmp_path / "gate.md"), "--json", str(tmp_path / "gate.json")]
    assert cli_main(["compare", str(base), str(cand), *out]) == 0  # default --fail-on regression
    report = read_json(tmp_path / "gate.json")
    assert all(not changes for changes in report["classes"].values()), report["classes"]
    drift = report["drift"]
    assert drift, "the grain change went unnoticed"
    assert {(d["observation"], d["provenance"], d["baseline"], d["candidate"]) for d in drift} == {
        ("grain", "unspecified", 64, 4096)}
    assert {d["rule"] for d in drift} == {"HM-ALIGN-MALLOC", "HM-ALIGN-MALLOC-CFG", "HM-ALIGN-LIVE",
                                          "HM-CFG-DEVICE-ID-MATCHING", "HM-CFG-MULTI-ATTR", "HM-CFG-DUPLICATE-ATTR"}
    assert "## Behaviour drift" in (tmp_path / "gate.md").read_text()
    capsys.readouterr()
    assert cli_main(["compare", str(base), str(cand), *out, "--fail-on", "drift"]) == 1
    assert f"gating class drift: {len(drift)} observation(s) changed" in capsys.readouterr().out
    assert cli_main(["compare", str(base), str(cand), *out, "--fail-on", "regression,drift:documented"]) == 0
