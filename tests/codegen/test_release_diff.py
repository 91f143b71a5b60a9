"""``release-diff``: citations followed across two synthetic releases, headers compared, bad input refused.

Two tiny repositories stand in for hicann/runtime and hicann/driver. Release 1.0.0 (tag
v1.0.0) and the pinned commit after it differ by

- two lines inserted above a cited doc line (the citation moves, its text stays),
- one cited doc line reworded (the rule resting on it needs a review),
- a new enum value and a new flag macro in the public header,
- a source and a driver line pushed down by inserted lines,
- a product-support entry that changes,

and a tiny spec cites them: unqualified citations live at the pinned commit and are followed
back to v1.0.0, a ``v1.0.0:``-qualified one is followed forward.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from specedit import run_main

PAGE = "docs/zh/api_ref/11-02_host_memory_management.md"
HEADER = "include/external/acl/acl_rt.h"

DOC_V1 = """\
# Host memory

<a id="aclrtHostRegister"></a>

## aclrtHostRegister

### 产品支持情况

- Atlas A2 训练系列产品：支持
- Atlas A3 训练系列产品：不支持

### 功能说明

将Host内存映射注册为Device可访问的内存地址。

内存地址需4K页对齐。

### 参数说明

| 参数名 | 输入/输出 | 说明 |
| --- | --- | --- |
| ptr | 输入 | Host内存地址。 |
"""

# Two new lines above the description move it by two; the alignment note is reworded.
DOC_V2 = DOC_V1.replace("### 功能说明\n\n", "### 功能说明\n\n本接口为同步接口。\n\n") \
    .replace("内存地址需4K页对齐。", "内存地址需4KB页对齐，否则返回错误。") \
    .replace("- Atlas A3 训练系列产品：不支持", "- Atlas A3 训练系列产品：支持")

HEADER_V1 = """\
#define ACL_HOST_REG_MAPPED 0x2UL

typedef enum aclrtHostRegisterType {
    ACL_HOST_REGISTER_MAPPED = 0,
    ACL_HOST_REGISTER_IOMEMORY = 0x04
} aclrtHostRegisterType;

ACL_FUNC_VISIBILITY aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr);
"""

HEADER_V2 = HEADER_V1.replace("#define ACL_HOST_REG_MAPPED 0x2UL\n",
                              "#define ACL_HOST_REG_MAPPED 0x2UL\n#define ACL_HOST_REG_READONLY 0x8UL\n") \
    .replace("    ACL_HOST_REGISTER_IOMEMORY = 0x04\n",
             "    ACL_HOST_REGISTER_IOMEMORY = 0x04,\n    ACL_HOST_REGISTER_READONLY = 0x08\n")

IMPL_V1 = "int a;\nint b;\nreturn CheckRegistered(ptr);\nint c;\n"
IMPL_V2 = "// new\n// lines\n" + IMPL_V1
DRV_V1 = "x = 1;\nif (busy) return DRV_ERROR_BUSY;\n"
DRV_V2 = "// v2\n" + DRV_V1


def _git(repo: Path, *args: str) -> str:
    command = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com",
               "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false", *args]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout.strip()


def _commit(repo: Path, files: dict[str, str], tag: str = "") -> str:
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text, encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", tag or "next")
    if tag:
        _git(repo, "tag", tag)
    return _git(repo, "rev-parse", "HEAD")


def _repo(root: Path, versions: list[tuple[dict[str, str], str]]) -> tuple[Path, list[str]]:
    root.mkdir()
    _git(root, "init", "-q")
    return root, [_commit(root, files, tag) for files, tag in versions]


def _line(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def _spec(spec: Path, runtime: list[str], driver: list[str]) -> None:
    spec.mkdir()
    moved, changed = _line(DOC_V2, "将Host内存映射"), _line(DOC_V2, "4KB页对齐")
    support = _line(DOC_V2, "Atlas A3")
    (spec / "rules.yaml").write_text(f"""\
sources:
  runtime: {{repo: hicann/runtime, commit: {runtime[1]}}}
  driver: {{repo: hicann/driver, commit: {driver[1]}}}
  releases:
    - {{name: 1.0.0, tag: v1.0.0, commit: {runtime[0]}, docs: docs/zh/api_ref}}
    - {{name: 1.5.0, tag: v1.5.0, commit: {runtime[0]}, docs: docs/zh/api_ref}}
    - {{name: 2.0.0, commit: {runtime[1]}, docs: docs/zh/api_ref}}
