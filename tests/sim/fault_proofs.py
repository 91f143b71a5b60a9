"""One short scenario per simulator switch.

A fault's scenario prints VIOLATED when it observes the broken rule; a legal variant's
prints VARIANT when it observes the behaviour the variant chooses. The scenarios run with
their switch enabled (and its ``soc``/``env`` from spec/faults.yaml, or ``PROOF_ENV``)
and two devices; the faithful simulator is covered by the other tests.
``crash_in_register`` and ``hang_in_free`` are judged by exit status / timeout.
The sequence faults (family explorer) each build, in a few calls, the history after which
their fault shows.
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


# Environment a scenario needs beyond its switch's own (the family a variant concerns).
PROOF_ENV: dict[str, dict[str, str]] = {
    "legal_src_training_registers": {"ACLSIM_SOC": "Ascend910A"},
    "legal_rc_form": {"ACLSIM_SOC": "Ascend310P3"},
    "prot_read_registers": {"ACLSIM_KERNEL": "6.6.0"},  # pageable memory registers at all
}

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
        p = malloc_host(1 << 20); register(p, 4 * PAGE)  # the rule is the V2 one: V1 meets the driver's refusal
        rc = lib.aclrtHostRegisterV2(ffi.cast("char *", p) + PAGE, 4 * PAGE, REG_MAPPED)
        print("VIOLATED" if rc == SUCCESS else "intact")
    """,
    "v1_overlap_base_only": """
        init()
        p = malloc_host(1 << 20); expect(register(p, 2 * PAGE)[0], SUCCESS, "first range")
        rc = register(ffi.cast("char *", p) + PAGE, 2 * PAGE)[0]  # starts inside the first
        print("VIOLATED" if rc == SUCCESS else "intact")
    """,
    "refused_registration_recorded": """
        init(); p = malloc_host(1 << 20)
        expect(lib.aclrtHostRegisterV2(p, PAGE, REG_IOMEMORY) != SUCCESS, True, "IOMEMORY of RAM refused")
        print("VIOLATED" if lib.aclrtHostUnregister(p) != NOT_REGISTERED else "intact")
    """,
    "pinned_upgrade_half_applied": """
        init(); q = pageable(PAGE); expect(lib.aclrtHostRegisterV2(q, PAGE, REG_PINNED), SUCCESS)
        expect(lib.aclrtHostRegisterV2(q, PAGE, REG_PINNED | REG_MAPPED) != SUCCESS, True, "upgrade refused")
        print("VIOLATED" if devptr(q)[0] == SUCCESS else "intact")
    """,
    "devptr_after_unregister": """
        init()
        p = malloc_host(1 << 20); register(p, PAGE); lib.aclrtHostUnregister(p)
        print("VIOLATED" if devptr(p)[0] == SUCCESS else "intact")
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
    "run_mode_device": """
        init(); mode = ffi.new("aclrtRunMode *")
        expect(lib.aclrtGetRunMode(mode), SUCCESS)
        print("VIOLATED" if mode[0] == lib.ACL_DEVICE else "intact")
    """,
    "cfg_multi_attr_rejected": """
        init()
        rc, p = malloc_cfg(64, (lib.ACL_RT_MEM_ATTR_MODULE_ID, 33), (lib.ACL_RT_MEM_ATTR_VA_FLAG, 0))
        print("VIOLATED" if rc != SUCCESS else "intact")
    """,
    "cfg_duplicate_rejected": """
        init()
        rc, p = malloc_cfg(64, (lib.ACL_RT_MEM_ATTR_MODULE_ID, 7), (lib.ACL_RT_MEM_ATTR_MODULE_ID, 33))
        print("VIOLATED" if rc != SUCCESS else "intact")
    """,
    "free_device_mem_ok": """
        init(); d = ffi.new("void **"); expect(lib.aclrtMalloc(d, 128, 0), SUCCESS)
        print("VIOLATED" if lib.aclrtFreeHost(d[0]) == SUCCESS else "intact")
    """,
    "unregister_unknown_ok": """
        init(); p = malloc_host(PAGE)
        print("VIOLATED" if lib.aclrtHostUnregister(p) == SUCCESS else "intact")
    """,
    "stale_registration_stuck": """
        init(); p = malloc_host(1 << 20); register(p, PAGE); lib.aclrtFreeHost(p)
        print("VIOLATED" if lib.aclrtHostUnregister(p) != SUCCESS else "intact")
    """,
    "pinned_mapped_unmapped": """
        init(); q = pageable(PAGE)
        expect(lib.aclrtHostRegisterV2(q, PAGE, REG_PINNED | REG_MAPPED), SUCCESS)
        print("VIOLATED" if devptr(q)[0] != SUCCESS else "intact")
    """,
    "pinned_then_mapped_ok": """
        init(); q = pageable(PAGE); expect(lib.aclrtHostRegisterV2(q, PAGE, REG_PINNED), SUCCESS)
        print("VIOLATED" if lib.aclrtHostRegisterV2(q, PAGE, REG_MAPPED) == SUCCESS else "intact")
    """,
    "unregister_pinned_fails": """
        init(); q = pageable(PAGE); expect(lib.aclrtHostRegisterV2(q, PAGE, REG_PINNED), SUCCESS)
        print("VIOLATED" if lib.aclrtHostUnregister(q) != SUCCESS else "intact")
    """,
    "huge_size_wraps": """
        init()
        print("VIOLATED" if lib.aclrtMallocHost(ffi.new("void **"), (1 << 64) - 1) == SUCCESS else "intact")
    """,
    "reserved_readonly_ok": """
        init(); p = malloc_host(1 << 20)
        rc = lib.aclrtHostRegister(p, PAGE, lib.ACL_HOST_REGISTER_READONLY, ffi.new("void **"))
        print("VIOLATED" if rc == SUCCESS else "intact")
    """,
    "reserved_iomemory_ok": """
        init(); p = malloc_host(1 << 20)
        print("VIOLATED" if lib.aclrtHostRegisterV2(p, PAGE, REG_IOMEMORY) == SUCCESS else "intact")
    """,
    "register_partial_page_rejected": """
        init(); p = malloc_host(1 << 20)
        print("VIOLATED" if register(p, PAGE + 100)[0] != SUCCESS else "intact")
    """,
    "register_past_end_ok": """
        import mmap
        init(); gone = mmap.mmap(-1, 2 * PAGE); bad = ffi.cast("void *", addr(ffi.from_buffer(gone))); gone.close()
        print("VIOLATED" if register(bad, PAGE)[0] == SUCCESS else "intact")
    """,
    "devptr_interior_base": """
        init(); p = malloc_host(1 << 20); rc, d = register(p, 4 * PAGE)
        rc, d2 = devptr(ffi.cast("char *", p) + PAGE)
        print("VIOLATED" if rc == SUCCESS and addr(d2) != addr(d) + PAGE else "intact")
    """,
    "malloc_cfg_syncs": _with_stream("""
        init(); blocked_stream(0.6)
        print("VIOLATED" if seconds(lib.aclrtMallocHostWithCfg, ffi.new("void **"), 64, ffi.NULL) > 0.4 else "intact")
    """),
    "devsync_all_devices": _with_stream("""
        import threading
        init(1); blocked_stream(0.6); expect(lib.aclrtSetDevice(0), SUCCESS); p = malloc_host(64)
        print("VIOLATED" if seconds(lib.aclrtFreeHostWithDevSync, p) > 0.4 else "intact")
    """),
    "cfg_other_device_ok": """
        init()
        print("VIOLATED" if malloc_cfg(64, (lib.ACL_RT_MEM_ATTR_DEVICE_ID, 1))[0] == SUCCESS else "intact")
    """,
    "free_needs_context": """
        import threading
        init(); p = malloc_host(64); seen = []
        t = threading.Thread(target=lambda: seen.append(lib.aclrtFreeHost(p))); t.start(); t.join()
        print("VIOLATED" if seen[0] != SUCCESS else "intact")
    """,
    "foreign_device_unregister_lies": """
        init(0); p = malloc_host(1 << 20); register(p, PAGE); expect(lib.aclrtSetDevice(1), SUCCESS)
        rc = lib.aclrtHostUnregister(p); expect(lib.aclrtSetDevice(0), SUCCESS)
        print("VIOLATED" if rc == SUCCESS and devptr(p)[0] == SUCCESS else "intact")
    """,
    # ---- driver truth: what the public driver does, broken ------------------------------
    "register_rounds_2m": """
        init(); a = malloc_host(64); b = malloc_host(64)  # neighbours, 4 KiB apart on svm v2
        expect(register(a, 64)[0], SUCCESS, "first buffer")
        print("VIOLATED" if register(b, 64)[0] == RT_DRV_INTERNAL_ERROR else "intact")
    """,
    "prot_read_registers": """
        init()
        print("VIOLATED" if register(readonly_pageable(PAGE), PAGE)[0] == SUCCESS else "intact")
    """,
    "second_device_v2_ok": """
        init(0); p = malloc_host(PAGE); expect(lib.aclrtHostRegisterV2(p, PAGE, REG_MAPPED), SUCCESS)
        expect(lib.aclrtSetDevice(1), SUCCESS)
        print("VIOLATED" if lib.aclrtHostRegisterV2(p, PAGE, REG_MAPPED) == SUCCESS else "intact")
    """,
    "fork_inherits": """
        import os
        init(); p = malloc_host(64); fill(p, 64, b"f")
        pid = os.fork()
        if pid == 0:
            os._exit(0 if read(p, 64) == b"f" * 64 else 3)
        _, status = os.waitpid(pid, 0)
        print("VIOLATED" if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 else "intact")
    """,
    "align_between_points": """
        init()
        print("VIOLATED" if any(addr(malloc_host(s)) % 64 for s in (8193, 10000, 16383)) else "intact")
    """,
    "content_between_points": """
        init(); size = 300000
        a = malloc_host(size); fill(a, size, b"a")
        b = malloc_host(size); fill(b, size, b"b")
        print("VIOLATED" if read(a, size) != b"a" * size else "intact")
    """,
    "va_between_points": """
        init()
        rc, v = malloc_cfg(20000, (lib.ACL_RT_MEM_ATTR_VA_FLAG, 1)); rc, d = register(v, 20000)
        print("VIOLATED" if rc == SUCCESS and addr(d) != addr(v) else "intact")
    """,
    "devsync_gives_up": _with_stream("""
        init(); p = malloc_host(64); blocked_stream(2.5)
        took = seconds(lib.aclrtFreeHostWithDevSync, p)
        print("VIOLATED" if took < 2.0 else "intact")
    """),
    "cap_none_second_device": """
        init(1); p = malloc_host(PAGE); ok = register(p, PAGE)[0] == SUCCESS
        cap = ffi.new("aclrtHostMemMapCapability *"); answers = []
        for hac in range(10):
            lib.aclrtHostMemMapCapabilities(1, hac, cap); answers.append(cap[0])
        print("VIOLATED" if ok and not any(answers) else "intact")
    """,
    "cap_supported_without_registration": """
        init(); cap = ffi.new("aclrtHostMemMapCapability *")
        expect(lib.aclrtHostMemMapCapabilities(0, lib.ACL_RT_HAC_TYPE_AIC, cap), SUCCESS)
        refused = register(malloc_host(PAGE), PAGE)[0] == RT_FEATURE_NOT_SUPPORT
        print("VIOLATED" if refused and cap[0] == lib.ACL_RT_HOST_MEM_MAP_SUPPORTED else "intact")
    """,
    # ---- legal variants: each prints VARIANT when its chosen behaviour shows ----
    "legal_alt_codes": """
        init()
        rc = lib.aclrtMallocHost(ffi.NULL, 64)
        print("VARIANT" if rc == RT_PARAM_INVALID else rc)
    """,
    "legal_accept_unpromised": """
        init(); p = malloc_host(64); expect(lib.aclrtFreeHost(p), SUCCESS)
        print("VARIANT" if lib.aclrtFreeHost(p) == SUCCESS else "refused")
    """,
    "legal_other_choices": """
        import threading
        init(); p = malloc_host(64); seen = []
        t = threading.Thread(target=lambda: seen.append(lib.aclrtFreeHost(p))); t.start(); t.join()
        print("VARIANT" if seen[0] == RT_CONTEXT_NULL else seen)
    """,
    "legal_driver_pin_register": """
        init(); p = malloc_host(1 << 20); rc, d = register(p, 4 * PAGE)
        rc, d2 = devptr(ffi.cast("char *", p) + 64)
        print("VARIANT" if rc == SUCCESS and addr(d2) == addr(d) + 64 else rc)
    """,
    "legal_src_pinned_on_pinned": """
        init(); p = malloc_host(1 << 20)
        print("VARIANT" if lib.aclrtHostRegisterV2(p, PAGE, REG_PINNED) == SUCCESS else "refused")
    """,
    "legal_src_device_id": """
        init()
        print("VARIANT" if malloc_cfg(64, (lib.ACL_RT_MEM_ATTR_DEVICE_ID, 0))[0] == RT_PARAM_INVALID else "accepted")
    """,
    "legal_src_training_registers": """
        init(); p = malloc_host(1 << 20)
        print("VARIANT" if register(p, PAGE)[0] == SUCCESS else "refused")
    """,
    "legal_min_alignment": """
        init()
        ptrs = [addr(malloc_host(s)) for s in (1, 100, 5000, 1 << 20)] + [addr(malloc_cfg(64)[1])]
        print("VARIANT" if all(p % 128 == 64 for p in ptrs) else [hex(p) for p in ptrs])
    """,
    "legal_page_alignment": """
        init()
        ptrs = [addr(malloc_host(s)) for s in (1, 100, 5000)]
        print("VARIANT" if all(p % PAGE == 0 for p in ptrs) else [hex(p) for p in ptrs])
    """,
    "legal_rc_form": """
        init(); mode = ffi.new("aclrtRunMode *"); expect(lib.aclrtGetRunMode(mode), SUCCESS)
        ptrs = [addr(malloc_host(s)) for s in (1, 100, 1 << 20)]
        print("VARIANT" if mode[0] == lib.ACL_DEVICE and all(p % 64 == 32 for p in ptrs) else ptrs)
    """,
    "legal_public_driver": """
        init(); p = malloc_host(PAGE); expect(register(p, PAGE)[0], SUCCESS)
        rc = register(p, PAGE)[0]
        print("VARIANT" if rc == RT_DRV_INTERNAL_ERROR else rc)
    """,
    "legal_drv_malloc_fallback": """
        init()
        ptrs = [addr(malloc_host(s)) for s in (1, 100, 5000, 1 << 20)] + [addr(malloc_cfg(64)[1])]
        print("VARIANT" if all(p % 64 == 16 for p in ptrs) else [hex(p) for p in ptrs])
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
    # --- sequence faults: each scenario builds the history the fault needs ---------------
    "reregister_stale_devptr": """
        init()
        p = malloc_host(1 << 20); expect(register(p, PAGE)[0], SUCCESS, "first register")
        expect(lib.aclrtHostUnregister(p), SUCCESS, "unregister")
        rc, again = register(p, PAGE); expect(rc, SUCCESS, "second register")
        print("VIOLATED" if addr(devptr(p)[1]) != addr(again) else "intact")
    """,
    "devsync_skips_old_streams": _with_stream("""
        init()
        s = ffi.new("aclrtStream *"); expect(lib.aclrtCreateStream(s), SUCCESS)
        expect(lib.aclrtFreeHostWithDevSync(malloc_host(64)), SUCCESS, "first devsync free")
        expect(lib.aclrtLaunchHostFunc(s[0], _hold, ffi.NULL), SUCCESS)
        threading.Timer(0.3, gate.set).start()
        took = seconds(lib.aclrtFreeHostWithDevSync, malloc_host(64))
        print("VIOLATED" if took < 0.2 else "intact")
    """),
    "unregister_freed_leaves_mapping": """
        init()
        p = malloc_host(1 << 20); expect(register(p, PAGE)[0], SUCCESS, "register")
        expect(lib.aclrtFreeHost(p), SUCCESS, "free")
        expect(lib.aclrtHostUnregister(p), SUCCESS, "unregister the freed range")
        # push p's pages out of the simulator's quarantine of 16 freed mappings, then map pageable memory there
        flush = [malloc_host(1 << 20) for _ in range(17)]
        for block in flush:
            expect(lib.aclrtFreeHost(block), SUCCESS, "free")
        print("VIOLATED" if register(pageable_at(addr(p), PAGE), PAGE)[0] != SUCCESS else "intact")
    """,
    "alloc_crowded_overlap": """
        init()
        crowd = [malloc_host(64) for _ in range(8)]
        a = sorted(addr(malloc_host(128)) for _ in range(4))
        print("VIOLATED" if any(x + 128 > y for x, y in zip(a, a[1:])) else "intact")
    """,
    "unregister_drops_newer": """
        init()
        p = malloc_host(1 << 20); q = malloc_host(1 << 20)
        expect(register(p, PAGE)[0], SUCCESS, "register p"); expect(register(q, PAGE)[0], SUCCESS, "register q")
        expect(lib.aclrtHostUnregister(p), SUCCESS, "unregister p")
        print("VIOLATED" if devptr(q)[0] != SUCCESS else "intact")
    """,
    "cap_glitch_after_unregister": """
        init()
        cap = ffi.new("aclrtHostMemMapCapability *")
        expect(lib.aclrtHostMemMapCapabilities(0, lib.ACL_RT_HAC_TYPE_AIC, cap), SUCCESS); before = cap[0]
        p = malloc_host(1 << 20); expect(register(p, PAGE)[0], SUCCESS, "register")
        expect(lib.aclrtHostUnregister(p), SUCCESS, "unregister")
        expect(lib.aclrtHostMemMapCapabilities(0, lib.ACL_RT_HAC_TYPE_AIC, cap), SUCCESS)
        print("VIOLATED" if cap[0] != before else "intact")
    """,
    "thread_stale_devptr_cache": """
        import threading
        init()
        p = malloc_host(1 << 20); expect(register(p, PAGE)[0], SUCCESS, "register")
        expect(devptr(p)[0], SUCCESS, "device pointer")
        rcs = []
        def other():
            rcs.append(lib.aclrtSetDevice(0)); rcs.append(lib.aclrtHostUnregister(p))
        t = threading.Thread(target=other); t.start(); t.join()
        expect(rcs, [SUCCESS, SUCCESS], "unregister on another thread")
        print("VIOLATED" if devptr(p)[0] == SUCCESS else "intact")
    """,
}
