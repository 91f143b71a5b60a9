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
#include "fault_points.h"

static int same_range(const simNode *n, const simDrvRequest *rq, uint64_t span)
{
    (void)span;
    return n->host == rq->host && n->size == rq->size;
}

static aclError docs_check(const simDrvRequest *rq, simDrvPlan *plan)
{
    if (rq->readonly || rq->iomemory) {
        return sim_open_code(ACL_ERROR_RT_FEATURE_NOT_SUPPORT); /* reserved, not supported yet */
    }
    if (sim_drv_misaligned(rq, SIM_PAGE)) {
        return sim_open_code(ACL_ERROR_RT_PARAM_INVALID); /* the caller must pass 4 KiB-aligned memory */
    }
    simDrvSizeSite size = {.size = rq->size};
    FAULT_POINT(DRIVER_SIZE, &size);
    if (size.answer.given) {
        return size.answer.code;
    }
    if (!rq->mem.found) {
        aclError rc = sim_drv_pageable_allowed(0);
        if (rc != ACL_SUCCESS) {
            return rc;
        }
        /* The range must be mapped in this process: an msync of its pages succeeds. */
        uintptr_t start = rq->host / SIM_PAGE * SIM_PAGE;
        size_t len = (size_t)(rq->host + rq->size - start);
        simDrvPinPagesSite pages = {.unmapped = msync((void *)start, len, MS_ASYNC) != 0};
        pages.accepted = !pages.unmapped;
        FAULT_POINT(DRIVER_PIN_PAGES, &pages);
        if (!pages.accepted) {
            return sim_open_code(ACL_ERROR_RT_PARAM_INVALID); /* not (all) mapped in this process */
        }
    }
    uint64_t span = sim_drv_node_span(rq, rq->size);
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
