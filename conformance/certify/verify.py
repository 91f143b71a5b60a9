"""``verify``: recompute what a certification bundle claims instead of trusting it.

A bundle verifies when every check below finds nothing; each problem is one line that
names the file and the inconsistency:

- integrity: SHA256SUMS and the manifest's own file list match the bundle byte for byte,
  and with ``--trust PUBKEY`` the manifest carries a valid Ed25519 signature by that key
  (:func:`check_integrity`, which ``merge``, ``gate`` and ``certify --baseline`` apply too);
- safety: every file is read as an untrusted one (:mod:`conformance.results.untrusted`): a
  link, FIFO, device, oversized file or too deeply nested JSON is a problem, never followed,
  waited on or a traceback;
- shape: summary.json and manifest.json are what the kit writes (no traceback on junk);
- completeness: every rule and case of the spec the bundle names has one outcome;
- severities: the summary's severities and families are the spec catalog's (pinned by
  the spec hash), and the verdicts are recomputed with the catalog's;
- facts: library path and sha256, SoC, family, CANN, kernel, host ... agree between the
  manifest, the summary and the certificate;
- waivers: a WAIVED or XPASS case carries an entry of an expectations file that is inside
  the bundle, listed in the manifest with its sha256, and covers that case;
- evidence: the Allure results agree with the summary case for case;
- verdicts: the machine-readable and the visible verdict of each certificate, the
  manifest's and the summary's follow from the outcomes.

What verification cannot show: that the run itself was honest. A signature binds the
bundle to its signer; see :mod:`conformance.results.signing`.
"""

from __future__ import annotations

import hashlib
import html
from collections.abc import Callable, Mapping, Sized
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from acl_hostmem_generated.catalog_types import Catalog

from ..harness.release import ReleaseError, judge_release, outside_contract, outside_reason
from ..harness.untrusted_text import markdown_text
from ..i18n import _
from ..results import integrity, untrusted
from ..results.environment import suite_version
from ..results.expectations import ExpectationError, load_expectations
from ..results.integrity import check_manifest_files, check_sums, load_member
from ..results.outcomes import UNWAIVABLE
from ..results.rootcause import root_causes
from ..results.signing import check_signature
from ..results.summary import env_family, load_catalog_file, summary_problem, summary_verdict
from ..results.untrusted import as_list, as_object
from .bundle import DEFAULT_CATALOG, HTML_INDEX, REQUIRED, REQUIRED_DIRS
from .certificate import (
    fact_lines_html,
    fact_lines_markdown,
    facts,
    languages_in_html,
    languages_in_markdown,
    reason_line,
    verdict_heading,
    verdict_in_html,
    verdict_in_markdown,
    visible_verdicts_html,
    visible_verdicts_markdown,
)
from .evidence import check_allure
from .kitfiles import kit_problems
from .manifest import SCHEMA as MANIFEST_SCHEMA
from .observations import check_observations
from .runlog import check_run_log
from .verdict import OUTCOMES, aggregate, assess

#: Fields of a waiver that identify its expectation entry (``where`` is the file it came from).
WAIVER_FIELDS = ("rule", "case", "families", "soc", "cann", "reason", "tracking", "expires", "accepted")


def html_expected(manifest: Mapping[str, object] | None) -> bool:
    """Whether the bundle must hold the HTML report: unless its manifest records that none was rendered.

    (A kit installed without Node.js writes the Allure results only; the checksums cover what is there.)
    """
    html = (manifest or {}).get("html_report")
    return not (isinstance(html, dict) and html.get("rendered") is False)


def manifest_problem(manifest: object) -> str | None:
    """Why ``manifest`` is not structurally a manifest.json of this kit (one line), or None."""
    if not isinstance(manifest, dict):
        return _("not a JSON object")
    if manifest.get("schema") != MANIFEST_SCHEMA:
        return _("not a certification manifest (schema is {schema})").format(
            schema=repr(str(manifest.get("schema"))[:60]))
    for key, kind in (("library", dict), ("environment", dict), ("expectations", list), ("files", dict)):
        if not isinstance(manifest.get(key), kind):
            return (_("{key} is not a JSON object") if kind is dict else _("{key} is not a JSON array")).format(
                key=repr(key))
    return None


