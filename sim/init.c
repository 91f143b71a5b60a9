/*
 * Initialisation, configuration from the environment, the per-thread current
 * device, device enumeration, version strings and the statistics call.
 *
 * Lock discipline: init_lock serialises aclInit/aclFinalize and guards the
 * configuration. The configuration is
 * written only while init_lock is held and the state is not "initialised",
 * so readers that saw the state as initialised (an acquire load) read it
 * without a lock. The device reference counts are atomics, not under
 * init_lock. The current device is thread-local and needs no lock; a
 * generation counter, bumped by aclFinalize, invalidates every thread's
 * choice at once. init_lock is a leaf lock except in aclFinalize, which
 * retires all streams (streams_lock) while holding it; nothing in streams.c
 * calls back into this file with a lock held.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "sim_internal.h"

enum { SIM_STATE_NEVER = 0, SIM_STATE_READY = 1, SIM_STATE_FINALIZED = 2 };

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static int g_state = SIM_STATE_NEVER;
static unsigned g_generation = 1;
static simConfig g_config;
static int g_device_refs[SIM_MAX_DEVICES];

static __thread int t_device = -1;
static __thread unsigned t_generation;

const simConfig *sim_config(void)
{
    return &g_config;
}

int sim_initialized(void)
{
    return __atomic_load_n(&g_state, __ATOMIC_ACQUIRE) == SIM_STATE_READY;
}

int sim_current_device(void)
{
    if (t_generation != __atomic_load_n(&g_generation, __ATOMIC_ACQUIRE)) {
        return -1;
    }
    return t_device;
}

void sim_warn_once(int *flag, const char *msg)
{
    if (__atomic_exchange_n(flag, 1, __ATOMIC_ACQ_REL) == 0) {
        fprintf(stderr, "aclsim: warning: %s\n", msg);
    }
}

aclError sim_hostmem_gate(simApi api, int *dev)
{
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    if (!sim_api_supported(g_config.family, api)) {
        return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
    }
    int cur = sim_current_device();
    if (cur < 0) {
        if (!aclsim_fault(ACLSIM_FAULT_NO_DEVICE_OK)) {
            return ACL_ERROR_RT_CONTEXT_NULL;
        }
        cur = 0;
    }
    if (dev != NULL) {
        *dev = cur;
    }
    return ACL_SUCCESS;
}

/* Parses an unsigned decimal/hex env value; returns def when unset or bad. */
static uint64_t env_u64(const char *name, uint64_t def, int *bad)
{
    const char *v = getenv(name);
    if (v == NULL || *v == '\0') {
        return def;
    }
    char *end = NULL;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 0);
    if (errno != 0 || end == v || *end != '\0') {
        fprintf(stderr, "aclsim: %s='%s' is not a number\n", name, v);
        *bad = 1;
        return def;
    }
    return (uint64_t)x;
}

static aclError load_config(simConfig *cfg)
{
    int bad = 0;
    memset(cfg, 0, sizeof(*cfg));
    const char *soc = getenv("ACLSIM_SOC");
    snprintf(cfg->soc, sizeof(cfg->soc), "%s", (soc && *soc) ? soc : "Ascend910B3");
    cfg->family = sim_family_from_soc(cfg->soc);
    if (cfg->family == SIM_FAM_UNKNOWN) {
        fprintf(stderr,
                "aclsim: ACLSIM_SOC='%s' matches no product family (expected a name starting "
                "with Ascend950, Ascend910_93, Ascend910B, Ascend310B, Ascend310P, Ascend910Pro, "
                "Ascend910Premium, Ascend350_, or Ascend910A)\n",
                cfg->soc);
        return ACL_ERROR_INVALID_PARAM;
    }
    uint64_t count = env_u64("ACLSIM_DEVICE_COUNT", 1, &bad);
    if (count < 1 || count > SIM_MAX_DEVICES) {
        fprintf(stderr, "aclsim: ACLSIM_DEVICE_COUNT must be 1..%d\n", SIM_MAX_DEVICES);
        return ACL_ERROR_INVALID_PARAM;
    }
    cfg->device_count = (uint32_t)count;
    cfg->poison = (unsigned char)env_u64("ACLSIM_POISON", 0xA5, &bad);
    cfg->host_mem_limit = env_u64("ACLSIM_HOST_MEM_LIMIT", 0, &bad);
    cfg->mlock_limit = env_u64("ACLSIM_MLOCK_LIMIT", 0, &bad);
    const char *kernel = getenv("ACLSIM_KERNEL");
    struct utsname un;
    if ((kernel == NULL || *kernel == '\0') && uname(&un) == 0) {
        cfg->legacy_kernel = sim_kernel_is_legacy(un.release);
    } else {
        cfg->legacy_kernel = sim_kernel_is_legacy(kernel);
    }
    const char *ver = getenv("ACLSIM_CANN_VERSION");
    snprintf(cfg->cann_version, sizeof(cfg->cann_version), "%s",
             (ver && *ver) ? ver : "8.5.0-aclsim");
    /* The allocator's grain beyond the documented 64 bytes is unspecified: a
     * switch for it lets two runs differ in that behaviour only (drift). */
    cfg->host_align = env_u64("ACLSIM_HOST_ALIGN", SIM_GRANULE, &bad);
    if (cfg->host_align < SIM_GRANULE || cfg->host_align > SIM_PAGE ||
        (cfg->host_align & (cfg->host_align - 1)) != 0) {
        fprintf(stderr, "aclsim: ACLSIM_HOST_ALIGN must be a power of two from %lu to %lu\n",
                SIM_GRANULE, SIM_PAGE);
        return ACL_ERROR_INVALID_PARAM;
    }
    return bad ? ACL_ERROR_INVALID_PARAM : ACL_SUCCESS;
}

