"""Where the public driver's source decides, the simulator answers as runtime and driver do.

The families' drivers: svm v2 for Atlas A2 and A3 (run here as Ascend910B3), svm v3 for
Ascend 950 (Ascend950PR_9599), no public driver for the others (the docs-only model). Each
test names in its docstring the lines of hicann/driver@ef377e950a32 it follows (paths from
that repository's root) and, marked "runtime", the lines of hicann/runtime@681ef7610 that
carry the driver's answer to the caller. Where the docs and the driver disagree the
simulator keeps the docs' side; those tests run twice, the second time under
ACLSIM_FAULTS=legal_public_driver, the driver's side.

The first two tests check the citations: every one is well formed, every scenario cites the
driver, and (when bare mirrors of the two repositories are at hand, see MIRRORS) every cited
file exists at the pinned commit and is long enough for the cited lines.
"""

from __future__ import annotations

import inspect
import os
import re
import subprocess
from pathlib import Path

import pytest

V2, A3, V3, DOCS = "Ascend910B3", "Ascend910_9391", "Ascend950PR_9599", "Ascend310P3"
DRIVER_COMMIT, RUNTIME_COMMIT = "ef377e950a32", "681ef7610"
MIRRORS = {
    "driver": Path(os.environ.get("HICANN_DRIVER_GIT", "/work/.mirror/hicann+driver/repo")),
    "runtime": Path(os.environ.get("HICANN_RUNTIME_GIT", "/work/.mirror/hicann+runtime/repo")),
}
CITATION = re.compile(r"(?<![\w./-])((?:src|pkg_inc)/[\w./-]+\.(?:c|h|cc|cpp|hpp|txt)|build\.sh):(\d+)(?:-(\d+))?")
SIDES = ["docs", "driver"]
# The tests of the citations themselves (all other tests are scenarios).
CHECKS = {"test_every_citation_is_well_formed_and_every_scenario_cites_the_driver",
          "test_every_cited_line_exists_at_the_pinned_commits", "test_citation_regex_finds_driver_and_runtime_lines"}


def sim(run_sim, soc: str, code: str, side: str = "docs", faults: str = "", **env: str):
    """Run a scenario on soc (two devices, a kernel newer than 5.10); side "driver" adds legal_public_driver."""
    names = [f for f in (faults, "legal_public_driver" if side == "driver" else "") if f]
    child = {"ACLSIM_SOC": soc, "ACLSIM_DEVICE_COUNT": "2", "ACLSIM_KERNEL": "6.6.0", "ACLSIM_FAULTS": ",".join(names)}
    child.update(env)
    return run_sim(f"DOCS_SIDE = {side == 'docs'!r}\n" + inspect.cleandoc(code) + "\n", env=child)


def scenarios():
    """The scenario tests of this module and their docstrings."""
    return {name: fn.__doc__ or "" for name, fn in sorted(globals().items())
            if name.startswith("test_") and callable(fn) and name not in CHECKS}


def citations(doc: str) -> list[tuple[str, str, int, int]]:
    """(repository, path, first line, last line) of each citation; runtime ones follow the word runtime."""
    found = []
    for match in CITATION.finditer(doc):
        path, first, last = match.group(1), int(match.group(2)), int(match.group(3) or match.group(2))
        repo = "runtime" if path.startswith(("src/runtime/", "src/acl/")) else "driver"
        found.append((repo, path, first, last))
    return found


def test_every_citation_is_well_formed_and_every_scenario_cites_the_driver():
    for name, doc in scenarios().items():
        cited = citations(doc)
        assert any(repo == "driver" for repo, *_ in cited), f"{name} cites no driver line"
        assert all(first <= last for _, _, first, last in cited), name


def test_every_cited_line_exists_at_the_pinned_commits():
    commits = {"driver": DRIVER_COMMIT, "runtime": RUNTIME_COMMIT}
    if not all((MIRRORS[repo] / "HEAD").is_file() for repo in MIRRORS):
        pytest.skip("no mirror of hicann/driver and hicann/runtime (set HICANN_DRIVER_GIT, HICANN_RUNTIME_GIT)")
    lengths: dict[tuple[str, str], int] = {}
    for name, doc in scenarios().items():
        for repo, path, _first, last in citations(doc):
            if (repo, path) not in lengths:
                out = subprocess.run(["git", "-C", str(MIRRORS[repo]), "show", f"{commits[repo]}:{path}"],
                                     capture_output=True, text=True)
                assert out.returncode == 0, f"{name}: {repo} has no {path}"
                lengths[repo, path] = len(out.stdout.splitlines())
            assert last <= lengths[repo, path], f"{name}: {path} has {lengths[repo, path]} lines, not {last}"


# ---- which driver -------------------------------------------------------------------------

@pytest.mark.parametrize("soc,driver", [(V2, "v2"), (A3, "v2"), (V3, "v3"), ("Ascend310B1", "docs"),
                                        (DOCS, "docs"), ("Ascend910A", "docs"), ("Ascend350_354f", "docs")])
def test_each_family_follows_its_driver_generation(run_sim, soc, driver):
    """build.sh:46-64 maps --soc ascend910b and ascend910_93 to PRODUCT=ascend910B and
    ascend950 to ascend950; src/ascend_hal/svm/CMakeLists.txt:11-15 and
    src/sdk_driver/svm/CMakeLists.txt:10-14 build svm v2 for the first and v3 for the second.
    The other families' drivers are not in the repository."""
    sim(run_sim, soc, f"init(); assert driver_name() == {driver!r}, driver_name()")