rules:
  - id: HM-MOVED
    evidence:
      - {{doc: "11-02_host_memory_management.md#aclrtHostRegister:{moved}", says: Registration maps memory.}}
      - {{src: "src/impl.cc:5", says: The runtime checks the registry.}}
      - {{drv: "svm/register.c:3", says: The driver answers BUSY.}}
  - id: HM-CHANGED
    evidence:
      - {{doc: "11-02_host_memory_management.md#aclrtHostRegister:{changed}", says: The address is 4K aligned.}}
      - {{doc: "11-02_host_memory_management.md#aclrtHostRegister:{support}", says: A3 support.}}
  - id: HM-FORWARD
    since:
      release: 1.0.0
      evidence:
        - {{src: "v1.0.0:src/impl.cc:3", says: The check exists since 1.0.0.}}
""", encoding="utf-8")
    (spec / "interfaces.yaml").write_text("""\
interfaces:
  - name: aclrtHostRegister
    group: host_memory
    doc: {page: 11-02_host_memory_management.md, anchor: aclrtHostRegister}
    params:
      - {name: ptr, type: void *}
      - {name: type, type: aclrtHostRegisterType, constraints: [{enum: {type: aclrtHostRegisterType}}]}
      - {name: flag, type: uint32_t, constraints: [{flags: {allowed: [ACL_HOST_REG_MAPPED, ACL_HOST_REG_PINNED]}}]}
  - name: aclInit
    group: setup
    params: []
""", encoding="utf-8")
    (spec / "types.yaml").write_text("""\
macros:
  - {name: ACL_HOST_REG_MAPPED, value: 0x2}
enums:
  - name: aclrtHostRegisterType
    members:
      - {name: ACL_HOST_REGISTER_MAPPED, value: 0}
      - {name: ACL_HOST_REGISTER_IOMEMORY, value: 4}
""", encoding="utf-8")


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The two repositories and the spec, built once for the module."""
    root = tmp_path_factory.mktemp("release_diff")
    runtime, runtime_commits = _repo(root / "runtime", [
        ({PAGE: DOC_V1, HEADER: HEADER_V1, "src/impl.cc": IMPL_V1}, "v1.0.0"),
        ({PAGE: DOC_V2, HEADER: HEADER_V2, "src/impl.cc": IMPL_V2}, ""),
    ])
    driver, driver_commits = _repo(root / "driver", [
        ({"svm/register.c": DRV_V1}, "v1.0.0"),
        ({"svm/register.c": DRV_V2}, ""),
    ])
    _spec(root / "spec", runtime_commits, driver_commits)
    return {"root": root, "runtime": runtime, "driver": driver, "spec": root / "spec"}


def _run(capsys: pytest.CaptureFixture[str], world: dict[str, Path], out: Path, *args: str):  # noqa: ANN202
    return run_main(capsys, "release-diff", *args, "--runtime-git", str(world["runtime"]), "--driver-git",
                    str(world["driver"]), "--spec", str(world["spec"]), "--out", str(out))


def _by_citation(items: list[dict[str, object]]) -> dict[str, dict[str, object]]:
    return {str(item["citation"]): item for item in items}