def _rules(summary: Mapping[str, object]) -> dict[str, Mapping[str, object]]:
    """The summary's rules by ID (``summary_problem`` checked that ``rules`` is an object of objects)."""
    return {rule_id: as_object(rule) for rule_id, rule in as_object(summary.get("rules")).items()}


def check_cases(summary: Mapping[str, object], catalog: Catalog) -> list[str]:
    """Completeness and identity: every catalog rule and case has an outcome, nothing unknown or doubled."""
    problems: list[str] = []
    known = {str(r["id"]): [str(c["case_id"]) for c in r.get("cases", [])] for r in catalog.get("rules", [])}
    rules = _rules(summary)
    owner: dict[str, str] = {}
    for rule_id, rule in sorted(rules.items()):
        if rule_id not in known:
            problems.append(_("summary.json: unknown rule {rule} (not in the catalog)").format(rule=rule_id))
            continue
        cases = as_object(rule.get("cases"))
        for case_id, case in sorted(cases.items()):
            if case_id in owner:
                problems.append(_("summary.json: duplicate case {case} (under {first} and {rule})").format(
                    case=case_id, first=owner[case_id], rule=rule_id))
            owner[case_id] = rule_id
            if case_id not in known[rule_id]:
                problems.append(_("summary.json: unknown case {case} for rule {rule}").format(
                    case=case_id, rule=rule_id))
            if not isinstance(case, dict) or case.get("outcome") not in OUTCOMES:
                problems.append(_("summary.json: case {case} has no valid outcome").format(case=case_id))
    for rule_id, rule in sorted(rules.items()):
        derived = aggregate([str(c.get("outcome")) for c in as_object(rule.get("cases")).values()
                             if isinstance(c, dict)])
        if derived is not None and rule.get("outcome") != derived:
            problems.append(_("summary.json: rule {rule} outcome {outcome} does not follow from its cases "
                              "({derived})").format(rule=rule_id, outcome=rule.get("outcome"), derived=derived))
    if as_object(summary.get("selection")).get("partial"):
        return problems  # a run of selected cases says so; it lists only those (and is never certified)
    for rule_id, case_ids in known.items():
        reported = rules.get(rule_id)
        if reported is None or reported.get("outcome") not in OUTCOMES:
            problems.append(_("summary.json: rule {rule} has no outcome (incomplete run)").format(rule=rule_id))
            continue
        for case_id in case_ids:
            if case_id not in as_object(reported.get("cases")):
                problems.append(_("summary.json: case {case} of rule {rule} has no outcome").format(
                    case=case_id, rule=rule_id))
    return problems


def check_blocked(summary: Mapping[str, object], catalog: Catalog) -> list[str]:
    """Every BLOCKED case names a rule it may rest on, and the root causes follow from the outcomes.

    A fixed case may be blocked only by a rule its own rule declares under ``needs`` or by a
    rule that promises one of the set-up steps (a crash, hang or failed release in a call that
    rule promises), both from the catalog, never from the summary; an explorer case only by a
    rule its finding rests on that failed on its own cases in the same run, and so must a
    fixed case's failure that rested on a rule.
    """
    problems: list[str] = []
    spec_rules = {str(r["id"]): r for r in catalog.get("rules", [])}
    promised = set((catalog.get("setup_promises") or {}).values())
    rules = _rules(summary)
    own_failures = {rid for rid, rule in rules.items()
                    if any(isinstance(c, dict) and c.get("outcome") in ("FAIL", "ERROR") and not c.get("rests_on")
                           for c in as_object(rule.get("cases")).values())}
    for rule_id, rule in sorted(rules.items()):
        spec_rule = spec_rules.get(rule_id)
        for case_id, case in sorted(as_object(rule.get("cases")).items()):
            if not isinstance(case, dict) or case.get("outcome") != "BLOCKED":
                continue
            by = case.get("blocked_by")
            if by not in spec_rules:
                problems.append(_("summary.json: case {case} is BLOCKED by {by}, which is no rule of the spec").format(
                    case=case_id, by=repr(str(by)[:80])))
            elif spec_rule is not None and spec_rule["family"] == "explorer":
                if by not in (case.get("rests_on") or []) or by not in own_failures:
                    problems.append(_("summary.json: explorer case {case} is BLOCKED by {by}, which its finding "
                                      "does not rest on or which did not fail in this run").format(case=case_id, by=by))
            elif by in (case.get("rests_on") or []):
                if by not in own_failures:
                    problems.append(_("summary.json: case {case} is BLOCKED by {by}, which its failure rests on "
                                      "but which did not fail in this run").format(case=case_id, by=by))
            elif by not in (spec_rule["needs"] if spec_rule else []) and by not in promised:
                problems.append(_("summary.json: case {case} is BLOCKED by {by}, which {rule} does not need").format(
                    case=case_id, by=by, rule=rule_id))
    if summary.get("root_causes") != root_causes(rules):
        problems.append(_("summary.json: root_causes do not follow from the case outcomes"))
    return problems


