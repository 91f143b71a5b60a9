"""The simulator as each CANN release the spec knows (ACLSIM_CANN_VERSION, build/sim-<release>/).

Each scenario checks one promise that changed between releases, at the release before the
change and at the one after it, so that the release switch is shown to decide it.
"""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

import pytest

from conformance.harness.release import release_key

ROOT = Path(__file__).resolve().parents[2]
CATALOG = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text(encoding="utf-8"))
NEWEST = CATALOG["releases"][-1]["name"]
OLDER = [r["name"] for r in CATALOG["releases"][:-1]]


def release_lib(release: str) -> Path:
    """The simulator build of an older release (``make -C sim`` builds them)."""
    lib = ROOT / "build" / f"sim-{release}" / "libascendcl.so"
    if not lib.is_file():
        pytest.fail(f"{lib} is missing: build it with `make -C sim`")
    return lib


def as_release(release: str) -> dict[str, str]:
    return {"ACLSIM_CANN_VERSION": f"{release}-aclsim"}


def test_without_the_variable_the_simulator_is_the_newest_release(run_sim):
    run_sim(f"""
        buf = ffi.new("char[]", 128)
        expect(lib.aclsysGetVersionStr(ffi.new("char[]", b"runtime"), buf), SUCCESS)
        assert ffi.string(buf) == b"{NEWEST}-aclsim", ffi.string(buf)
        major, minor, patch = ffi.new("int32_t *"), ffi.new("int32_t *"), ffi.new("int32_t *")
        expect(lib.aclrtGetVersion(major, minor, patch), SUCCESS)
        assert (major[0], minor[0], patch[0]) == (1, 17, 0)
    """)


@pytest.mark.parametrize("release", OLDER)
def test_each_release_build_reports_its_release_and_exports_what_it_declares(run_sim, release):
    declared = {name: entry.get("exported_since") for name, entry in CATALOG["interfaces"].items()
                if entry.get("group") == "host_memory"}
    hidden = sorted(n for n, since in declared.items()
                    if since and release_key(since) > release_key(release))
    run_sim(f"""
        buf = ffi.new("char[]", 128)
        expect(lib.aclsysGetVersionStr(ffi.new("char[]", b"runtime"), buf), SUCCESS)
        assert ffi.string(buf) == b"{release}-aclsim", ffi.string(buf)
        for name in {sorted(declared)!r}:
            try:
                getattr(lib, name)
                present = True
            except AttributeError:
                present = False
            assert present == (name not in {hidden!r}), (name, present)
    """, env={"ACLSIM_LIB": str(release_lib(release))})


def test_8_5_0_lacks_the_capability_query_and_answers_api_1_16(run_sim):
    out = subprocess.run(["nm", "-D", "--defined-only", str(release_lib("8.5.0"))], capture_output=True, text=True)
    assert "aclrtHostRegisterV2" in out.stdout  # declared in the 8.5.0 header, though undocumented
    assert "aclrtHostMemMapCapabilities" not in out.stdout
    run_sim("""
        major, minor, patch = ffi.new("int32_t *"), ffi.new("int32_t *"), ffi.new("int32_t *")
        expect(lib.aclrtGetVersion(major, minor, patch), SUCCESS)
        assert (major[0], minor[0], patch[0]) == (1, 16, 0)
    """, env={"ACLSIM_LIB": str(release_lib("8.5.0"))})


V1_READONLY = textwrap.dedent("""
    init()
    p = malloc_host(1 << 16)
    out = ffi.new("void **")
    rc = lib.aclrtHostRegister(p, 4096, lib.ACL_HOST_REGISTER_READONLY, out)
    print("rc", rc)
""")


def test_v1_types_other_than_mapped_are_refused_as_unsupported_at_8_5_0(run_sim):
    # With the switch that maps READONLY as MAPPED, only the 8.5.0 type check refuses it.
    accept = {"ACLSIM_FAULTS": "reserved_readonly_ok"}
    run_sim(V1_READONLY + "expect(rc, RT_FEATURE_NOT_SUPPORT)", env={**as_release("8.5.0"), **accept})
    newer = run_sim(V1_READONLY, env={**as_release("9.0.0"), **accept})
    assert "rc 0" in newer.stdout, newer.stdout


