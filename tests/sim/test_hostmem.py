"""Host allocation and release: alignment, content, config attributes, limits, frees."""

from __future__ import annotations

from conftest import DEFAULT_LIB

SMALL_SIZES = [1, 63, 64, 65, 100, 4095, 4096, 4097, 65535]
LARGE_SIZES = [65536, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 2 << 20, 16 << 20]


def test_given_size_matrix_when_malloc_host_then_aligned_poisoned_disjoint(run_sim):
    # On the families without a public driver small blocks share slabs on the documented
    # 64-byte grain (the svm v2 and v3 drivers hand out whole 4 KiB or host-page granules:
    # tests/sim/test_driver_source.py), so some are not page aligned.
    run_sim(
        f"""
        init()
        sizes = {SMALL_SIZES + LARGE_SIZES!r} * 3
        live = []
        for size in sizes:
            p = malloc_host(size)
            assert addr(p) % 64 == 0, (size, hex(addr(p)))
            assert read(p, min(size, 4096)) == b"\\x5a" * min(size, 4096), size
            live.append((addr(p), size, p))
        live.sort()
        for (a, sa, _), (b, _, _) in zip(live, live[1:]):
            assert a + sa <= b, "live blocks overlap"
        small = [a for a, s, _ in live if s < 4096]
        assert any(a % PAGE for a in small), "slab blocks are not all page aligned"
        for i, (_, size, p) in enumerate(live):
            fill(p, size, bytes([i % 251]))
        for i, (_, size, p) in enumerate(live):
            assert read(p, size) == bytes([i % 251]) * size, size
        st = stats()
        assert st.live_host_allocs == len(sizes)
        assert st.live_host_bytes == sum(sizes)
        for _, _, p in live:
            expect(lib.aclrtFreeHost(p), SUCCESS)
        st = stats()
        assert (st.live_host_allocs, st.live_host_bytes) == (0, 0)
    """,
        env={"ACLSIM_POISON": "0x5a", "ACLSIM_SOC": "Ascend310P3"},
    )


def test_given_v2_driver_when_size_matrix_then_4k_granules_poisoned_disjoint(run_sim):
    # svm v2: every small block starts a 4 KiB granule (devmm_virt_interface.c:1198-1199).
    run_sim(
        f"""
        init()
        sizes = {SMALL_SIZES + LARGE_SIZES!r} * 2
        live = sorted((addr(p), size, p) for size in sizes for p in [malloc_host(size)])
        assert all(a % PAGE == 0 for a, _, _ in live), [hex(a) for a, _, _ in live if a % PAGE]
        assert all(read(p, min(size, 4096)) == b"\\x5a" * min(size, 4096) for _, size, p in live)
        for (a, sa, _), (b, _, _) in zip(live, live[1:]):
            assert a + sa <= b, "live blocks overlap"
        for _, _, p in live:
            expect(lib.aclrtFreeHost(p), SUCCESS)
        assert stats().live_host_allocs == 0
    """,
        env={"ACLSIM_POISON": "0x5a", "ACLSIM_SOC": "Ascend910B3"},
    )


def test_given_cfg_variants_when_malloc_with_cfg_then_aligned(run_sim):
    run_sim(
        """
        init()
        MOD, DEV, VA = lib.ACL_RT_MEM_ATTR_MODULE_ID, lib.ACL_RT_MEM_ATTR_DEVICE_ID, lib.ACL_RT_MEM_ATTR_VA_FLAG
        out = ffi.new("void **")
        expect(lib.aclrtMallocHostWithCfg(out, 100, ffi.NULL), SUCCESS, "cfg NULL")
        assert addr(out[0]) % 64 == 0
        expect(lib.aclrtFreeHost(out[0]), SUCCESS)
        for attrs in ([], [(MOD, 3)], [(DEV, 0)], [(VA, 0)], [(VA, 1)], [(MOD, 1), (DEV, 0), (VA, 1)]):
            for size in (1, 65, 4097, 1 << 20):
                rc, p = malloc_cfg(size, *attrs)
                expect(rc, SUCCESS, (attrs, size))
                assert addr(p) % 64 == 0, (attrs, size, hex(addr(p)))
                if any(a == (VA, 1) for a in attrs):
                    assert addr(p) % PAGE == 0, "VA_FLAG blocks are page aligned"
                fill(p, size, b"\\x11")
                assert read(p, size) == b"\\x11" * size
                expect(lib.aclrtFreeHost(p), SUCCESS)
        expect(malloc_cfg(64, (DEV, 1))[0], RT_PARAM_INVALID, "device id not current")
        expect(malloc_cfg(64, (lib.ACL_RT_MEM_ATTR_RSV, 0))[0], RT_PARAM_INVALID, "RSV attr")
        expect(malloc_cfg(64, (7, 0))[0], RT_PARAM_INVALID, "unknown attr")
        cfg = ffi.new("aclrtMallocConfig *")
        cfg.numAttrs = 2
        expect(lib.aclrtMallocHostWithCfg(out, 64, cfg), RT_PARAM_INVALID, "attrs NULL, numAttrs 2")
        cfg.numAttrs = 0
        expect(lib.aclrtMallocHostWithCfg(out, 64, cfg), RT_PARAM_INVALID, "attrs NULL, numAttrs 0")
        expect(lib.aclrtMallocHostWithCfg(out, 0, ffi.NULL), INVALID_PARAM, "size 0")
        expect(lib.aclrtMallocHostWithCfg(ffi.NULL, 64, ffi.NULL), INVALID_PARAM, "ptr NULL")
        assert stats().live_host_allocs == 0
    """,
        env={"ACLSIM_DEVICE_COUNT": "2"},
    )


