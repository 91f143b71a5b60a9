/*
 * Initialisation, configuration from the environment, device reference
 * counts (aclrtSetDevice / aclrtResetDevice / aclrtResetDeviceForce), the run
 * mode, device enumeration, version strings and the common prologue of the
 * host-memory calls. The current context of a thread lives in context.c.
 *
 * Lock discipline: init_lock serialises aclInit/aclFinalize and guards the
 * configuration. The configuration is written only while init_lock is held
 * and the state is not "initialised", so readers that saw the state as
 * initialised (an acquire load) read it without a lock. The device reference
 * counts are atomics, not under init_lock. init_lock is a leaf lock except in
 * aclFinalize, which retires all streams (streams_lock) and contexts
 * (ctx_lock) while holding it; nothing in streams.c or context.c calls back
 * into this file with a lock held.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "fault_points.h"
#include "aclsim_releases.h"

enum { SIM_STATE_NEVER = 0, SIM_STATE_READY = 1, SIM_STATE_FINALIZED = 2 };

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static int g_state = SIM_STATE_NEVER;
static simConfig g_config;
static int g_device_refs[SIM_MAX_DEVICES];

const simConfig *sim_config(void)
{
    return &g_config;
}

int sim_initialized(void)
{
    return __atomic_load_n(&g_state, __ATOMIC_ACQUIRE) == SIM_STATE_READY;
}

void sim_warn_once(int *flag, const char *msg)
{
    if (__atomic_exchange_n(flag, 1, __ATOMIC_ACQ_REL) == 0) {
        fprintf(stderr, "aclsim: warning: %s\n", msg);
    }
}

aclError sim_hostmem_gate(simApi api, int *dev, int need_context)
{
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    if (!sim_api_supported(g_config.family, api)) {
        return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
    }
    int cur = sim_current_device();
    if (cur < 0 && need_context) {
        /* api_impl.cc: every host-memory call but aclrtFreeHost needs a current context. */
        simGateDevicesSite site = {.dev = -1};
        FAULT_POINT(GATE_DEVICES, &site);
        if (site.dev < 0) {
            return ACL_ERROR_RT_CONTEXT_NULL;
        }
        cur = site.dev;
    }
    if (dev != NULL) {
        *dev = cur;
    }
    return ACL_SUCCESS;
}

/* Parses an unsigned decimal/hex env value; returns def when unset or bad. */
/* Parses "X.Y.Z", "X.Y.RCn" (ordered as X.Y.0) and an optional "-alpha.N"/"-beta.N"/"-rc.N"
 * into the ordering key of aclsimReleaseKey; 0 when version does not start with one. */
static int parse_version_key(const char *version, unsigned long key[5])
{
    static const char *const stages[] = {"alpha", "beta", "rc"};
    const char *s = version;
    key[3] = 3; /* a final release */
    key[4] = 0;
    for (int i = 0; i < 3; i++) {
        char *end;
        if (i == 2 && (s[0] == 'R' || s[0] == 'r') && (s[1] == 'C' || s[1] == 'c')) {
            key[2] = 0; /* CANN's X.Y.RCn answers as X.Y.0, as the harness judges it */
            return 1;
        }
        if (*s < '0' || *s > '9') {
            return 0;
        }
        key[i] = strtoul(s, &end, 10);
        s = end;
        if (i < 2) {
            if (*s != '.') {
                return 0;
            }
            s++;
        }
    }
    if (*s == '-') {
        for (unsigned long k = 0; k < sizeof(stages) / sizeof(stages[0]); k++) {
            size_t n = strlen(stages[k]);
            if (strncmp(s + 1, stages[k], n) == 0) {
                const char *num = s + 1 + n + (s[1 + n] == '.' ? 1 : 0);
                if (*num >= '0' && *num <= '9') {
                    key[3] = k;
                    key[4] = strtoul(num, NULL, 10);
                }
                break;
            }
        }
    }
    return 1;
}