def test_host_page_and_connection_switches_are_validated(run_sim):
    """The driver's page is the host kernel's PAGE_SIZE
    (src/sdk_driver/kernel_adapt/include/ka_memory_pub.h:139-144), 4 KiB or 64 KiB on arm64
    servers; the v3 driver registers over PCIe or UB
    (src/ascend_hal/svm/v3/api/master/svm_register_only.c:95-99)."""
    for page in ("4096", "16384", "65536"):
        sim(run_sim, V2, "init()", ACLSIM_HOST_PAGE=page)
    for link in ("pcie", "ub"):
        sim(run_sim, V3, "init()", ACLSIM_CONNECT=link)
    for bad in ("2048", "12288", "131072", "x"):
        r = sim(run_sim, V2, "expect(lib.aclInit(ffi.NULL), INVALID_PARAM)", ACLSIM_HOST_PAGE=bad)
        assert "ACLSIM_HOST_PAGE" in r.stderr, r.stderr
    r = sim(run_sim, V2, "expect(lib.aclInit(ffi.NULL), INVALID_PARAM)", ACLSIM_CONNECT="hccs")
    assert "ACLSIM_CONNECT" in r.stderr, r.stderr


# ---- host allocation ----------------------------------------------------------------------

def test_v2_host_blocks_are_4k_granules_one_after_another(run_sim):
    """src/ascend_hal/svm/v2/devmm/devmm_virt_interface.c:1198-1199: the pinned-host heap's
    granule is DEVMM_DEV_PAGE_SIZE, 4 KiB; src/ascend_hal/svm/v2/devmm/devmm_virt_com_heap.c:964-966:
    the rest of a mapped block is cut off and serves the next request, right after this one.
    (runtime src/runtime/driver/npu_driver_mem.cc:841 asks for 512-byte alignment, which v2
    never reads.)"""
    sim(run_sim, V2, """
        init()
        small = [addr(malloc_host(size)) for size in (1, 64, 100, 4096)]
        assert all(a % PAGE == 0 for a in small), [hex(a) for a in small]
        assert [b - a for a, b in zip(small, small[1:])] == [PAGE] * 3, [hex(a) for a in small]
        five = addr(malloc_host(5000)); after = addr(malloc_host(64))
        assert after - five == 2 * PAGE, "5000 bytes take two granules"
        rc, c = malloc_cfg(100); expect(rc, SUCCESS); assert addr(c) % PAGE == 0
    """)


@pytest.mark.parametrize("page", [4096, 65536])
def test_v3_host_blocks_start_on_the_host_page(run_sim, page):
    """src/ascend_hal/svm/v3/api/master/svm_alloc.c:63 aligns host memory to the page size of its
    flag, src/ascend_hal/svm/v3/assign/cache_malloc/cache_allocator.c:52-53 and :66 hand out
    small sizes in that granule, and the host's page is the kernel's PAGE_SIZE
    (src/sdk_driver/svm/v3/dbi/core/dbi_core.c:120-124)."""
    sim(run_sim, V3, f"""
        init()
        ptrs = [addr(malloc_host(size)) for size in (1, 100, 5000, 70000, 1 << 20)] + [addr(malloc_cfg(64)[1])]
        assert all(p % {page} == 0 for p in ptrs), [hex(p) for p in ptrs]
    """, ACLSIM_HOST_PAGE=str(page))


def test_v2_uva_blocks_are_2m_aligned_and_keep_their_address(run_sim):
    """src/ascend_hal/svm/v2/devmm/devmm_virt_base_heap.c:73-74: the host-UVA heap maps 2 MiB
    aligned, 2 MiB granular ranges; src/ascend_hal/svm/v2/devmm/devmm_svm.c:3580-3583: a UVA
    address is registered with itself as the device address (runtime
    src/runtime/driver/npu_driver_mem.cc:842-848 asks for UVA with VA_FLAG=1)."""
    sim(run_sim, V2, """
        init()
        blocks = [malloc_cfg(size, (lib.ACL_RT_MEM_ATTR_VA_FLAG, 1)) for size in (1, PAGE, (2 << 20) + 1)]
        assert all(rc == SUCCESS and addr(p) % (2 << 20) == 0 for rc, p in blocks), blocks
        rc, d = register(blocks[1][1], PAGE); expect(rc, SUCCESS)
        assert addr(d) == addr(blocks[1][1]), "VA identity"
    """)


FORK = """
import os
init(); p = malloc_host(64); fill(p, 64, b"f")
pid = os.fork()
if pid == 0:
    os._exit(0 if read(p, 64) == b"f" * 64 else 3)
_, status = os.waitpid(pid, 0)
print("inherited" if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 else "gone")
"""


@pytest.mark.parametrize("soc,faults,seen", [(V2, "", "gone"), (V3, "", "gone"), (DOCS, "", "inherited"),
                                             (V2, "legal_other_choices", "inherited"),
                                             (V2, "legal_drv_malloc_fallback", "inherited")])
