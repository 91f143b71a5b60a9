"""The integrity of a certification bundle on disk: SHA256SUMS, the manifest's file digests, the signature.

A bundle (see :mod:`conformance.certify.bundle` for its layout) lists the SHA-256 of every
file but itself in SHA256SUMS, and the SHA-256 of every evidence file in manifest.json
(``files``), which ``manifest.sig`` signs. Anyone can regenerate SHA256SUMS after an edit; the
manifest's digests then disagree, unless the manifest is rewritten too, which changes what a
signature covers. These checks are what every reader of a bundle applies before it uses one:
``verify``, ``gate``, ``merge`` and ``certify --baseline``. They sit in the results stage so
that the gate, which may not import the certification stage, applies them as well; checking
the signature itself (Ed25519) is :mod:`conformance.results.signing`'s, passed in as a function.

Every file is read as an untrusted one (:mod:`.untrusted`): a link, FIFO, device, oversized
or too deeply nested file is a problem, never followed, waited on or a traceback.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

from ..i18n import _
from . import untrusted
from .untrusted import JSONObject, JSONValue

SUMS = "SHA256SUMS"
MANIFEST = "manifest.json"
SIGNATURE = "manifest.sig"


def bundle_files(bundle: Path) -> list[str]:
    """Every file under ``bundle`` except SHA256SUMS, as sorted POSIX relative paths.

    Links (to files or folders, never followed), FIFOs and devices are listed too, so that the
    checks name them instead of passing over them; only real folders are entered.
    """
    found = []
    for folder, subfolders, files in os.walk(bundle):  # never enters a linked folder
        entries = files + [name for name in subfolders if os.path.islink(os.path.join(folder, name))]
        found += [Path(folder, name).relative_to(bundle).as_posix() for name in entries]
    return sorted(path for path in found if path != SUMS)


def is_bundle(path: Path) -> bool:
    """Whether ``path`` is (or claims to be) a certification bundle: a folder with SHA256SUMS or manifest.json.

    Either file is enough, in any form (a link too): a bundle stripped of one is still checked as one.
    """
    path = Path(path)
    return path.is_dir() and (untrusted.present(path / SUMS) or untrusted.present(path / MANIFEST))


def bundle_of(run: Path) -> Path | None:
    """The bundle a run given as a folder or as a summary.json belongs to, or None when it is in none.

    A summary.json named directly inside a bundle is that bundle's: reading it alone must not
    skip the bundle's checks.
    """
    run = Path(run)
    if is_bundle(run):
        return run
    return run.parent if run.name == "summary.json" and not run.is_dir() and is_bundle(run.parent) else None


def check_sums(bundle: Path, digests: dict[str, str | None] | None = None) -> list[str]:
    """Problems with SHA256SUMS: unreadable lines, missing, changed or unlisted files.

    Every file is hashed as an untrusted one (a link, FIFO, device or oversized file is a problem);
    ``digests``, when given, receives each file's SHA-256 (None when refused) for the checks after.
    """
    sums = bundle / SUMS
    if not untrusted.present(sums):
        return [_("{file}: missing").format(file=SUMS)]
    try:
        text = untrusted.read_text(sums, root=bundle, errors="replace")
    except untrusted.UntrustedFileError as exc:
        return [f"{SUMS}: {exc.reason}"]
    problems: list[str] = []
    listed: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        digest, sep, rel = line.partition("  ")
        if not sep or len(digest) != 64 or not rel:
            problems.append(_("{file}:{line}: malformed line").format(file=SUMS, line=number))
        elif rel in listed:
            problems.append(_("{file}:{line}: {path} listed twice").format(file=SUMS, line=number, path=rel))
        else:
            listed[rel] = digest.lower()
    present = set(bundle_files(bundle))
    for rel, digest in sorted(listed.items()):
        if rel not in present:
            problems.append(_("{path}: listed in {file} but missing").format(path=rel, file=SUMS))
            continue
        try:
            actual: str | None = untrusted.sha256(bundle / rel, root=bundle)
        except untrusted.UntrustedFileError as exc:  # a link, a FIFO, a device, too large
            problems.append(f"{rel}: {exc.reason}")
            actual = None
        if digests is not None:
            digests[rel] = actual
        if actual is not None and actual != digest:
            problems.append(_("{path}: checksum mismatch").format(path=rel))
    problems += [_("{path}: not listed in {file} (extra file)").format(path=rel, file=SUMS)
                 for rel in sorted(present - set(listed))]
    return problems


def load_json_strict(path: Path, problems: list[str], root: Path | None = None) -> JSONObject | None:
    """Load a JSON object, appending duplicate keys (which plain JSON overwrites) to ``problems``.

    The file is read as an untrusted one (:mod:`conformance.results.untrusted`), inside ``root``
    (by default its own folder): a link, FIFO, device, oversized or too deeply nested file is a problem.
    """

    def hook(pairs: list[tuple[str, JSONValue]]) -> JSONObject:
        seen: JSONObject = {}
        for key, value in pairs:
            if key in seen:
                problems.append(_("{file}: duplicate key {key}").format(file=path.name, key=repr(key)))
            seen[key] = value
        return seen

    try:
        data = untrusted.read_json(path, root=path.parent if root is None else root, object_pairs_hook=hook)
    except untrusted.UntrustedFileError as exc:
        problems.append(_("{file}: unreadable: {reason}").format(file=path.name, reason=exc.reason))
        return None
    if not isinstance(data, dict):
        problems.append(_("{file}: not a JSON object").format(file=path.name))
        return None
    return data


def _sha256(bundle: Path, rel: str) -> str | None:
    """SHA-256 of a file of the bundle read as an untrusted one; None when it is refused or unreadable."""
    try:
        return untrusted.sha256(bundle / rel, root=bundle)
    except untrusted.UntrustedFileError:
        return None


def check_manifest_files(bundle: Path, manifest: Mapping[str, object],
                         digests: dict[str, str | None] | None = None) -> list[str]:
    """The manifest's ``files`` (what a signature covers) match the bundle exactly (``digests``: SHA-256
    already computed by :func:`check_sums`, by relative path)."""
    listed = manifest["files"]
    assert isinstance(listed, dict), "the caller checks that the manifest's files are an object"
    present = {rel for rel in bundle_files(bundle) if rel not in (MANIFEST, SIGNATURE)}
    problems = [_("{path}: not listed in {file} (extra file)").format(path=rel, file="manifest.json")
                for rel in sorted(present - set(listed))]
    problems += [_("{path}: listed in {file} but missing").format(path=rel, file="manifest.json")
                 for rel in sorted(set(listed) - present)]
    for rel in sorted(present & set(listed)):
        if (digests[rel] if digests is not None and rel in digests else _sha256(bundle, rel)) != listed[rel]:
            problems.append(_("{path}: differs from the sha256 manifest.json lists").format(path=rel))
    return problems


def load_member(bundle: Path, name: str, problems: list[str]) -> JSONObject | None:
    """A JSON object file of the bundle, read as an untrusted one; None (with a problem) when it is there but
    refused or not an object, None (without one) when nothing is there."""
    path = bundle / name
    return load_json_strict(path, problems, root=bundle) if untrusted.present(path) else None


def check_integrity(bundle: Path, signature_check: Callable[[Path], list[str]] | None = None) -> list[str]:
    """Problems with a bundle's integrity alone: SHA256SUMS and the manifest's ``files``, and the problems
    ``signature_check`` (e.g. :func:`conformance.results.signing.check_signature` with a trusted key) finds.

    A bundle that passes may still fail the rest of :func:`conformance.certify.verify.verify`.
    """
    bundle = Path(bundle)
    if not bundle.is_dir():
        return [_("{bundle}: not a directory").format(bundle=bundle)]
    digests: dict[str, str | None] = {}
    problems = check_sums(bundle, digests)
    manifest = load_member(bundle, MANIFEST, problems)
    if not untrusted.present(bundle / MANIFEST):
        problems.append(_("{path}: missing (bundle incomplete)").format(path=MANIFEST))
    elif manifest is not None and not isinstance(manifest.get("files"), dict):
        problems.append(_("{file}: 'files' is not a JSON object").format(file=MANIFEST))
    elif manifest is not None:
        problems += check_manifest_files(bundle, manifest, digests)
    if signature_check is not None:
        problems += signature_check(bundle)
    return problems


def integrity_problem(problems: list[str]) -> str | None:
    """The problems of :func:`check_integrity` as one line (``tampered bundle: FIRST (and N more)``), or None."""
    if not problems:
        return None
    more = _(" (and {count} more)").format(count=len(problems) - 1) if len(problems) > 1 else ""
    return _("tampered bundle: {problem}{more}").format(problem=problems[0], more=more)


