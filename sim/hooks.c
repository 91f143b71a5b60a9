/*
 * The hook layer: every fault that only rewrites an answer, in one place per exported call.
 *
 * Each call below wraps the faithful implementation (model_<name>, in the file of its
 * subject) and applies the faults whose effect follows from the call's arguments and the
 * model's answer alone: another return code, another returned value, an argument check the
 * call skips, a step added after the model's work. Keeping them out of the model lets the
 * model read as the runtime and driver sources it follows. A fault that needs the model's
 * state or a place inside a call (the slabs, the records, the recently freed or removed
 * ring, the device its gate picked) acts at a named fault point of the model instead
 * (fault_points.h, sim/faults/). Each function here is a `hook` point of spec/faults.yaml.
 *
 * Where a rewrite needs to know which refusal the model gave, it names the argument class
 * the refusal belongs to as well as its code: codes the docs leave open may coincide under
 * legal_alt_codes (sim_open_code).
 *
 * Lock discipline: no lock is taken here. The unregistration mark of
 * cap_glitch_after_unregister is an atomic, and the device address cache of
 * thread_stale_devptr_cache is thread-local. Both are kept whatever the faults, so that a
 * fault switched on at a later aclInit sees the calls made before it.
 */
#include <string.h>

#include "sim_internal.h"

/* cap_glitch_after_unregister: set by a successful unregistration, taken by the next
 * capability answer. */
static int g_unregistered_mark;
/* thread_stale_devptr_cache: the last (host, device) pair aclrtHostGetDevicePointer answered
 * this thread, forgotten when this thread unregisters the host pointer. */
static __thread uintptr_t t_cached_host;
static __thread uintptr_t t_cached_dev;

/* ---- host memory --------------------------------------------------------- */

SIM_EXPORT aclError aclrtMallocHost(void **hostPtr, size_t size)
{
    /* malloc_size0_ok: a size of 0 passes the acl layer and is served as one byte. */
    if (size == 0 && aclsim_fault(ACLSIM_FAULT_MALLOC_SIZE0_OK)) {
        size = 1;
    }
    return model_aclrtMallocHost(hostPtr, size);
}

SIM_EXPORT aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg)
{
    /* cfg_attrs_null_ok: a configuration without an attribute array counts as none. */
    if (aclsim_fault(ACLSIM_FAULT_CFG_ATTRS_NULL_OK) && cfg != NULL && cfg->attrs == NULL) {
        cfg = NULL;
    }
    /* cfg_multi_attr_rejected: refused where the model would start on the attributes, that
     * is after the acl layer's checks of ptr, size and initialisation. */
    if (aclsim_fault(ACLSIM_FAULT_CFG_MULTI_ATTR_REJECTED) && ptr != NULL && size != 0 && sim_initialized() &&
        cfg != NULL && cfg->attrs != NULL && cfg->numAttrs > 1) {
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    return model_aclrtMallocHostWithCfg(ptr, size, cfg);
}

SIM_EXPORT aclError aclrtFreeHost(void *hostPtr)
{
    aclError rc = model_aclrtFreeHost(hostPtr);
    /* free_null_ok: the refusal of NULL becomes success. */
    if (hostPtr == NULL && aclsim_fault(ACLSIM_FAULT_FREE_NULL_OK)) {
        return ACL_SUCCESS;
    }
    return rc;
}

SIM_EXPORT aclError aclrtFreeHostWithDevSync(void *hostPtr)
{
    aclError rc = model_aclrtFreeHostWithDevSync(hostPtr);
    /* devsync_null_ok: the refusal of NULL becomes success. */
    if (hostPtr == NULL && aclsim_fault(ACLSIM_FAULT_DEVSYNC_NULL_OK)) {
        return ACL_SUCCESS;
    }
    return rc;
}

/* ---- registration -------------------------------------------------------- */

/* register_clobbers: what a successful registration leaves in the registered range. */
static void clobber_registered(aclError rc, void *ptr, uint64_t size)
{
    if (rc == ACL_SUCCESS && aclsim_fault(ACLSIM_FAULT_REGISTER_CLOBBERS)) {
        memset(ptr, 0, size < 64 ? size : 64);
    }
}

SIM_EXPORT aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr)
{
    aclError rc = model_aclrtHostRegister(ptr, size, type, devPtr);
    /* register_type_wrong_code: the refusal of an unknown type answers the acl layer's code.
     * With valid pointers and size, that refusal is the model's only open FEATURE_NOT_SUPPORT. */
    if (aclsim_fault(ACLSIM_FAULT_REGISTER_TYPE_WRONG_CODE) && ptr != NULL && devPtr != NULL && size != 0 &&
        sim_reg_type_unknown(type) && rc == sim_open_code(ACL_ERROR_RT_FEATURE_NOT_SUPPORT)) {
        return ACL_ERROR_INVALID_PARAM;
    }
    clobber_registered(rc, ptr, size);
    return rc;
}

SIM_EXPORT aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag)
{
    /* v2_flag_unchecked: the flag check is skipped and a bad flag registers as MAPPED. */
    if (aclsim_fault(ACLSIM_FAULT_V2_FLAG_UNCHECKED) && !sim_reg_v2_flag_valid(flag)) {
        flag = (uint32_t)ACL_HOST_REG_MAPPED;
    }
    aclError rc = model_aclrtHostRegisterV2(ptr, size, flag);
    clobber_registered(rc, ptr, size);
    return rc;
}