def test_driver_host_memory_is_not_inherited_by_a_forked_child(run_sim, soc, faults, seen):
    """src/sdk_driver/svm/v2/common/svm_module_ops.c:329-330 and
    src/sdk_driver/svm/v3/framework/svm_mmap_fops.c:288-289 map the drivers' host memory
    VM_DONTCOPY; the malloc fallback (src/ascend_hal/svm/v2/devmm/devmm_svm.c:376-386) is
    ordinary memory; nothing documents either (legal_other_choices lets the child inherit)."""
    r = sim(run_sim, soc, FORK, faults=faults)
    assert r.stdout.split()[-1] == seen, r.stdout


def test_v2_malloc_fallback_hands_out_malloc_memory(run_sim):
    """src/ascend_hal/svm/v2/common/devmm_svm_init.c:250-263: when the SVM range cannot be
    mapped the process allocates host memory with malloc; src/ascend_hal/svm/v2/devmm/devmm_svm.c:376-386:
    a host allocation is then a plain malloc, 16-byte aligned by the C library."""
    sim(run_sim, V2, """
        init()
        ptrs = [addr(malloc_host(size)) for size in (1, 100, 5000, 1 << 20)] + [addr(malloc_cfg(64)[1])]
        assert all(p % 64 == 16 for p in ptrs), [hex(p) for p in ptrs]
    """, faults="legal_drv_malloc_fallback")


# ---- registration: svm v2 -----------------------------------------------------------------

@pytest.mark.parametrize("side", SIDES)
def test_v2_pageable_memory_must_start_on_a_page(run_sim, side):
    """src/sdk_driver/svm/v2/master/pmaster/svm_master_remote_map.c:2008-2013: pageable memory not
    aligned to the kernel's PAGE_SIZE is -EINVAL, which user space makes DRV_ERROR_PARA_ERROR
    (src/ascend_hal/dmc/logdrv/drv_log_user_kernel_api.c:71) and the runtime, lacking it in its
    map, 507899 (runtime src/runtime/core/src/common/errcode_manage.cc:595-601). The docs ask for
    4 KiB (11-02#aclrtHostRegister:292): on a 64 KiB-page host only the driver's side refuses
    a pointer that is 4 KiB but not 64 KiB aligned."""
    sim(run_sim, V2, """
        init()
        q = pageable_aligned(4 * 65536, 65536); base = ffi.cast("char *", q)
        expect(register(base + 64, PAGE)[0], RT_DRV_INTERNAL_ERROR, "not on 4 KiB")
        expect(lib.aclrtHostRegisterV2(base + 64, PAGE, REG_MAPPED), RT_DRV_INTERNAL_ERROR, "not on 4 KiB, V2")
        rc = register(base + PAGE, PAGE)[0]
        expect(rc, SUCCESS if DOCS_SIDE else RT_DRV_INTERNAL_ERROR, "4 KiB but not 64 KiB aligned")
        if rc == SUCCESS:
            expect(lib.aclrtHostUnregister(base + PAGE), SUCCESS)
        expect(register(q, PAGE)[0], SUCCESS, "on the host page")
        expect(lib.aclrtHostUnregister(q), SUCCESS)
        assert stats().live_registrations == 0
    """, side=side, ACLSIM_HOST_PAGE="65536")


def test_v2_aclrtmallochost_memory_registers_from_any_address(run_sim):
    """src/sdk_driver/svm/v2/master/pmaster/svm_master_remote_map.c:2049-2057 sends the driver's own
    locked host memory to devmm_svm_mem_map_para_check (:1873-1911), which has no alignment
    check, and :2210-2214 maps it on the local path; the device picks the address (:857, :480;
    a window address here)."""
    sim(run_sim, V2, """
        init(); p = malloc_host(4 * PAGE); inner = ffi.cast("char *", p) + 64
        rc, d = register(inner, PAGE); expect(rc, SUCCESS)
        assert addr(d) >= VA_WINDOW_BASE, hex(addr(d))
        rc, d2 = devptr(inner); expect(rc, SUCCESS); assert addr(d2) == addr(d)
        expect(lib.aclrtHostUnregister(inner), SUCCESS)
    """)


@pytest.mark.parametrize("soc,refusal", [(V2, "RT_INVALID_HANDLE"), (V3, "RT_DRV_INTERNAL_ERROR")])
def test_pageable_pages_must_be_mapped_and_writable(run_sim, soc, refusal):
    """v2 pins with write access (src/sdk_driver/svm/v2/master/pmaster/svm_master_remote_map.c:1515,
    :1552-1557; a missing mapping :1520-1525): -EFAULT, DRV_ERROR_INVALID_HANDLE
    (src/ascend_hal/dmc/logdrv/drv_log_user_kernel_api.c:63), 107017 (runtime
    src/runtime/core/src/common/errcode_manage.cc:566 and :87). v3 pins with write access too
    (src/ascend_hal/svm/v3/api/master/svm_register_pcie_th.c:354,
    src/sdk_driver/svm/v3/dma_map/dma_map_core.c:121-123) but a failed pin is -EINVAL
    (src/sdk_driver/svm/v3/kern_lib/svm_gup.c:81-93, :200-204), PARA_ERROR, 507899 (runtime
    src/runtime/core/src/common/errcode_manage.cc:595-601). PINNED alone never reaches the
    driver (runtime src/runtime/api/impl/api_impl.cc:2607-2609)."""
    sim(run_sim, soc, f"""
        import mmap
        init(); want = {refusal}
        ro = readonly_pageable(2 * PAGE)
        expect(register(ro, PAGE)[0], want, "read-only")
        expect(lib.aclrtHostRegisterV2(ro, PAGE, REG_MAPPED), want, "read-only, V2")
        expect(lib.aclrtHostRegisterV2(ro, PAGE, REG_PINNED | REG_MAPPED), want, "read-only, PINNED|MAPPED")
        expect(lib.aclrtHostRegisterV2(ro, PAGE, REG_PINNED), SUCCESS, "PINNED alone: no driver call")
        expect(lib.aclrtHostUnregister(ro), SUCCESS)
        gone = mmap.mmap(-1, 2 * PAGE); bad = ffi.cast("void *", addr(ffi.from_buffer(gone))); gone.close()
        expect(register(bad, PAGE)[0], want, "unmapped")
        assert stats().live_registrations == 0
    """)