static int key_cmp(const unsigned long a[5], const unsigned long b[5])
{
    for (int i = 0; i < 5; i++) {
        if (a[i] != b[i]) {
            return a[i] < b[i] ? -1 : 1;
        }
    }
    return 0;
}

/* The release the version string names ("9.2.0-beta.2-aclsim", "master@681ef7610-aclsim"), else
 * the newest known numbered release not newer than its version (9.0.1 answers as 9.0.0, a beta as
 * the release before it), the newest (a development snapshot) for a version newer than every
 * numbered release or a string without one (the harness reports such a string as unparsable),
 * the oldest for one older than every release. The harness judges by the same order. */
static int release_of(const char *version)
{
    int named = -1;
    size_t best = 0;
    for (int r = 0; r < ACLSIM_RELEASE_COUNT; r++) {
        size_t n = strlen(aclsimReleaseNames[r]);
        if (n > best && strncmp(version, aclsimReleaseNames[r], n) == 0 &&
            (version[n] == '\0' || version[n] == '-')) {
            named = r;
            best = n;
        }
    }
    if (named >= 0) {
        return named;
    }
    unsigned long want[5];
    if (!parse_version_key(version, want)) {
        return ACLSIM_RELEASE_NEWEST;
    }
    int found = 0, last_numbered = -1;
    for (int r = 0; r < ACLSIM_RELEASE_COUNT; r++) {
        if (aclsimReleaseKey[r][0] == ACLSIM_SNAPSHOT_KEY) {
            continue;
        }
        last_numbered = r;
        if (key_cmp(aclsimReleaseKey[r], want) <= 0) {
            found = r;
        }
    }
    if (last_numbered >= 0 && last_numbered != ACLSIM_RELEASE_NEWEST &&
        key_cmp(want, aclsimReleaseKey[last_numbered]) > 0) {
        return ACLSIM_RELEASE_NEWEST;
    }
    return found;
}

const char *sim_version_string(void)
{
    static char built[64];
    const char *ver = getenv("ACLSIM_CANN_VERSION");
    if (ver != NULL && *ver != '\0') {
        return ver;
    }
    snprintf(built, sizeof(built), "%s-aclsim", aclsimReleaseNames[ACLSIM_BUILD_RELEASE]);
    return built;
}

int sim_release(void)
{
    return sim_initialized() ? g_config.release : release_of(sim_version_string());
}

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
    const char *mode = getenv("ACLSIM_RUN_MODE");
    if (mode != NULL && *mode != '\0' && strcmp(mode, "host") != 0 && strcmp(mode, "device") != 0) {
        fprintf(stderr, "aclsim: ACLSIM_RUN_MODE='%s' is neither 'host' nor 'device'\n", mode);
        return ACL_ERROR_INVALID_PARAM;
    }
    cfg->device_run_mode = mode != NULL && strcmp(mode, "device") == 0;
    snprintf(cfg->cann_version, sizeof(cfg->cann_version), "%s", sim_version_string());
    cfg->release = release_of(cfg->cann_version);
    cfg->driver = sim_driver_generation(cfg->family);
    /* The emulated host kernel's PAGE_SIZE (a 64 KiB-page arm64 host: 65536), independent
     * of the machine's own page size. */
    cfg->host_page = env_u64("ACLSIM_HOST_PAGE", SIM_PAGE, &bad);
    if (cfg->host_page < SIM_PAGE || cfg->host_page > 65536 || (cfg->host_page & (cfg->host_page - 1)) != 0) {
        fprintf(stderr, "aclsim: ACLSIM_HOST_PAGE must be a power of two from %lu to 65536\n", SIM_PAGE);
        return ACL_ERROR_INVALID_PARAM;
    }
    /* The v3 driver's host-device link (svm_register_only.c:95-99); other drivers ignore it. */
    const char *connect = getenv("ACLSIM_CONNECT");
    if (connect != NULL && *connect != '\0' && strcmp(connect, "pcie") != 0 && strcmp(connect, "ub") != 0) {
        fprintf(stderr, "aclsim: ACLSIM_CONNECT='%s' is neither 'pcie' nor 'ub'\n", connect);
        return ACL_ERROR_INVALID_PARAM;
    }
    cfg->connect_ub = connect != NULL && strcmp(connect, "ub") == 0;
    /* The allocator's grain beyond the documented 64 bytes is unspecified: a switch for
     * it lets two runs differ in that behaviour only (drift). Unset (0): the driver's
     * grain (hostmem.c). */
    const char *align = getenv("ACLSIM_HOST_ALIGN");
    if (align != NULL && *align != '\0') {
        cfg->host_align = env_u64("ACLSIM_HOST_ALIGN", SIM_GRANULE, &bad);
        if (cfg->host_align < SIM_GRANULE || cfg->host_align > cfg->host_page ||
            (cfg->host_align & (cfg->host_align - 1)) != 0) {
            fprintf(stderr, "aclsim: ACLSIM_HOST_ALIGN must be a power of two from %lu to %llu (ACLSIM_HOST_PAGE)\n",
                    SIM_GRANULE, (unsigned long long)cfg->host_page);
            return ACL_ERROR_INVALID_PARAM;
        }
    }
    return bad ? ACL_ERROR_INVALID_PARAM : ACL_SUCCESS;
}

