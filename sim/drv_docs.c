/*
 * The docs-only driver: the registration rules for families whose driver source is not
 * public (Atlas 200I/500 A2, inference and training series, IPV350), where the simulator
 * can only follow 11-02_host_memory_management.md and the runtime. These families have
 * no registration on the docs' matrix; the rules here answer when a variant or fault
 * (legal_src_training_registers, prod_register_extra) lets registration through.
 *
 * - the pointer must be 4 KiB aligned (11-02#aclrtHostRegister:292), else an invalid
 *   value;
 * - pageable memory registers on kernels newer than 5.10, and must be mapped memory of
 *   the process (an msync of its pages succeeds);
 * - a node covers exactly the caller's range; a range identical to a node of the device
 *   is already registered (25-01_aclError.md, 507910), any other overlap answers the
 *   same code where the docs give none (sim_open_code);
 * - the device address is the host address for VA_FLAG=1 memory, else a window address;
 * - unregistering a base this device has no node for is not registered (507911).
 *
 * Lock discipline: called with reg_lock held (drv_internal.h); no lock of its own.
 */
#include <sys/mman.h>

#include "drv_internal.h"

static int same_range(const simNode *n, const simDrvRequest *rq, uint64_t span)
{
    (void)span;
    return n->host == rq->host && n->size == rq->size;
}

static aclError docs_check(const simDrvRequest *rq, simDrvPlan *plan)
{
    /* inline fault: lenient and the partial-page refusal act inside the driver's check, after
     * its earlier ones */
    int lenient = aclsim_fault(ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED);
    if (rq->readonly || rq->iomemory) {
        return sim_open_code(ACL_ERROR_RT_FEATURE_NOT_SUPPORT); /* reserved, not supported yet */
    }
    if (rq->host % SIM_PAGE != 0 && !lenient) {
        return sim_open_code(ACL_ERROR_RT_PARAM_INVALID); /* the caller must pass 4 KiB-aligned memory */
    }
    if (rq->size % SIM_PAGE != 0 && aclsim_fault(ACLSIM_FAULT_REGISTER_PARTIAL_PAGE_REJECTED)) {
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    if (!rq->mem.found) {
        aclError rc = sim_drv_pageable_allowed(rq, 0);
        if (rc != ACL_SUCCESS) {
            return rc;
        }
        uintptr_t start = rq->host / SIM_PAGE * SIM_PAGE;
        size_t len = (size_t)(rq->host + rq->size - start);
        /* inline fault: judges the process's mappings of the range */
        if (msync((void *)start, len, MS_ASYNC) != 0 && !lenient && !aclsim_fault(ACLSIM_FAULT_REGISTER_PAST_END_OK)) {
            return sim_open_code(ACL_ERROR_RT_PARAM_INVALID); /* not (all) mapped in this process */
        }
    }
    uint64_t span = sim_drv_fault_span(rq, rq->size);
    const simNode *n = sim_drv_blocking(rq, span, same_range, NULL);
    if (n != NULL) {
        int identical = same_range(n, rq, span);
        return sim_drv_conflict(n, rq, identical, 1, sim_reg_conflict_code(&n->stamp, identical));
    }
    plan->span = span;
    if (rq->mapped) {
        plan->dev = sim_drv_va_identity(rq) ? rq->host : sim_drv_window(rq->size);
    }
    return ACL_SUCCESS;
}

const simDriverOps sim_drv_docs_ops = {
    .name = "docs",
    .check = docs_check,
    .missing = ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
    .answers_devptr = 0,
    .free_busy = 0,
};
