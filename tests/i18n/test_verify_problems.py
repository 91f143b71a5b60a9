"""``verify`` says what is wrong with a bundle in the chosen language; the English lines stay as they were."""

from __future__ import annotations

import json
import re

from bundle_helpers import reseal, write_fake_bundle

from conformance.cli import main as cli_main

CJK = re.compile(r"[\u4e00-\u9fff]")


def _forged(tmp_path, make_summary):
    """A bundle whose summary.json claims another verdict, resealed (checksums agree) and then edited once
    more without resealing (they do not)."""
    bundle = write_fake_bundle(tmp_path, make_summary())
    summary = json.loads((bundle / "summary.json").read_text(encoding="utf-8"))
    summary["verdict"] = "FAIL" if summary["verdict"] == "PASS" else "PASS"
    (bundle / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    reseal(bundle)
    (bundle / "junit.xml").write_text("<testsuites>changed</testsuites>\n", encoding="utf-8")
    return bundle


def _verify(argv, capsys) -> list[str]:
    assert cli_main(["verify", *argv]) == 1
    return capsys.readouterr().out.splitlines()


def test_a_tampered_bundle_is_described_in_chinese_under_zh(tmp_path, make_summary, capsys):
    bundle = _forged(tmp_path, make_summary)
    lines = _verify([str(bundle), "--lang", "zh"], capsys)
    assert "junit.xml：校验和不一致" in lines
    assert any(line.startswith("summary.json：结论 ") and "不能由各结果得出" in line for line in lines), lines
    untranslated = [line for line in lines if not CJK.search(line)]
    assert not untranslated, untranslated


def test_a_tampered_bundle_is_described_as_before_under_en(tmp_path, make_summary, capsys):
    bundle = _forged(tmp_path, make_summary)
    lines = _verify([str(bundle), "--lang", "en"], capsys)
    assert "junit.xml: checksum mismatch" in lines
    assert any(re.fullmatch(r"summary\.json: verdict \w+ does not follow from the outcomes \(\w+\)", line)
               for line in lines), lines
    assert not any(CJK.search(line) for line in lines)


def test_a_missing_bundle_is_one_line_in_either_language(tmp_path, capsys):
    missing = tmp_path / "nowhere"
    assert _verify([str(missing), "--lang", "zh"], capsys) == [f"{missing}：不是目录"]
    assert _verify([str(missing), "--lang", "en"], capsys) == [f"{missing}: not a directory"]


def _key_pair(where):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    public = where / "trusted.pem"
    public.write_bytes(key.public_key().public_bytes(serialization.Encoding.PEM,
                                                     serialization.PublicFormat.SubjectPublicKeyInfo))
    return key, public


def test_a_signature_by_another_key_and_an_unusable_key_are_said_in_chinese(tmp_path, make_summary, capsys):
    (tmp_path / "other").mkdir()
    _signing, trusted = _key_pair(tmp_path)
    other, _public = _key_pair(tmp_path / "other")
    bundle = write_fake_bundle(tmp_path / "made", make_summary(), key=other)
    lines = _verify([str(bundle), "--trust", str(trusted), "--lang", "zh"], capsys)
    assert len(lines) == 1 and lines[0].startswith("manifest.sig：由密钥 ") and "而不是由受信任的密钥" in lines[0]
    junk = tmp_path / "junk.pem"
    junk.write_text("not a key\n", encoding="utf-8")
    assert cli_main(["verify", str(bundle), "--trust", str(junk), "--lang", "zh"]) == 2
    assert capsys.readouterr().err.startswith(f"verify: {junk}：不是 PEM 公钥：")


def test_gate_refuses_a_tampered_candidate_in_chinese(tmp_path, make_summary, capsys):
    base = write_fake_bundle(tmp_path / "base", make_summary())
    cand = _forged(tmp_path / "cand", make_summary)
    assert cli_main(["gate", str(base), str(cand), "--lang", "zh", "--json", str(tmp_path / "g.json")]) == 2
    said = capsys.readouterr().err.strip()
    assert said.startswith(f"gate: 候选 {cand}: 认证包已被篡改：") and "\n" not in said, said
