"""A bundle names what the kit decided and records the kit that judged (issues 34.3, 34.5, 31.7)."""

from __future__ import annotations

import datetime
import json
import os
import subprocess
from pathlib import Path

from kit_runs import KIT

from conformance.certify.runner import bundle_name
from conformance.harness.resources import load_catalog

ROOT = Path(__file__).resolve().parents[2]
CREATED = datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)


def env(family: str, reported: str, judged: str) -> dict[str, object]:
    return {"product_family": family, "cann_version": reported,
            "release": {"name": judged, "reported": reported, "source": "override"}}


def test_the_name_is_the_family_the_release_judged_against_and_the_time():
    name = bundle_name(env("atlas_a2", "9.2.0-aclsim", "8.5.0"), load_catalog(), CREATED)
    assert name == "atlas_a2-8.5.0-20260102T030405Z"  # judged against 8.5.0, whatever the library reports


def test_a_library_string_never_reaches_the_name():
    hostile = env("atlas_a2", "9.2.0 Verdict: CERTIFIED", "Verdict: CERTIFIED/../x")
    assert bundle_name(hostile, load_catalog(), CREATED) == "atlas_a2-unknown-20260102T030405Z"
    assert bundle_name(env("../evil", "9.2.0", "9.1.0"), load_catalog(), CREATED) == "unknown-9.1.0-20260102T030405Z"
    # A version no release of the catalog is named (there is no 9.2.0 release), even when it looks like one.
    unknown = bundle_name(env("atlas_a2", "9.2.0", "9.2.0"), load_catalog(), CREATED)
    assert unknown == "atlas_a2-unknown-20260102T030405Z"
    snapshot = bundle_name(env("atlas_a2", "9.2.0", "master@681ef7610"), load_catalog(), CREATED)
    assert snapshot == "atlas_a2-master_681ef7610-20260102T030405Z"


def test_a_version_string_holding_a_verdict_names_no_bundle(tmp_path):
    """Issue 34's last row, end to end: the simulator reports a version string that holds a verdict."""
    run_env = {k: v for k, v in os.environ.items() if not k.startswith(("ACL_", "ACLSIM_"))}
    run_env["ACLSIM_CANN_VERSION"] = "9.2.0 Verdict: CERTIFIED"
    done = subprocess.run([*KIT, "certify", "--out-dir", str(tmp_path), "-n", "2",
                           "--no-html", "--", "-k", "DOUBLE_UNREGISTER"], cwd=ROOT, env=run_env,
                          capture_output=True, text=True, timeout=300)
    (bundle,) = [p for p in tmp_path.iterdir() if not p.name.startswith(".")]
    assert bundle.name.startswith("atlas_a2-master_681ef7610-") and "Verdict" not in bundle.name, done.stderr[-2000:]
    summary = json.loads((bundle / "summary.json").read_text())
    assert summary["environment"]["cann_version"] == "9.2.0 Verdict: CERTIFIED"  # kept, inert, as evidence



def test_verify_names_a_kit_file_that_differed_on_the_certifying_machine(tmp_path, make_summary):
    """Issue 34.3: a catalog (or any file of the kit) changed where the bundle was made fails verify, no --catalog."""
    from bundle_helpers import reseal, write_fake_bundle

    from conformance.certify.verify import verify

    bundle = write_fake_bundle(tmp_path, make_summary())
    assert not [p for p in verify(bundle) if "kit" in p]  # the kit that packaged it is this verifier's
    manifest = json.loads((bundle / "manifest.json").read_text())
    manifest["kit_files"]["acl_hostmem_generated/catalog.json"] = "0" * 64
    (bundle / "manifest.json").write_text(json.dumps(manifest))
    reseal(bundle)
    assert [p for p in verify(bundle) if "kit" in p] == [
        "kit file acl_hostmem_generated/catalog.json that judged differs from this verifier's kit of the same version"]
    del manifest["kit_files"]
    (bundle / "manifest.json").write_text(json.dumps(manifest))
    reseal(bundle)
    assert "manifest.json: no digests of the kit's files that judged (kit_files)" in verify(bundle)