@pytest.mark.parametrize("soc", [V2, V3])
@pytest.mark.parametrize("side", SIDES)
def test_pageable_memory_on_a_5_10_kernel(run_sim, soc, side):
    """The docs refuse pageable memory on kernels 5.10 and older (11-02#aclrtHostRegister:292); the
    svm v2 driver has no kernel-version check on this path: the only one near,
    src/sdk_driver/kernel_adapt/include/ka_memory_pub.h:783-790, serves the DMA registration of
    src/sdk_driver/svm/v2/common/devmm_register_dma.c:315-320, which the runtime does not use
    (runtime src/runtime/driver/npu_driver_mem.cc:208-211)."""
    sim(run_sim, soc, """
        init(); q = pageable(4 * PAGE)
        expect(register(q, PAGE)[0], RT_DRV_INTERNAL_ERROR if DOCS_SIDE else SUCCESS, "pageable")
        p = malloc_host(PAGE); expect(register(p, PAGE)[0], SUCCESS, "aclrtMallocHost memory")
    """, side=side, ACLSIM_KERNEL="5.10.0")


@pytest.mark.parametrize("side", SIDES)
def test_v2_overlapping_registrations(run_sim, side):
    """src/sdk_driver/svm/v2/master/pmaster/svm_master_remote_map.c:2083-2088 refuses any overlap
    (:542-543, half open, per device) with -EINVAL, PARA_ERROR
    (src/ascend_hal/dmc/logdrv/drv_log_user_kernel_api.c:71), 507899 (runtime
    src/runtime/core/src/common/errcode_manage.cc:595-601); the docs' 507910 for a range
    registered already (25-01_aclError.md) is the docs' side of a repeated V1 registration.
    V2 meets the runtime's own check first (runtime src/runtime/api/impl/api_impl.cc:2597-2599,
    src/runtime/core/src/common/register_memory.cc:61-76): any overlap is 507910."""
    sim(run_sim, V2, """
        init(); p = malloc_host(1 << 20); a = ffi.cast("char *", p)
        expect(register(a, 4 * PAGE)[0], SUCCESS)
        expect(register(a, 4 * PAGE)[0], ALREADY_REGISTERED if DOCS_SIDE else RT_DRV_INTERNAL_ERROR, "again")
        for off, pages in ((PAGE, 1), (0, 2), (3 * PAGE, 2)):
            expect(register(a + off, pages * PAGE)[0], RT_DRV_INTERNAL_ERROR, (off, pages))
            expect(lib.aclrtHostRegisterV2(a + off, pages * PAGE, REG_MAPPED), ALREADY_REGISTERED, (off, pages))
        expect(lib.aclrtHostRegisterV2(a, 4 * PAGE, REG_MAPPED), ALREADY_REGISTERED, "again, V2")
        expect(register(a + 4 * PAGE, PAGE)[0], SUCCESS, "adjacent")
        expect(lib.aclrtHostUnregister(a), SUCCESS); expect(lib.aclrtHostUnregister(a + 4 * PAGE), SUCCESS)
        assert stats().live_registrations == 0
    """, side=side)


@pytest.mark.parametrize("soc,inside", [(V2, "RT_DRV_INTERNAL_ERROR"), (V3, "SUCCESS")])
def test_v1_range_starting_inside_a_node_under_the_lenient_variant(run_sim, soc, inside):
    """src/sdk_driver/svm/v2/master/pmaster/svm_master_remote_map.c:2083-2088 refuse a range
    that starts inside a node whatever else the library leaves open, so legal_accept_unpromised,
    which lets an overlapping V2 range register, does not let a V1 one through
    (HM-PAIR-OVERLAP-REGISTER-V1); the v3 PCIe path still lets a range inside a node pass
    (src/ascend_hal/svm/v3/api/master/svm_register_pcie_th.c:393-396)."""
    sim(run_sim, soc, f"""
        init(); p = malloc_host(8 * PAGE); a = ffi.cast("char *", p)
        expect(register(a, 2 * PAGE)[0], SUCCESS)
        expect(register(a + PAGE, PAGE)[0], {inside}, "inside")
        expect(register(a + PAGE, 2 * PAGE)[0], RT_DRV_INTERNAL_ERROR, "starts inside, runs past the end")
    """, faults="legal_accept_unpromised")


