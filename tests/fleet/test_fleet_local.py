"""A fleet simulated locally: seven product families x two CANN versions, run in parallel and merged.

Each run is a separate process with its own ACLSIM_SOC and ACLSIM_CANN_VERSION; the first
version carries ACLSIM_HOST_ALIGN=64, the second the simulator's default grain, which follows
the product's driver: 4 KiB steps under the svm v2 and v3 drivers (Atlas A2, A3, Ascend 950),
64 bytes where the docs-only model runs. A change of an unspecified behaviour (the allocator's
grain) that the matrix must show as drift exactly on the driver products where the alignment
rules apply. To keep 14 runs cheap on two cores, each is one pytest process with the plugin
(no xdist worker, no Allure) over a few rules (``-k``); the page is opened in headless Chromium.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import finish_all, read_json, start_run

from conformance.cli import main as cli_main
from conformance.results.html import find_chromium

# Two builds of one release (a patch release is judged by its minor release's contract), so that
# what differs between the columns is behaviour the contract leaves open, not the contract.
VERSIONS = {"9.2.0": {"ACLSIM_HOST_ALIGN": "64"}, "9.2.1": {}}
#: The columns' names: both versions are newer than every numbered release the spec knows (there is no 9.2.0
#: release), so both are judged against the master snapshot's contract, their library versions beside it.
SNAPSHOT = "master@681ef7610"
COLUMNS = {"9.2.0": f"{SNAPSHOT}/9.2.0", "9.2.1": f"{SNAPSHOT}/9.2.1"}
SELECT = ["-k", "test_HM_ALIGN_MALLOC or test_HM_CAP_QUERY_ALL or test_HM_PROD_SUPPORT"]
ROWS = "HM-ALIGN-MALLOC,HM-ALIGN-MALLOC-CFG,HM-CAP-QUERY-ALL,HM-PROD-SUPPORT"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def fleet(tmp_path_factory, catalog) -> Path:
    root = tmp_path_factory.mktemp("fleet")
    procs = [start_run(root / f"{family['id']}-{version}", {"ACLSIM_SOC": family["sample_soc"],
                                                            "ACLSIM_CANN_VERSION": version, **extra}, *SELECT,
                       light=True)
             for family in catalog["families"] for version, extra in VERSIONS.items()]
    finish_all(procs)
    return root


def dump_dom(page: Path, profile: Path) -> str:
    """The DOM of ``page`` after its scripts ran, from headless Chromium with no network features."""
    chromium = find_chromium()
    if chromium is None:
        pytest.fail("chromium is not installed (.ci/run installs the Debian package `chromium`)")
    done = subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--dump-dom", page.as_uri()],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and "</html>" in done.stdout, done.stderr[-2000:]
    return done.stdout


def test_the_fleet_matrix_has_14_columns_and_marks_the_drift(fleet, catalog, tmp_path):
    out = tmp_path / "matrix"
    assert cli_main(["merge", str(fleet), "--out", str(out), "--rules", ROWS]) == 0
    data = read_json(out / "matrix.json")
    families = [f["id"] for f in catalog["families"]]
    assert [c["key"] for c in data["columns"]] == [f"{f}@{COLUMNS[v]}" for f in families for v in VERSIONS]
    # Drift exactly where the alignment rules ran (not on products where they are NOT_APPLICABLE)
    # on a product whose driver allocates in pages; the docs-only products keep 64 bytes.
    driver = {f["id"]: f["driver"] for f in catalog["families"]}
    aligned = {(rule, key) for rule in ("HM-ALIGN-MALLOC", "HM-ALIGN-MALLOC-CFG")
               for key, cell in data["cells"][rule].items()
               if key.endswith(f"@{SNAPSHOT}/9.2.1") and cell["outcome"] == "PASS"
               and driver[key.partition("@")[0]] != "none"}
    assert {key.partition("@")[0] for _, key in aligned} == {"ascend_950", "atlas_a3", "atlas_a2"}
    assert len(aligned) == 6 and {(d["rule"], d["column"]) for d in data["drift_cells"]} == aligned
    docs_only = [key for key, cell in data["cells"]["HM-ALIGN-MALLOC"].items()
                 if driver[key.partition("@")[0]] == "none" and cell["outcome"] == "PASS"]
    assert len(docs_only) == 6 and not any(data["cells"]["HM-ALIGN-MALLOC"][key].get("drift") for key in docs_only)
    for rule, count in (("HM-ALIGN-MALLOC", 8), ("HM-ALIGN-MALLOC-CFG", 16)):  # the cases below a megabyte
        for family in ("ascend_950", "atlas_a3", "atlas_a2"):
            cell = data["cells"][rule][f"{family}@{SNAPSHOT}/9.2.1"]
            assert cell["outcome"] == "PASS" and len(cell["drift"]) == count, (rule, family, cell["drift"])
            assert {(d["observation"], d["baseline"], d["candidate"]) for d in cell["drift"]} == {("grain", 64, 4096)}
    assert all(c["outcome"] != "ERROR" for row in data["cells"].values() for c in row.values())
    dom = dump_dom(out / "matrix.html", tmp_path / "chromium-profile")
    assert dom.count("<th data-column=") == 14
    assert dom.count('class="PASS drift"') == len(data["drift_cells"]) > 0
    assert f'data-drift-cells="{len(data["drift_cells"])}"' in dom  # the page's own script ran, offline
    assert "4 of 4 rules shown" in dom


def test_a_tampered_bundle_of_the_fleet_is_excluded(fleet, tmp_path, capsys):
    from conformance.certify.bundle import file_digests, write_sums

    bundle = tmp_path / "bundle"
    shutil.copytree(fleet / "atlas_a2-9.2.1", bundle)
    # Sealed as certify seals a bundle: the manifest's digests, then SHA256SUMS (merge checks both).
    files = file_digests(bundle, frozenset({"manifest.json"}))
    (bundle / "manifest.json").write_text(json.dumps({"files": files}), encoding="utf-8")
    write_sums(bundle)
    assert cli_main(["merge", str(fleet), str(bundle), "--out", str(tmp_path / "ok"), "--rules", ROWS]) == 0
    summary = bundle / "summary.json"
    summary.write_text(summary.read_text().replace('"outcome": "PASS"', '"outcome": "FAIL"', 1))
    assert cli_main(["merge", str(fleet), str(bundle), "--out", str(tmp_path / "m"), "--rules", ROWS]) == 1
    assert f"excluded {bundle}: tampered bundle: summary.json: checksum mismatch" in capsys.readouterr().err
    assert len(read_json(tmp_path / "m" / "matrix.json")["columns"]) == 14