def check_release(summary: Mapping[str, object], catalog: Catalog) -> list[str]:
    """The release the run was judged against is one the spec knows, and exactly the cases outside
    its contract (from the catalog, never from the summary) are NOT_APPLICABLE for that reason."""
    env = as_object(summary.get("environment"))
    release = env.get("cann_release")
    names = [str(r["name"]) for r in catalog.get("releases") or []]
    if not names:
        return []
    if release not in names:
        return [_("summary.json: the run names the release {release}, which the spec does not know "
                  "({releases})").format(release=repr(str(release)[:40]), releases=", ".join(names))]
    assert isinstance(release, str)  # one of the names
    problems = []
    recorded = env.get("release")
    detail: Mapping[str, object] = recorded if isinstance(recorded, dict) else {}
    if detail.get("source") == "library":
        try:
            judged = judge_release(catalog, str(detail.get("reported") or ""))
        except ReleaseError:
            judged = None
        if judged is None or judged.name != release:
            problems.append(_("summary.json: the library reported {reported}, which is not judged against "
                              "{release}").format(reported=repr(str(detail.get("reported"))[:40]), release=release))
    spec_rules = {str(r["id"]): r for r in catalog.get("rules", [])}
    family = env_family(env)
    for rule_id, rule in sorted(_rules(summary).items()):
        spec_rule = spec_rules.get(rule_id)
        if spec_rule is None:
            continue
        spec_cases = {c["case_id"]: c for c in spec_rule.get("cases", [])}
        for case_id, case in sorted(as_object(rule.get("cases")).items()):
            if not isinstance(case, dict) or case_id not in spec_cases:
                continue
            outside = outside_reason(spec_rule, release, spec_cases[case_id], catalog, family) is not None
            said = case.get("outcome") == "NOT_APPLICABLE" and outside_contract(str(case.get("message") or ""))
            if outside and case.get("outcome") != "NOT_APPLICABLE":
                problems.append(_("summary.json: case {case} is outside the CANN {release} contract but was "
                                  "judged {outcome}").format(case=case_id, release=release,
                                                             outcome=case.get("outcome")))
            elif said and not outside:
                problems.append(_("summary.json: case {case} is NOT_APPLICABLE as outside the CANN {release} "
                                  "contract, which holds it").format(case=case_id, release=release))
    return problems


def check_integrity(bundle: Path, trusted: Ed25519PublicKey | None = None) -> list[str]:
    """Problems with a bundle's integrity alone (:func:`conformance.results.integrity.check_integrity`):
    SHA256SUMS, the manifest's ``files`` and, with ``trusted`` (an Ed25519 public key), the signature.

    What ``merge`` and ``certify --baseline`` check before they use a bundle (``gate`` too, without
    a key): anyone can regenerate SHA256SUMS, but not the manifest's digests without the manifest's
    own hash changing, which a signature pins.
    """
    return integrity.check_integrity(bundle, signature_checker(trusted))


