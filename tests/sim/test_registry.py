"""Registration table, V1 types, V2 flags, PINNED, VA identity, device pointers, kernel rule.

The default SoC (Ascend910B3, Atlas A2) has the public svm v2 driver: where its answers
differ from the docs-only model's the scenarios say so; tests/sim/test_driver_source.py
checks each driver answer against the driver's lines.
"""

from __future__ import annotations

import pytest


def test_given_registration_when_lifecycle_then_codes_and_content_preserved(run_sim):
    run_sim("""
        init()
        size = 1 << 20
        p = malloc_host(size)
        fill(p, size, b"abcdefg")
        before = read(p, size)
        rc, d = register(p, size)
        expect(rc, SUCCESS, "register")
        assert addr(d) >= VA_WINDOW_BASE and addr(d) != addr(p), hex(addr(d))
        assert read(p, size) == before, "registration changed content"
        rc, d2 = devptr(p)
        expect(rc, SUCCESS); assert addr(d2) == addr(d)
        # svm v2 answers device pointers from its per-device records, base plus offset
        # (svm_mem_register_record.c:306-325), not only for the exact base.
        rc, d3 = devptr(ffi.cast("char *", p) + 12345)
        expect(rc, SUCCESS, "interior"); assert addr(d3) == addr(d) + 12345
        expect(devptr(p, flag=1)[0], INVALID_PARAM, "flag != 0")
        expect(register(p, size)[0], ALREADY_REGISTERED, "duplicate")
        half = ffi.cast("char *", p) + size // 2
        # svm v2 refuses any other overlap as -EINVAL (svm_master_remote_map.c:2083-2088), 507899.
        expect(register(half, PAGE)[0], RT_DRV_INTERNAL_ERROR, "inside")
        expect(lib.aclrtHostRegisterV2(p, 2 * PAGE, REG_MAPPED), ALREADY_REGISTERED, "prefix")
        expect(lib.aclrtHostUnregister(half), NOT_REGISTERED, "interior unregister")
        expect(lib.aclrtHostUnregister(p), SUCCESS)
        expect(lib.aclrtHostUnregister(p), NOT_REGISTERED, "double unregister")
        expect(devptr(p)[0], RT_PARAM_INVALID, "devptr after unregister")
        expect(lib.aclrtHostUnregister(ffi.cast("void *", 0x7000000)), NOT_REGISTERED, "unknown")
        assert read(p, size) == before
        rc, d4 = register(p, size)
        expect(rc, SUCCESS, "re-register")
        assert addr(d4) != addr(d), "window addresses are not reused"
        expect(lib.aclrtHostUnregister(p), SUCCESS)
        assert stats().live_registrations == 0
        expect(lib.aclrtFreeHost(p), SUCCESS)
    """)


def test_given_adjacent_ranges_when_registering_then_both_succeed(run_sim):
    run_sim("""
        init()
        p = malloc_host(1 << 20)
        a = ffi.cast("char *", p)
        expect(register(a, 4 * PAGE)[0], SUCCESS)
        expect(register(a + 4 * PAGE, 4 * PAGE)[0], SUCCESS)
        # svm v2: a partial overlap is the kernel's -EINVAL (svm_master_remote_map.c:2083-2088), 507899.
        expect(register(a + 3 * PAGE, 2 * PAGE)[0], RT_DRV_INTERNAL_ERROR, "straddles both")
        expect(lib.aclrtHostRegisterV2(a + 3 * PAGE, 2 * PAGE, REG_MAPPED), ALREADY_REGISTERED, "V2: the runtime")
        assert stats().live_registrations == 2
        expect(lib.aclrtHostUnregister(a), SUCCESS)
        expect(lib.aclrtHostUnregister(a + 4 * PAGE), SUCCESS)
        expect(lib.aclrtFreeHost(p), SUCCESS)
        assert stats().live_registrations == 0
    """)