@pytest.mark.parametrize("page,side", [(4096, "docs"), (4096, "driver"), (65536, "docs"), (65536, "driver")])
def test_v2_registration_covers_whole_pages(run_sim, page, side):
    """src/sdk_driver/svm/v2/master/pmaster/svm_master_remote_map.c:2079 rounds the size up to the
    kernel's PAGE_SIZE before the overlap check of :2083-2088. The docs' page is 4 KiB
    (11-02#aclrtHostRegister:292), the docs' side of the rounding; on a 64 KiB-page host the
    driver's registration of a buffer reaches the next 4 KiB granule's buffer."""
    sim(run_sim, V2, f"""
        init(); a = malloc_host(64); b = malloc_host(64)
        assert addr(b) - addr(a) == PAGE, "4 KiB granules one after another"
        expect(register(a, 64)[0], SUCCESS)
        expect(register(ffi.cast("char *", a) + 2048, 64)[0], RT_DRV_INTERNAL_ERROR, "inside the rounded page")
        reaches = not DOCS_SIDE and {page} > PAGE
        expect(lib.aclrtHostRegisterV2(b, 64, REG_MAPPED), RT_DRV_INTERNAL_ERROR if reaches else SUCCESS, "next")
    """, side=side, ACLSIM_HOST_PAGE=str(page))


@pytest.mark.parametrize("side", SIDES)
def test_v2_uva_registration_covers_2m_on_the_driver_side(run_sim, side):
    """src/ascend_hal/svm/v2/devmm/devmm_svm.c:3580-3583 rounds a UVA registration up to 2 MiB from
    its pointer in user space, so the kernel's overlap check
    (src/sdk_driver/svm/v2/master/pmaster/svm_master_remote_map.c:2083-2088) refuses another
    registration in the same 2 MiB; the docs' side keeps 4 KiB pages."""
    sim(run_sim, V2, """
        init(); rc, v = malloc_cfg(4 << 20, (lib.ACL_RT_MEM_ATTR_VA_FLAG, 1)); expect(rc, SUCCESS)
        base = ffi.cast("char *", v)
        rc, d = register(v, PAGE); expect(rc, SUCCESS); assert addr(d) == addr(v)
        expect(register(base + (1 << 20), PAGE)[0], SUCCESS if DOCS_SIDE else RT_DRV_INTERNAL_ERROR, "same 2 MiB")
        rc, d2 = register(base + (2 << 20), PAGE); expect(rc, SUCCESS, "the next 2 MiB")
        assert addr(d2) == addr(base + (2 << 20))
    """, side=side)


@pytest.mark.parametrize("soc,link,iomemory", [(V2, "pcie", "RT_DRV_INTERNAL_ERROR"),
                                               (V3, "pcie", "RT_DRV_INTERNAL_ERROR"),
                                               (V3, "ub", "RT_FEATURE_NOT_SUPPORT")])
def test_readonly_and_iomemory_are_the_drivers_answers(run_sim, soc, link, iomemory):
    """The runtime passes both options on (runtime src/runtime/driver/npu_driver_mem.cc:213-218).
    v2 refuses READONLY in user space (src/ascend_hal/svm/v2/devmm/devmm_svm.c:3501-3503:
    NOT_SUPPORT, 207000 by runtime src/runtime/core/src/common/errcode_manage.cc:580 and :100)
    and IOMEMORY of RAM in the kernel
    (src/sdk_driver/svm/v2/master/pmaster/svm_master_remote_map.c:1576-1595, -EINVAL, 507899).
    v3 refuses READONLY as a foreign process type
    (src/ascend_hal/svm/v3/api/master/svm_register_only.c:28-31, :42-44), sends IOMEMORY to the
    PCIe path (:100-102), which refuses UB (src/ascend_hal/svm/v3/api/master/svm_register_pcie_th.c:610-612,
    NOT_SUPPORT), driver memory (:576-581) and RAM
    (src/sdk_driver/svm/v3/dma_map/dma_map_core.c:73-88). IOMEMORY counts as a mapping, so V2
    meets the runtime's overlap check first (runtime src/runtime/api/impl/api_impl.cc:2594-2599)."""
    sim(run_sim, soc, f"""
        init(); out = ffi.new("void **"); io = {iomemory}
        p = malloc_host(4 * PAGE); q = pageable(4 * PAGE)
        for mem in (p, q):
            expect(lib.aclrtHostRegister(mem, PAGE, lib.ACL_HOST_REGISTER_READONLY, out), RT_FEATURE_NOT_SUPPORT)
            expect(lib.aclrtHostRegister(mem, PAGE, lib.ACL_HOST_REGISTER_IOMEMORY, out), io)
            expect(lib.aclrtHostRegisterV2(mem, PAGE, REG_READONLY), RT_FEATURE_NOT_SUPPORT)
            expect(lib.aclrtHostRegisterV2(mem, PAGE, REG_MAPPED | REG_READONLY), RT_FEATURE_NOT_SUPPORT)
            expect(lib.aclrtHostRegisterV2(mem, PAGE, REG_IOMEMORY), io)
        assert stats().live_registrations == 0
        expect(lib.aclrtHostRegisterV2(p, PAGE, REG_MAPPED), SUCCESS)
        expect(lib.aclrtHostRegisterV2(p, PAGE, REG_IOMEMORY), ALREADY_REGISTERED, "the runtime's check first")
    """, ACLSIM_CONNECT=link)