def signature_checker(trusted: Ed25519PublicKey | None) -> Callable[[Path], list[str]] | None:
    """The signature check of a bundle by the Ed25519 public key ``trusted`` as a function, None without one."""
    return None if trusted is None else (lambda bundle: check_signature(bundle, trusted))


def check_severities(summary: Mapping[str, object], catalog: Catalog) -> list[str]:
    """The summary's severity and family of each rule are the spec catalog's."""
    problems = []
    spec_rules = {str(r["id"]): r for r in catalog.get("rules", [])}
    for rule_id, rule in sorted(_rules(summary).items()):
        spec_rule = spec_rules.get(rule_id)
        if spec_rule is None:
            continue
        for key in ("severity", "family"):
            if rule.get(key) != spec_rule.get(key):
                problems.append(_("summary.json: rule {rule} has {key} {value}; the spec ({spec}) says "
                                  "{expected}").format(rule=rule_id, key=key, value=repr(rule.get(key)),
                                                       spec=catalog.get("spec_hash"),
                                                       expected=repr(spec_rule.get(key))))
    return problems


def check_facts(bundle: Path, summary: Mapping[str, object], manifest: Mapping[str, object]) -> list[str]:
    """Library and environment facts agree between manifest, summary and certificate."""
    problems = []
    env = as_object(summary["environment"])  # the shapes were checked (summary_problem, manifest_problem)
    library = as_object(manifest["library"])
    manifest_env = as_object(manifest["environment"])
    if library.get("sha256") != env.get("library_sha256"):
        problems.append(_("manifest.json: library sha256 {manifest} differs from summary.json's {summary} (the "
                          "summary is of another library)").format(manifest=library.get("sha256"),
                                                                   summary=env.get("library_sha256")))
    if library.get("path") != env.get("library"):
        problems.append(_("manifest.json: library {manifest} differs from summary.json's {summary}").format(
            manifest=library.get("path"), summary=env.get("library")))
    for key, value in sorted(env.items()):
        if manifest_env.get(key) != value:
            problems.append(_("manifest.json: environment {key} {manifest} differs from summary.json's {summary}")
                            .format(key=key, manifest=repr(manifest_env.get(key)), summary=repr(value)))
    if manifest.get("spec_hash") != summary.get("spec_hash"):
        problems.append(_("summary.json: spec hash {summary} differs from the manifest's {manifest}").format(
            summary=summary.get("spec_hash"), manifest=manifest.get("spec_hash")))
    for name, read, lines_of in (("certificate.md", languages_in_markdown, fact_lines_markdown),
                                 ("certificate.html", languages_in_html, fact_lines_html)):
        text = _text(bundle / name)
        for lang in read(text):  # a bilingual certificate shows every fact in each of its languages
            problems += [_("{file}: {key} is not shown as manifest.json has it ({value})").format(
                file=name, key=key, value=value)
                         for (key, value), line in zip(facts(manifest, lang), lines_of(manifest, lang))
                         if line not in text]
    return problems


def _waiver_key(waiver: Mapping[str, object]) -> tuple[object, ...]:
    return tuple(tuple(v) if isinstance(v, list) else v for v in (waiver.get(f) for f in WAIVER_FIELDS))