/* ACLSIM_PIN_REGISTER: which of the runtime's two paths aclrtHostRegisterV2 PINNED takes, chosen
 * by the driver's pin-register feature (raw_device.cc:257 IsSupportPinRegister). `runtime`, the
 * default, is the path for drivers without it, the public driver's (query_feature.c:105-118);
 * `driver` sends every V2 call to halHostRegister (api_impl.cc:2589-2591). The runtime has that
 * path from commit 71a3ea667 on (the 9.2.0-beta.2 branch and master), and it is modelled over the
 * public svm drivers only (v2, v3). The legal variant legal_driver_pin_register in ACLSIM_FAULTS
 * is its alias. Called after the faults are parsed. */
static aclError load_pin_register(simConfig *cfg)
{
    const char *path = getenv("ACLSIM_PIN_REGISTER");
    int alias = aclsim_fault(ACLSIM_FAULT_LEGAL_DRIVER_PIN_REGISTER);
    if (path != NULL && *path != '\0' && strcmp(path, "runtime") != 0 && strcmp(path, "driver") != 0) {
        fprintf(stderr, "aclsim: ACLSIM_PIN_REGISTER='%s' is neither 'runtime' nor 'driver'\n", path);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (alias && path != NULL && strcmp(path, "runtime") == 0) {
        fprintf(stderr, "aclsim: ACLSIM_FAULTS names legal_driver_pin_register (ACLSIM_PIN_REGISTER=driver) "
                        "but ACLSIM_PIN_REGISTER='runtime'; drop one of them\n");
        return ACL_ERROR_INVALID_PARAM;
    }
    cfg->pin_register_driver = alias || (path != NULL && strcmp(path, "driver") == 0);
    if (cfg->pin_register_driver && cfg->driver == SIM_DRV_DOCS) {
        fprintf(stderr, "aclsim: ACLSIM_PIN_REGISTER=driver needs a family with a public svm driver (Ascend910B, "
                        "Ascend910_93, Ascend950); ACLSIM_SOC='%s' has none, so unset it\n", cfg->soc);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (cfg->pin_register_driver && cfg->release < ACLSIM_REL_9_2_0_BETA_2) {
        fprintf(stderr, "aclsim: ACLSIM_PIN_REGISTER=driver needs CANN 9.2.0-beta.2 or newer (runtime 71a3ea667); "
                        "the simulator answers as %s, so unset it or ACLSIM_CANN_VERSION\n",
                aclsimReleaseNames[cfg->release]);
        return ACL_ERROR_INVALID_PARAM;
    }
    return ACL_SUCCESS;
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
        rc = load_pin_register(&g_config);
    }
    if (rc == ACL_SUCCESS) {
        memset(g_device_refs, 0, sizeof(g_device_refs));
        sim_contexts_reset();
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
    __atomic_store_n(&g_state, SIM_STATE_FINALIZED, __ATOMIC_RELEASE);
    sim_contexts_reset();
    pthread_mutex_unlock(&init_lock);
    return ACL_SUCCESS;
}

void sim_device_ref(int dev)
{
    __atomic_add_fetch(&g_device_refs[dev], 1, __ATOMIC_ACQ_REL);
}

int sim_device_unref(int dev, int force)
{
    int refs = __atomic_load_n(&g_device_refs[dev], __ATOMIC_ACQUIRE);
    int next;
    do {
        if (refs <= 0) {
            return -1;
        }
        next = force ? 0 : refs - 1;
    } while (!__atomic_compare_exchange_n(&g_device_refs[dev], &refs, next, 0, __ATOMIC_ACQ_REL,
                                          __ATOMIC_ACQUIRE));
    if (next == 0) {
        sim_context_drop_default(dev);
        sim_device_release(dev); /* no lock held: a stream callback may call us */
    }
    return 0;
}

static int valid_device(int32_t deviceId)
{
    return deviceId >= 0 && (uint32_t)deviceId < g_config.device_count;
}

SIM_EXPORT aclError aclrtSetDevice(int32_t deviceId)
{
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    if (!valid_device(deviceId)) {
        return ACL_ERROR_RT_INVALID_DEVICEID;
    }
    sim_device_ref(deviceId);
    sim_context_use_default(deviceId);
    return ACL_SUCCESS;
}

/* aclrtResetDevice drops one reference; at zero the device's default context and streams
 * go (after their tasks). A device without references is left as it is. */
SIM_EXPORT aclError aclrtResetDevice(int32_t deviceId)
{
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    if (!valid_device(deviceId)) {
        return ACL_ERROR_RT_INVALID_DEVICEID;
    }
    (void)sim_device_unref(deviceId, 0);
    return ACL_SUCCESS;
}

/* aclrtResetDeviceForce releases the device whatever its reference count; a device
 * already released by a forced reset answers an error (04_device_management.md). */
SIM_EXPORT aclError aclrtResetDeviceForce(int32_t deviceId)
{
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    if (!valid_device(deviceId)) {
        return ACL_ERROR_RT_INVALID_DEVICEID;
    }
    return sim_device_unref(deviceId, 1) == 0 ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}

aclError model_aclrtGetRunMode(aclrtRunMode *runMode)
{
    if (runMode == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    *runMode = g_config.device_run_mode ? ACL_DEVICE : ACL_HOST;
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

SIM_EXPORT const char *aclsimDriverName(void)
{
    static const char *const names[] = {[SIM_DRV_DOCS] = "docs", [SIM_DRV_V2] = "v2", [SIM_DRV_V3] = "v3"};
    if (!sim_initialized()) {
        return NULL;
    }
    return names[g_config.driver];
}

/* The ACL API version (acl_rt.h ACL_MAJOR/MINOR/PATCH_VERSION): 1.16.0 at CANN 8.5.0, 1.17.0 from 9.0.0
 * (runtime v8.5.0 include/external/acl/acl_rt.h:25-27, v9.0.0 :25-27). */
SIM_EXPORT aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion)
{
    if (majorVersion == NULL || minorVersion == NULL || patchVersion == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    *majorVersion = 1;
    *minorVersion = sim_release() == ACLSIM_REL_8_5_0 ? 16 : 17;
    *patchVersion = 0;
    return ACL_SUCCESS;
}

SIM_EXPORT aclError aclsysGetVersionStr(char *pkgName, char *versionStr)
{
    static const char *const known[] = {"runtime", "cann", "driver"};
    if (pkgName == NULL || versionStr == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        if (strcmp(pkgName, known[i]) == 0) {
            snprintf(versionStr, ACL_PKG_VERSION_MAX_SIZE, "%s",
                     sim_initialized() ? g_config.cann_version : sim_version_string());
            return ACL_SUCCESS;
        }
    }
    return ACL_ERROR_INVALID_PARAM;
}