def test_given_pages_recycled_when_same_sizes_allocated_again_then_fresh_poisoned_and_old_range_free(run_sim):
    # A mapping that leaves the quarantine lends its pages to the next one of its length
    # (hostmem.c's spares): what a caller sees must not change. The recycled block reads as
    # poison, not as what its pages held (even after a stale write); the old range is unmapped,
    # free for anyone's mapping; locked memory is counted as before.
    run_sim(
        """
        init()
        sizes = [1 << 20, (1 << 20) + 1, 3 << 20, 64 << 20]
        for round_ in range(3):
            first = [malloc_host(size) for size in sizes * 10]
            old = [addr(p) for p in first]
            for i, p in enumerate(first):
                fill(p, 4096, bytes([1 + i % 250]))
            for p in first:
                expect(lib.aclrtFreeHost(p), SUCCESS)
            for p in first[-4:]:  # a stale writer: the last frees are still mapped, in the quarantine
                fill(p, 4096, b"w")
            flush = [malloc_host(1 << 16) for _ in range(40)]  # push the quarantine's mappings out
            for p in flush:
                expect(lib.aclrtFreeHost(p), SUCCESS)
            again = [malloc_host(size) for size in sizes * 10]
            for p, size in zip(again, sizes * 10):
                assert read(p, 4096) == b"\\x5a" * 4096, (round_, size)
                assert read(ffi.cast("char *", p) + size - 1, 1) == b"\\x5a", size
            st = stats()
            assert st.live_host_allocs == len(again) and st.unlocked_host_allocs == 0, st
            mine = {addr(p) for p in again}
            taken = [a for a in old if a not in mine]
            assert taken, "every old range is in use again"
            assert register(pageable_at(taken[-1], PAGE), PAGE)[0] == SUCCESS, "an old range is free for others"
            expect(lib.aclrtHostUnregister(ffi.cast("void *", taken[-1])), SUCCESS)
            for p in again:
                expect(lib.aclrtFreeHost(p), SUCCESS)
        """,
        env={"ACLSIM_HOST_MEM_LIMIT": str(2 << 30), "ACLSIM_POISON": "0x5a"},
    )


def test_given_invalid_args_when_malloc_or_free_then_invalid_param(run_sim):
    run_sim("""
        init()
        out = ffi.new("void **")
        expect(lib.aclrtMallocHost(out, 0), INVALID_PARAM, "size 0")
        expect(lib.aclrtMallocHost(ffi.NULL, 64), INVALID_PARAM, "out NULL")
        expect(lib.aclrtFreeHost(ffi.NULL), INVALID_PARAM)
        expect(lib.aclrtFreeHostWithDevSync(ffi.NULL), INVALID_PARAM)
        p = malloc_host(256)
        q = malloc_host(1 << 20)
        expect(lib.aclrtFreeHost(ffi.cast("char *", p) + 64), RT_PARAM_INVALID, "interior small")
        expect(lib.aclrtFreeHost(ffi.cast("char *", q) + 4096), RT_PARAM_INVALID, "interior large")
        d = ffi.new("void **")
        expect(lib.aclrtMalloc(d, 128, 0), SUCCESS)
        expect(lib.aclrtFreeHost(d[0]), RT_PARAM_INVALID, "device pointer")
        expect(lib.aclrtFreeHost(pageable(4096)), RT_PARAM_INVALID, "foreign memory")
        expect(lib.aclrtFreeHost(ffi.cast("void *", 0xdead0000)), RT_PARAM_INVALID, "never mapped")
        expect(lib.aclrtFreeHost(p), SUCCESS)
        expect(lib.aclrtFreeHost(p), RT_PARAM_INVALID, "double free")
        expect(lib.aclrtFreeHostWithDevSync(q), SUCCESS)
        expect(lib.aclrtFreeHostWithDevSync(q), RT_PARAM_INVALID, "double free devsync")
        expect(lib.aclrtFree(p), INVALID_PARAM, "host pointer to aclrtFree")
        expect(lib.aclrtFree(d[0]), SUCCESS)
        expect(lib.aclrtFree(d[0]), INVALID_PARAM)
        st = stats()
        assert (st.live_host_allocs, st.live_device_allocs) == (0, 0)
    """)