def test_json_report_follows_moved_and_changed_citations(capsys: pytest.CaptureFixture[str],
                                                         world: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "diff.json"
    result = _run(capsys, world, out, "1.0.0", "pinned", "--json")
    assert result.code == 0, result.err
    report = json.loads(out.read_text(encoding="utf-8"))
    moved = _by_citation(report["citations"]["moved"])
    changed = _by_citation(report["citations"]["changed"])
    moved_line, changed_line = _line(DOC_V2, "将Host内存映射"), _line(DOC_V2, "4KB页对齐")

    # Lives at NEW (pinned): followed back to where it was at v1.0.0.
    doc = moved[f"doc: 11-02_host_memory_management.md#aclrtHostRegister:{moved_line}"]
    assert doc["old"]["at"] == f"{PAGE}:{_line(DOC_V1, '将Host内存映射')}"
    assert doc["new"]["at"] == f"{PAGE}:{moved_line}"
    assert moved["src: src/impl.cc:5"]["old"]["at"] == "src/impl.cc:3"
    assert moved["drv: svm/register.c:3"]["old"]["at"] == "svm/register.c:2"
    # Lives at OLD (v1.0.0): followed forward to its new line.
    assert moved["src: v1.0.0:src/impl.cc:3"]["new"]["at"] == "src/impl.cc:5"
    assert [s["owner"] for s in moved["src: v1.0.0:src/impl.cc:3"]["used_by"]] == ["HM-FORWARD"]

    reworded = changed[f"doc: 11-02_host_memory_management.md#aclrtHostRegister:{changed_line}"]
    assert reworded["old"]["at"] == f"{PAGE}:{_line(DOC_V1, '4K页对齐')}"
    assert reworded["used_by"][0]["owner"] == "HM-CHANGED"
    support = changed[f"doc: 11-02_host_memory_management.md#aclrtHostRegister:{_line(DOC_V2, 'Atlas A3')}"]
    assert support["old"]["text"] == ["- Atlas A3 训练系列产品：不支持"]

    headers = {(c["what"], c["name"], c["change"]) for c in report["headers"]}
    assert ("member", "aclrtHostRegisterType.ACL_HOST_REGISTER_READONLY", "added") in headers
    assert ("macro", "ACL_HOST_REG_READONLY", "added") in headers
    assert not any(c["name"] == "aclrtHostRegister" for c in report["headers"])  # unchanged prototype
    assert report["support"][0]["changes"][0]["product"] == "Atlas A3 训练系列产品"
    uncovered = {u["name"] for u in report["uncovered"]}
    assert "aclrtHostRegisterType.ACL_HOST_REGISTER_READONLY" in uncovered
    assert report["new"]["label"] == "pinned" and report["old"]["label"] == "v1.0.0"


def test_markdown_report_names_the_same_findings(capsys: pytest.CaptureFixture[str], world: dict[str, Path],
                                                 tmp_path: Path) -> None:
    out = tmp_path / "diff.md"
    result = _run(capsys, world, out, "v1.0.0", "pinned")
    assert result.code == 0, result.err
    text = out.read_text(encoding="utf-8")
    moved_line = _line(DOC_V2, "将Host内存映射")
    row = next(line for line in text.splitlines()
               if f"#aclrtHostRegister:{moved_line}`" in line and line.startswith("| "))
    assert f"{PAGE}:{_line(DOC_V1, '将Host内存映射')}" in row and f"{PAGE}:{moved_line}" in row
    assert "| `src: v1.0.0:src/impl.cc:3` | v1.0.0 | src/impl.cc:3 | src/impl.cc:5 | HM-FORWARD |" in text
    changed = text.split("## 5.")[1].split("## 6.")[0]
    assert f"#aclrtHostRegister:{_line(DOC_V2, '4KB页对齐')}`" in changed and "HM-CHANGED" in changed
    assert "{+B+}" in changed  # the inline diff of the reworded line
    assert "**added** `aclrtHostRegisterType.ACL_HOST_REGISTER_READONLY`" in text
    assert "**added** `ACL_HOST_REG_READONLY`" in text
    assert text.index("## 1.") < text.index("## 2.") < text.index("## 4.") < text.index("## 6.")


@pytest.mark.parametrize(("old", "named"), [("3.0.0", "3.0.0"), ("v7.0.0", "v7.0.0"), ("1.5.0", "v1.5.0")])
def test_bad_revision_exits_2_and_writes_nothing(capsys: pytest.CaptureFixture[str], world: dict[str, Path],
                                                 tmp_path: Path, old: str, named: str) -> None:
    out = tmp_path / "diff.md"
    result = _run(capsys, world, out, old, "pinned")
    assert result.code == 2
    assert len(result.err.strip().splitlines()) == 1 and named in result.err, result.err
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_missing_git_dir_exits_2_and_keeps_an_old_report(capsys: pytest.CaptureFixture[str],
                                                         world: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "diff.md"
    out.write_text("previous report\n", encoding="utf-8")
    missing = tmp_path / "no-such-runtime"
    result = run_main(capsys, "release-diff", "1.0.0", "pinned", "--runtime-git", str(missing),
                      "--spec", str(world["spec"]), "--out", str(out))
    assert result.code == 2
    assert len(result.err.strip().splitlines()) == 1 and str(missing) in result.err
    assert out.read_text(encoding="utf-8") == "previous report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["diff.md"]


def test_without_driver_git_driver_citations_are_not_followed(capsys: pytest.CaptureFixture[str],
                                                              world: dict[str, Path]) -> None:
    result = run_main(capsys, "release-diff", "1.0.0", "pinned", "--runtime-git", str(world["runtime"]),
                      "--spec", str(world["spec"]), "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    skipped = _by_citation(report["citations"]["not-followed"])
    assert "no --driver-git" in str(skipped["drv: svm/register.c:3"]["note"])


def test_layout_alone_is_no_change() -> None:
    from codegen.cheader import compare_headers, parse_header
    from codegen.docsections import Section, compare_lines, content_lines

    old = ("<a id=\"f\"></a>", "## f", "", "A sentence. Another one.", "", "| p | [x](a.md#x) |", "<br>")
    new = ("<a id=\"f\"></a>", "", "### f", "<!-- npu=\"A3\" id1 -->", "A sentence.", "", "Another one.",
           "<!-- end id1 -->", "| p | [x](b.md) |")
    assert compare_lines(content_lines(old, Section("f", "p.md", 1, len(old), "anchor")),
                         content_lines(new, Section("f", "p.md", 1, len(new), "anchor"))) == []
    a = parse_header("a.h", "#define ACL_HOST_REG_PINNED 0X10000000UL\naclError aclrtF(void **p);\n", ["aclrtF"])
    b = parse_header("a.h", "#define ACL_HOST_REG_PINNED 0x10000000UL // pin\n\naclError aclrtF(void** p);\n",
                     ["aclrtF"])
    assert compare_headers(a, b, [], ["ACL_HOST_REG_"]) == []
