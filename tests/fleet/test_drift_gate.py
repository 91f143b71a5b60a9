"""The gate between two simulator runs that differ only in an unspecified behaviour: the allocator's grain.

The simulated Atlas A2 runs the svm v2 driver, whose aclrtMallocHost memory comes in 4 KiB
steps; the baseline runs with ACLSIM_HOST_ALIGN=64 (blocks 64 bytes apart, all the docs
promise), the candidate with the driver's default. The gate must report exactly that drift,
the `grain` observations of the alignment rules where the allocation is below a megabyte
(larger blocks are page aligned either way), and no outcome change: it passes by default and
fails on drift.
"""

from __future__ import annotations

from collections import Counter

from conftest import finish_all, read_json, start_run

from conformance.cli import main as cli_main


def test_a_changed_allocator_grain_is_exactly_grain_drift(tmp_path, capsys, catalog):
    base, cand = tmp_path / "baseline", tmp_path / "candidate"
    finish_all([start_run(base, {"ACLSIM_HOST_ALIGN": "64"}), start_run(cand, {})])
    summary, candidate = read_json(base / "summary.json"), read_json(cand / "summary.json")
    assert summary["verdict"] == candidate["verdict"] == "PASS"
    assert summary["environment"]["product_family"] == "atlas_a2"
    for rule in catalog["rules"]:  # every rule that declares observations and ran carries them
        ran = summary["rules"][rule["id"]]["outcome"] != "NOT_APPLICABLE"
        recorded = {name for case in summary["rules"][rule["id"]]["cases"].values() for name in case["observations"]}
        assert recorded == ({o["name"] for o in rule["observations"]} if ran else set()), rule["id"]
    out = ["--markdown", str(tmp_path / "gate.md"), "--json", str(tmp_path / "gate.json")]
    assert cli_main(["gate", str(base), str(cand), *out]) == 0  # default --fail-on regression
    report = read_json(tmp_path / "gate.json")
    assert all(not changes for changes in report["classes"].values()), report["classes"]
    drift = report["drift"]
    assert drift, "the grain change went unnoticed"
    assert {(d["observation"], d["provenance"], d["baseline"], d["candidate"]) for d in drift} == {
        ("grain", "unspecified", 64, 4096)}
    per_rule = Counter(d["rule"] for d in drift)
    assert per_rule == {"HM-ALIGN-MALLOC": 8, "HM-ALIGN-MALLOC-CFG": 16, "HM-ALIGN-LIVE": 6,
                        "HM-CFG-DEVICE-ID-MATCHING": 1, "HM-CFG-MULTI-ATTR": 2, "HM-CFG-DUPLICATE-ATTR": 1}, per_rule
    assert len(drift) == 34
    # The drift is every case whose grain differs between the two summaries, and nothing else.
    def grains(run):
        return {cid: case["observations"]["grain"]["value"] for rule in run["rules"].values()
                for cid, case in rule["cases"].items() if "grain" in case["observations"]}
    before, after = grains(summary), grains(candidate)
    assert before.keys() == after.keys()
    assert {d["case"] for d in drift} == {cid for cid in before if before[cid] != after[cid]}
    assert all(after[cid] == 4096 for cid in after)  # the driver's 4 KiB steps
    assert {cid for cid in before if before[cid] == 4096} == {  # a megabyte or more is page aligned either way
        cid for cid in before if "size=1048" in cid or "size=2097152" in cid or "size=67108864" in cid}
    assert "## Behaviour drift" in (tmp_path / "gate.md").read_text()
    capsys.readouterr()
    assert cli_main(["gate", str(base), str(cand), *out, "--fail-on", "drift"]) == 1
    assert f"gating class drift: {len(drift)} observation(s) changed" in capsys.readouterr().out
    assert cli_main(["gate", str(base), str(cand), *out, "--fail-on", "regression,drift:documented"]) == 0
