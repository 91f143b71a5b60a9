"""Certification bundles on disk: SHA256SUMS and the checks of ``verify``.

A bundle is a directory holding allure-results/, allure-report/, junit.xml, summary.json,
manifest.json, certificate.md, certificate.html and SHA256SUMS, which lists the SHA-256 of
every other file in ``sha256sum`` format (``HEX  PATH``), sorted by path.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..harness.resources import catalog_path
from ..results.environment import sha256_file
from ..results.summary import load_json, summary_verdict
from .certificate import verdict_in_html, verdict_in_markdown
from .observations import check_observations
from .verdict import OUTCOMES, aggregate, assess

SUMS = "SHA256SUMS"
REQUIRED = (
    "summary.json",
    "manifest.json",
    "certificate.md",
    "certificate.html",
    "junit.xml",
    "allure-report/index.html",
)
REQUIRED_DIRS = ("allure-results",)
HTML_INDEX = "allure-report/index.html"
DEFAULT_CATALOG = catalog_path()


def bundle_files(bundle: Path) -> list[str]:
    """Every regular file under ``bundle`` except SHA256SUMS, as sorted POSIX relative paths."""
    found = [p.relative_to(bundle).as_posix() for p in bundle.rglob("*") if p.is_file() or p.is_symlink()]
    return sorted(path for path in found if path != SUMS)


def write_sums(bundle: Path) -> Path:
    """Write SHA256SUMS over every other file of the bundle; returns its path."""
    lines = [f"{sha256_file(bundle / rel)}  {rel}\n" for rel in bundle_files(bundle)]
    target = bundle / SUMS
    target.write_text("".join(lines), encoding="utf-8")
    return target


def check_sums(bundle: Path) -> list[str]:
    """Problems with SHA256SUMS: unreadable lines, missing, changed or unlisted files."""
    sums = bundle / SUMS
    if not sums.is_file():
        return [f"{SUMS}: missing"]
    problems: list[str] = []
    listed: dict[str, str] = {}
    for number, line in enumerate(sums.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        digest, sep, rel = line.partition("  ")
        if not sep or len(digest) != 64 or not rel:
            problems.append(f"{SUMS}:{number}: malformed line")
        elif rel in listed:
            problems.append(f"{SUMS}:{number}: {rel} listed twice")
        else:
            listed[rel] = digest.lower()
    present = set(bundle_files(bundle))
    for rel, digest in sorted(listed.items()):
        path = bundle / rel
        if rel not in present:
            problems.append(f"{rel}: listed in {SUMS} but missing")
        elif path.is_symlink():
            problems.append(f"{rel}: is a symbolic link")
        elif sha256_file(path) != digest:
            problems.append(f"{rel}: checksum mismatch")
    problems += [f"{rel}: not listed in {SUMS} (extra file)" for rel in sorted(present - set(listed))]
    return problems


def load_json_strict(path: Path, problems: list[str]) -> dict[str, Any] | None:
    """Load a JSON object, appending duplicate keys (which plain JSON overwrites) to ``problems``."""

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key, value in pairs:
            if key in seen:
                problems.append(f"{path.name}: duplicate key {key!r}")
            seen[key] = value
        return seen

    try:
        data = json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=hook)
    except (OSError, ValueError) as exc:
        problems.append(f"{path.name}: unreadable: {exc}")
        return None
    if not isinstance(data, dict):
        problems.append(f"{path.name}: not a JSON object")
        return None
    return data


def check_cases(summary: dict[str, Any], catalog: dict[str, Any]) -> list[str]:
    """Completeness and identity: every catalog rule and case has an outcome, nothing unknown or doubled."""
    problems: list[str] = []
    known = {str(r["id"]): [str(c["case_id"]) for c in r.get("cases", [])] for r in catalog.get("rules", [])}
    rules = summary.get("rules") or {}
    owner: dict[str, str] = {}
    for rule_id, rule in sorted(rules.items()):
        if rule_id not in known:
            problems.append(f"summary.json: unknown rule {rule_id} (not in the catalog)")
            continue
        cases = rule.get("cases") or {}
        for case_id, case in sorted(cases.items()):
            if case_id in owner:
                problems.append(f"summary.json: duplicate case {case_id} (under {owner[case_id]} and {rule_id})")
            owner[case_id] = rule_id
            if case_id not in known[rule_id]:
                problems.append(f"summary.json: unknown case {case_id} for rule {rule_id}")
            if not isinstance(case, dict) or case.get("outcome") not in OUTCOMES:
                problems.append(f"summary.json: case {case_id} has no valid outcome")
    for rule_id, rule in sorted(rules.items()):
        derived = aggregate([str(c.get("outcome")) for c in (rule.get("cases") or {}).values() if isinstance(c, dict)])
        if derived is not None and rule.get("outcome") != derived:
            problems.append(
                f"summary.json: rule {rule_id} outcome {rule.get('outcome')} does not follow from its cases ({derived})"
            )
    if (summary.get("selection") or {}).get("partial"):
        return problems  # a run of selected cases says so; it lists only those (and is never certified)
    for rule_id, case_ids in known.items():
        rule = rules.get(rule_id)
        if rule is None or rule.get("outcome") not in OUTCOMES:
            problems.append(f"summary.json: rule {rule_id} has no outcome (incomplete run)")
            continue
        for case_id in case_ids:
            if case_id not in (rule.get("cases") or {}):
                problems.append(f"summary.json: case {case_id} of rule {rule_id} has no outcome")
    return problems


def check_verdicts(
    bundle: Path, summary: dict[str, Any], manifest: dict[str, Any], catalog: dict[str, Any]
) -> list[str]:
    """The verdicts written in the bundle agree with the ones recomputed from the outcomes."""
    problems = []
    expected = assess(summary, catalog).verdict
    written = {
        "certificate.md": verdict_in_markdown(_text(bundle / "certificate.md")),
        "certificate.html": verdict_in_html(_text(bundle / "certificate.html")),
        "manifest.json": manifest.get("verdict"),
    }
    for name, verdict in written.items():
        if verdict is None:
            problems.append(f"{name}: no verdict found")
        elif verdict != expected:
            problems.append(f"{name}: verdict {verdict} does not follow from the outcomes ({expected})")
    derived = summary_verdict(summary)
    if summary.get("verdict") != derived:
        problems.append(f"summary.json: verdict {summary.get('verdict')} does not follow from the outcomes ({derived})")
    return problems


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def html_expected(manifest: dict[str, Any] | None) -> bool:
    """Whether the bundle must hold the HTML report: unless its manifest records that none was rendered.

    (A kit installed without Node.js writes the Allure results only; the checksums cover what is there.)
    """
    html = (manifest or {}).get("html_report")
    return not (isinstance(html, dict) and html.get("rendered") is False)


def verify(bundle: Path, catalog_path: Path = DEFAULT_CATALOG) -> list[str]:
    """Every problem of a certification bundle, one line each; an empty list means it verifies."""
    bundle = Path(bundle)
    if not bundle.is_dir():
        return [f"{bundle}: not a directory"]
    problems = check_sums(bundle)
    summary = load_json_strict(bundle / "summary.json", problems) if (bundle / "summary.json").is_file() else None
    manifest = load_json_strict(bundle / "manifest.json", problems) if (bundle / "manifest.json").is_file() else None
    required = [rel for rel in REQUIRED if rel != HTML_INDEX or html_expected(manifest)]
    problems += [f"{rel}: missing (bundle incomplete)" for rel in required if not (bundle / rel).is_file()]
    problems += [f"{rel}/: missing (bundle incomplete)" for rel in REQUIRED_DIRS if not (bundle / rel).is_dir()]
    if summary is None or manifest is None:
        return problems
    try:
        catalog = load_json(catalog_path)
    except ValueError as exc:
        return problems + [str(exc)]
    spec_hash = manifest.get("spec_hash")
    if summary.get("spec_hash") != spec_hash:
        problems.append(f"summary.json: spec hash {summary.get('spec_hash')} differs from the manifest's {spec_hash}")
    if catalog.get("spec_hash") != spec_hash:
        problems.append(
            f"completeness not verifiable: the bundle was made with spec {spec_hash}, the catalog "
            f"{catalog_path} is of spec {catalog.get('spec_hash')}; check out the spec of {spec_hash} "
            "(or pass --catalog) and verify again"
        )
        return problems
    problems += check_cases(summary, catalog)
    problems += check_observations(summary, catalog)
    problems += check_verdicts(bundle, summary, manifest, catalog)
    return problems
