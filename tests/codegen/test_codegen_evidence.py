"""The evidence model: provenance derived from citations, the severity policy, citation checks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from specedit import ROOT, edit, find_issue, issues, line_of, run_main

from codegen.evidence import (
    Citation,
    Sources,
    code_decides,
    code_level,
    derive_provenance,
    severity_allowed,
)
from codegen.evidence_verify import CitationVerifier, anchor_sections
from codegen.load import load_spec, read_documents

DOC = {"doc": "11-02_host_memory_management.md#aclrtMallocHost:50", "says": "64-byte aligned."}
SRC = {"src": "src/runtime/api/impl/api_impl.cc:2592-2609", "says": "The registry accepts it."}
DRV = {"drv": "src/ascend_hal/svm/v2/devmm/devmm_svm.c:304-308", "says": "The driver refuses it."}


def cite(raw: dict[str, str], stance: str | None = None) -> Citation:
    return Citation.parse({**raw, **({"stance": stance} if stance else {})})


@pytest.mark.parametrize(
    ("citations", "provenance"),
    [
        ([cite(DOC)], "documented"),
        ([cite(DOC), cite(SRC)], "documented"),
        ([cite(SRC)], "runtime-source"),
        ([cite(DOC, "silent"), cite(SRC)], "runtime-source"),
        ([cite(DOC), cite(SRC, "contradicts")], "conflict"),
        ([cite(DOC, "contradicts"), cite(SRC)], "conflict"),
        ([cite(DOC, "silent"), cite(SRC, "silent")], "unspecified"),
        ([], "unspecified"),
        # the driver source: code like the runtime source, its own provenance when it alone supports
        ([cite(DRV)], "driver-source"),
        ([cite(DOC, "silent"), cite(SRC, "silent"), cite(DRV)], "driver-source"),
        ([cite(SRC), cite(DRV)], "runtime-source"),
        ([cite(DOC), cite(DRV)], "documented"),
        ([cite(DOC), cite(DRV, "contradicts")], "conflict"),
        ([cite(DOC, "contradicts"), cite(DRV)], "conflict"),
        ([cite(DOC), cite(SRC), cite(DRV, "contradicts")], "conflict"),
        ([cite(DRV, "silent")], "unspecified"),
    ],
)
def test_provenance_is_derived_from_the_citations(citations: list[Citation], provenance: str) -> None:
    assert derive_provenance(citations) == provenance


def test_severity_caps_and_code_levels() -> None:
    assert severity_allowed("mandatory", "documented") and not severity_allowed("mandatory", "runtime-source")
    assert severity_allowed("recommended", "runtime-source") and not severity_allowed("recommended", "unspecified")
    assert severity_allowed("advisory", "conflict") and not severity_allowed("recommended", "conflict")
    assert not severity_allowed("advisory", "documented")
    assert code_level("mandatory", "documented") == "mandatory" and code_decides("mandatory", "documented")
    assert code_level("mandatory", "runtime-source") == "recommended"
    assert not code_decides("mandatory", "runtime-source")
    assert code_level("recommended", "documented") == "recommended" and code_decides("recommended", "runtime-source")
    assert code_level("mandatory", "unspecified") == "informational"
    # driver-source is recommended at most, like the runtime source
    assert severity_allowed("recommended", "driver-source") and severity_allowed("informational", "driver-source")
    assert not severity_allowed("mandatory", "driver-source") and not severity_allowed("advisory", "driver-source")
    assert code_level("mandatory", "driver-source") == "recommended" and not code_decides("mandatory", "driver-source")
    assert code_decides("recommended", "driver-source")


def test_citation_reference_and_pinned_link() -> None:
    doc, src = cite(DOC), cite(SRC)
    sources = Sources("681ef7610df13c8128982901142a2c869ddbb53e")
    assert (doc.page, doc.anchor, doc.lines) == ("11-02_host_memory_management.md", "aclrtMallocHost", "50")
    assert doc.url(sources).endswith("/681ef7610df13c8128982901142a2c869ddbb53e/docs/zh/api_ref/"
                                     "11-02_host_memory_management.md?plain=1#L50")
    assert src.ref == "src/runtime/api/impl/api_impl.cc:2592-2609" and src.url(sources).endswith("#L2592-L2609")
    with pytest.raises(ValueError):
        Citation.parse({"src": "api_impl.cc:20-10", "says": "x"})


def test_a_driver_citation_links_to_the_pinned_driver_commit() -> None:
    drv = cite(DRV, "contradicts")
    sources = Sources("681ef7610df13c8128982901142a2c869ddbb53e",
                      driver_commit="ef377e950a32b1641c108c59481e39e9643b7d63")
    assert (drv.kind, drv.side, drv.stance) == ("drv", "code", "contradicts")
    assert drv.ref == "src/ascend_hal/svm/v2/devmm/devmm_svm.c:304-308" and (drv.first, drv.last) == (304, 308)
    assert drv.url(sources) == ("https://github.com/hicann/driver/blob/ef377e950a32b1641c108c59481e39e9643b7d63/"
                                "src/ascend_hal/svm/v2/devmm/devmm_svm.c#L304-L308")
    for bad in ("devmm_svm.c", "devmm_svm.c:0", "devmm_svm.c:9-3", "11-02_host_memory_management.md#a:1 x"):
        with pytest.raises(ValueError):
            Citation.parse({"drv": bad, "says": "x"})


# ---- lint: the acceptance cases ---------------------------------------------------------


def test_lint_rejects_a_mandatory_rule_backed_only_by_the_source(spec_dir: Path) -> None:
    rules = spec_dir / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    start = text.index("  - id: HM-SYNC-MALLOC-CFG-NO-IMPLICIT\n")
    at = text.index("    severity: recommended\n", start)
    rules.write_text(text[:at] + "    severity: mandatory\n" + text[at + len("    severity: recommended\n"):],
                     encoding="utf-8")
    line = line_of(spec_dir, "rules.yaml", "id: HM-SYNC-MALLOC-CFG-NO-IMPLICIT") + 7
    find_issue(issues(spec_dir), f"spec/rules.yaml:{line}: rules[",
               ".severity: the rule is mandatory but its evidence is only runtime-source", "needs documented")


def test_lint_rejects_a_rule_without_evidence(spec_dir: Path) -> None:
    rules = spec_dir / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    start = text.index("  - id: HM-CONTENT-MEMSET\n")
    at = text.index("    evidence:\n", start)
    end = text.index("\n\n", at) + 1
    rules.write_text(text[:at] + text[end:], encoding="utf-8")
    line = line_of(spec_dir, "rules.yaml", "id: HM-CONTENT-MEMSET")
    find_issue(issues(spec_dir), f"spec/rules.yaml:{line}: rules[", ".evidence: the rule has no evidence")


def test_lint_rejects_an_error_condition_without_evidence(spec_dir: Path) -> None:
    cited = '{src: "src/acl/aclrt_impl/memory.cpp:621", says: "The acl layer refuses a NULL hostPtr."}'
    edit(spec_dir, "rules.yaml", f"        evidence: [{cited}]\n", "")
    find_issue(issues(spec_dir), "spec/rules.yaml:", ".errors[0].evidence: missing required field 'evidence'")


def test_lint_rejects_a_strict_code_weaker_than_its_rule(spec_dir: Path) -> None:
    # HM-VA-UNSUPPORTED is mandatory; its code is known only from the runtime source.
    rules = spec_dir / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    start = text.index("  - id: HM-VA-UNSUPPORTED\n")
    name = "      name: ACL_ERROR_RT_FEATURE_NOT_SUPPORT\n"
    at = text.index(name, start) + len(name)
    rules.write_text(text[:at] + "      strict: true\n" + text[at:], encoding="utf-8")
    found = find_issue(issues(spec_dir), "spec/rules.yaml:", ".code.strict: strict error code "
                       "ACL_ERROR_RT_FEATURE_NOT_SUPPORT has runtime-source evidence, weaker than the rule's severity "
                       "(mandatory)")
    assert "judged at recommended" in found


def test_lint_rejects_a_conflict_that_is_not_advisory(spec_dir: Path) -> None:
    text = (spec_dir / "rules.yaml").read_text(encoding="utf-8")
    start = text.index("  - id: HM-PAIR-V2-PINNED-ON-PINNED\n")
    at = text.index("    severity: advisory\n", start)
    (spec_dir / "rules.yaml").write_text(text[:at] + "    severity: mandatory\n" + text[at + 23:], encoding="utf-8")
    find_issue(issues(spec_dir), "spec/rules.yaml:", "is mandatory but its evidence is conflict",
               "a doc/source conflict is advisory")


def test_lint_rejects_a_contradiction_nothing_answers(spec_dir: Path) -> None:
    # A doc citation that contradicts a source-backed claim is a conflict; a contradiction with
    # nothing of the other kind supporting the claim means the claim is wrong.
    edit(spec_dir, "rules.yaml",
         '{src: "src/runtime/api/impl/api_impl.cc:2524-2533", says: "The runtime looks up',
         '{src: "src/runtime/api/impl/api_impl.cc:2524-2533", stance: contradicts, says: "The runtime looks up')
    find_issue(issues(spec_dir), "spec/rules.yaml:", "a source citation contradicts the claim and no docs citation "
               "supports it")


def test_lint_rejects_a_retired_id_and_an_uncovered_open_rule(spec_dir: Path) -> None:
    edit(spec_dir, "rules.yaml", "  - id: HM-CAP-STABLE\n", "  - id: HM-VA-DEVPTR-HOST-ONLY\n")
    found = issues(spec_dir)
    find_issue(found, "spec/rules.yaml:", "rule ID 'HM-VA-DEVPTR-HOST-ONLY' is retired")
    find_issue(found, "spec/rules.yaml:", "HM-VA-DEVPTR-HOST-ONLY has unspecified, runtime-source, driver-source or "
               "conflict evidence, but no legal variant in faults.yaml covers it")


def test_lint_rejects_a_driver_contradiction_nothing_answers(spec_dir: Path) -> None:
    # HM-REG-UNALIGNED: the docs are silent, the driver supports; turned into a contradiction,
    # nothing of the docs supports the claim.
    old = '{drv: "src/sdk_driver/svm/v2/master/pmaster/svm_master_remote_map.c:2008-2013", says:'
    edit(spec_dir, "rules.yaml", old, old.replace("says:", "stance: contradicts, says:"))
    text = (spec_dir / "rules.yaml").read_text(encoding="utf-8")
    line = text[:text.index("    evidence:\n", text.index("  - id: HM-REG-UNALIGNED\n"))].count("\n") + 1
    found = issues(spec_dir)
    find_issue(found, f"spec/rules.yaml:{line}: rules[", ".evidence: a source citation contradicts the claim and no "
               "docs citation supports it")
    find_issue(found, "spec/rules.yaml:", "the rule is recommended but its evidence is only unspecified")


def test_a_driver_contradicting_the_docs_is_a_conflict_and_must_be_advisory(spec_dir: Path) -> None:
    # HM-REG-NEIGHBOURS is mandatory: documented, with a supporting driver citation. A
    # contradicting driver citation makes it a conflict, which only an advisory rule may be.
    text = (spec_dir / "rules.yaml").read_text(encoding="utf-8")
    start = text.index("  - id: HM-REG-NEIGHBOURS\n")
    at = text.index("      - {drv: ", start)
    contradicting = text[at:].replace("      - {drv: ", "      - {stance: contradicts, drv: ", 1)
    (spec_dir / "rules.yaml").write_text(text[:at] + contradicting, encoding="utf-8")
    find_issue(issues(spec_dir), "spec/rules.yaml:", "is mandatory but its evidence is conflict",
               "a doc/source conflict is advisory")


def test_lint_rejects_a_driver_citation_without_the_driver_commit(spec_dir: Path) -> None:
    edit(spec_dir, "rules.yaml", "  driver: {repo: hicann/driver, commit: ef377e950a32b1641c108c59481e39e9643b7d63}\n",
         "")
    found = issues(spec_dir)
    line = line_of(spec_dir, "rules.yaml", '{drv: "src/ascend_hal/svm/v2/devmm/devmm_virt_interface.c:1198-1199"')
    find_issue(found, f"spec/rules.yaml:{line}: rules[0].evidence[3].drv: a driver citation needs the driver commit "
               "under sources")
    assert all("a driver citation needs the driver commit" in i for i in found)


def test_provenance_cannot_be_typed_by_hand(spec_dir: Path) -> None:
    rule = "  - id: HM-CONTENT-MEMSET\n"
    edit(spec_dir, "rules.yaml", rule, rule + "    provenance: documented\n")
    find_issue(issues(spec_dir), "spec/rules.yaml:", "unknown key 'provenance'")


# ---- the spec as it is --------------------------------------------------------------------


def test_every_rule_has_evidence_and_its_severity_follows_the_policy() -> None:
    spec = load_spec(ROOT / "spec")
    for rule in spec.rules:
        assert rule.citations, rule.id
        assert severity_allowed(rule.severity, rule.provenance), rule.id
        assert (rule.severity == "advisory") == (rule.provenance == "conflict"), rule.id
        for err in rule.errors:
            assert err.evidence and severity_allowed(rule.severity, err.provenance), (rule.id, err.when.label)
    assert {r.id for r in spec.rules if r.provenance == "conflict"} == {
        "HM-PAIR-V2-PINNED-ON-PINNED", "HM-CFG-DEVICE-ID-MATCHING", "HM-PROD-TRAINING-REGISTER",
        "HM-ALIGN-MALLOC-FALLBACK", "HM-PAIR-DOUBLE-REGISTER-V1-CODE", "HM-PAIR-FREE-WHILE-REGISTERED",
        "HM-REG-PAGEABLE-4K-ALIGNED", "HM-REG-KERNEL-LEGACY", "HM-REG-NEIGHBOURS-LARGE-PAGE"}
    for rule in spec.rules:  # the driver generations disagree with the docs: each conflict cites the driver
        if rule.provenance == "conflict" and rule.id not in (
                "HM-PAIR-V2-PINNED-ON-PINNED", "HM-CFG-DEVICE-ID-MATCHING", "HM-PROD-TRAINING-REGISTER"):
            assert any(c.kind == "drv" for c in rule.citations), rule.id
    driver_only = {r.id for r in spec.rules if r.provenance == "driver-source"}
    assert driver_only and all(r.severity in ("recommended", "informational")
                               for r in spec.rules if r.id in driver_only)
    for rule in spec.rules:
        if rule.id in driver_only:
            supporting = {c.kind for c in rule.citations if c.stance == "supports"}
            assert supporting == {"drv"}, rule.id


def test_catalog_and_traceability_show_the_citations() -> None:
    catalog = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text(encoding="utf-8"))
    assert catalog["sources"]["runtime_commit"] == "681ef7610df13c8128982901142a2c869ddbb53e"
    text = (ROOT / "acl_hostmem_generated" / "traceability.md").read_text(encoding="utf-8")
    for rule in catalog["rules"]:
        assert rule["evidence"] and rule["provenance"], rule["id"]
        assert f"### {rule['id']} ({rule['severity']}, {rule['provenance']})" in text
        for citation in rule["evidence"]:
            assert citation["url"] in text


def test_lint_summary_counts_provenances(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_main(capsys, "lint", "--spec", str(ROOT / "spec"))
    assert result.code == 0 and "documented" in result.out and "legal variants" in result.out


# ---- citations against the pinned copies ----------------------------------------------------


PAGE = """# Page