@pytest.mark.parametrize("soc,code", [(V2, "RT_DRV_INTERNAL_ERROR"), (V3, "NOT_REGISTERED")])
def test_unregister_under_a_device_without_the_node(run_sim, soc, code):
    """The driver unregisters the exact base on the calling device only. v2:
    src/sdk_driver/svm/v2/master/pmaster/svm_master_remote_map.c:205 and :2370-2371, -ENOENT,
    DRV_ERROR_FILE_OPS (src/ascend_hal/dmc/logdrv/drv_log_user_kernel_api.c:51), 507899. v3:
    src/ascend_hal/svm/v3/api/master/svm_register_pcie_th.c:498-501, DRV_ERROR_NOT_EXIST, which
    the runtime reports as not registered (runtime src/runtime/driver/npu_driver_mem.cc:275). A
    refusal leaves the runtime's records (runtime src/runtime/api/impl/api_impl.cc:2629-2633)."""
    sim(run_sim, soc, f"""
        init(0); p = malloc_host(PAGE); expect(register(p, PAGE)[0], SUCCESS)
        expect(lib.aclrtSetDevice(1), SUCCESS)
        expect(lib.aclrtHostUnregister(p), {code}, "device 1 has no node")
        expect(lib.aclrtSetDevice(0), SUCCESS)
        expect(lib.aclrtHostUnregister(p), SUCCESS, "the record stayed")
        assert stats().live_registrations == 0
    """)


def test_unregister_asks_the_driver_only_for_mapped_records(run_sim):
    """runtime src/runtime/api/impl/api_impl.cc:2614-2645: a base the runtime has no record of is
    507911 without a driver call (:2638-2641), and a pinned-only record is erased without one; only
    a mapped record goes to halHostUnregisterEx, which on v2 would refuse a device without the
    node (src/sdk_driver/svm/v2/master/pmaster/svm_master_remote_map.c:2370-2371)."""
    sim(run_sim, V2, """
        init(0); q = pageable(2 * PAGE)
        expect(lib.aclrtHostRegisterV2(q, PAGE, REG_PINNED), SUCCESS)
        expect(lib.aclrtSetDevice(1), SUCCESS)
        expect(lib.aclrtHostUnregister(q), SUCCESS, "pinned only: the record alone")
        expect(lib.aclrtHostUnregister(q), NOT_REGISTERED, "no record: the runtime's own answer")
        expect(lib.aclrtHostUnregister(malloc_host(PAGE)), NOT_REGISTERED, "never registered")
    """)


def test_v2_device_pointers_come_from_the_drivers_records(run_sim):
    """src/ascend_hal/svm/v2/devmm/devmm_svm.c:3867-3891 answers halMemHostGetDevPointer from the
    records feature 11 turns on (:2510-2520); the lookup is a range lookup over the caller's
    size, base address plus offset (src/ascend_hal/svm/v2/devmm/svm_mem_register_record.c:83-134,
    :306-325), per device (:40). The runtime asks the driver first (runtime
    src/runtime/driver/npu_driver_mem.cc:282-306) and reports NOT_EXIST as 107000 (:291-296)."""
    sim(run_sim, V2, """
        init(0); p = malloc_host(4 * PAGE); base = ffi.cast("char *", p)
        rc, d = register(p, PAGE + 100); expect(rc, SUCCESS)
        rc, d2 = devptr(base + PAGE + 99); expect(rc, SUCCESS, "interior"); assert addr(d2) == addr(d) + PAGE + 99
        expect(devptr(base + PAGE + 100)[0], RT_PARAM_INVALID, "past the caller's size, inside the rounded page")
        expect(lib.aclrtSetDevice(1), SUCCESS)
        expect(devptr(p)[0], RT_PARAM_INVALID, "device 1's records")
        expect(lib.aclrtSetDevice(0), SUCCESS)
        q = pageable(PAGE); expect(lib.aclrtHostRegisterV2(q, PAGE, REG_PINNED), SUCCESS)
        expect(devptr(q)[0], RT_PARAM_INVALID, "pinned only: the driver never saw it")
    """)


@pytest.mark.parametrize("soc", [V2, V3])
def test_a_second_device_registers_by_v1_but_not_by_v2(run_sim, soc):
    """The drivers keep nodes per device (src/sdk_driver/svm/v2/master/pmaster/svm_master_remote_map.c:542-543,
    src/ascend_hal/svm/v3/api/master/svm_register_pcie_th.c:46); the runtime's records are
    process-wide (runtime src/runtime/core/src/common/register_memory.cc:15-18), checked by V2
    (runtime src/runtime/api/impl/api_impl.cc:2597-2599) but not by V1 (:2557-2572), and an
    insert keeps the first record (src/runtime/core/src/common/register_memory.cc:83). The second
    device's node outlives the record, and the statistics count it."""
    sim(run_sim, soc, """
        init(0); p = malloc_host(PAGE)
        expect(register(p, PAGE)[0], SUCCESS)
        expect(lib.aclrtSetDevice(1), SUCCESS)
        expect(lib.aclrtHostRegisterV2(p, PAGE, REG_MAPPED), ALREADY_REGISTERED, "the runtime's records")
        expect(register(p, PAGE)[0], SUCCESS, "device 1's driver has no node")
        assert stats().live_registrations == 2
        expect(lib.aclrtHostUnregister(p), SUCCESS, "the record, and device 1's node")
        assert stats().live_registrations == 1, "device 0's node has no record left"
        expect(lib.aclrtSetDevice(0), SUCCESS)
        expect(lib.aclrtHostUnregister(p), NOT_REGISTERED)
    """)