def test_given_bad_register_args_then_documented_codes(run_sim):
    run_sim("""
        init()
        p = malloc_host(1 << 20)
        out = ffi.new("void **")
        expect(lib.aclrtHostRegister(ffi.NULL, PAGE, 0, out), INVALID_PARAM)
        expect(lib.aclrtHostRegister(p, 0, 0, out), INVALID_PARAM)
        expect(lib.aclrtHostRegister(p, PAGE, 0, ffi.NULL), INVALID_PARAM)
        # svm v2: the driver answers the options the runtime passes on - READONLY is refused
        # in user space (devmm_svm.c:3501-3503), IOMEMORY of RAM in the kernel
        # (svm_master_remote_map.c:1576-1595, 507899). Unaligned pointers: test_driver_source.
        expect(lib.aclrtHostRegister(p, PAGE, lib.ACL_HOST_REGISTER_IOMEMORY, out), RT_DRV_INTERNAL_ERROR)
        expect(lib.aclrtHostRegister(p, PAGE, lib.ACL_HOST_REGISTER_READONLY, out), RT_FEATURE_NOT_SUPPORT)
        for bad in (1, 2, 3, 16, 0x7fffffff):
            expect(lib.aclrtHostRegister(p, PAGE, bad, out), RT_FEATURE_NOT_SUPPORT, bad)
        expect(lib.aclrtHostRegisterV2(ffi.NULL, PAGE, REG_MAPPED), INVALID_PARAM)
        expect(lib.aclrtHostRegisterV2(p, 0, REG_MAPPED), INVALID_PARAM)
        for bad in (0, 1, 0x10, 0x20000000, REG_MAPPED | 0x100):
            expect(lib.aclrtHostRegisterV2(p, PAGE, bad), RT_PARAM_INVALID, hex(bad))
        for option, code in ((REG_IOMEMORY, RT_DRV_INTERNAL_ERROR), (REG_READONLY, RT_FEATURE_NOT_SUPPORT),
                             (REG_MAPPED | REG_READONLY, RT_FEATURE_NOT_SUPPORT)):
            expect(lib.aclrtHostRegisterV2(p, PAGE, option), code, hex(option))
        expect(lib.aclrtHostGetDevicePointer(ffi.NULL, out, 0), INVALID_PARAM)
        expect(lib.aclrtHostGetDevicePointer(p, ffi.NULL, 0), INVALID_PARAM)
        expect(lib.aclrtHostUnregister(ffi.NULL), INVALID_PARAM)
        expect(devptr(p)[0], RT_PARAM_INVALID, "never registered")
        assert stats().live_registrations == 0
        expect(lib.aclrtFreeHost(p), SUCCESS)
    """)


def test_given_v2_flags_when_registering_then_pinned_rules(run_sim):
    run_sim("""
        init()
        p = malloc_host(1 << 20)
        expect(lib.aclrtHostRegisterV2(p, PAGE, REG_MAPPED), SUCCESS)
        rc, d = devptr(p); expect(rc, SUCCESS)
        assert addr(d) >= VA_WINDOW_BASE
        expect(lib.aclrtHostUnregister(p), SUCCESS)
        expect(lib.aclrtHostRegisterV2(p, PAGE, REG_PINNED), RT_PARAM_INVALID, "pinned on pinned (docs)")
        expect(lib.aclrtHostRegisterV2(p, PAGE, REG_PINNED | REG_MAPPED), RT_PARAM_INVALID)
        q = pageable(8 * PAGE)
        fill(q, 8 * PAGE, b"xyz")
        expect(lib.aclrtHostRegisterV2(q, 8 * PAGE, REG_PINNED), SUCCESS, "pinned pageable")
        expect(devptr(q)[0], RT_PARAM_INVALID, "pinned without mapped has no device pointer")
        expect(lib.aclrtHostUnregister(q), SUCCESS)
        expect(lib.aclrtHostRegisterV2(q, 8 * PAGE, REG_PINNED | REG_MAPPED), SUCCESS)
        rc, dq = devptr(q); expect(rc, SUCCESS)
        assert addr(dq) >= VA_WINDOW_BASE
        assert read(q, 8 * PAGE) == (b"xyz" * 20000)[:8 * PAGE]
        expect(lib.aclrtHostUnregister(q), SUCCESS)
        expect(lib.aclrtFreeHost(p), SUCCESS)
    """)


def test_given_pageable_memory_when_kernel_new_then_registers(run_sim):
    run_sim(
        """
        init()
        q = pageable(4 * PAGE)
        rc, d = register(q, 4 * PAGE)
        expect(rc, SUCCESS)
        assert addr(d) != addr(q)
        expect(lib.aclrtHostUnregister(q), SUCCESS)
        import mmap
        gone = mmap.mmap(-1, 4 * PAGE)
        bad = ffi.cast("void *", addr(ffi.from_buffer(gone)))
        gone.close()  # unmapped again: nothing lives there now
        # svm v2 cannot pin pages that are not mapped: -EFAULT, DRV_ERROR_INVALID_HANDLE, 107017
        # (svm_master_remote_map.c:1520-1525, drv_log_user_kernel_api.c:63).
        expect(register(bad, PAGE)[0], RT_INVALID_HANDLE, "unmapped memory")
    """,
        env={"ACLSIM_KERNEL": "6.6.0"},
    )


