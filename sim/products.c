/*
 * Product families: SoC-name matching, the family's driver generation, per-family
 * support of the host-memory interfaces, VA-flag support, the emulated kernel rule
 * and the capability query aclrtHostMemMapCapabilities.
 *
 * The exported capability query is hooks.c's, which applies the faults that rewrite its
 * answer; model_aclrtHostMemMapCapabilities answers from the product tables.
 *
 * The faults and variants that change the tables act at their named fault points
 * (FAULT_POINT, see fault_points.h); their behaviour is in faults/products.c.
 *
 * Lock discipline: the tables here are constant and no lock is taken here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault_points.h"
#include "aclsim_releases.h"

typedef struct {
    const char *pattern; /* SoC name, or prefix when exact == 0 */
    int exact;
    simFamily family;
} simSocPattern;

static const simSocPattern kSocPatterns[] = {
    {"Ascend950", 0, SIM_FAM_950},
    {"Ascend910_93", 0, SIM_FAM_A3},
    {"Ascend910B", 0, SIM_FAM_A2},
    {"Ascend310B", 0, SIM_FAM_310B},
    {"Ascend310P", 0, SIM_FAM_310P},
    {"Ascend910A", 1, SIM_FAM_910},
    {"Ascend910Pro", 0, SIM_FAM_910},
    {"Ascend910Premium", 0, SIM_FAM_910},
    {"Ascend350_", 0, SIM_FAM_IPV350},
};

static const char *const kFamilyNames[] = {
    [SIM_FAM_950] = "950",       [SIM_FAM_A3] = "A3",     [SIM_FAM_A2] = "A2",
    [SIM_FAM_310B] = "310B",     [SIM_FAM_310P] = "310P", [SIM_FAM_910] = "910",
    [SIM_FAM_IPV350] = "IPV350", [SIM_FAM_UNKNOWN] = "unknown",
};

simFamily sim_family_from_soc(const char *soc)
{
    if (soc == NULL) {
        return SIM_FAM_UNKNOWN;
    }
    for (size_t i = 0; i < sizeof(kSocPatterns) / sizeof(kSocPatterns[0]); i++) {
        const simSocPattern *p = &kSocPatterns[i];
        size_t n = strlen(p->pattern);
        if (p->exact ? strcmp(soc, p->pattern) == 0 : strncmp(soc, p->pattern, n) == 0) {
            return p->family;
        }
    }
    return SIM_FAM_UNKNOWN;
}

const char *sim_family_name(simFamily fam)
{
    if ((int)fam < 0 || fam > SIM_FAM_UNKNOWN) {
        return "unknown";
    }
    return kFamilyNames[fam];
}

/* The driver the family's driver build compiles (hicann/driver@ef377e950a32): build.sh:46-64
 * maps ascend910b and ascend910_93 to PRODUCT=ascend910B and ascend950 to itself, and
 * src/ascend_hal/svm/CMakeLists.txt:11-15 builds svm v2 for the first and v3 for the
 * second. The other families' drivers are not in the repository. */
simDriverGen sim_driver_generation(simFamily fam)
{
    switch (fam) {
    case SIM_FAM_A2:
    case SIM_FAM_A3:
        return SIM_DRV_V2;
    case SIM_FAM_950:
        return SIM_DRV_V3;
    default:
        return SIM_DRV_DOCS;
    }
}

/* Registration per the docs (11-02_host_memory_management.md: 950, A3, A2). The runtime
 * source also enables it on the Atlas training chip (config/cloud/dev_info_reg.cc:60); a
 * legal variant at products.registration takes that side of the conflict. */
static int family_has_registration(simFamily fam)
{
    simProductRegistrationSite site = {.family = fam,
                                       .registration = fam == SIM_FAM_950 || fam == SIM_FAM_A3 || fam == SIM_FAM_A2};
    FAULT_POINT(PRODUCTS_REGISTRATION, &site);
    return site.registration;
}

const char *sim_family_id(simFamily fam)
{
    static const char *const ids[] = {
        [SIM_FAM_950] = "ascend_950",         [SIM_FAM_A3] = "atlas_a3",
        [SIM_FAM_A2] = "atlas_a2",            [SIM_FAM_310B] = "atlas_200i_500_a2",
        [SIM_FAM_310P] = "atlas_inference",   [SIM_FAM_910] = "atlas_training",
        [SIM_FAM_IPV350] = "ipv350",          [SIM_FAM_UNKNOWN] = "unknown",
    };
    return ids[fam];
}

/* Whether the release the simulator answers as already supports api on fam: older releases
 * list fewer products (8.5.0 and 9.0.0: A3 and A2 only), interfaces.yaml support_since. */
static int supported_in_release(simFamily fam, simApi api)
{
    static const char *const names[] = {
        [SIM_API_MALLOC_HOST] = "aclrtMallocHost",         [SIM_API_MALLOC_HOST_CFG] = "aclrtMallocHostWithCfg",
        [SIM_API_FREE_HOST] = "aclrtFreeHost",             [SIM_API_FREE_HOST_DEVSYNC] = "aclrtFreeHostWithDevSync",
        [SIM_API_REGISTER] = "aclrtHostRegister",          [SIM_API_REGISTER_V2] = "aclrtHostRegisterV2",
        [SIM_API_GET_DEVPTR] = "aclrtHostGetDevicePointer", [SIM_API_MEMMAP_CAP] = "aclrtHostMemMapCapabilities",
        [SIM_API_UNREGISTER] = "aclrtHostUnregister",
    };
    int release = sim_release();
    /* 9.1.0 lists registration on the 950PR but not the 950DT (v9.1.0 docs/03_api_ref/
     * 11-02_主机内存管理.md:205-206); the spec's family enters whole only with the pinned docs. */
    if (fam == SIM_FAM_950 && release >= ACLSIM_REL_9_1_0 && strncmp(sim_config()->soc, "Ascend950PR", 11) == 0) {
        return 1;
    }
    for (size_t i = 0; i < sizeof(aclsimSupportSince) / sizeof(aclsimSupportSince[0]); i++) {
        if (strcmp(aclsimSupportSince[i].name, names[api]) == 0 &&
            strcmp(aclsimSupportSince[i].family, sim_family_id(fam)) == 0) {
            return release >= (int)aclsimSupportSince[i].since;
        }
    }
    return 1;
}