V2_IOMEMORY = textwrap.dedent("""
    init()
    p = malloc_host(1 << 16)
    rc = lib.aclrtHostRegisterV2(p, 4096, REG_IOMEMORY | REG_MAPPED)
""")


@pytest.mark.parametrize("release", ["8.5.0", "9.0.0"])
def test_v2_knows_only_mapped_and_pinned_before_9_1_0(run_sim, release):
    run_sim(V2_IOMEMORY + "expect(rc, RT_PARAM_INVALID)", env=as_release(release))


def test_v2_passes_iomemory_to_the_driver_from_9_1_0(run_sim):
    # The svm v2 driver refuses IO mapping of RAM (HM-REG-RESERVED-IOMEMORY); the runtime no longer does.
    run_sim(V2_IOMEMORY + "assert rc not in (SUCCESS, RT_PARAM_INVALID), rc", env=as_release("9.1.0"))


DEVPTR_UNREGISTERED = textwrap.dedent("""
    init()
    p = malloc_host(1 << 16)
    rc, d = devptr(p)
""")


def test_device_pointer_of_unregistered_memory_is_null_with_success_before_9_1_0(run_sim):
    run_sim(DEVPTR_UNREGISTERED + "expect(rc, SUCCESS); assert addr(d) == 0", env=as_release("9.0.0"))
    run_sim(DEVPTR_UNREGISTERED + "expect(rc, RT_PARAM_INVALID)", env=as_release("9.1.0"))


def test_device_pointer_answers_only_the_exact_base_before_9_1_0(run_sim):
    code = """
        init()
        p = malloc_host(1 << 16)
        rc, d = register(p, 1 << 16)
        expect(rc, SUCCESS)
        rc, base = devptr(p)
        expect(rc, SUCCESS); assert addr(base) == addr(d)
        rc, inner = devptr(ffi.cast("char *", p) + 4096)
        print("inner", rc, addr(inner) - addr(d) if addr(inner) else None)
    """
    old = run_sim(code, env=as_release("9.0.0"))
    assert "inner 0 None" in old.stdout, old.stdout
    new = run_sim(code, env=as_release("9.1.0"))
    assert "inner 0 4096" in new.stdout, new.stdout


def test_product_support_is_narrower_in_older_releases(run_sim):
    code = """
        init()
        out = ffi.new("void **")
        print("rc", lib.aclrtMallocHost(out, 4096))
    """
    old = run_sim(code, env={**as_release("9.1.0"), "ACLSIM_SOC": "Ascend310P3"})
    assert f"rc {CATALOG['errors']['ACL_ERROR_RT_FEATURE_NOT_SUPPORT']}" in old.stdout, old.stdout
    assert "rc 0" in run_sim(code, env={**as_release(NEWEST), "ACLSIM_SOC": "Ascend310P3"}).stdout
    # 8.5.0 and 9.0.0 document only A3 and A2: the 950 answers as unsupported there.
    old950 = run_sim(code, env={**as_release("9.0.0"), "ACLSIM_SOC": "Ascend950PR_9599"})
    assert "rc 0" not in old950.stdout, old950.stdout
    assert "rc 0" in run_sim(code, env={**as_release("9.1.0"), "ACLSIM_SOC": "Ascend950PR_9599"}).stdout


def test_a_patch_release_answers_as_its_minor_release(run_sim):
    run_sim(DEVPTR_UNREGISTERED + "expect(rc, SUCCESS); assert addr(d) == 0", env={"ACLSIM_CANN_VERSION": "9.0.1"})


@pytest.mark.parametrize(("version", "supported"), [
    ("9.2.0-beta.1", False),  # not a release the spec knows: the newest one before it (9.1.0) answers
    ("9.2.0-beta.2", True),  # the branch release: the first to list the inference series
    ("9.2.0-beta.2-aclsim", True),
    ("9.2.0", True),  # newer than every numbered release: the pinned master snapshot answers
    (f"{NEWEST}-aclsim", True),
])
def test_a_beta_answers_as_the_newest_known_release_before_its_final(run_sim, version, supported):
    code = """
        init()
        out = ffi.new("void **")
        print("rc", lib.aclrtMallocHost(out, 4096))
    """
    result = run_sim(code, env={"ACLSIM_CANN_VERSION": version, "ACLSIM_SOC": "Ascend310P3"})
    assert ("rc 0" in result.stdout) == supported, (version, result.stdout)
