"""Releases by their real refs: ordering of beta, final and snapshot names, branch releases cited at
their recorded commit (lint and release-diff), and the lint of release names and differences."""

from __future__ import annotations

import subprocess
from pathlib import Path

from specedit import edit, find_issue, issues

from codegen.evidence import Citation, release_key
from codegen.evidence_verify import CitationVerifier
from codegen.gitread import GitRepo
from codegen.release_diff import SpecView, resolve_revision

BETA2_LINE = "9.2.0-beta.2:docs/zh/api_ref/11-02_host_memory_management.md:468"


def test_a_beta_is_older_than_its_final_and_the_master_snapshot_newest():
    names = ["8.5.0", "9.1.0", "9.2.0-alpha.1", "9.2.0-beta.1", "9.2.0-beta.2", "9.2.0-rc.1", "9.2.0",
             "10.0.0", "master@681ef7610"]
    keys = [release_key(name) for name in names]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


def test_a_difference_must_be_cited_at_its_own_branch(spec_dir: Path):
    edit(spec_dir, "rules.yaml", BETA2_LINE, BETA2_LINE.replace("9.2.0-beta.2:", "v9.1.0:"))
    find_issue(issues(spec_dir), "", "does not point into release 9.2.0-beta.2", "cite it as 9.2.0-beta.2:")


def test_a_since_claim_of_the_branch_release_must_be_cited_at_the_branch(spec_dir: Path):
    edit(spec_dir, "rules.yaml", '"9.2.0-beta.2:docs/zh/api_ref/11-02_host_memory_management.md:332"',
         '"11-02_host_memory_management.md#aclrtHostRegisterV2:350"')
    find_issue(issues(spec_dir), "", "does not point into release 9.2.0-beta.2", "branch 9.2.0-beta.2")


def test_a_snapshot_name_must_name_its_own_commit(spec_dir: Path):
    edit(spec_dir, "rules.yaml", "- {name: master@681ef7610,", "- {name: master@0000000aa,")
    find_issue(issues(spec_dir), "", "master@0000000aa names another commit")


def test_a_release_name_is_its_real_ref(spec_dir: Path):
    edit(spec_dir, "rules.yaml", "- {name: master@681ef7610,", "- {name: 9.2.0.beta,")
    assert issues(spec_dir)  # neither X.Y.Z[-stage.N] nor master@<commit>


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
                          check=True, capture_output=True, text=True).stdout.strip()


def _branch_repo(tmp_path: Path) -> tuple[Path, str, str]:
    """A repository whose branch 9.2.0-beta.2 moved on after the commit a spec recorded for it."""
    repo = tmp_path / "runtime"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "master")
    (repo / "docs").mkdir()
    (repo / "docs" / "page.md").write_text("one\ntwo\nthree\n", encoding="utf-8")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "first")
    _git(repo, "branch", "9.2.0-beta.2")
    recorded = _git(repo, "rev-parse", "HEAD")
    _git(repo, "checkout", "-q", "9.2.0-beta.2")
    (repo / "docs" / "page.md").write_text("".join(f"line {n}\n" for n in range(10)), encoding="utf-8")
    _git(repo, "commit", "-qam", "later")
    head = _git(repo, "rev-parse", "HEAD")
    return repo, recorded, head


def _cite(lines: str) -> Citation:
    return Citation.parse({"doc": f"9.2.0-beta.2:docs/page.md:{lines}", "says": "x"})


def test_lint_reads_a_branch_release_at_the_commit_the_spec_records(tmp_path: Path):
    repo, recorded, _head = _branch_repo(tmp_path)
    verifier = CitationVerifier(None, repo, recorded, branches={"9.2.0-beta.2": recorded})
    assert verifier.problem(_cite("3")) is None
    problem = verifier.problem(_cite("5"))  # the branch head has 10 lines; the recorded commit 3
    assert problem is not None and "3 lines" in problem
    untold = CitationVerifier(None, repo, recorded)  # a qualifier that is neither a tag nor a known branch
    assert "no tag 9.2.0-beta.2" in (untold.problem(_cite("1")) or "")


def test_release_diff_reads_a_branch_release_and_a_plain_branch(tmp_path: Path):
    repo, recorded, head = _branch_repo(tmp_path)
    release = {"name": "9.2.0-beta.2", "branch": "9.2.0-beta.2", "commit": recorded, "docs": "docs"}
    spec = SpecView(recorded, "", [release], [], [], [], [], {}, frozenset())
    runtime = GitRepo(repo, "runtime")
    by_name = resolve_revision("9.2.0-beta.2", spec, runtime, None)
    assert (by_name.commit, by_name.label, by_name.release) == (recorded, "9.2.0-beta.2", "9.2.0-beta.2")
    other = SpecView(recorded, "", [], [], [], [], [], {}, frozenset())
    assert resolve_revision("9.2.0-beta.2", other, runtime, None).commit == head  # a branch the spec lacks
