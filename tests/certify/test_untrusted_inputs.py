"""Issue 19: every input a run reads is untrusted (findings F2, F3 and F7 of the red-team round).

- F7: a FIFO, a link to /dev/zero, JSON nested 200,000 levels deep or an integer of 5,000 digits
  in a bundle made ``verify`` hang, grow without bound or print a traceback; now each is one
  named problem within seconds (each ``verify`` runs in a child process with a timeout and a
  memory cap, so that the old behaviour fails the test instead of hanging or swapping);
- F2: a ``--baseline`` whose history is a link to a private key leaked the key into the new
  bundle; now certify refuses the baseline before anything runs and the key never shows;
- F3: a bundle whose summary.json was edited and SHA256SUMS rewritten passed ``gate``; now the
  manifest's digests refuse it.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from bundle_helpers import FAKE_LIB, FAULTED_RULE, REPO, build_summary, first_case, write_fake_bundle
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from kit_runs import KIT

from conformance.certify.bundle import write_sums
from conformance.certify.runner import baseline_problem
from conformance.certify.verify import check_integrity, signature_checker
from conformance.cli import main as cli_main
from conformance.gate.compare import CompareError, compare
from conformance.results import untrusted
from conformance.results.history import carry_history
from conformance.results.signing import load_public_key

SECRET = "-----BEGIN PRIVATE KEY-----\nTOP-SECRET-KEY-MATERIAL-19\n-----END PRIVATE KEY-----\n"
#: The most a child ``verify`` may take; an honest one takes well under a second.
QUICK_S = 8.0
#: Address space of a child ``verify``: ample for the kit, small enough that reading /dev/zero fails at once.
MEMORY_CAP = 2 << 30


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run_cli(*args: str) -> tuple[int, str, float]:
    """``python -m conformance ARGS`` in a child with a timeout and a memory cap: (status, output, seconds)."""
    started = time.monotonic()
    try:
        done = subprocess.run([*KIT, *args], cwd=REPO, capture_output=True,
                              text=True, timeout=QUICK_S * 2, preexec_fn=_capped,
                              env={**os.environ, "PYTHONPATH": str(REPO)})
    except subprocess.TimeoutExpired:
        pytest.fail(f"{' '.join(args)} hung (no answer within {QUICK_S * 2} s)")
    return done.returncode, done.stdout + done.stderr, time.monotonic() - started


@pytest.fixture(scope="module")
def made(tmp_path_factory, catalog) -> dict[str, Path]:
    """Honest synthetic bundles, made once: all PASS, one FAIL, all PASS signed (and the public key)."""
    root = tmp_path_factory.mktemp("made")
    key = Ed25519PrivateKey.generate()
    public = root / "trusted.pem"
    public.write_bytes(key.public_key().public_bytes(serialization.Encoding.PEM,
                                                     serialization.PublicFormat.SubjectPublicKeyInfo))
    bundles = {
        "pass": write_fake_bundle(root / "pass", build_summary(catalog)),
        "fail": write_fake_bundle(root / "fail", build_summary(catalog, {first_case(catalog, FAULTED_RULE): "FAIL"})),
        "signed": write_fake_bundle(root / "signed", build_summary(catalog), key=key),
    }
    assert all(check_integrity(b) == [] for b in bundles.values())
    return {**bundles, "public": public}


def copy(made: dict[str, Path], which: str, where: Path) -> Path:
    """A copy of one of the bundles made once, to spoil."""
    return Path(shutil.copytree(made[which], where / made[which].name, symlinks=True))


@pytest.fixture
def bundle(tmp_path, made) -> Path:
    """A copy of the honest all-PASS bundle."""
    return copy(made, "pass", tmp_path / "copy")


def _first_result(bundle: Path) -> Path:
    return sorted((bundle / "allure-results").glob("*-result.json"))[0]


def _fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _dev_zero(path: Path) -> None:
    path.unlink()
    path.symlink_to("/dev/zero")


def _deep(path: Path) -> None:
    path.write_text('{"schema": ' + "[" * 200_000 + "]" * 200_000 + "}", encoding="utf-8")


def _huge_int(path: Path) -> None:
    path.write_text('{"name": "x", "start": 1' + "0" * 5000 + "}", encoding="utf-8")


ATTACKS = {
    # name: (file of the bundle, how it is made hostile, what the problem line says)
    "fifo-certificate": ("certificate.md", _fifo, "certificate.md: is a FIFO, not a regular file"),
    "fifo-result": ("result", _fifo, "is a FIFO, not a regular file"),
    "dev-zero-result": ("result", _dev_zero, "is a symbolic link (not followed)"),
    "deep-summary": ("summary.json", _deep, "summary.json: unreadable: JSON nested deeper than 128 levels"),
    "deep-result": ("result", _deep, "unreadable: JSON nested deeper than 128 levels"),
    "huge-int-result": ("result", _huge_int, "unreadable: JSON holding a number of 5001 characters"),
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_a_hostile_file_is_one_named_problem_of_verify_within_seconds(bundle, attack):
    name, make, said = ATTACKS[attack]
    target = _first_result(bundle) if name == "result" else bundle / name
    make(target)
    status, output, took = run_cli("verify", str(bundle))
    assert status == 1, output
    assert "Traceback" not in output and took < QUICK_S, output
    rel = target.relative_to(bundle).as_posix()
    assert any(line.startswith(rel) and said in line for line in output.splitlines()), output


def test_a_link_out_of_the_bundle_is_never_hashed_or_read(bundle, tmp_path):
    secret = tmp_path / "id_ed25519"
    secret.write_text(SECRET, encoding="utf-8")
    (bundle / "junit.xml").unlink()
    (bundle / "junit.xml").symlink_to(secret)
    write_sums(bundle)  # the forger's SHA256SUMS, computed through the link
    problems = check_integrity(bundle)
    assert "junit.xml: is a symbolic link (not followed)" in problems
    assert not any("TOP-SECRET" in p for p in problems)


# ----------------------------------------------------------------------------- the reader itself


def test_the_reader_refuses_links_anywhere_in_the_path_and_paths_out_of_the_input(tmp_path):
    root, outside = tmp_path / "input", tmp_path / "outside"
    (root / "real").mkdir(parents=True)
    outside.mkdir()
    (outside / "key").write_text(SECRET, encoding="utf-8")
    (root / "real" / "ok.json").write_text('{"a": [1, "]]]]"]}', encoding="utf-8")
    (root / "linked").symlink_to(outside)
    assert untrusted.read_json(root / "real" / "ok.json", root=root) == {"a": [1, "]]]]"]}
    with pytest.raises(untrusted.UntrustedFileError, match=r"linked/key: linked is a symbolic link"):
        untrusted.read_bytes(root / "linked" / "key", root=root)
    with pytest.raises(untrusted.UntrustedFileError, match="not a file inside"):
        untrusted.read_bytes(root / ".." / "outside" / "key", root=root)
    with pytest.raises(untrusted.UntrustedFileError, match="is 18 bytes, more than the 4 accepted"):
        untrusted.read_bytes(root / "real" / "ok.json", root=root, limit=4)
    os.mkfifo(root / "real" / "x\nverified")
    with pytest.raises(untrusted.UntrustedFileError) as refused:  # a name cannot add a line of its own
        untrusted.read_bytes(root / "real" / "x\nverified", root=root)
    assert "\n" not in str(refused.value) and str(refused.value).endswith("x\\nverified: is a FIFO, not a regular file")


def test_json_caps_count_nesting_outside_strings_and_long_numbers():
    assert untrusted.json_depth('{"a": "[[[[{{{{", "b": [[1]]}') == 3
    assert untrusted.loads_json("[" * 128 + "]" * 128, "x.json") is not None
    with pytest.raises(untrusted.UntrustedFileError, match="x.json: JSON nested deeper than 128 levels"):
        untrusted.loads_json("[" * 129 + "]" * 129, "x.json")
    with pytest.raises(untrusted.UntrustedFileError, match="a number of 101 characters"):
        untrusted.loads_json("[" + "1" * 101 + "]", "x.json")
    with pytest.raises(untrusted.UntrustedFileError, match="x.json: not valid JSON: Expecting"):
        untrusted.loads_json("{not json", "x.json")


# ----------------------------------------------------------------------------- F2: a hostile --baseline


def _baseline_with_linked_history(tmp_path: Path, bundle: Path) -> Path:
    secret = tmp_path / "id_ed25519"
    secret.write_text(SECRET, encoding="utf-8")
    (bundle / "history.jsonl").unlink()
    (bundle / "history.jsonl").symlink_to(secret)
    write_sums(bundle)  # SHA256SUMS rewritten through the link: only refusing links finds it
    return bundle


def test_certify_refuses_a_baseline_whose_history_links_to_a_private_key(tmp_path, bundle, capsys):
    baseline = _baseline_with_linked_history(tmp_path, bundle)
    out = tmp_path / "certs"
    status = cli_main(["certify", "--acl-lib", str(FAKE_LIB), "--baseline", str(baseline), "--out-dir", str(out)])
    captured = capsys.readouterr()
    assert status == 2
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"certify: --baseline {baseline} does not verify"), captured.err
    assert "history.jsonl: is a symbolic link (not followed)" in lines[0]
    assert "TOP-SECRET" not in captured.out + captured.err
    assert not out.exists()  # refused before anything ran or was written


def test_history_is_never_carried_through_a_link(tmp_path, bundle):
    baseline = _baseline_with_linked_history(tmp_path, bundle)
    target = tmp_path / "staging"
    with pytest.raises(untrusted.UntrustedFileError, match="history.jsonl: is a symbolic link"):
        carry_history(baseline, target)
    assert not (target / "history.jsonl").exists()
    # Allure 2 history: a linked folder, or a link inside it, refuses the whole copy.
    report = tmp_path / "plain"
    (report / "allure-report").mkdir(parents=True)
    (report / "allure-report" / "history").symlink_to(tmp_path)
    assert "history is a symbolic link" in str(baseline_problem(report))
    (report / "allure-report" / "history").unlink()
    (report / "allure-report" / "history").mkdir()
    (report / "allure-report" / "history" / "history-trend.json").symlink_to(tmp_path / "id_ed25519")
    with pytest.raises(untrusted.UntrustedFileError, match="history-trend.json: is a symbolic link"):
        carry_history(report, tmp_path / "staging2")
    assert not (tmp_path / "staging2" / "allure-results").exists()


def test_a_baseline_must_verify_and_with_trust_be_signed_by_the_key(tmp_path, bundle, made):
    assert baseline_problem(bundle) is None
    trusted = load_public_key(made["public"])
    assert "manifest.sig: missing: the bundle is not signed" in str(baseline_problem(bundle, trusted))
    signed = copy(made, "signed", tmp_path)
    assert baseline_problem(signed, trusted) is None
    summary = signed / "summary.json"
    summary.write_text(summary.read_text(encoding="utf-8").replace('"PASS"', '"FAIL"', 1), encoding="utf-8")
    write_sums(signed)
    assert "summary.json: differs from the sha256 manifest.json lists" in str(baseline_problem(signed))


# ----------------------------------------------------------------------------- F3 and F7: gate


def _forged(bundle: Path, case: str) -> Path:
    """A forger's edit: a failing case flipped to PASS, SHA256SUMS rewritten with the kit's own write_sums."""
    data = json.loads((bundle / "summary.json").read_text(encoding="utf-8"))
    for rule in data["rules"].values():
        if case in rule["cases"]:
            rule["cases"][case].update(outcome="PASS", category=None)
            rule["outcome"] = "PASS"
    data["verdict"] = "PASS"
    (bundle / "summary.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    write_sums(bundle)
    return bundle


def test_gate_refuses_a_bundle_with_an_edited_summary_and_rewritten_sums(tmp_path, catalog, made, capsys):
    base = made["pass"]
    cand = _forged(copy(made, "fail", tmp_path), first_case(catalog, FAULTED_RULE))
    assert cli_main(["gate", str(base), str(cand), "--json", str(tmp_path / "g.json"),
                     "--markdown", str(tmp_path / "g.md")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"gate: candidate {cand}: tampered bundle: summary.json: differs from the sha256 manifest.json "
                   "lists"], err
    assert not (tmp_path / "g.json").exists()
    with pytest.raises(CompareError, match="tampered bundle"):  # its summary.json named alone: the same bundle
        compare(base, cand / "summary.json")


def test_gate_checks_the_signature_with_a_trusted_key(tmp_path, made):
    check = signature_checker(load_public_key(made["public"]))
    base, cand = made["signed"], made["pass"]
    assert compare(base, base, signature_check=check).regressed_rules == []
    with pytest.raises(CompareError, match=r"candidate .*: tampered bundle: manifest.sig: missing"):
        compare(base, cand, signature_check=check)
    plain = tmp_path / "plain"
    plain.mkdir()
    shutil.copy(cand / "summary.json", plain / "summary.json")
    with pytest.raises(CompareError, match="not a bundle: it carries no signature"):
        compare(base, plain, signature_check=check)


@pytest.mark.parametrize("make", [_deep, _huge_int], ids=["deep", "huge-int"])
def test_gate_names_a_hostile_plain_summary_in_one_line(tmp_path, make_summary, make, capsys):
    base, cand = tmp_path / "base", tmp_path / "cand"
    for run in (base, cand):
        run.mkdir()
        (run / "summary.json").write_text(json.dumps(make_summary()), encoding="utf-8")
    make(cand / "summary.json")
    assert cli_main(["gate", str(base), str(cand), "--json", str(tmp_path / "g.json"),
                     "--markdown", str(tmp_path / "g.md")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"gate: candidate: {cand / 'summary.json'}: "), err


def test_gate_trust_on_the_command_line(tmp_path, made, capsys):
    out = ["--json", str(tmp_path / "g.json"), "--markdown", str(tmp_path / "g.md")]
    signed, unsigned = str(made["signed"]), str(made["pass"])
    assert cli_main(["gate", signed, signed, "--trust", str(made["public"]), *out]) == 0
    assert cli_main(["gate", signed, unsigned, "--trust", str(made["public"]), *out]) == 2
    assert "manifest.sig: missing" in capsys.readouterr().err
    assert cli_main(["gate", signed, signed, "--trust", str(tmp_path / "no-key.pem"), *out]) == 2
    assert "cannot read the key" in capsys.readouterr().err
