/*
 * The faults and legal variants of the product tables, at the points of products.c (see
 * fault_points.h): each changes a table every gate or answer reads, so it acts before a
 * call's own checks. Each handler switches the faults spec/faults.yaml declares at its point.
 *
 * Lock discipline: the tables are constant; no state and no lock here.
 */
#include "fault_points.h"

/* legal_src_training_registers: the runtime source's side of its conflict with the docs,
 * registration on the Atlas training chip (config/cloud/dev_info_reg.cc:60). */
void sim_point_products_registration(simProductRegistrationSite *site)
{
    if (site->family == SIM_FAM_910 && aclsim_fault(ACLSIM_FAULT_LEGAL_SRC_TRAINING_REGISTERS)) {
        site->registration = 1;
    }
}

/* prod_register_extra: registration on every family but IPV350 (with its device-pointer
 * query and unregistration, so the extra registration can be inspected and undone);
 * prod_register_missing: no aclrtHostRegisterV2 on Atlas A2. */
void sim_point_products_api_support(simProductApiSite *site)
{
    switch (site->api) {
    case SIM_API_REGISTER:
    case SIM_API_GET_DEVPTR:
    case SIM_API_UNREGISTER:
        if (aclsim_fault(ACLSIM_FAULT_PROD_REGISTER_EXTRA) && site->family != SIM_FAM_IPV350) {
            site->supported = 1;
        }
        break;
    case SIM_API_REGISTER_V2:
        if (aclsim_fault(ACLSIM_FAULT_PROD_REGISTER_MISSING) && site->family == SIM_FAM_A2) {
            site->supported = 0;
        }
        break;
    default:
        break;
    }
}

/* va_flag_everywhere: every family claims VA_FLAG support. */
void sim_point_products_va_flag(simProductVaFlagSite *site)
{
    if (aclsim_fault(ACLSIM_FAULT_VA_FLAG_EVERYWHERE)) {
        site->supported = 1;
    }
}

/* cap_supported_without_registration: a family without registration answers AIC supported. */
void sim_point_products_capability(simProductCapabilitySite *site)
{
    if (!site->registration && site->hac == ACL_RT_HAC_TYPE_AIC &&
        aclsim_fault(ACLSIM_FAULT_CAP_SUPPORTED_WITHOUT_REGISTRATION)) {
        site->supported = 1;
    }
}
