"""Initialisation, per-thread device context, version strings, product selection."""

from __future__ import annotations


def test_given_no_init_when_calling_then_uninitialize(run_sim):
    run_sim("""
        out = ffi.new("void **")
        expect(lib.aclrtMallocHost(out, 64), UNINITIALIZE, "malloc before init")
        expect(lib.aclrtSetDevice(0), UNINITIALIZE, "setdevice before init")
        expect(lib.aclFinalize(), UNINITIALIZE, "finalize before init")
        assert lib.aclrtGetSocName() == ffi.NULL
    """)


def test_given_init_when_repeated_then_repeat_codes(run_sim):
    run_sim("""
        expect(lib.aclInit(ffi.NULL), SUCCESS)
        expect(lib.aclInit(ffi.NULL), REPEAT_INITIALIZE)
        expect(lib.aclFinalize(), SUCCESS)
        expect(lib.aclFinalize(), REPEAT_FINALIZE)
        out = ffi.new("void **")
        expect(lib.aclrtMallocHost(out, 64), UNINITIALIZE, "malloc after finalize")
        expect(lib.aclInit(ffi.NULL), SUCCESS, "init again after finalize")
        expect(lib.aclrtMallocHost(out, 64), RT_CONTEXT_NULL, "device choice did not survive")
    """)


def test_given_no_current_device_when_hostmem_calls_then_context_null(run_sim):
    run_sim("""
        init(device=None)
        out = ffi.new("void **")
        expect(lib.aclrtMallocHost(out, 64), RT_CONTEXT_NULL)
        expect(lib.aclrtMallocHostWithCfg(out, 64, ffi.NULL), RT_CONTEXT_NULL)
        fake = ffi.cast("void *", 0x10000)
        # aclrtFreeHost needs no context (api_impl.cc:2514-2521): the pointer itself is refused.
        expect(lib.aclrtFreeHost(fake), RT_PARAM_INVALID)
        expect(lib.aclrtFreeHostWithDevSync(fake), RT_CONTEXT_NULL)
        expect(lib.aclrtHostRegister(fake, 4096, 0, out), RT_CONTEXT_NULL)
        expect(lib.aclrtHostRegisterV2(fake, 4096, REG_MAPPED), RT_CONTEXT_NULL)
        expect(lib.aclrtHostGetDevicePointer(fake, out, 0), RT_CONTEXT_NULL)
        expect(lib.aclrtHostUnregister(fake), RT_CONTEXT_NULL)
        cap = ffi.new("aclrtHostMemMapCapability *")
        expect(lib.aclrtHostMemMapCapabilities(0, lib.ACL_RT_HAC_TYPE_AIC, cap), RT_CONTEXT_NULL,
               "the capability query needs a current context too (api_impl.cc:2673-2674)")
        # argument checks come before the context check
        expect(lib.aclrtMallocHost(ffi.NULL, 64), INVALID_PARAM)
        expect(lib.aclrtFreeHost(ffi.NULL), INVALID_PARAM)
    """)


def test_given_device_set_in_one_thread_when_other_thread_allocates_then_context_null(run_sim):
    run_sim("""
        import threading
        init()
        p = malloc_host(64)
        seen = {}
        def other():
            out = ffi.new("void **")
            seen["before"] = lib.aclrtMallocHost(out, 64)
            lib.aclrtSetDevice(0)
            seen["after"] = lib.aclrtMallocHost(out, 64)
            lib.aclrtFreeHost(out[0])
        t = threading.Thread(target=other); t.start(); t.join()
        expect(seen["before"], RT_CONTEXT_NULL, "fresh thread")
        expect(seen["after"], SUCCESS, "after its own SetDevice")
        expect(lib.aclrtFreeHost(p), SUCCESS)
    """)


def test_given_device_count_when_set_device_out_of_range_then_invalid_deviceid(run_sim):
    run_sim(
        """
        init(device=None)
        n = ffi.new("uint32_t *")
        expect(lib.aclrtGetDeviceCount(n), SUCCESS)
        assert n[0] == 4, n[0]
        expect(lib.aclrtSetDevice(3), SUCCESS)
        expect(lib.aclrtSetDevice(4), RT_INVALID_DEVICEID)
        expect(lib.aclrtSetDevice(-1), RT_INVALID_DEVICEID)
        expect(lib.aclrtResetDevice(3), SUCCESS)
        out = ffi.new("void **")
        expect(lib.aclrtMallocHost(out, 64), RT_CONTEXT_NULL, "reset clears the current device")
    """,
        env={"ACLSIM_DEVICE_COUNT": "4"},
    )


def test_given_bad_device_count_when_init_then_fails(run_sim):
    r = run_sim("expect(lib.aclInit(ffi.NULL), INVALID_PARAM)", env={"ACLSIM_DEVICE_COUNT": "9"})
    assert "ACLSIM_DEVICE_COUNT" in r.stderr


def test_version_string(run_sim):
    run_sim(
        """
        buf = ffi.new("char[]", 128)
        for name in (b"runtime", b"cann", b"driver"):
            expect(lib.aclsysGetVersionStr(ffi.new("char[]", name), buf), SUCCESS, name)
            assert ffi.string(buf) == b"9.9.9-test", ffi.string(buf)
        expect(lib.aclsysGetVersionStr(ffi.new("char[]", b"nope"), buf), INVALID_PARAM)
        expect(lib.aclsysGetVersionStr(ffi.NULL, buf), INVALID_PARAM)
        expect(lib.aclsysGetVersionStr(ffi.new("char[]", b"cann"), ffi.NULL), INVALID_PARAM)
    """,
        env={"ACLSIM_CANN_VERSION": "9.9.9-test"},
    )


def test_default_version_string(run_sim):
    run_sim("""
        init()
        buf = ffi.new("char[]", 128)
        expect(lib.aclsysGetVersionStr(ffi.new("char[]", b"cann"), buf), SUCCESS)
        assert ffi.string(buf).endswith(b"-aclsim"), ffi.string(buf)  # the newest release: test_releases.py
    """)


def test_soc_name_and_unknown_soc(run_sim):
    run_sim("""
        init()
        assert ffi.string(lib.aclrtGetSocName()) == b"Ascend910B3"
        assert ffi.string(lib.aclsimFamilyName()) == b"A2"
    """)
    r = run_sim("expect(lib.aclInit(ffi.NULL), INVALID_PARAM)", env={"ACLSIM_SOC": "Ascend999X"})
    assert "Ascend999X" in r.stderr
