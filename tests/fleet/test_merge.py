"""merge on synthetic runs: columns, worst outcomes, drift against the previous version, tampered inputs."""

from __future__ import annotations

import shutil

from conftest import read_json
from fleet_synthetic import make_fleet, synthetic_summary, write_run

from conformance.cli import main as cli_main
from conformance.fleet.inputs import read_runs
from conformance.fleet.matrix import build_matrix
from conformance.fleet.report import cell_text, render_markdown

GRAIN_CASE = "HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=1]"
FREE_CASE = "HM-PAIR-DOUBLE-FREE[free=free]"


def fleet(tmp_path, catalog):
    """Atlas A2 on 8.3.0 (two machines) and 8.5.0 (grain 128, a failing case); Atlas A3 on 8.0.RC3 and 8.0.0."""
    runs = {
        "a2-830-n1": synthetic_summary(catalog, "atlas_a2", "8.3.0", host="n1"),
        "a2-830-n2": synthetic_summary(catalog, "atlas_a2", "8.3.0", host="n2"),
        "a2-850": synthetic_summary(catalog, "atlas_a2", "8.5.0", grain=128, outcomes={FREE_CASE: "FAIL"}),
        "a3-800": synthetic_summary(catalog, "atlas_a3", "8.0.0"),
        "a3-rc3": synthetic_summary(catalog, "atlas_a3", "8.0.RC3"),
    }
    # The second A2 machine disagrees with the first about one observation of its column.
    runs["a2-830-n2"]["rules"]["HM-ALIGN-LIVE"]["cases"][
        next(iter(runs["a2-830-n2"]["rules"]["HM-ALIGN-LIVE"]["cases"]))]["observations"]["grain"]["value"] = 4096
    root = tmp_path / "shared"
    for name, summary in runs.items():
        write_run(root / name, summary, bundle=name != "a3-rc3")  # one plain report directory
    return root


def test_columns_cells_and_drift_against_the_previous_version(tmp_path, catalog):
    matrix = build_matrix(read_runs([fleet(tmp_path, catalog)]), [f["id"] for f in catalog["families"]])
    assert [c.key for c in matrix.columns] == ["atlas_a3@8.0.RC3", "atlas_a3@8.0.0", "atlas_a2@8.3.0",
                                               "atlas_a2@8.5.0"]
    assert len(matrix.columns[2].sources) == 2 and len(matrix.rows) == len(catalog["rules"])
    free = matrix.cells["HM-PAIR-DOUBLE-FREE"]
    assert (free["atlas_a2@8.5.0"].outcome, free["atlas_a2@8.5.0"].previous) == ("FAIL", "PASS")
    assert free["atlas_a2@8.3.0"].previous is None and free["atlas_a3@8.0.RC3"].previous is None
    drift = matrix.cells["HM-ALIGN-MALLOC"]["atlas_a2@8.5.0"].drift
    assert {(d.case_id, d.baseline, d.candidate, d.provenance) for d in drift if d.case_id == GRAIN_CASE} == {
        (GRAIN_CASE, 64, 128, "unspecified")}
    grain_rules = {r["id"] for r in catalog["rules"] if any(o["name"] == "grain" for o in r["observations"])}
    assert grain_rules == {"HM-ALIGN-MALLOC", "HM-ALIGN-MALLOC-CFG", "HM-ALIGN-LIVE", "HM-ALIGN-MALLOC-FALLBACK",
                           "HM-CFG-DEVICE-ID-MATCHING", "HM-CFG-MULTI-ATTR", "HM-CFG-DUPLICATE-ATTR"}
    assert {rule for rule, _key in matrix.drift_cells} == grain_rules
    assert {key for _rule, key in matrix.drift_cells} == {"atlas_a2@8.5.0"}  # A3 kept its grain
    assert matrix.cells["HM-ALIGN-LIVE"]["atlas_a2@8.3.0"].variances == 1
    assert matrix.excluded == []


def test_the_cli_writes_json_markdown_and_html_and_filters_rows(tmp_path, catalog, capsys):
    out = tmp_path / "matrix"
    rules = "HM-ALIGN-*,HM-PAIR-DOUBLE-F*"
    assert cli_main(["merge", str(fleet(tmp_path, catalog)), "--out", str(out), "--rules", rules]) == 0
    assert "5 runs -> 4 columns x 5 rules, 4 drift cells, 0 excluded" in capsys.readouterr().out
    data = read_json(out / "matrix.json")
    assert data["schema"] == "acl-conformance-fleet/1"
    assert [r["rule"] for r in data["rows"]] == ["HM-ALIGN-MALLOC", "HM-ALIGN-MALLOC-CFG", "HM-ALIGN-LIVE",
                                                 "HM-ALIGN-MALLOC-FALLBACK", "HM-PAIR-DOUBLE-FREE"]
    assert data["cells"]["HM-PAIR-DOUBLE-FREE"]["atlas_a2@8.5.0"] == {
        "outcome": "FAIL", "previous_outcome": "PASS", "drift": [], "variances": 0, "outside_contract": None}
    markdown = (out / "matrix.md").read_text()
    assert "| rule | atlas_a3 8.0.RC3 | atlas_a3 8.0.0 | atlas_a2 8.3.0 | atlas_a2 8.5.0 |" in markdown
    assert "| HM-ALIGN-LIVE | PASS | PASS | PASS ~1 | PASS Δ" in markdown
    assert "| HM-PAIR-DOUBLE-FREE | PASS | PASS | PASS | FAIL (was PASS) |" in markdown
    assert f"  - {GRAIN_CASE} grain (unspecified): 64 → 128" in markdown
    page = (out / "matrix.html").read_text()
    assert page.count('class="PASS drift"') == 4 and "http" not in page.split("</style>")[1]


