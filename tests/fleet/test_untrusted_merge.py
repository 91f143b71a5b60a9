"""Issue 19: merge takes every input as untrusted (findings F3 and F7 of the red-team round).

- F3: a bundle whose summary.json was edited and SHA256SUMS rewritten with the kit's own
  ``write_sums`` merged as a clean column; the manifest's digests now exclude it, and with
  ``--trust`` only bundles signed by that key are merged;
- F7: one hostile input (a link to /dev/zero, a FIFO, JSON nested 200,000 levels deep, an
  integer of 5,000 digits, a summary of the wrong shape) aborted or hung the whole merge; now
  each is excluded and named in one line and the matrix of the others is still written. The
  merge runs in a child process with a timeout and a memory cap, so that the old behaviour
  fails the test instead of hanging or exhausting the machine.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
from pathlib import Path

from conftest import ROOT, read_json
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fleet_synthetic import synthetic_summary, write_run
from kit_runs import KIT

from conformance.certify.bundle import write_sums
from conformance.cli import main as cli_main
from conformance.results.signing import sign_manifest

FREE_CASE = "HM-PAIR-DOUBLE-FREE[free=free]"
MEMORY_CAP = 2 << 30  # ample for merge, small enough that reading /dev/zero fails at once


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def merge_in_child(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m conformance merge ARGS`` with a timeout and a memory cap."""
    return subprocess.run([*KIT, "merge", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=30, preexec_fn=_capped, env={**os.environ, "PYTHONPATH": str(ROOT)})


def _forge(bundle: Path) -> None:
    """Flip the failing case to PASS and rewrite SHA256SUMS, as anyone can; the manifest is left as it was."""
    summary = read_json(bundle / "summary.json")
    rule = summary["rules"]["HM-PAIR-DOUBLE-FREE"]
    rule["cases"][FREE_CASE]["outcome"] = rule["outcome"] = "PASS"
    (bundle / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    write_sums(bundle)


def test_a_bundle_with_an_edited_summary_and_rewritten_sums_is_excluded(tmp_path, catalog, capsys):
    good = write_run(tmp_path / "in" / "a2-830", synthetic_summary(catalog, "atlas_a2", "8.3.0"))
    forged = write_run(tmp_path / "in" / "a2-850", synthetic_summary(catalog, "atlas_a2", "8.5.0",
                                                                      outcomes={FREE_CASE: "FAIL"}))
    _forge(forged)
    out = tmp_path / "m"
    assert cli_main(["merge", str(tmp_path / "in"), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert (f"merge: excluded {forged}: tampered bundle: summary.json: differs from the sha256 manifest.json "
            "lists") in err
    data = read_json(out / "matrix.json")
    assert [c["key"] for c in data["columns"]] == ["atlas_a2@8.3.0"] and data["columns"][0]["runs"] == [str(good)]
    assert [e["source"] for e in data["excluded"]] == [str(forged)]


def test_with_trust_only_bundles_signed_by_the_key_are_merged(tmp_path, catalog, capsys):
    key = Ed25519PrivateKey.generate()
    public = tmp_path / "trusted.pem"
    public.write_bytes(key.public_key().public_bytes(serialization.Encoding.PEM,
                                                     serialization.PublicFormat.SubjectPublicKeyInfo))
    signed = write_run(tmp_path / "in" / "signed", synthetic_summary(catalog, "atlas_a2", "8.3.0"))
    sign_manifest(signed, key)
    write_sums(signed)
    unsigned = write_run(tmp_path / "in" / "unsigned", synthetic_summary(catalog, "atlas_a2", "8.5.0"))
    plain = write_run(tmp_path / "in" / "plain", synthetic_summary(catalog, "atlas_a3", "8.0.0"), bundle=False)
    out = tmp_path / "m"
    assert cli_main(["merge", str(tmp_path / "in"), "--out", str(out), "--trust", str(public)]) == 1
    err = capsys.readouterr().err
    assert f"merge: excluded {unsigned}: tampered bundle: manifest.sig: missing: the bundle is not signed" in err
    assert f"merge: excluded {plain}: not a bundle: it carries no signature to check" in err
    assert [c["key"] for c in read_json(out / "matrix.json")["columns"]] == ["atlas_a2@8.3.0"]
    assert cli_main(["merge", str(signed), "--out", str(out), "--trust", str(tmp_path / "missing.pem")]) == 2


def test_hostile_inputs_are_each_excluded_in_one_line_and_the_others_still_merge(tmp_path, catalog):
    root = tmp_path / "in"
    good = [write_run(root / "a2-830", synthetic_summary(catalog, "atlas_a2", "8.3.0")),
            write_run(root / "a3-800", synthetic_summary(catalog, "atlas_a3", "8.0.0"), bundle=False)]
    secret = tmp_path / "id_ed25519"
    secret.write_text("TOP-SECRET-KEY-MATERIAL-19\n", encoding="utf-8")
    hostile: dict[str, tuple[Path, str]] = {}

    def plain(name: str) -> Path:
        folder = root / name
        folder.mkdir(parents=True)
        return folder

    run = plain("dev-zero")
    (run / "summary.json").symlink_to("/dev/zero")
    hostile["dev-zero"] = (run, "unreadable: ")
    run = plain("fifo")
    os.mkfifo(run / "summary.json")
    hostile["fifo"] = (run, "is a FIFO, not a regular file")
    run = plain("secret-link")
    (run / "summary.json").symlink_to(secret)
    hostile["secret-link"] = (run, "is a symbolic link (not followed)")
    run = plain("deep")
    (run / "summary.json").write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    hostile["deep"] = (run, "JSON nested deeper than 128 levels")
    run = plain("huge-int")
    (run / "summary.json").write_text('{"rules": {}, "verdict": 1' + "0" * 5000 + "}", encoding="utf-8")
    hostile["huge-int"] = (run, "JSON holding a number of 5001 characters")
    run = plain("wrong-shape")
    wrong = synthetic_summary(catalog, "atlas_a2", "8.5.0")
    wrong["rules"]["HM-PAIR-DOUBLE-FREE"] = "not a rule"
    (run / "summary.json").write_text(json.dumps(wrong), encoding="utf-8")
    hostile["wrong-shape"] = (run, "not a summary.json of a conformance run")
    run = plain("wrong-observations")
    wrong = synthetic_summary(catalog, "atlas_a2", "8.5.0")
    wrong["rules"]["HM-PAIR-DOUBLE-FREE"]["cases"][FREE_CASE]["observations"] = ["not", "a", "mapping"]
    (run / "summary.json").write_text(json.dumps(wrong), encoding="utf-8")
    good.append(run)  # observations that are no mapping are passed over, never a traceback of the whole merge
    bundle = write_run(root / "linked-bundle", synthetic_summary(catalog, "atlas_a2", "8.5.0"))
    (bundle / "summary.json").unlink()
    (bundle / "summary.json").symlink_to(secret)
    write_sums(bundle)  # SHA256SUMS computed through the link
    hostile["linked-bundle"] = (bundle, "tampered bundle: summary.json: is a symbolic link (not followed)")

    out = tmp_path / "m"
    done = merge_in_child(str(root), "--out", str(out))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "TOP-SECRET" not in done.stdout + done.stderr, done.stderr
    lines = done.stderr.splitlines()
    for name, (source, said) in hostile.items():
        named = [line for line in lines if line.startswith(f"merge: excluded {source}: ")]
        assert len(named) == 1 and said in named[0], (name, done.stderr)
    data = read_json(out / "matrix.json")
    assert sorted(run for c in data["columns"] for run in c["runs"]) == sorted(map(str, good))
    assert {e["source"] for e in data["excluded"]} == {str(source) for source, _ in hostile.values()}