/* The model's answer for a host pointer it holds no device address for; a product without
 * the call is refused with the same code, hence the support test. */
static int devptr_not_found(aclError rc)
{
    return rc == sim_open_code(ACL_ERROR_RT_PARAM_INVALID) &&
           sim_api_supported(sim_config()->family, SIM_API_GET_DEVPTR);
}

SIM_EXPORT aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag)
{
    /* getdevptr_flag_ignored: the reserved flag is not checked. */
    if (aclsim_fault(ACLSIM_FAULT_GETDEVPTR_FLAG_IGNORED)) {
        flag = 0;
    }
    aclError rc = model_aclrtHostGetDevicePointer(pHost, pDevice, flag);
    /* devptr_mismatch: the device address answered is one page off. */
    if (rc == ACL_SUCCESS && *pDevice != NULL && aclsim_fault(ACLSIM_FAULT_DEVPTR_MISMATCH)) {
        *pDevice = (void *)((uintptr_t)*pDevice + SIM_PAGE);
    }
    /* thread_stale_devptr_cache: this thread's last answer for the pointer stands, found or not. */
    if ((rc == ACL_SUCCESS || devptr_not_found(rc)) && aclsim_fault(ACLSIM_FAULT_THREAD_STALE_DEVPTR_CACHE) &&
        t_cached_host == (uintptr_t)pHost && t_cached_dev != 0) {
        *pDevice = (void *)t_cached_dev;
        rc = ACL_SUCCESS;
    }
    if (rc == ACL_SUCCESS) {
        t_cached_host = (uintptr_t)pHost;
        t_cached_dev = (uintptr_t)*pDevice;
    }
    return rc;
}

SIM_EXPORT aclError aclrtHostUnregister(void *ptr)
{
    aclError rc = model_aclrtHostUnregister(ptr);
    if (rc == ACL_SUCCESS) {
        __atomic_store_n(&g_unregistered_mark, 1, __ATOMIC_RELEASE);
        if (t_cached_host == (uintptr_t)ptr) {
            t_cached_host = 0;
            t_cached_dev = 0;
        }
    }
    /* unregister_null_ok, after the bookkeeping: the accepted NULL unregisters nothing. */
    if (ptr == NULL && aclsim_fault(ACLSIM_FAULT_UNREGISTER_NULL_OK)) {
        return ACL_SUCCESS;
    }
    return rc;
}

/* ---- capabilities, run mode, memset -------------------------------------- */

SIM_EXPORT aclError aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType,
                                                aclrtHostMemMapCapability *capabilities)
{
    static int flaky_counter;

    aclError rc = model_aclrtHostMemMapCapabilities(deviceId, hacType, capabilities);
    /* cap_bad_hac_ok: an unknown HAC type is answered as supported instead of refused. With an
     * output pointer, that refusal is the model's only open RT_PARAM_INVALID. */
    if (aclsim_fault(ACLSIM_FAULT_CAP_BAD_HAC_OK) && capabilities != NULL &&
        (unsigned)hacType > (unsigned)ACL_RT_HAC_TYPE_CCU && rc == sim_open_code(ACL_ERROR_RT_PARAM_INVALID)) {
        *capabilities = ACL_RT_HOST_MEM_MAP_SUPPORTED;
        return ACL_SUCCESS;
    }
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    /* In this order: a later rewrite wins over an earlier one. */
    if (aclsim_fault(ACLSIM_FAULT_CAP_NONE) || (deviceId == 1 && aclsim_fault(ACLSIM_FAULT_CAP_NONE_SECOND_DEVICE))) {
        *capabilities = ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
    }
    if (aclsim_fault(ACLSIM_FAULT_CAP_GLITCH_AFTER_UNREGISTER) &&
        __atomic_exchange_n(&g_unregistered_mark, 0, __ATOMIC_ACQ_REL)) {
        *capabilities = ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
    }
    /* cap_flaky, and legal_other_choices: the AIC answer alternates from call to call. */
    int flaky = aclsim_fault(ACLSIM_FAULT_CAP_FLAKY) || aclsim_fault(ACLSIM_FAULT_LEGAL_OTHER_CHOICES);
    if (hacType == ACL_RT_HAC_TYPE_AIC && flaky) {
        int flip = __atomic_fetch_add(&flaky_counter, 1, __ATOMIC_RELAXED) & 1;
        *capabilities = flip ? ACL_RT_HOST_MEM_MAP_SUPPORTED : ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
    }
    if (hacType == ACL_RT_HAC_TYPE_SDMA && aclsim_fault(ACLSIM_FAULT_CAP_OUT_OF_RANGE)) {
        *capabilities = (aclrtHostMemMapCapability)7;
    }
    return ACL_SUCCESS;
}

SIM_EXPORT aclError aclrtGetRunMode(aclrtRunMode *runMode)
{
    aclError rc = model_aclrtGetRunMode(runMode);
    /* run_mode_device: the RC form's answer on every product. */
    if (rc == ACL_SUCCESS && aclsim_fault(ACLSIM_FAULT_RUN_MODE_DEVICE)) {
        *runMode = ACL_DEVICE;
    }
    return rc;
}

SIM_EXPORT aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count)
{
    /* memset_partial: a count the model accepts (count <= maxCount) is half written. */
    if (aclsim_fault(ACLSIM_FAULT_MEMSET_PARTIAL) && count <= maxCount) {
        count /= 2;
    }
    return model_aclrtMemset(devPtr, maxCount, value, count);
}
