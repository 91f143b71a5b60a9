/*
 * The faults and legal variants of the runtime's common steps: the gate every host-memory
 * call passes (init.c sim_hostmem_gate) and the codes the docs leave open (faults.c
 * sim_open_code); see fault_points.h. Each handler switches the faults spec/faults.yaml
 * declares at its point.
 *
 * Lock discipline: no state and no lock here; each runs under whatever its caller holds.
 */
#include "fault_points.h"

/* legal_alt_codes: every refusal whose code the docs do not give answers another failure
 * code. */
void sim_point_codes_open(simOpenCodeSite *site)
{
    if (!aclsim_fault(ACLSIM_FAULT_LEGAL_ALT_CODES)) {
        return;
    }
    switch (site->code) {
    case ACL_ERROR_INVALID_PARAM:
        site->code = ACL_ERROR_RT_PARAM_INVALID;
        break;
    case ACL_ERROR_RT_PARAM_INVALID:
        site->code = ACL_ERROR_INVALID_PARAM;
        break;
    case ACL_ERROR_RT_FEATURE_NOT_SUPPORT:
    case ACL_ERROR_RT_INVALID_DEVICEID:
    case ACL_ERROR_RT_MEMORY_ALLOCATION:
    case ACL_ERROR_HOST_MEMORY_NOT_REGISTERED:
    case ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED:
        site->code = ACL_ERROR_RT_PARAM_INVALID;
        break;
    default:
        break;
    }
}

/* no_device_ok: a call without a current context goes on, on device 0. */
void sim_point_gate_devices(simGateDevicesSite *site)
{
    if (aclsim_fault(ACLSIM_FAULT_NO_DEVICE_OK)) {
        site->dev = 0;
    }
}