# ---- registration: svm v3 -----------------------------------------------------------------

@pytest.mark.parametrize("side", SIDES)
def test_v3_overlapping_registrations(run_sim, side):
    """src/ascend_hal/svm/v3/api/master/svm_register_pcie_th.c:379 rounds the size to the device
    page; :385-390 refuse a node of the same pointer and rounded size (REPEATED_USERD; the match,
    src/ascend_hal/svm/v3/share/svmm/svmm_non_overlap.c:276-279), 507899 (runtime
    src/runtime/core/src/common/errcode_manage.cc:595-601) on the driver's side, the docs' 507910
    on theirs; a range inside a node passes, the kernel's BUSY ignored (:393-396), with a new
    device address (:447); the kernel's DMA map refuses other overlaps
    (src/sdk_driver/svm/v3/dma_map/dma_map_core.c:741-762)."""
    sim(run_sim, V3, """
        init(); p = malloc_host(8 * PAGE); a = ffi.cast("char *", p)
        rc, d = register(a, 4 * PAGE); expect(rc, SUCCESS)
        expect(register(a, 4 * PAGE - 100)[0], ALREADY_REGISTERED if DOCS_SIDE else RT_DRV_INTERNAL_ERROR, "same")
        rc, inner = register(a + PAGE, PAGE); expect(rc, SUCCESS, "inside")
        assert addr(inner) >= VA_WINDOW_BASE and addr(inner) != addr(d)
        expect(register(a + 3 * PAGE, 2 * PAGE)[0], RT_DRV_INTERNAL_ERROR, "runs past the end")
        expect(lib.aclrtHostUnregister(a + PAGE), SUCCESS); expect(lib.aclrtHostUnregister(a), SUCCESS)
        assert stats().live_registrations == 0
    """, side=side)


@pytest.mark.parametrize("link,code", [("pcie", "SUCCESS"), ("ub", "RT_DRV_INTERNAL_ERROR")])
def test_v3_pageable_alignment(run_sim, link, code):
    """Over PCIe the v3 driver checks no host alignment
    (src/ascend_hal/svm/v3/api/master/svm_register_pcie_th.c:601-628; the kernel rounds the pointer
    down to its page, src/sdk_driver/svm/v3/dma_map/dma_map_core.c:668-670); over UB pageable
    memory must start on the device page (src/ascend_hal/svm/v3/api/master/svm_register.c:779-782,
    PARA_ERROR, 507899)."""
    sim(run_sim, V3, f"""
        init(); q = pageable(4 * PAGE); inner = ffi.cast("char *", q) + 64
        expect(register(inner, PAGE)[0], {code})
    """, ACLSIM_CONNECT=link)


def test_v3_second_device_reuses_the_first_device_address(run_sim):
    """src/ascend_hal/svm/v3/api/master/svm_register_pcie_th.c:440 looks for a registration of the
    same pointer and size on any device first (:242-257) and reuses its device address; only
    otherwise it allocates one (:447)."""
    sim(run_sim, V3, """
        init(0); p = malloc_host(PAGE); rc, d0 = register(p, PAGE); expect(rc, SUCCESS)
        expect(lib.aclrtSetDevice(1), SUCCESS)
        rc, d1 = register(p, PAGE); expect(rc, SUCCESS); assert addr(d1) == addr(d0)
        rc, dq = register(malloc_host(PAGE), PAGE); expect(rc, SUCCESS); assert addr(dq) != addr(d0)
    """)


def test_v3_over_ub(run_sim):
    """Over UB (src/ascend_hal/svm/v3/api/master/svm_register_only.c:95-99) driver memory keeps its
    address (src/ascend_hal/svm/v3/api/master/svm_register.c:957) and any overlap is refused
    (src/ascend_hal/svm/v3/share/svmm/svmm_non_overlap.c:57-65, REPEATED_USERD, 507899); pageable
    memory gets a new address (src/ascend_hal/svm/v3/api/master/svm_register.c:819-831)."""
    sim(run_sim, V3, """
        init(); p = malloc_host(8 * PAGE); a = ffi.cast("char *", p)
        rc, d = register(a, 4 * PAGE); expect(rc, SUCCESS); assert addr(d) == addr(p)
        expect(register(a + PAGE, PAGE)[0], RT_DRV_INTERNAL_ERROR, "inside")
        q = pageable(PAGE); rc, dq = register(q, PAGE); expect(rc, SUCCESS)
        assert addr(dq) != addr(q) and addr(dq) >= VA_WINDOW_BASE
    """, ACLSIM_CONNECT="ub")


def test_v3_device_pointers_come_from_the_runtimes_records(run_sim):
    """v3 has no halMemHostGetDevPointer and answers feature 11 with false
    (src/ascend_hal/svm/v3/api/master/svm_get_attr.c:105-110), so the runtime answers from its
    records (runtime src/runtime/driver/npu_driver_mem.cc:284-289,
    src/runtime/api/impl/api_impl.cc:2653-2660): the exact base, any device
    (src/runtime/core/src/common/register_memory.cc:147-158)."""
    sim(run_sim, V3, """
        init(0); p = malloc_host(4 * PAGE); rc, d = register(p, 2 * PAGE); expect(rc, SUCCESS)
        rc, d2 = devptr(p); expect(rc, SUCCESS); assert addr(d2) == addr(d)
        expect(devptr(ffi.cast("char *", p) + 64)[0], RT_PARAM_INVALID, "interior")
        expect(lib.aclrtSetDevice(1), SUCCESS)
        rc, d3 = devptr(p); expect(rc, SUCCESS, "process-wide"); assert addr(d3) == addr(d)
    """)