SIM_EXPORT aclError aclInit(const char *configPath)
{
    (void)configPath; /* the JSON config of the real runtime has no effect here */
    pthread_mutex_lock(&init_lock);
    if (g_state == SIM_STATE_READY) {
        pthread_mutex_unlock(&init_lock);
        return ACL_ERROR_REPEAT_INITIALIZE;
    }
    aclError rc = load_config(&g_config);
    if (rc == ACL_SUCCESS && sim_faults_parse(getenv("ACLSIM_FAULTS")) != 0) {
        rc = ACL_ERROR_INVALID_PARAM;
    }
    if (rc == ACL_SUCCESS) {
        memset(g_device_refs, 0, sizeof(g_device_refs));
        __atomic_store_n(&g_state, SIM_STATE_READY, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&init_lock);
    return rc;
}

SIM_EXPORT aclError aclFinalize(void)
{
    pthread_mutex_lock(&init_lock);
    if (g_state != SIM_STATE_READY) {
        int never = g_state == SIM_STATE_NEVER;
        pthread_mutex_unlock(&init_lock);
        return never ? ACL_ERROR_UNINITIALIZE : ACL_ERROR_REPEAT_FINALIZE;
    }
    sim_streams_shutdown();
    __atomic_add_fetch(&g_generation, 1, __ATOMIC_ACQ_REL);
    __atomic_store_n(&g_state, SIM_STATE_FINALIZED, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&init_lock);
    return ACL_SUCCESS;
}

SIM_EXPORT aclError aclrtSetDevice(int32_t deviceId)
{
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    if (deviceId < 0 || (uint32_t)deviceId >= g_config.device_count) {
        return ACL_ERROR_RT_INVALID_DEVICEID;
    }
    __atomic_add_fetch(&g_device_refs[deviceId], 1, __ATOMIC_ACQ_REL);
    t_device = deviceId;
    t_generation = __atomic_load_n(&g_generation, __ATOMIC_ACQUIRE);
    return ACL_SUCCESS;
}

SIM_EXPORT aclError aclrtResetDevice(int32_t deviceId)
{
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    if (deviceId < 0 || (uint32_t)deviceId >= g_config.device_count) {
        return ACL_ERROR_RT_INVALID_DEVICEID;
    }
    int refs = __atomic_load_n(&g_device_refs[deviceId], __ATOMIC_ACQUIRE);
    while (refs > 0 && !__atomic_compare_exchange_n(&g_device_refs[deviceId], &refs, refs - 1, 0,
                                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    }
    if (refs == 1) {
        sim_device_release(deviceId); /* no lock held: a stream callback may call us */
    }
    if (sim_current_device() == deviceId) {
        t_device = -1;
    }
    return ACL_SUCCESS;
}

SIM_EXPORT aclError aclrtGetDeviceCount(uint32_t *count)
{
    if (count == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    *count = g_config.device_count;
    return ACL_SUCCESS;
}

SIM_EXPORT const char *aclrtGetSocName(void)
{
    if (!sim_initialized()) {
        return NULL;
    }
    return g_config.soc;
}

SIM_EXPORT const char *aclsimFamilyName(void)
{
    if (!sim_initialized()) {
        return NULL;
    }
    return sim_family_name(g_config.family);
}

SIM_EXPORT aclError aclsysGetVersionStr(char *pkgName, char *versionStr)
{
    static const char *const known[] = {"runtime", "cann", "driver"};
    if (pkgName == NULL || versionStr == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        if (strcmp(pkgName, known[i]) == 0) {
            const char *ver = getenv("ACLSIM_CANN_VERSION");
            if (sim_initialized()) {
                ver = g_config.cann_version;
            } else if (ver == NULL || *ver == '\0') {
                ver = "8.5.0-aclsim";
            }
            snprintf(versionStr, ACL_PKG_VERSION_MAX_SIZE, "%s", ver);
            return ACL_SUCCESS;
        }
    }
    return ACL_ERROR_INVALID_PARAM;
}