def test_a_tampered_bundle_is_named_and_excluded(tmp_path, catalog, capsys):
    root = fleet(tmp_path, catalog)
    forged = tmp_path / "forged"
    shutil.copytree(root / "a2-850", forged)
    text = (forged / "summary.json").read_text().replace('"FAIL"', '"PASS"')
    (forged / "summary.json").write_text(text)
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "summary.json").write_text("{not json")
    out = tmp_path / "m"
    assert cli_main(["merge", str(root), str(forged), str(broken), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"merge: excluded {forged}: tampered bundle: summary.json: checksum mismatch" in err
    assert f"merge: excluded {broken}: unreadable" in err
    data = read_json(out / "matrix.json")
    assert {e["source"] for e in data["excluded"]} == {str(forged), str(broken)}
    assert all(str(forged) not in c["runs"] for c in data["columns"])
    assert data["cells"]["HM-PAIR-DOUBLE-FREE"]["atlas_a2@8.5.0"]["outcome"] == "FAIL"  # the forgery changed nothing
    assert "tampered bundle" in (out / "matrix.md").read_text()


def test_a_folder_of_node_folders_of_bundles_is_searched_at_any_depth(tmp_path, catalog):
    # The shared storage of the Kubernetes example: /results/bundles/<node>/<bundle>/.
    for node, version in (("npu-1", "8.3.0"), ("npu-2", "8.5.0")):
        write_run(tmp_path / "bundles" / node / f"atlas_a2-{version}-20261129T080000Z",
                  synthetic_summary(catalog, "atlas_a2", version))
    (tmp_path / "bundles" / "npu-3" / ".staging-20261129T080000Z-7").mkdir(parents=True)  # a run in progress
    matrix = build_matrix(read_runs([tmp_path / "bundles"]))
    assert [c.key for c in matrix.columns] == ["atlas_a2@8.3.0", "atlas_a2@8.5.0"] and not matrix.excluded


def test_nothing_to_merge_exits_2(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert cli_main(["merge", str(empty), "--out", str(tmp_path / "m")]) == 2
    assert "no input could be merged" in capsys.readouterr().err


def test_the_bench_fleet_is_a_valid_input(tmp_path, catalog):
    paths = make_fleet(tmp_path, 21, catalog)
    matrix = build_matrix(read_runs(paths), [f["id"] for f in catalog["families"]])
    assert len(matrix.columns) == 21 and not matrix.excluded  # 7 families x 3 versions
    grain_rules = sum(1 for r in catalog["rules"] if any(o["name"] == "grain" for o in r["observations"]))
    assert len(matrix.drift_cells) == 7 * 2 * grain_rules  # the grain flips on the 2nd and 3rd version of each family


def test_a_cell_says_when_the_rule_was_outside_its_column_contract(tmp_path, catalog):
    """A run judged against 8.5.0 has the capability query outside its contract: its cells say so."""
    old = synthetic_summary(catalog, "atlas_a2", "8.5.0")
    old["environment"]["cann_release"] = "8.5.0"
    for case in old["rules"]["HM-CAP-STABLE"]["cases"].values():
        case.update(outcome="NOT_APPLICABLE",
                    message="NOT_APPLICABLE: HM-CAP-STABLE is in the contract from CANN 9.0.0 on; "
                            "this run is judged against 8.5.0")
    old["rules"]["HM-CAP-STABLE"]["outcome"] = "NOT_APPLICABLE"
    new = synthetic_summary(catalog, "atlas_a2", "9.1.0")
    new["environment"]["cann_release"] = "9.1.0"
    root = tmp_path / "shared"
    write_run(root / "a2-850", old)
    write_run(root / "a2-910", new)
    matrix = build_matrix(read_runs([root]), [f["id"] for f in catalog["families"]])
    cell = matrix.cells["HM-CAP-STABLE"]["atlas_a2@8.5.0"]
    assert (cell.outside, cell.release) == (len(old["rules"]["HM-CAP-STABLE"]["cases"]), "8.5.0")
    assert cell.to_json()["outside_contract"] == {"cases": cell.outside, "release": "8.5.0"}
    assert matrix.cells["HM-CAP-STABLE"]["atlas_a2@9.1.0"].outside == 0
    assert cell_text(cell).endswith(" ⊄8.5.0"), cell_text(cell)
    assert "⊄R: outside the contract" in render_markdown(matrix)


def test_a_column_is_named_after_the_contract_its_runs_were_judged_against(catalog, tmp_path):
    """A 9.2.0 library judged against 8.5.0 never sits in a 9.2.0 column (issue 31 item 7)."""
    old_contract = synthetic_summary(catalog, "atlas_a2", "9.2.0")
    old_contract["environment"]["cann_release"] = "8.5.0"
    own = synthetic_summary(catalog, "atlas_a2", "9.2.0")
    own["environment"]["cann_release"] = "9.2.0"
    root = tmp_path / "shared"
    write_run(root / "judged-850", old_contract)
    write_run(root / "judged-920", own)
    matrix = build_matrix(read_runs([root]), [f["id"] for f in catalog["families"]])
    assert [c.key for c in matrix.columns] == ["atlas_a2@8.5.0/9.2.0", "atlas_a2@9.2.0"]
    assert [c.title for c in matrix.columns] == ["atlas_a2 CANN 8.5.0 contract (library 9.2.0)", "atlas_a2 9.2.0"]
    assert "| rule | atlas_a2 CANN 8.5.0 contract (library 9.2.0) | atlas_a2 9.2.0 |" in render_markdown(matrix)