def test_given_legacy_kernel_when_registering_pageable_then_drv_error(run_sim):
    run_sim(
        """
        init()
        q = pageable(4 * PAGE)
        expect(register(q, 4 * PAGE)[0], RT_DRV_INTERNAL_ERROR, "pageable on 5.10")
        expect(lib.aclrtHostRegisterV2(q, PAGE, REG_MAPPED), RT_DRV_INTERNAL_ERROR)
        p = malloc_host(1 << 20)
        expect(register(p, 1 << 20)[0], SUCCESS, "aclrtMallocHost memory on 5.10")
        expect(lib.aclrtHostUnregister(p), SUCCESS)
        expect(lib.aclrtFreeHost(p), SUCCESS)
    """,
        env={"ACLSIM_KERNEL": "5.10.0-136.12.0.86.h1032.eulerosv2r12.aarch64"},
    )


def test_given_va_flag_when_registering_then_identity_and_copy_works(run_sim):
    run_sim("""
        init()
        size = 3 * PAGE
        rc, v = malloc_cfg(size, (lib.ACL_RT_MEM_ATTR_VA_FLAG, 1))
        expect(rc, SUCCESS)
        rc, d = register(v, size)
        expect(rc, SUCCESS)
        assert addr(d) == addr(v), "VA identity"
        rc, d2 = devptr(v)
        expect(rc, SUCCESS); assert addr(d2) == addr(v)
        src = ffi.new("char[]", b"hello through the identical address")
        expect(lib.aclrtMemcpy(d, size, src, len(src), lib.ACL_MEMCPY_HOST_TO_DEVICE), SUCCESS)
        assert read(v, len(src)) == bytes(ffi.buffer(src))
        expect(lib.aclrtHostUnregister(v), SUCCESS)
        expect(lib.aclrtFreeHost(v), SUCCESS)
        rc, w = malloc_cfg(size, (lib.ACL_RT_MEM_ATTR_VA_FLAG, 0))
        expect(rc, SUCCESS)
    """)


def test_given_mapped_devptr_when_memcpy_then_rejected_without_crash(run_sim):
    run_sim("""
        init()
        p = malloc_host(1 << 20)
        rc, d = register(p, 1 << 20)
        expect(rc, SUCCESS)
        buf = ffi.new("char[]", 4096)
        H2D, D2H = lib.ACL_MEMCPY_HOST_TO_DEVICE, lib.ACL_MEMCPY_DEVICE_TO_HOST
        expect(lib.aclrtMemcpy(d, 4096, buf, 4096, H2D), INVALID_PARAM, "dst mapped")
        expect(lib.aclrtMemcpy(buf, 4096, d, 4096, D2H), INVALID_PARAM, "src mapped")
        expect(lib.aclrtMemcpyAsync(d, 4096, buf, 4096, H2D, ffi.NULL), INVALID_PARAM, "async")
        expect(lib.aclrtMemcpy(p, 4096, buf, 4096, H2D), SUCCESS, "host pointer is fine")
        expect(lib.aclrtHostUnregister(p), SUCCESS)
        expect(lib.aclrtMemcpy(d, 4096, buf, 4096, H2D), INVALID_PARAM, "stale mapped")
        expect(lib.aclrtFreeHost(p), SUCCESS)
    """)


def test_given_pinned_on_pinned_when_source_variant_then_registry_accepts(run_sim):
    # Conflict: the docs refuse PINNED on page-locked memory (11-02:350); the runtime's own
    # registry accepts it (api_impl.cc:2592-2609). The simulator follows the docs unless told.
    run_sim("""
        init()
        p = malloc_host(1 << 20)
        expect(lib.aclrtHostRegisterV2(p, PAGE, REG_PINNED), SUCCESS, "recorded in the registry only")
        expect(devptr(p)[0], RT_PARAM_INVALID, "no mapping")
        expect(lib.aclrtHostUnregister(p), SUCCESS)
        expect(lib.aclrtHostRegisterV2(p, PAGE, REG_PINNED | REG_MAPPED), SUCCESS, "the driver maps it")
        expect(devptr(p)[0], SUCCESS)
        expect(lib.aclrtHostUnregister(p), SUCCESS)
    """, env={"ACLSIM_FAULTS": "legal_src_pinned_on_pinned"})