@pytest.mark.parametrize("side", SIDES)
def test_v3_free_of_registered_memory(run_sim, side):
    """A v3 registration of driver memory holds a reference on its handle
    (src/ascend_hal/svm/v3/api/master/svm_register_pcie_th.c:583-596), so freeing it is refused
    (src/ascend_hal/svm/v3/assign/malloc_mng/malloc_mng.c:283-286) as DRV_ERROR_BUSY
    (src/ascend_hal/svm/v3/api/master/svm_alloc.c:89-94), 507899 (runtime
    src/runtime/core/src/common/errcode_manage.cc:595-601) on the driver's side; the docs free
    the memory at once (11-02#aclrtFreeHost:180)."""
    sim(run_sim, V3, """
        init(); p = malloc_host(PAGE); expect(register(p, PAGE)[0], SUCCESS)
        if DOCS_SIDE:
            expect(lib.aclrtFreeHost(p), SUCCESS)
            assert stats().live_registrations == 1, "the registration outlives the memory"
            expect(lib.aclrtHostUnregister(p), SUCCESS)
        else:
            expect(lib.aclrtFreeHost(p), RT_DRV_INTERNAL_ERROR)
            expect(lib.aclrtFreeHostWithDevSync(p), RT_DRV_INTERNAL_ERROR)
            assert stats().live_host_allocs == 1, "the block stays"
            expect(lib.aclrtHostUnregister(p), SUCCESS)
            expect(lib.aclrtFreeHost(p), SUCCESS)
        assert (stats().live_host_allocs, stats().live_registrations) == (0, 0)
    """, side=side)


@pytest.mark.parametrize("link,supported", [("pcie", ["STARS", "AIV"]), ("ub", ["STARS", "AICPU", "AIC", "AIV"])])
def test_v3_capabilities_are_fixed_per_connection(run_sim, link, supported):
    """src/ascend_hal/svm/v3/api/master/svm_register_only.c:206-243 answers from a fixed mask per
    host-device link without asking the device: PCIe STARS and AIV (:224-226), UB STARS, AICPU,
    AIC and AIV (:233-236); UDMA and CCU never. The HAC values match the driver's
    (pkg_inc/ascend_hal_define.h:913-925)."""
    names = ["STARS", "AICPU", "AIC", "AIV", "PCIEDMA", "RDMA", "SDMA", "DVPP", "UDMA", "CCU"]
    sim(run_sim, V3, f"""
        init(); cap = ffi.new("aclrtHostMemMapCapability *"); answers = {{}}
        for hac, name in enumerate({names!r}):
            expect(lib.aclrtHostMemMapCapabilities(0, hac, cap), SUCCESS); answers[name] = cap[0]
        assert sorted(n for n, a in answers.items() if a) == sorted({supported!r}), answers
    """, ACLSIM_CONNECT=link)


# ---- the docs-only driver keeps today's answers ------------------------------------------

def test_families_without_a_public_driver_keep_the_docs_only_answers(run_sim):
    """No driver source covers the Atlas training series (build.sh:46-64 builds only ascend910B and
    ascend950); with registration enabled there (legal_src_training_registers) the answers are the
    docs' (11-02#aclrtHostRegister:292, 25-01_aclError.md) and the runtime's (runtime
    src/runtime/core/src/common/errcode_manage.cc:86)."""
    sim(run_sim, "Ascend910A", """
        init(); assert driver_name() == "docs"
        p = malloc_host(1 << 20); a = ffi.cast("char *", p); out = ffi.new("void **")
        base = page_up(p)
        expect(lib.aclrtHostRegister(ffi.cast("char *", base) + 64, PAGE, 0, out), RT_PARAM_INVALID, "unaligned")
        expect(lib.aclrtHostRegister(base, PAGE, lib.ACL_HOST_REGISTER_READONLY, out), RT_FEATURE_NOT_SUPPORT)
        expect(lib.aclrtHostRegister(base, PAGE, lib.ACL_HOST_REGISTER_IOMEMORY, out), RT_FEATURE_NOT_SUPPORT)
        expect(register(base, 4 * PAGE)[0], SUCCESS)
        expect(register(base, 4 * PAGE)[0], ALREADY_REGISTERED, "again")
        expect(register(ffi.cast("char *", base) + PAGE, PAGE)[0], ALREADY_REGISTERED, "inside")
        expect(lib.aclrtHostUnregister(base), SUCCESS)
        import mmap
        gone = mmap.mmap(-1, 2 * PAGE); bad = ffi.cast("void *", addr(ffi.from_buffer(gone))); gone.close()
        expect(register(bad, PAGE)[0], RT_PARAM_INVALID, "unmapped")
    """, faults="legal_src_training_registers")


def test_citation_regex_finds_driver_and_runtime_lines():
    found = citations("a src/ascend_hal/x.c:1-2 and runtime src/runtime/y.cc:3, build.sh:4, 11-02#a:5")
    assert found == [("driver", "src/ascend_hal/x.c", 1, 2), ("runtime", "src/runtime/y.cc", 3, 3),
                     ("driver", "build.sh", 4, 4)]