def check_waivers(bundle: Path, summary: Mapping[str, object], manifest: Mapping[str, object]) -> list[str]:
    """Each WAIVED/XPASS case carries an entry of a bundled, manifest-listed expectations file that covers it."""
    problems: list[str] = []
    paths: list[Path] = []
    listed = as_list(manifest["expectations"])  # manifest_problem checked that it is an array
    for index, item in enumerate(listed):
        entry = as_object(item)
        rel = str(entry.get("path", "")) if isinstance(item, dict) else ""
        if not rel or Path(rel).is_absolute() or ".." in Path(rel).parts:
            problems.append(_("manifest.json: expectations[{index}] {path} is not a file inside the bundle").format(
                index=index, path=repr(rel)))
            continue
        try:  # read once as an untrusted file (no link, FIFO or huge file), before the YAML loader opens it
            data = untrusted.read_bytes(bundle / rel, root=bundle)
        except untrusted.UntrustedFileError as exc:
            problems.append(f"{rel}: {exc.reason}")
            continue
        if hashlib.sha256(data).hexdigest() != entry.get("sha256"):
            problems.append(_("{path}: missing, or not the file manifest.json lists (sha256 differs)").format(path=rel))
            continue
        paths.append(bundle / rel)
    files = as_object(summary.get("expectations")).get("files") or []
    used = len(files) if isinstance(files, Sized) else 0
    if used != len(listed):
        problems.append(_("manifest.json: lists {listed} expectations file(s); the run used {used}").format(
            listed=len(listed), used=used))
    entries = []
    try:
        entries = load_expectations(paths).entries if paths and not problems else []
    except ExpectationError as exc:
        problems.append(str(exc).replace(str(bundle) + "/", ""))
    known = {_waiver_key(e.to_json()): e for e in entries}
    env = as_object(summary["environment"])
    family = env_family(env) or ""
    soc, cann_version = str(env.get("soc") or ""), str(env.get("cann_version") or "")
    for rule_id, rule in sorted(as_object(summary["rules"]).items()):
        for case_id, case in sorted(as_object(as_object(rule)["cases"]).items()):
            case = as_object(case)  # summary_problem checked that every case is an object
            if case.get("outcome") not in ("WAIVED", "XPASS"):
                continue
            recorded = case.get("waiver")
            waiver = recorded if isinstance(recorded, dict) else None
            known_entry = known.get(_waiver_key(waiver)) if waiver is not None else None
            if known_entry is None:
                problems.append(_("summary.json: case {case} is {outcome} by a waiver that no expectations file of "
                                  "the bundle holds").format(case=case_id, outcome=case["outcome"]))
            elif not known_entry.applies(case_id, rule_id, family, soc, cann_version):
                problems.append(_("summary.json: case {case} is {outcome} by {entry}, which does not cover it").format(
                    case=case_id, outcome=case["outcome"], entry=known_entry.where))
            elif case["outcome"] == "WAIVED" and waiver is not None \
                    and waiver.get("waived_category") in {c.value for c in UNWAIVABLE}:
                problems.append(_("summary.json: case {case} waives a {category}, which is never waivable").format(
                    case=case_id, category=waiver.get("waived_category")))
    return problems


def _text(path: Path) -> str:
    """A text file of the bundle as an untrusted one; empty when refused (the checksums name why)."""
    try:
        return untrusted.read_text(path, root=path.parent, errors="replace")
    except untrusted.UntrustedFileError:
        return ""


def check_verdicts(
    bundle: Path, summary: Mapping[str, object], manifest: Mapping[str, object], catalog: Catalog
) -> list[str]:
    """Every verdict the bundle shows, machine-readable and visible, follows from the outcomes."""
    problems = []
    assessment = assess(summary, catalog)
    expected = assessment.verdict
    md, page = _text(bundle / "certificate.md"), _text(bundle / "certificate.html")
    written = {
        "certificate.md": verdict_in_markdown(md),
        "certificate.html": verdict_in_html(page),
        "manifest.json": manifest.get("verdict"),
    }
    for name, verdict in written.items():
        if verdict is None:
            problems.append(_("{file}: no verdict found").format(file=name))
        elif verdict != expected:
            problems.append(_("{file}: verdict {verdict} does not follow from the outcomes ({expected})").format(
                file=name, verdict=verdict, expected=expected))
    md_langs, page_langs = languages_in_markdown(md), languages_in_html(page)
    if visible_verdicts_markdown(md) != [verdict_heading(expected, lang) for lang in md_langs]:
        shown = "; ".join(visible_verdicts_markdown(md)) or _("none")
        problems.append(_("{file}: the visible verdict ({shown}) is not the verdict of the outcomes ({expected})")
                        .format(file="certificate.md", shown=shown, expected=expected))
    if visible_verdicts_html(page) != [expected] * len(page_langs):
        shown = "; ".join(visible_verdicts_html(page)) or _("none")
        problems.append(_("{file}: the visible verdict ({shown}) is not the verdict of the outcomes ({expected})")
                        .format(file="certificate.html", shown=shown, expected=expected))
    # The reason of the certificate's first language is among its first lines; each further language's is
    # the line under its own verdict heading.
    md_lines = md.splitlines()
    for index, lang in enumerate(md_langs):
        reason = reason_line(assessment, lang)
        if md and markdown_text(reason) not in (md_lines[:8] if index == 0 else md_lines):
            problems.append(_("certificate.md: the line under the verdict is not the recomputed reason ({reason})")
                            .format(reason=reason))
    for lang in page_langs:
        reason = reason_line(assessment, lang)
        if page and f'<p class="reason">{html.escape(reason)}</p>' not in page:
            problems.append(_("certificate.html: the reason under the verdict is not the recomputed one ({reason})")
                            .format(reason=reason))
    severities = {str(r["id"]): r.get("severity") for r in catalog.get("rules", [])}
    judged = {rid: dict(rule, severity=severities.get(rid, rule.get("severity")))
              for rid, rule in _rules(summary).items()}
    if summary.get("coverage") != assessment.coverage:  # recomputed from the bundle's spec by assess
        problems.append(_("summary.json: coverage {coverage} is not what the outcomes and the spec give "
                          "({expected})").format(coverage=str(summary.get("coverage"))[:200],
                                                 expected=assessment.coverage))
    derived = summary_verdict(dict(summary, rules=judged, coverage=assessment.coverage))
    if summary.get("verdict") != derived:
        problems.append(_("{file}: verdict {verdict} does not follow from the outcomes ({expected})").format(
            file="summary.json", verdict=summary.get("verdict"), expected=derived))
    return problems