def test_given_docs_only_driver_when_registering_then_the_docs_answers(run_sim):
    # The Atlas training series has no public driver: with registration enabled there
    # (legal_src_training_registers) the docs-only model answers.
    run_sim("""
        init(); assert driver_name() == "docs"
        p = malloc_host(1 << 20); base = page_up(p); out = ffi.new("void **")
        expect(lib.aclrtHostRegister(ffi.cast("char *", base) + 64, PAGE, 0, out), RT_PARAM_INVALID, "unaligned")
        for kind in (lib.ACL_HOST_REGISTER_IOMEMORY, lib.ACL_HOST_REGISTER_READONLY):
            expect(lib.aclrtHostRegister(base, PAGE, kind, out), RT_FEATURE_NOT_SUPPORT, kind)
        for option in (REG_IOMEMORY, REG_READONLY, REG_MAPPED | REG_READONLY):
            expect(lib.aclrtHostRegisterV2(base, PAGE, option), RT_FEATURE_NOT_SUPPORT, hex(option))
        rc, d = register(base, 4 * PAGE); expect(rc, SUCCESS)
        expect(devptr(ffi.cast("char *", base) + 64)[0], RT_PARAM_INVALID, "the runtime's records: exact base")
        expect(register(ffi.cast("char *", base) + PAGE, PAGE)[0], ALREADY_REGISTERED, "inside")
        expect(lib.aclrtHostUnregister(base), SUCCESS)
        assert stats().live_registrations == 0
    """, env={"ACLSIM_SOC": "Ascend910A", "ACLSIM_FAULTS": "legal_src_training_registers"})


# The driver-side pinning path, by its setting and by the legal variant that is its alias.
PIN_REGISTER_DRIVER = [{"ACLSIM_PIN_REGISTER": "driver"}, {"ACLSIM_FAULTS": "legal_driver_pin_register"}]


@pytest.mark.parametrize("switch", PIN_REGISTER_DRIVER, ids=["setting", "alias"])
def test_given_pin_register_driver_then_interior_pointers_resolve_per_device(run_sim, switch):
    run_sim("""
        init(0)
        p = malloc_host(1 << 20)
        rc, d = register(p, 4 * PAGE); expect(rc, SUCCESS)
        rc, d2 = devptr(ffi.cast("char *", p) + 100); expect(rc, SUCCESS)
        assert addr(d2) == addr(d) + 100, "the driver resolves any address of the range"
        expect(lib.aclrtSetDevice(1), SUCCESS)
        expect(devptr(p)[0], RT_PARAM_INVALID, "device 1 has no such mapping")
        expect(lib.aclrtHostUnregister(p), NOT_REGISTERED)
        expect(lib.aclrtSetDevice(0), SUCCESS)
        expect(lib.aclrtHostUnregister(p), SUCCESS)
    """, env={**switch, "ACLSIM_DEVICE_COUNT": "2"})


@pytest.mark.parametrize("setting", ["runtime", "driver"])
def test_pin_register_setting_decides_who_keeps_a_pinned_only_registration(run_sim, setting):
    """runtime: PINNED alone is a runtime record, no driver node, and a repeated range is the
    runtime's 507910; driver: halHostRegister keeps it per device (api_impl.cc:2589-2591), a repeat is
    the driver's BUSY, 507910 (npu_driver_mem.cc:241-242), and the runtime keeps no record."""
    run_sim("""
        init(0)
        q = pageable(8 * PAGE)
        expect(lib.aclrtHostRegisterV2(q, 8 * PAGE, REG_PINNED), SUCCESS)
        expect(lib.aclrtHostRegisterV2(q, 8 * PAGE, REG_PINNED), ALREADY_REGISTERED, "repeated PINNED")
        expect(lib.aclrtSetDevice(1), SUCCESS)
        second = lib.aclrtHostRegisterV2(q, 8 * PAGE, REG_PINNED)
        if DRIVER:  # nodes are per device
            expect(second, SUCCESS, "another device's driver node")
            expect(lib.aclrtHostUnregister(q), SUCCESS)
        else:  # one process-wide record
            expect(second, ALREADY_REGISTERED, "the runtime's record")
        expect(lib.aclrtSetDevice(0), SUCCESS)
        expect(lib.aclrtHostUnregister(q), SUCCESS)
        assert stats().live_registrations == 0
    """, env={"ACLSIM_PIN_REGISTER": setting, "ACLSIM_DEVICE_COUNT": "2"}, prelude=f"DRIVER = {setting == 'driver'}\n")


