"""Product families: which interfaces each supports, VA flag support, capabilities."""

from __future__ import annotations

import pytest

# (SoC name, family, registration supported, host allocation supported, VA flag supported)
PRODUCTS = [
    ("Ascend950PR_9599", "950", True, True, False),
    ("Ascend910_9391", "A3", True, True, True),
    ("Ascend910B3", "A2", True, True, True),
    ("Ascend310B1", "310B", False, True, False),
    ("Ascend310P3", "310P", False, True, False),
    ("Ascend910A", "910", False, True, False),
    ("Ascend910ProB", "910", False, True, False),
    ("Ascend910PremiumA", "910", False, True, False),
    ("Ascend350_354f", "IPV350", False, False, False),
]
SUPPORTED_HAC = {"AICPU", "AIC", "AIV", "PCIEDMA", "SDMA"}
# The svm v3 driver's fixed answer over PCIe (svm_register_only.c:224-226); the v2 answer is
# the device firmware's, which the simulator guesses as SUPPORTED_HAC.
SUPPORTED_HAC_BY_SOC = {"Ascend950PR_9599": {"STARS", "AIV"}}
HAC_NAMES = ["STARS", "AICPU", "AIC", "AIV", "PCIEDMA", "RDMA", "SDMA", "DVPP", "UDMA", "CCU"]


@pytest.mark.parametrize("soc,family,reg,alloc,va", PRODUCTS, ids=[p[0] for p in PRODUCTS])
def test_given_product_when_calling_each_interface_then_support_matches(run_sim, soc, family, reg, alloc, va):
    run_sim(
        f"""
        init()
        assert ffi.string(lib.aclsimFamilyName()) == b"{family}"
        NS = RT_FEATURE_NOT_SUPPORT
        out = ffi.new("void **")
        rc = lib.aclrtMallocHost(out, 8192 * 2)
        expect(rc, SUCCESS if {alloc} else NS, "MallocHost")
        rc2 = lib.aclrtMallocHostWithCfg(ffi.new("void **"), 64, ffi.NULL)
        expect(rc2, SUCCESS if {alloc} else NS, "MallocHostWithCfg")
        buf = out[0] if {alloc} else pageable(8192)
        base = ffi.cast("void *", (addr(buf) + PAGE - 1) // PAGE * PAGE)
        expect(lib.aclrtHostRegister(base, PAGE, 0, out), SUCCESS if {reg} else NS, "Register")
        if {reg}:
            expect(lib.aclrtHostGetDevicePointer(base, out, 0), SUCCESS, "GetDevicePointer")
            expect(lib.aclrtHostUnregister(base), SUCCESS, "Unregister")
        elif {alloc}:
            # The runtime's own registry answers (api_impl.cc:2638-2641, 2653-2660).
            expect(lib.aclrtHostGetDevicePointer(base, out, 0), RT_PARAM_INVALID, "GetDevicePointer")
            expect(lib.aclrtHostUnregister(base), NOT_REGISTERED, "Unregister")
        expect(lib.aclrtHostRegisterV2(base, PAGE, REG_MAPPED), SUCCESS if {reg} else NS, "V2")
        if {reg}:
            expect(lib.aclrtHostUnregister(base), SUCCESS)
        cap = ffi.new("aclrtHostMemMapCapability *")
        expect(lib.aclrtHostMemMapCapabilities(0, 2, cap), SUCCESS if {alloc} else NS, "cap")
        rc3, p = malloc_cfg(PAGE, (lib.ACL_RT_MEM_ATTR_VA_FLAG, 1))
        expect(rc3, SUCCESS if {va} else NS, "VA flag")
        rc4, q = malloc_cfg(64, (lib.ACL_RT_MEM_ATTR_VA_FLAG, 0))
        expect(rc4, SUCCESS if {alloc} else NS, "VA flag 0")
        if {alloc}:
            expect(lib.aclrtFreeHost(buf), SUCCESS)
            expect(lib.aclrtFreeHostWithDevSync(q), SUCCESS)
        else:
            expect(lib.aclrtFreeHost(buf), NS)
            expect(lib.aclrtFreeHostWithDevSync(buf), NS)
    """,
        env={"ACLSIM_SOC": soc},
    )


@pytest.mark.parametrize("soc,family,reg", [(p[0], p[1], p[2]) for p in PRODUCTS[:6]], ids=[p[0] for p in PRODUCTS[:6]])
def test_given_product_when_querying_capabilities_then_stable_and_consistent(run_sim, soc, family, reg):
    run_sim(
        f"""
        init()
        cap = ffi.new("aclrtHostMemMapCapability *")
        names = {HAC_NAMES!r}
        for dev in range(2):
            for hac, name in enumerate(names):
                answers = set()
                for _ in range(3):
                    expect(lib.aclrtHostMemMapCapabilities(dev, hac, cap), SUCCESS, name)
                    answers.add(cap[0])
                assert len(answers) == 1, (name, answers)
                want = 1 if ({reg} and name in {sorted(SUPPORTED_HAC_BY_SOC.get(soc, SUPPORTED_HAC))!r}) else 0
                assert answers == {{want}}, (name, answers, want)
        expect(lib.aclrtHostMemMapCapabilities(2, 2, cap), RT_INVALID_DEVICEID)
        expect(lib.aclrtHostMemMapCapabilities(0, 10, cap), RT_PARAM_INVALID)
        expect(lib.aclrtHostMemMapCapabilities(0, 1000, cap), RT_PARAM_INVALID)
        expect(lib.aclrtHostMemMapCapabilities(0, 2, ffi.NULL), INVALID_PARAM)
    """,
        env={"ACLSIM_SOC": soc, "ACLSIM_DEVICE_COUNT": "2"},
    )