/* The family's support of api on the docs' product matrix. */
static int family_supports(simFamily fam, simApi api)
{
    switch (api) {
    case SIM_API_REGISTER:
    case SIM_API_REGISTER_V2:
    case SIM_API_GET_DEVPTR:
    case SIM_API_UNREGISTER:
        return family_has_registration(fam);
    case SIM_API_MALLOC_HOST:
    case SIM_API_MALLOC_HOST_CFG:
    case SIM_API_FREE_HOST:
    case SIM_API_FREE_HOST_DEVSYNC:
    case SIM_API_MEMMAP_CAP:
        return fam != SIM_FAM_IPV350 && fam != SIM_FAM_UNKNOWN;
    }
    return 0;
}

int sim_api_supported(simFamily fam, simApi api)
{
    if (!supported_in_release(fam, api)) {
        return 0;
    }
    simProductApiSite site = {.family = fam, .api = api, .supported = family_supports(fam, api)};
    FAULT_POINT(PRODUCTS_API_SUPPORT, &site);
    return site.supported;
}

int sim_va_flag_supported(simFamily fam)
{
    simProductVaFlagSite site = {.family = fam, .supported = fam == SIM_FAM_A3 || fam == SIM_FAM_A2};
    FAULT_POINT(PRODUCTS_VA_FLAG, &site);
    return site.supported;
}

int sim_kernel_is_legacy(const char *release)
{
    if (release == NULL) {
        return 0;
    }
    char *end = NULL;
    long major = strtol(release, &end, 10);
    long minor = 0;
    if (end != NULL && *end == '.') {
        minor = strtol(end + 1, NULL, 10);
    }
    return major < 5 || (major == 5 && minor <= 10);
}

/* HAC types that reach registered host memory on families with registration. On the v2
 * driver the answer is a bit mask the device firmware reports
 * (svm_master_dev_capability.c:219-237), which the host source cannot tell; this table is
 * the simulator's guess for it and for the families without a public driver. */
static int hac_reaches_host_memory(aclrtHacType hac)
{
    switch (hac) {
    case ACL_RT_HAC_TYPE_AICPU:
    case ACL_RT_HAC_TYPE_AIC:
    case ACL_RT_HAC_TYPE_AIV:
    case ACL_RT_HAC_TYPE_PCIEDMA:
    case ACL_RT_HAC_TYPE_SDMA:
        return 1;
    default:
        return 0;
    }
}

/* The svm v3 driver answers from a fixed mask per host-device link, without asking the
 * device (svm_register_only.c:206-243): PCIe reaches STARS and AIV, UB STARS, AICPU, AIC and
 * AIV; UDMA and CCU never. */
static int v3_hac_reaches_host_memory(aclrtHacType hac, int ub)
{
    switch (hac) {
    case ACL_RT_HAC_TYPE_STARS:
    case ACL_RT_HAC_TYPE_AIV:
        return 1;
    case ACL_RT_HAC_TYPE_AICPU:
    case ACL_RT_HAC_TYPE_AIC:
        return ub;
    default:
        return 0;
    }
}

/* The checks run in the runtime's order (memory.cpp:535, api_error.cc:2065-2077,
 * api_impl.cc:2673-2674): output pointer, device ID, HAC type, then a current context. */
aclError model_aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType,
                                           aclrtHostMemMapCapability *capabilities)
{
    if (capabilities == NULL) {
        return sim_open_code(ACL_ERROR_INVALID_PARAM);
    }
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    const simConfig *cfg = sim_config();
    if (!sim_api_supported(cfg->family, SIM_API_MEMMAP_CAP)) {
        return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
    }
    if (deviceId >= cfg->device_count) {
        return sim_open_code(ACL_ERROR_RT_INVALID_DEVICEID);
    }
    if ((unsigned)hacType > (unsigned)ACL_RT_HAC_TYPE_CCU) {
        return sim_open_code(ACL_ERROR_RT_PARAM_INVALID);
    }
    aclError rc = sim_hostmem_gate(SIM_API_MEMMAP_CAP, NULL, 1);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    simProductCapabilitySite site = {.registration = family_has_registration(cfg->family), .hac = hacType};
    if (!site.registration) {
        site.supported = 0; /* no HAC type reaches host memory without registration */
    } else if (cfg->driver == SIM_DRV_V3) {
        site.supported = v3_hac_reaches_host_memory(hacType, cfg->connect_ub);
    } else {
        site.supported = hac_reaches_host_memory(hacType);
    }
    FAULT_POINT(PRODUCTS_CAPABILITY, &site);
    *capabilities = site.supported ? ACL_RT_HOST_MEM_MAP_SUPPORTED : ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
    return ACL_SUCCESS;
}
