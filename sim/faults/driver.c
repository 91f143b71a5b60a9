/*
 * The faults and legal variants of the driver layer, at the points of driver.c and the
 * generation files drv_docs.c, drv_v2.c and drv_v3.c (see fault_points.h). Each handler
 * switches the faults spec/faults.yaml declares at its point.
 *
 * Lock discipline: every handler runs with reg_lock held, as the driver layer does; no state
 * is kept here.
 */
#include "fault_points.h"

/* legal_public_driver: where the docs and the public driver's source disagree, the driver's
 * side (its page rounding and alignment, its refusal codes, no kernel-version check, a free
 * of registered memory that fails on the svm v3 driver). */
void sim_point_driver_public_side(simDrvSideSite *site)
{
    if (aclsim_fault(ACLSIM_FAULT_LEGAL_PUBLIC_DRIVER)) {
        site->public_side = 1;
    }
}

/* legal_accept_unpromised: no refusal of an unaligned pointer is promised, so it registers
 * its whole pages. */
void sim_point_driver_alignment(simDrvAlignmentSite *site)
{
    if (aclsim_fault(ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED)) {
        site->refused = 0;
    }
}

/* register_partial_page_rejected: a size that is no whole number of pages is refused as an
 * invalid value instead of rounded up. */
void sim_point_driver_size(simDrvSizeSite *site)
{
    if (site->size % SIM_PAGE != 0 && aclsim_fault(ACLSIM_FAULT_REGISTER_PARTIAL_PAGE_REJECTED)) {
        site->answer.given = 1;
        site->answer.code = ACL_ERROR_RT_PARAM_INVALID;
    }
}

/* pageable_rejected refuses pageable memory on every kernel; legacy_kernel_accepts lets it
 * register where the docs refuse it (kernels 5.10 and older). */
void sim_point_driver_pageable(simDrvPageableSite *site)
{
    if (aclsim_fault(ACLSIM_FAULT_PAGEABLE_REJECTED)) {
        site->code = ACL_ERROR_RT_DRV_INTERNAL_ERROR;
    } else if (site->legacy_refused && aclsim_fault(ACLSIM_FAULT_LEGACY_KERNEL_ACCEPTS)) {
        site->code = ACL_SUCCESS;
    }
}

/* Whatever pages there are register under legal_accept_unpromised; register_past_end_ok
 * lets a range that runs past its mapping register, prot_read_registers a read-only one. */
void sim_point_driver_pin_pages(simDrvPinPagesSite *site)
{
    if (aclsim_fault(ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED)) {
        site->accepted = 1;
    } else if (site->unmapped && aclsim_fault(ACLSIM_FAULT_REGISTER_PAST_END_OK)) {
        site->accepted = 1;
    } else if (site->readonly && aclsim_fault(ACLSIM_FAULT_PROT_READ_REGISTERS)) {
        site->accepted = 1;
    }
}

/* register_rounds_2m: a registration of aclrtMallocHost memory (not VA_FLAG=1) covers 2 MiB
 * from its pointer in the overlap checks, so a neighbouring buffer's registration fails. */
void sim_point_driver_node_span(simDrvNodeSpanSite *site)
{
    const simDrvRequest *rq = site->rq;
    if (aclsim_fault(ACLSIM_FAULT_REGISTER_ROUNDS_2M) && rq->mem.found && !rq->mem.va_flag && site->span < SIM_2M) {
        site->span = SIM_2M;
    }
}

/* v1_overlap_base_only: the overlap is checked on the base pointer alone, so a V1 range that
 * starts inside a node passes. */
void sim_point_driver_overlap(simDrvOverlapSite *site)
{
    if (aclsim_fault(ACLSIM_FAULT_V1_OVERLAP_BASE_ONLY)) {
        site->passes = 1;
    }
}

/* va_flag_ignored: VA_FLAG=1 memory gets a window address like any other memory;
 * va_between_points: VA_FLAG=1 blocks of 16385 to 32767 bytes do, a size class no fixed
 * matrix point falls in. */
void sim_point_driver_va_identity(simDrvVaIdentitySite *site)
{
    if (!site->identity) {
        return;
    }
    if (aclsim_fault(ACLSIM_FAULT_VA_FLAG_IGNORED)) {
        site->identity = 0;
    } else if (aclsim_fault(ACLSIM_FAULT_VA_BETWEEN_POINTS) && site->block_size > 16384 && site->block_size < 32768) {
        site->identity = 0;
    }
}
