"""Ed25519 signatures of certification bundles (the ``cryptography`` package; no crypto of our own).

``certify --sign KEY`` signs ``manifest.json``, which lists the SHA-256 of every other
evidence file of the bundle (``files``); the signature goes to ``manifest.sig``.
``verify --trust PUBKEY`` checks the signature with the trusted public key, and the
manifest's file list against the bundle. Keys are PEM files, as
``openssl genpkey -algorithm ed25519`` and ``openssl pkey -pubout`` write them.

What a signature proves: the manifest, and through its hashes every file of the bundle, is
exactly what the holder of the private key signed. What it does not prove: that the
signer ran the suite honestly, on the library it names, with an unmodified kit.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import cast

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ..i18n import N_, _
from . import untrusted
from .integrity import SIGNATURE as SIGNATURE  # defined with the checks that leave it out of the manifest
from .untrusted import JSONObject

ALGORITHM = "Ed25519"


class KeyFileError(ValueError):
    """A key file that is not a usable Ed25519 key (the message names the file)."""


def _read_pem(path: Path) -> bytes:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise KeyFileError(_("{path}: cannot read the key: {why}").format(path=path, why=exc.strerror or exc)) from None
    if len(data) > 64 * 1024:
        raise KeyFileError(_("{path}: not a PEM key file (too large)").format(path=path))
    return data


def _load_key(path: Path, parse: Callable[[bytes], object], kind: type, unparsed: str) -> object:
    """The key of type ``kind`` that ``parse`` reads from the PEM file at ``path``; KeyFileError otherwise
    (``unparsed``, a message with ``{path}`` and ``{why}``, when ``parse`` refuses the file)."""
    try:
        key = parse(_read_pem(path))
    except (ValueError, TypeError) as exc:
        raise KeyFileError(_(unparsed).format(path=path, why=exc)) from None
    if not isinstance(key, kind):
        raise KeyFileError(_("{path}: not an Ed25519 key ({kind})").format(path=path, kind=type(key).__name__))
    return key


def load_private_key(path: Path) -> Ed25519PrivateKey:
    """The Ed25519 private key in a PEM file (unencrypted PKCS#8)."""
    return cast(Ed25519PrivateKey, _load_key(path, lambda pem: serialization.load_pem_private_key(pem, password=None),
                                             Ed25519PrivateKey,
                                             N_("{path}: not an unencrypted PEM private key: {why}")))


def load_public_key(path: Path) -> Ed25519PublicKey:
    """The Ed25519 public key in a PEM file."""
    return cast(Ed25519PublicKey, _load_key(path, serialization.load_pem_public_key, Ed25519PublicKey,
                                            N_("{path}: not a PEM public key: {why}")))


def fingerprint(key: Ed25519PublicKey) -> str:
    """SHA-256 of the raw public key, hex: how a signature names its key."""
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()


def sign_manifest(bundle: Path, key: Ed25519PrivateKey) -> Path:
    """Write ``manifest.sig`` for the bundle's manifest.json; returns its path."""
    message = (bundle / "manifest.json").read_bytes()
    record = {
        "algorithm": ALGORITHM,
        "key_sha256": fingerprint(key.public_key()),
        "signature": base64.b64encode(key.sign(message)).decode("ascii"),
    }
    target = bundle / SIGNATURE
    target.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return target


def _record(bundle: Path) -> tuple[JSONObject | None, str]:
    path = bundle / SIGNATURE
    if not untrusted.present(path):
        return None, _("{file}: missing: the bundle is not signed").format(file=SIGNATURE)
    try:  # a signature record is a few hundred bytes: a larger file is no record
        record = untrusted.loads_json(untrusted.read_bytes(path, root=bundle, limit=64 * 1024), path)
    except untrusted.UntrustedFileError as exc:
        return None, _("{file}: unreadable: {reason}").format(file=SIGNATURE, reason=exc.reason)
    if not isinstance(record, dict) or record.get("algorithm") != ALGORITHM or not isinstance(
        record.get("signature"), str
    ):
        return None, _("{file}: not an {algorithm} signature record").format(file=SIGNATURE, algorithm=ALGORITHM)
    return record, ""


def check_signature(bundle: Path, trusted: Ed25519PublicKey) -> list[str]:
    """Problems with the bundle's signature under the trusted key (empty: the manifest is what the key signed)."""
    record, problem = _record(bundle)
    if record is None:
        return [problem]
    encoded = record["signature"]
    assert isinstance(encoded, str), "_record checked that the signature is a string"
    try:
        signature = base64.b64decode(encoded, validate=True)
    except ValueError:
        return [_("{file}: the signature is not base64").format(file=SIGNATURE)]
    want = fingerprint(trusted)
    if record.get("key_sha256") != want:
        return [_("{file}: signed by key {key}, not by the trusted key {trusted}").format(
            file=SIGNATURE, key=record.get("key_sha256"), trusted=want)]
    try:
        trusted.verify(signature, untrusted.read_bytes(bundle / "manifest.json", root=bundle))
    except InvalidSignature:
        return [_("{file}: the signature does not match manifest.json (edited after signing, or forged)").format(
            file=SIGNATURE)]
    except untrusted.UntrustedFileError as exc:
        return [_("{file}: unreadable: {reason}").format(file="manifest.json", reason=exc.reason)]
    return []


def signer(bundle: Path) -> str | None:
    """The key fingerprint a bundle says it is signed with (unchecked), or None when unsigned."""
    record, _problem = _record(bundle)
    return str(record.get("key_sha256")) if record else None