@pytest.mark.parametrize(("env", "named"), [
    ({"ACLSIM_PIN_REGISTER": "kernel"}, "is neither 'runtime' nor 'driver'"),
    ({"ACLSIM_PIN_REGISTER": "driver", "ACLSIM_SOC": "Ascend310P3"}, "needs a family with a public svm driver"),
    ({"ACLSIM_PIN_REGISTER": "driver", "ACLSIM_CANN_VERSION": "9.1.0-aclsim"}, "needs CANN 9.2.0-beta.2 or newer"),
    ({"ACLSIM_PIN_REGISTER": "runtime", "ACLSIM_FAULTS": "legal_driver_pin_register"}, "drop one of them"),
])
def test_a_pin_register_setting_the_simulator_cannot_model_stops_init_with_one_line(run_sim, env, named):
    r = run_sim("expect(lib.aclInit(ffi.NULL), INVALID_PARAM)\n", env=env)
    lines = [line for line in r.stderr.splitlines() if line.startswith("aclsim:")]
    assert len(lines) == 1 and "ACLSIM_PIN_REGISTER" in lines[0] and named in lines[0], r.stderr


@pytest.mark.parametrize("env", [{}, {"ACLSIM_PIN_REGISTER": ""}, {"ACLSIM_PIN_REGISTER": "runtime"},
                                 {"ACLSIM_PIN_REGISTER": "driver", "ACLSIM_SOC": "Ascend950PR_9599"},
                                 {"ACLSIM_PIN_REGISTER": "driver", "ACLSIM_CANN_VERSION": "9.2.0-beta.2-aclsim"}])
def test_pin_register_settings_the_simulator_models_initialise(run_sim, env):
    r = run_sim("init()\n", env=env)
    assert "aclsim:" not in r.stderr, r.stderr


@pytest.mark.parametrize("soc", ["Ascend910B3", "Ascend950PR_9599"])
def test_driver_pins_under_the_public_drivers_answers_keep_the_documented_codes(run_sim, soc):
    """A driver with pinned registration reports a re-registration as BUSY, which the runtime turns
    into 507910 for V1 and V2 alike (npu_driver_mem.cc:240-242), also where the rest of its answers are
    the public driver's (legal_public_driver); a pinned-only node maps nothing, so the remote map's
    host-page alignment and rounding do not apply to it (64 KiB host pages)."""
    run_sim("""
        init(0)
        p = malloc_host(1 << 20)
        expect(register(p, 4 * PAGE)[0], SUCCESS)
        expect(register(p, 4 * PAGE)[0], ALREADY_REGISTERED, "V1 again")
        expect(lib.aclrtHostRegisterV2(p, 4 * PAGE, REG_MAPPED), ALREADY_REGISTERED, "V2 of the same range")
        expect(lib.aclrtHostUnregister(p), SUCCESS)
        q = pageable_aligned(8 * 65536, 65536)
        inner = ffi.cast("char *", q) + PAGE
        expect(lib.aclrtHostRegisterV2(inner, 2 * PAGE, REG_PINNED), SUCCESS, "pinned-only, 4 KiB aligned")
        expect(lib.aclrtHostRegisterV2(inner, 2 * PAGE, REG_PINNED), ALREADY_REGISTERED, "pinned-only again")
        after = ffi.cast("char *", inner) + 2 * PAGE  # the same 64 KiB host page, the next 4 KiB one
        expect(lib.aclrtHostRegisterV2(after, PAGE, REG_PINNED), SUCCESS, "a neighbour in the same host page")
        expect(lib.aclrtHostUnregister(after), SUCCESS)
        expect(lib.aclrtHostUnregister(inner), SUCCESS)
    """, env={"ACLSIM_SOC": soc, "ACLSIM_PIN_REGISTER": "driver", "ACLSIM_FAULTS": "legal_public_driver",
              "ACLSIM_HOST_PAGE": "65536", "ACLSIM_KERNEL": "6.6.0", "ACLSIM_DEVICE_COUNT": "2"})
