"""The C-facing outputs: cffi cdef, the header, and the ABI check program."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import cffi
import pytest
from specedit import ROOT, edit

from codegen.load import load_spec
from codegen.render import render_all
from codegen.writer import write_tree

GENERATED = ROOT / "acl_hostmem_generated"


def _cc(cc: str, *args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([cc, *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=120)


def test_cdef_is_accepted_by_cffi_as_is() -> None:
    ffi = cffi.FFI()
    ffi.cdef((GENERATED / "acl_hostmem.cdef").read_text(encoding="utf-8"))
    assert ffi.sizeof("aclrtMallocConfig") == 16
    assert ffi.offsetof("aclrtMallocAttribute", "value") == 4
    assert ffi.sizeof("aclrtMallocAttrValue") == 8
    consts = ffi.dlopen(None)  # constants need no library; libc stands in
    assert consts.ACL_ERROR_HOST_MEMORY_NOT_REGISTERED == 507911
    assert consts.ACL_ERROR_INVALID_PARAM == 100000
    assert consts.ACL_HOST_REG_PINNED == 0x10000000
    assert consts.ACL_RT_HAC_TYPE_CCU == 9


@pytest.mark.parametrize("std", ["c11", "c17", "gnu11"])
def test_header_compiles_cleanly(cc: str, tmp_path: Path, std: str) -> None:
    use = tmp_path / "use.c"
    use.write_text(
        '#include "acl_hostmem.h"\n#include "acl_hostmem.h"\n'
        "int main(void) { aclrtMallocConfig cfg = {0}; return (int)cfg.numAttrs + ACL_SUCCESS; }\n",
        encoding="utf-8",
    )
    proc = _cc(
        cc,
        f"-std={std}",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pedantic",
        "-I",
        GENERATED / "include",
        use,
        "-o",
        tmp_path / "use",
    )
    assert proc.returncode == 0, proc.stderr


def test_header_compiles_as_cpp(tmp_path: Path) -> None:
    cxx = shutil.which("c++") or shutil.which("g++")
    if cxx is None:
        pytest.skip("no C++ compiler on PATH")
    use = tmp_path / "use.cc"
    use.write_text('#include "acl_hostmem.h"\nint main() { return ACL_SUCCESS; }\n', encoding="utf-8")
    proc = subprocess.run(
        [
            cxx,
            "-std=c++17",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-I",
            str(GENERATED / "include"),
            str(use),
            "-o",
            str(tmp_path / "use"),
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr


def test_abi_check_compiles_and_passes(cc: str, tmp_path: Path) -> None:
    exe = tmp_path / "abi_check"
    proc = _cc(
        cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-I", GENERATED / "include", GENERATED / "abi_check.c", "-o", exe
    )
    assert proc.returncode == 0, proc.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("abi_check: OK (")


def _abi_check_of(spec_dir: Path, tmp_path: Path) -> Path:
    out = tmp_path / "mutated"
    write_tree(out, render_all(load_spec(spec_dir)))
    return out / "abi_check.c"


@pytest.mark.parametrize(
    ("file", "old", "new", "message"),
    [
        (
            "types.yaml",
            "{name: ACL_RT_HAC_TYPE_CCU, value: 9,",
            "{name: ACL_RT_HAC_TYPE_CCU, value: 10,",
            "ACL_RT_HAC_TYPE_CCU must be 10",
        ),
        (
            "types.yaml",
            "{name: ACL_HOST_REG_PINNED, value: 0x10000000,",
            "{name: ACL_HOST_REG_PINNED, value: 0x1000000,",
            "ACL_HOST_REG_PINNED must be",
        ),
        (
            "interfaces.yaml",
            "{name: flag, type: uint32_t, direction: in, nullable: false, constraints: [reserved_zero]",
            "{name: flag, type: uint64_t, direction: in, nullable: false, constraints: [reserved_zero]",
            "aclrtHostGetDevicePointer must be",
        ),
        ("types.yaml", "{name: vaFlag, type: uint32_t,", "{name: vaFlag, type: uint16_t,", "vaFlag must be uint16_t"),
    ],
)
def test_mutated_spec_fails_the_abi_check_at_compile_time(
    spec_dir: Path, tmp_path: Path, cc: str, file: str, old: str, new: str, message: str
) -> None:
    edit(spec_dir, file, old, new)
    source = _abi_check_of(spec_dir, tmp_path)
    proc = _cc(cc, "-std=c11", "-I", GENERATED / "include", source, "-o", tmp_path / "abi_check")
    assert proc.returncode != 0
    assert message in proc.stderr, proc.stderr


def test_a_header_with_another_layout_fails_the_abi_check(tmp_path: Path, cc: str) -> None:
    # Lint refuses a spec whose sizes and offsets are not the LP64 layout of its members
    # (tests/codegen/test_codegen_hardening.py), so the disagreement is made on the header side.
    include = tmp_path / "include"
    include.mkdir()
    header = (GENERATED / "include" / "acl_hostmem.h").read_text(encoding="utf-8")
    assert header.count("    size_t numAttrs;\n") == 1
    padded = header.replace("    size_t numAttrs;\n", "    uint32_t pad;\n    size_t numAttrs;\n")
    (include / "acl_hostmem.h").write_text(padded, encoding="utf-8")
    proc = _cc(cc, "-std=c11", "-I", include, GENERATED / "abi_check.c", "-o", tmp_path / "abi_check")
    assert proc.returncode != 0
    assert "sizeof(aclrtMallocConfig) must be 16" in proc.stderr, proc.stderr
    assert "offsetof(aclrtMallocConfig, numAttrs) must be 8" in proc.stderr, proc.stderr


def test_mutated_error_code_fails_the_abi_check_when_run(spec_dir: Path, tmp_path: Path, cc: str) -> None:
    edit(
        spec_dir,
        "types.yaml",
        "{name: ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, value: 507911,",
        "{name: ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, value: 507912,",
    )
    source = _abi_check_of(spec_dir, tmp_path)
    exe = tmp_path / "abi_check"
    proc = _cc(cc, "-std=c11", "-I", GENERATED / "include", source, "-o", exe)
    assert proc.returncode == 0, proc.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert "abi_check: ACL_ERROR_HOST_MEMORY_NOT_REGISTERED is 507911, the spec says 507912" in run.stderr


def test_abi_check_against_the_official_headers(cc: str, tmp_path: Path) -> None:
    include = os.environ.get("CANN_INCLUDE")
    if not include:
        pytest.skip(
            "CANN_INCLUDE is not set: point it at a CANN include directory (holding acl/acl.h) to compare "
            "the spec with the official headers, which are not redistributable here"
        )
    root = Path(include)
    assert (root / "acl" / "acl.h").is_file(), f"{root}/acl/acl.h not found; CANN_INCLUDE must hold acl/acl.h"
    exe = tmp_path / "abi_official"
    proc = _cc(cc, "-std=c11", "-DACL_ABI_OFFICIAL", "-I", root, GENERATED / "abi_check.c", "-o", exe)
    assert proc.returncode == 0, f"the spec disagrees with the official headers:\n{proc.stderr}"
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("abi_check: OK (")
