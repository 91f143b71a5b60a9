/*
 * The public svm v2 driver (Atlas A2 and A3; hicann/driver@ef377e950a32,
 * src/ascend_hal/svm/v2 and src/sdk_driver/svm/v2) as halHostRegister meets it with the
 * runtime's PCIe-through map type (npu_driver_mem.cc:208-211). Paths below are relative to
 * those two directories.
 *
 * In the order the driver decides:
 * - READONLY with the PCIe-through or IO map type is refused in user space before any
 *   ioctl: DRV_ERROR_NOT_SUPPORT, 207000 (devmm/devmm_svm.c:3501-3503);
 * - pageable memory (not from aclrtMallocHost) must start on a kernel page
 *   (master/pmaster/svm_master_remote_map.c:2008, -EINVAL -> PARA_ERROR -> 507899, a code the
 *   runtime's map lacks: errcode_manage.cc:595-601); memory from aclrtMallocHost has no
 *   alignment check (devmm_svm_mem_map_para_check, :1873-1911);
 * - the kernel rounds the size up to its page (:2079) and refuses any overlap with a node
 *   of the same device (:2083-2088, :542-543) with -EINVAL, 507899; VA_FLAG=1 memory is
 *   first rounded to 2 MiB from the pointer in user space (devmm_svm.c:3580-3583);
 * - IOMEMORY needs a VM_PFNMAP mapping whose frames are not RAM (:1561-1599): host memory
 *   is RAM, -EINVAL, 507899 (a missing mapping is -EFAULT, 107017);
 * - pageable pages are pinned with write access (:1515, :1552-1557): pages that are not
 *   mapped or not writable give -EFAULT -> DRV_ERROR_INVALID_HANDLE -> 107017;
 * - the device address is the host address for UVA (VA_FLAG=1) memory (:3581, kernel
 *   :857, :480), otherwise the device picks one (a window address here);
 * - halHostUnregisterEx of a base the device has no node for: -ENOENT (:2370-2371) ->
 *   DRV_ERROR_FILE_OPS -> 507899;
 * - the driver keeps per-device records of every registration and answers
 *   halMemHostGetDevPointer from them (feature 11, devmm_svm.c:2510-2520, :3867-3891).
 *
 * Where the docs disagree, the docs' side is the default and legal_public_driver takes
 * the driver's: the docs' 4 KiB page instead of the host kernel's PAGE_SIZE for the
 * alignment and the rounding (and no 2 MiB rounding of UVA memory), 507910 for a V1
 * registration of exactly a registered range (the kernel says -EINVAL, 507899), and the
 * docs' refusal of pageable memory on kernels 5.10 and older (the v2 driver has no kernel
 * version check: no KERNEL_VERSION test under svm/v2).
 *
 * Lock discipline: called with reg_lock held (drv_internal.h); no lock of its own.
 */
#include "drv_internal.h"
#include "fault_points.h"

static uint64_t round_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

static int same_range(const simNode *n, const simDrvRequest *rq, uint64_t span)
{
    (void)span;
    return n->host == rq->host && n->size == rq->size;
}

/* The range the kernel node covers: the size rounded up to the page (the docs' 4 KiB, or
 * the host kernel's on the driver's side), UVA memory first to 2 MiB on the driver's side. */
static uint64_t node_span(const simDrvRequest *rq)
{
    /* A pinned-only node (a driver with pinned registration) maps nothing: the docs' page, as
     * for its alignment in v2_check. */
    if (!sim_drv_public_side() || !rq->mapped) {
        return round_up(rq->size, SIM_PAGE);
    }
    uint64_t size = rq->mem.found && rq->mem.va_flag ? round_up(rq->size, SIM_2M) : rq->size;
    return round_up(size, sim_config()->host_page);
}

static aclError v2_check(const simDrvRequest *rq, simDrvPlan *plan)
{
    int pub = sim_drv_public_side();
    if (rq->readonly) {
        return sim_open_code(ACL_ERROR_RT_FEATURE_NOT_SUPPORT); /* devmm_svm.c:3501-3503 */
    }
    if (!rq->mem.found) {
        aclError rc = sim_drv_pageable_allowed(pub);
        if (rc != ACL_SUCCESS) {
            return rc;
        }
        /* The host page is the remote map's alignment (:2008); a pinned-only node of a driver with
         * pinned registration maps nothing, and that driver's source is not public: the docs' page. */
        uint64_t align = pub && rq->mapped ? sim_config()->host_page : SIM_PAGE;
        if (sim_drv_misaligned(rq, align)) {
            return ACL_ERROR_RT_DRV_INTERNAL_ERROR; /* svm_master_remote_map.c:2008 */
        }
    }
    simDrvSizeSite size = {.size = rq->size};
    FAULT_POINT(DRIVER_SIZE, &size);
    if (size.answer.given) {
        return size.answer.code;
    }
    uint64_t span = sim_drv_node_span(rq, node_span(rq));
    const simNode *n = sim_drv_blocking(rq, span, same_range, NULL);
    if (n != NULL) {
        /* svm_master_remote_map.c:2083-2088: any overlap is -EINVAL. A V1 registration of
         * exactly a registered range is the docs' "already registered". A driver with pinned
         * registration, newer than this source, reports BUSY for a re-registration, V1 or V2,
         * which the runtime turns into the docs' code (npu_driver_mem.cc:240-242), whichever
         * side of the docs/driver conflicts the rest of its answers take. */
        int documented = sim_drv_pin_register() || (rq->v1 && !pub);
        return sim_drv_conflict(n, rq, same_range(n, rq, span), documented, ACL_ERROR_RT_DRV_INTERNAL_ERROR);
    }
    if (rq->iomemory) {
        simVmaProbe probe = sim_vma_probe(rq->host, rq->size);
        /* :1568-1573 no VMA -> -EFAULT; :1576-1595 not PFN-mapped, or RAM -> -EINVAL */
        return probe.mapped ? ACL_ERROR_RT_DRV_INTERNAL_ERROR : ACL_ERROR_RT_INVALID_HANDLE;
    }
    if (!rq->mem.found) {
        aclError rc = sim_drv_pin_pages(rq); /* svm_master_remote_map.c:1515, 1552-1557 */
        if (rc != ACL_SUCCESS) {
            return rc;
        }
    }
    plan->span = span;
    if (rq->mapped) {
        plan->dev = sim_drv_va_identity(rq) ? rq->host : sim_drv_window(span);
    }
    return ACL_SUCCESS;
}

const simDriverOps sim_drv_v2_ops = {
    .name = "v2",
    .check = v2_check,
    .missing = ACL_ERROR_RT_DRV_INTERNAL_ERROR, /* -ENOENT -> DRV_ERROR_FILE_OPS -> 507899 */
    .answers_devptr = 1,
    .free_busy = 0,
};