<a id="aclrtFoo"></a>

## aclrtFoo

Line six says something.

<a id="table1"></a>
| a | b |

<a id="aclrtBar"></a>

## aclrtBar
Bar.
"""


def test_anchor_sections_end_at_the_next_heading_anchor() -> None:
    sections = anchor_sections(PAGE.splitlines())
    assert sections["aclrtFoo"] == (3, 11) and sections["aclrtBar"][0] == 12


def test_verifier_reports_lines_outside_the_anchor_and_missing_pages(tmp_path: Path, spec_dir: Path) -> None:
    ref = tmp_path / "ref"
    ref.mkdir()
    (ref / "11-02_host_memory_management.md").write_text(PAGE.replace("aclrtFoo", "aclrtMallocHost"),
                                                         encoding="utf-8")
    verifier = CitationVerifier(ref, None, "0" * 40)
    assert verifier.problem(cite({"doc": "11-02_host_memory_management.md#aclrtMallocHost:6", "says": "x"})) is None
    assert "outside the section" in verifier.problem(cite(DOC))
    assert "no anchor" in verifier.problem(cite({"doc": "11-02_host_memory_management.md#nope:6", "says": "x"}))
    assert "is not in" in verifier.problem(cite({"doc": "99_none.md#a:1", "says": "x"}))
    assert verifier.problem(cite(SRC)) is None  # no runtime copy given: source citations are not checked
    found = verifier.run(read_documents(spec_dir)["rules"])
    assert found and all(str(i).startswith("spec/rules.yaml:") for i in found)


def test_verifier_checks_source_lines_at_the_pinned_commit(tmp_path: Path) -> None:
    import subprocess

    repo = tmp_path / "runtime"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "a.cc").write_text("one\ntwo\nthree\n", encoding="utf-8")
    git = ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "x"], check=True)
    commit = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    verifier = CitationVerifier(None, repo, commit)
    assert verifier.problem(cite({"src": "src/a.cc:2-3", "says": "x"})) is None
    assert "has 3 lines" in verifier.problem(cite({"src": "src/a.cc:2-4", "says": "x"}))
    assert "does not exist" in verifier.problem(cite({"src": "src/b.cc:1", "says": "x"}))


def _git_repo(repo: Path, files: dict[str, str]) -> str:
    """A git repository holding ``files`` in one commit; returns the commit."""
    import subprocess

    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text, encoding="utf-8")
    git = ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "x"], check=True)
    return subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()


def test_verifier_checks_driver_lines_at_the_pinned_driver_commit(tmp_path: Path) -> None:
    commit = _git_repo(tmp_path / "driver", {"src/d.c": "one\ntwo\nthree\n"})
    verifier = CitationVerifier(None, None, "0" * 40, tmp_path / "driver", commit)
    assert verifier.problem(cite({"drv": "src/d.c:1-3", "says": "x"})) is None
    assert "src/d.c has 3 lines at hicann/driver commit" in verifier.problem(cite({"drv": "src/d.c:3-4", "says": "x"}))
    assert "src/e.c does not exist at hicann/driver commit" in verifier.problem(cite({"drv": "src/e.c:1", "says": "x"}))
    assert verifier.problem(cite(SRC)) is None  # no runtime copy given: runtime citations are not checked


def test_lint_driver_git_reports_a_missing_file_and_a_line_past_the_end(spec_dir: Path, tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """``lint --driver-git`` against a synthetic driver repository: every cited file exists with enough
    lines except one file left out and one cut short; exactly those two citations are reported."""
    raw = read_documents(spec_dir)["rules"].data
    needed: dict[str, int] = {}
    for rule in raw["rules"]:
        cited = list(rule.get("evidence") or []) + list((rule.get("code") or {}).get("evidence") or [])
        for err in rule.get("errors") or []:
            cited += list(err["evidence"]) + list((err.get("code") or {}).get("evidence") or [])
        for item in cited:
            if "drv" in item:
                c = Citation.parse(item)
                needed[c.target] = max(needed.get(c.target, 0), c.last)
    missing = "src/ascend_hal/svm/v3/assign/malloc_mng/malloc_mng.c"
    short = "src/ascend_hal/svm/v2/devmm/devmm_virt_interface.c"
    assert missing in needed and short in needed and len(needed) > 2
    files = {path: "x\n" * last for path, last in needed.items() if path != missing}
    files[short] = "x\n" * 1198  # HM-ALIGN-MALLOC cites lines 1198-1199
    commit = _git_repo(tmp_path / "driver", files)
    edit(spec_dir, "rules.yaml", "commit: ef377e950a32b1641c108c59481e39e9643b7d63}", f"commit: {commit}}}")
    result = run_main(capsys, "lint", "--spec", "spec", "--driver-git", str(tmp_path / "driver"))
    assert result.code == 2, result
    lines = result.err.splitlines()
    assert lines[-1].endswith("nothing was written.") and all(line.startswith("error: spec/rules.yaml:")
                                                              for line in lines[:-1])
    problems = lines[:-1]
    short_line = line_of(spec_dir, "rules.yaml", f'{{drv: "{short}:1198-1199"')
    assert (f"error: spec/rules.yaml:{short_line}: rules[0].evidence[3]: {short} has 1198 lines at hicann/driver "
            f"commit {commit[:12]}, not 1199") in problems
    cites_missing = sum(1 for raw_line in (spec_dir / "rules.yaml").read_text(encoding="utf-8").splitlines()
                        if f'drv: "{missing}:' in raw_line)
    gone = [p for p in problems if f"{missing} does not exist at hicann/driver commit {commit[:12]}" in p]
    assert cites_missing >= 1 and len(gone) == cites_missing
    assert len(problems) == cites_missing + 1, problems
    # the same repository at the right lines passes; the runtime and docs citations are not checked without copies
    files[missing] = "x\n" * needed[missing]
    files[short] = "x\n" * needed[short]
    fixed = _git_repo(tmp_path / "driver2", files)
    edit(spec_dir, "rules.yaml", f"commit: {commit}}}", f"commit: {fixed}}}")
    assert run_main(capsys, "lint", "--spec", "spec", "--driver-git", str(tmp_path / "driver2")).code == 0