def test_given_limit_when_exhausted_then_207001_and_recovers(run_sim):
    run_sim(
        """
        init()
        out = ffi.new("void **")
        ptrs = [malloc_host(1 << 20) for _ in range(4)]
        expect(lib.aclrtMallocHost(out, 1), RT_MEMORY_ALLOCATION, "past the limit")
        rc, _ = malloc_cfg(64)
        expect(rc, RT_MEMORY_ALLOCATION, "cfg past the limit")
        expect(lib.aclrtFreeHost(ptrs.pop()), SUCCESS)
        ptrs.append(malloc_host(1 << 20))
        expect(lib.aclrtMallocHost(out, 1 << 30), RT_MEMORY_ALLOCATION, "huge")
        for p in ptrs:
            expect(lib.aclrtFreeHost(p), SUCCESS)
        ptrs = [malloc_host(1 << 20) for _ in range(4)]
    """,
        env={"ACLSIM_HOST_MEM_LIMIT": str(4 << 20)},
    )


def test_given_mlock_limit_when_allocating_then_unlocked_counted_and_warned_once(run_sim):
    r = run_sim(
        """
        init()
        a = malloc_host(64)
        b = malloc_host(1 << 20)
        c = malloc_host(2 << 20)
        st = stats()
        assert st.live_host_allocs == 3
        assert st.unlocked_host_allocs == 3, st.unlocked_host_allocs
        fill(c, 2 << 20, b"q"); assert read(c, 2 << 20) == b"q" * (2 << 20)
        for p in (a, b, c):
            expect(lib.aclrtFreeHost(p), SUCCESS)
        assert stats().unlocked_host_allocs == 0
    """,
        env={"ACLSIM_MLOCK_LIMIT": "4096"},
    )
    assert r.stderr.count("mlock failed") == 1, r.stderr


def test_given_real_rlimit_when_not_root_then_mlock_degrades(run_sim):
    # Root ignores RLIMIT_MEMLOCK (CAP_IPC_LOCK), so the scenario drops to an unprivileged
    # user first when it runs as root. AddressSanitizer intercepts mlock and makes it a
    # no-op that succeeds, so this scenario always runs the plain build.
    plain = {"ACLSIM_LIB": str(DEFAULT_LIB), "LD_PRELOAD": ""}
    r = run_sim(env=plain, code="""
        import os, resource
        resource.setrlimit(resource.RLIMIT_MEMLOCK, (0, 0))
        if os.geteuid() == 0:
            os.setgid(65534)
            os.setuid(65534)
        init()
        p = malloc_host(1 << 20)
        assert stats().unlocked_host_allocs == 1
        expect(lib.aclrtFreeHost(p), SUCCESS)
    """)
    assert "mlock failed" in r.stderr


def test_given_registered_block_when_freed_then_registration_outlives_it(run_sim):
    # The runtime's free does not touch its registry (api_impl.cc:2512-2537).
    run_sim("""
        init()
        p = malloc_host(1 << 20)
        rc, d = register(p, 1 << 20)
        expect(rc, SUCCESS)
        assert stats().live_registrations == 1
        expect(lib.aclrtFreeHost(p), SUCCESS)
        assert stats().live_registrations == 1
        expect(lib.aclrtHostUnregister(p), SUCCESS)
        assert stats().live_registrations == 0
    """)


def test_given_other_choices_variant_when_registered_block_freed_then_registration_dropped(run_sim):
    run_sim("""
        init()
        p = malloc_host(1 << 20)
        expect(register(p, 1 << 20)[0], SUCCESS)
        expect(lib.aclrtFreeHost(p), SUCCESS)
        assert stats().live_registrations == 0
    """, env={"ACLSIM_FAULTS": "legal_other_choices"})


def test_given_memset_when_count_rules_then_content(run_sim):
    run_sim("""
        init()
        p = malloc_host(1000)
        expect(lib.aclrtMemset(p, 1000, 7, 1000), SUCCESS)
        assert read(p, 1000) == b"\\x07" * 1000
        expect(lib.aclrtMemset(p, 1000, 9, 1001), INVALID_PARAM, "count > maxCount")
        expect(lib.aclrtMemset(ffi.NULL, 10, 9, 1), INVALID_PARAM)
        d = ffi.new("void **")
        expect(lib.aclrtMalloc(d, 256, 0), SUCCESS)
        assert addr(d[0]) % 64 == 0
        expect(lib.aclrtMemset(d[0], 256, 3, 256), SUCCESS)
        assert read(d[0], 256) == b"\\x03" * 256
        rc, v = malloc_cfg(PAGE, (lib.ACL_RT_MEM_ATTR_VA_FLAG, 1))
        expect(rc, SUCCESS)
        rc, dv = register(v, PAGE)
        expect(rc, SUCCESS)
        expect(lib.aclrtMemset(dv, PAGE, 5, PAGE), SUCCESS, "VA-identical address")
        assert read(v, PAGE) == b"\\x05" * PAGE
        q = malloc_host(1 << 20)
        rc, dq = register(q, 2 * PAGE)
        expect(rc, SUCCESS)
        expect(lib.aclrtMemset(dq, PAGE, 5, PAGE), INVALID_PARAM, "mapped device address")
    """)