def verify(bundle: Path, catalog_path: Path = DEFAULT_CATALOG, trusted: Ed25519PublicKey | None = None) -> list[str]:
    """Every problem of a certification bundle, one line each; an empty list means it verifies.

    ``trusted`` is an Ed25519 public key (:func:`~conformance.results.signing.load_public_key`):
    with it the bundle must carry a valid signature by that key.
    """
    bundle = Path(bundle)
    if not bundle.is_dir():
        return [_("{bundle}: not a directory").format(bundle=bundle)]
    problems = check_sums(bundle)
    summary = load_member(bundle, "summary.json", problems)
    manifest = load_member(bundle, "manifest.json", problems)
    required = [rel for rel in REQUIRED if rel != HTML_INDEX or html_expected(manifest)]
    problems += [_("{path}: missing (bundle incomplete)").format(path=rel)
                 for rel in required if not (bundle / rel).is_file()]
    problems += [_("{path}: missing (bundle incomplete)").format(path=rel + "/")
                 for rel in REQUIRED_DIRS if not (bundle / rel).is_dir()]
    if trusted is not None:
        problems += check_signature(bundle, trusted)
    if summary is None or manifest is None:
        return problems
    shape = [f"summary.json: {p}" for p in [summary_problem(summary)] if p]
    shape += [f"manifest.json: {p}" for p in [manifest_problem(manifest)] if p]
    if shape:
        return problems + shape
    problems += check_manifest_files(bundle, manifest)
    try:
        catalog = load_catalog_file(catalog_path)
    except ValueError as exc:
        return problems + [str(exc)]
    spec_hash = manifest.get("spec_hash")
    if catalog.get("spec_hash") != spec_hash:
        return problems + [
            _("completeness not verifiable: the bundle was made with spec {spec}, the catalog {catalog} is of spec "
              "{other}; check out the spec of {spec} (or pass --catalog) and verify again").format(
                  spec=spec_hash, catalog=catalog_path, other=catalog.get("spec_hash"))
        ]
    problems += check_facts(bundle, summary, manifest)
    problems += kit_problems(manifest, suite_version())
    problems += check_cases(summary, catalog)
    problems += check_blocked(summary, catalog)
    problems += check_release(summary, catalog)
    problems += check_severities(summary, catalog)
    problems += check_observations(summary, catalog)
    problems += check_run_log(bundle, summary, catalog)
    problems += check_waivers(bundle, summary, manifest)
    problems += check_allure(bundle, summary)
    problems += check_verdicts(bundle, summary, manifest, catalog)
    return problems

