"""One short scenario per fault switch, each printing VIOLATED when it observes the broken rule.

The scenarios are run with their fault enabled (and the fault's ``soc``/``env``
from spec/faults.yaml); the faithful simulator is covered by the other tests.
``crash_in_register`` and ``hang_in_free`` are judged by exit status / timeout.
"""

from __future__ import annotations

import textwrap

BLOCKED_STREAM = """
import threading, time
gate = threading.Event()
@ffi.callback("void(void *)")
def _hold(arg):
    gate.wait(20)
def blocked_stream(open_after):
    s = ffi.new("aclrtStream *"); expect(lib.aclrtCreateStream(s), SUCCESS)
    expect(lib.aclrtLaunchHostFunc(s[0], _hold, ffi.NULL), SUCCESS)
    threading.Timer(open_after, gate.set).start()
    return s[0]
def seconds(fn, *args):
    t0 = time.monotonic(); fn(*args); return time.monotonic() - t0
"""


def _with_stream(code: str) -> str:
    """Prefix the blocked-stream helpers to a scenario (both dedented)."""
    return BLOCKED_STREAM + textwrap.dedent(code)


PROOFS: dict[str, str] = {
    "align_malloc_off16": """
        init()
        print("VIOLATED" if any(addr(malloc_host(s)) % 64 for s in (1, 100, 1000)) else "intact")
    """,
    "align_cfg_off8": """
        init()
        rc, p = malloc_cfg(100)
        print("VIOLATED" if rc == SUCCESS and addr(p) % 64 else "intact")
    """,
    "alloc_overlap": """
        init()
        a = sorted(addr(malloc_host(128)) for _ in range(10))
        print("VIOLATED" if any(x + 128 > y for x, y in zip(a, a[1:])) else "intact")
    """,
    "memset_partial": """
        init()
        p = malloc_host(256); lib.aclrtMemset(p, 256, 0x11, 256)
        print("VIOLATED" if read(p, 256) != b"\\x11" * 256 else "intact")
    """,
    "register_clobbers": """
        init()
        p = malloc_host(1 << 20); fill(p, 4096, b"x"); register(p, 1 << 20)
        print("VIOLATED" if read(p, 4096) != b"x" * 4096 else "intact")
    """,
    "free_scribbles_neighbour": """
        init()
        a = malloc_host(128); b = malloc_host(128); fill(b, 128, b"b")
        lib.aclrtFreeHost(a)
        print("VIOLATED" if read(b, 128) != b"b" * 128 else "intact")
    """,
    "short_alloc": """
        init()
        a = malloc_host(5000); fill(a, 5000, b"a")
        b = malloc_host(5000); fill(b, 5000, b"b")
        print("VIOLATED" if read(a, 5000) != b"a" * 5000 else "intact")
    """,
    "double_free_ok": """
        init()
        p = malloc_host(64); lib.aclrtFreeHost(p)
        print("VIOLATED" if lib.aclrtFreeHost(p) == SUCCESS else "intact")
    """,
    "free_foreign_ok": """
        init()
        p = malloc_host(256)
        print("VIOLATED" if lib.aclrtFreeHost(ffi.cast("char *", p) + 64) == SUCCESS else "intact")
    """,
    "free_cfg_rejected": """
        init()
        rc, p = malloc_cfg(64)
        print("VIOLATED" if lib.aclrtFreeHost(p) != SUCCESS else "intact")
    """,
    "double_unregister_ok": """
        init()
        p = malloc_host(1 << 20); register(p, PAGE); lib.aclrtHostUnregister(p)
        print("VIOLATED" if lib.aclrtHostUnregister(p) == SUCCESS else "intact")
    """,
    "unregister_interior_ok": """
        init()
        p = malloc_host(1 << 20); register(p, 1 << 20)
        rc = lib.aclrtHostUnregister(ffi.cast("char *", p) + PAGE)
        print("VIOLATED" if rc == SUCCESS else "intact")
    """,
    "double_register_ok": """
        init()
        p = malloc_host(1 << 20); register(p, PAGE)
        print("VIOLATED" if register(p, PAGE)[0] == SUCCESS else "intact")
    """,
    "overlap_register_ok": """
        init()
        p = malloc_host(1 << 20); register(p, 4 * PAGE)
        rc = register(ffi.cast("char *", p) + PAGE, 4 * PAGE)[0]
        print("VIOLATED" if rc == SUCCESS else "intact")
    """,
    "devptr_after_unregister": """
        init()
        p = malloc_host(1 << 20); register(p, PAGE); lib.aclrtHostUnregister(p)
        print("VIOLATED" if devptr(p)[0] == SUCCESS else "intact")
    """,
    "pinned_on_pinned_ok": """
        init()
        p = malloc_host(1 << 20)
        print("VIOLATED" if lib.aclrtHostRegisterV2(p, PAGE, REG_PINNED) == SUCCESS else "intact")
    """,
    "pinned_maps": """
        init()
        q = pageable(PAGE); expect(lib.aclrtHostRegisterV2(q, PAGE, REG_PINNED), SUCCESS)
        print("VIOLATED" if devptr(q)[0] == SUCCESS else "intact")
    """,
    "register_race": """
        import threading
        init()
        won = 0
        for _ in range(5):
            p = malloc_host(1 << 20); barrier = threading.Barrier(4); res = []
            def racer():
                lib.aclrtSetDevice(0); barrier.wait(); res.append(register(p, 1 << 20)[0])
            ts = [threading.Thread(target=racer) for _ in range(4)]
            [t.start() for t in ts]; [t.join() for t in ts]
            won = max(won, res.count(SUCCESS))
        print("VIOLATED" if won > 1 else "intact")
    """,
    "exhaustion_leak": """
        init()
        ps = [malloc_host(2 << 20) for _ in range(4)]
        [lib.aclrtFreeHost(p) for p in ps]
        rc = lib.aclrtMallocHost(ffi.new("void **"), 2 << 20)
        print("VIOLATED" if rc != SUCCESS else "intact")
    """,
    "unregister_fails": """
        init()
        p = malloc_host(1 << 20); register(p, PAGE)
        print("VIOLATED" if lib.aclrtHostUnregister(p) != SUCCESS else "intact")
    """,
    "pageable_rejected": """
        init()
        print("VIOLATED" if register(pageable(PAGE), PAGE)[0] != SUCCESS else "intact")
    """,
    "legacy_kernel_accepts": """
        init()
        print("VIOLATED" if register(pageable(PAGE), PAGE)[0] == SUCCESS else "intact")
    """,
    "reserved_type_ok": """
        init()
        p = malloc_host(1 << 20)
        rc = lib.aclrtHostRegister(p, PAGE, lib.ACL_HOST_REGISTER_IOMEMORY, ffi.new("void **"))
        print("VIOLATED" if rc == SUCCESS else "intact")
    """,
    "va_flag_ignored": """
        init()
        rc, v = malloc_cfg(PAGE, (lib.ACL_RT_MEM_ATTR_VA_FLAG, 1)); rc, d = register(v, PAGE)
        print("VIOLATED" if rc == SUCCESS and addr(d) != addr(v) else "intact")
    """,
    "va_flag_everywhere": """
        init()
        rc, v = malloc_cfg(PAGE, (lib.ACL_RT_MEM_ATTR_VA_FLAG, 1))
        print("VIOLATED" if rc == SUCCESS else "intact")
    """,
    "devptr_mismatch": """
        init()
        p = malloc_host(1 << 20); rc, d = register(p, 1 << 20)
        print("VIOLATED" if addr(devptr(p)[1]) != addr(d) else "intact")
    """,
    "memcpy_devptr_ok": """
        init()
        p = malloc_host(1 << 20); rc, d = register(p, 1 << 20); buf = ffi.new("char[]", 64)
        rc = lib.aclrtMemcpy(d, 64, buf, 64, lib.ACL_MEMCPY_HOST_TO_DEVICE)
        print("VIOLATED" if rc == SUCCESS else "intact")
    """,
    "malloc_syncs": _with_stream("""
        init(); blocked_stream(0.6)
        print("VIOLATED" if seconds(lib.aclrtMallocHost, ffi.new("void **"), 64) > 0.4 else "intact")
    """),
    "free_syncs": _with_stream("""
        init(); p = malloc_host(64); blocked_stream(0.6)
        print("VIOLATED" if seconds(lib.aclrtFreeHost, p) > 0.4 else "intact")
    """),
    "devsync_no_wait": _with_stream("""
        init(); size = 1 << 20
        src = malloc_host(size); dst = malloc_host(size); fill(src, size, b"K")
        s = blocked_stream(0.3)
        expect(lib.aclrtMemcpyAsync(dst, size, src, size, 0, s), SUCCESS)
        expect(lib.aclrtFreeHostWithDevSync(src), SUCCESS)
        expect(lib.aclrtSynchronizeStream(s), SUCCESS)
        print("VIOLATED" if read(dst, size) != b"K" * size else "intact")
    """),
    "devsync_one_stream": _with_stream("""
        init(); first = ffi.new("aclrtStream *"); expect(lib.aclrtCreateStream(first), SUCCESS)
        p = malloc_host(64); blocked_stream(0.6)
        print("VIOLATED" if seconds(lib.aclrtFreeHostWithDevSync, p) < 0.4 else "intact")
    """),
    "malloc_size0_ok": """
        init()
        print("VIOLATED" if lib.aclrtMallocHost(ffi.new("void **"), 0) == SUCCESS else "intact")
    """,
    "cfg_attrs_null_ok": """
        init()
        cfg = ffi.new("aclrtMallocConfig *"); cfg.numAttrs = 2
        rc = lib.aclrtMallocHostWithCfg(ffi.new("void **"), 64, cfg)
        print("VIOLATED" if rc == SUCCESS else "intact")
    """,
    "free_null_ok": """
        init()
        print("VIOLATED" if lib.aclrtFreeHost(ffi.NULL) == SUCCESS else "intact")
    """,
    "devsync_null_ok": """
        init()
        print("VIOLATED" if lib.aclrtFreeHostWithDevSync(ffi.NULL) == SUCCESS else "intact")
    """,
    "register_type_wrong_code": """
        init()
        p = malloc_host(1 << 20)
        rc = lib.aclrtHostRegister(p, PAGE, 3, ffi.new("void **"))
        print("VIOLATED" if rc != RT_FEATURE_NOT_SUPPORT else "intact")
    """,
    "v2_flag_unchecked": """
        init()
        p = malloc_host(1 << 20)
        print("VIOLATED" if lib.aclrtHostRegisterV2(p, PAGE, 0) == SUCCESS else "intact")
    """,
    "getdevptr_flag_ignored": """
        init()
        p = malloc_host(1 << 20); register(p, PAGE)
        print("VIOLATED" if devptr(p, flag=1)[0] == SUCCESS else "intact")
    """,
    "unregister_null_ok": """
        init()
        print("VIOLATED" if lib.aclrtHostUnregister(ffi.NULL) == SUCCESS else "intact")
    """,
    "cap_bad_hac_ok": """
        init()
        cap = ffi.new("aclrtHostMemMapCapability *")
        print("VIOLATED" if lib.aclrtHostMemMapCapabilities(0, 10, cap) == SUCCESS else "intact")
    """,
    "no_device_ok": """
        init(device=None)
        print("VIOLATED" if lib.aclrtMallocHost(ffi.new("void **"), 64) == SUCCESS else "intact")
    """,
    "cap_out_of_range": """
        init()
        cap = ffi.new("aclrtHostMemMapCapability *")
        lib.aclrtHostMemMapCapabilities(0, lib.ACL_RT_HAC_TYPE_SDMA, cap)
        print("VIOLATED" if cap[0] not in (0, 1) else "intact")
    """,
    "cap_flaky": """
        init()
        cap = ffi.new("aclrtHostMemMapCapability *"); seen = set()
        for _ in range(4):
            lib.aclrtHostMemMapCapabilities(0, lib.ACL_RT_HAC_TYPE_AIC, cap); seen.add(cap[0])
        print("VIOLATED" if len(seen) > 1 else "intact")
    """,
    "cap_none": """
        init()
        p = malloc_host(1 << 20); ok = register(p, PAGE)[0] == SUCCESS
        cap = ffi.new("aclrtHostMemMapCapability *"); answers = []
        for hac in range(10):
            lib.aclrtHostMemMapCapabilities(0, hac, cap); answers.append(cap[0])
        print("VIOLATED" if ok and not any(answers) else "intact")
    """,
    "prod_register_missing": """
        init()
        p = malloc_host(1 << 20)
        rc = lib.aclrtHostRegisterV2(p, PAGE, REG_MAPPED)
        print("VIOLATED" if rc == RT_FEATURE_NOT_SUPPORT else "intact")
    """,
    "prod_register_extra": """
        init()
        p = malloc_host(1 << 20)
        print("VIOLATED" if register(p, PAGE)[0] == SUCCESS else "intact")
    """,
    "crash_in_register": """
        init()
        p = malloc_host(1 << 20)
        register(p, PAGE)
        print("survived")
    """,
    "devsync_free_leaks": """
        init()
        p = malloc_host(4096)
        before = stats().live_host_allocs
        expect(lib.aclrtFreeHostWithDevSync(p), SUCCESS, "free")
        print("VIOLATED" if stats().live_host_allocs == before else "intact")
    """,
    "hang_in_malloc": """
        init()
        malloc_host(64)
        print("returned")
    """,
    "hang_in_free": _with_stream("""
        init(); p = malloc_host(64); blocked_stream(0.3)
        lib.aclrtFreeHost(p)
        print("returned")
    """),
}
