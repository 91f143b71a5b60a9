/*
 * The public svm v3 driver (Ascend 950; hicann/driver@ef377e950a32, user space under
 * src/ascend_hal/svm/v3/api/master, kernel under src/sdk_driver/svm/v3) as halHostRegister
 * meets it with the runtime's map type HOST_MEM_MAP_DEV_V2 (npu_driver_mem.cc:208-211),
 * over PCIe (ACLSIM_CONNECT=pcie, the default) or UB (svm_register_only.c:95-99).
 *
 * In the order the driver decides:
 * - READONLY puts bit 28 into the process type, which is not CP1: DRV_ERROR_NOT_SUPPORT,
 *   207000 (svm_register_only.c:28-31, :42-44);
 * - IOMEMORY (HOST_IO_MAP_DEV) goes to the PCIe path (:100-102), which refuses a UB link
 *   (svm_register_pcie_th.c:610-612, NOT_SUPPORT, 207000), host SVM memory
 *   (:576-581, PARA_ERROR) and any RAM (kernel dma_map/dma_map_core.c:73-88, -EINVAL):
 *   507899;
 * - UB, pageable memory: the pointer must be aligned to the device page (4 KiB here),
 *   else PARA_ERROR, 507899 (svm_register.c:779-782);
 * - the size is rounded up to the device page (svm_register_pcie_th.c:379;
 *   svm_register.c:806);
 * - PCIe: a node of the device with the same pointer and rounded size is
 *   DRV_ERROR_REPEATED_USERD (svm_register_pcie_th.c:385-390), 507899 through the runtime's
 *   map (errcode_manage.cc:595-601); a range inside a node of the device passes, since the
 *   kernel's BUSY is ignored (:393-396), and gets a new device address; any other overlap
 *   fails (the kernel's DMA map refuses it; what the device then answers is not in the
 *   repository, 507899 here);
 * - UB: any overlap with a node of the device fails (REPEATED_USERD: svm_register.c:812-817,
 *   share/svmm/svmm_non_overlap.c:57-65), 507899;
 * - pageable pages are pinned with write access (svm_register_pcie_th.c:354, kernel
 *   dma_map_core.c:121-123); a missing or read-only mapping makes the pin fail with -EINVAL
 *   (kernel kern_lib/svm_gup.c:81-93, :200-204) -> PARA_ERROR -> 507899;
 * - the device address: UVA memory keeps its address (svm_register_pcie_th.c:455-457), and
 *   so does aclrtMallocHost memory over UB (svm_register.c:957); otherwise a new one
 *   (:447), except that a second device registering the same range reuses the address the
 *   first device's registration got (:440, :242-257);
 * - halHostUnregisterEx of a base without a node: DRV_ERROR_NOT_EXIST (:498-501), which the
 *   runtime reports as not registered, 507911 (npu_driver_mem.cc:275);
 * - there is no halMemHostGetDevPointer in v3 and feature 11 is off
 *   (api/master/svm_get_attr.c:105-110): the runtime's records answer;
 * - freeing host memory that a registration still holds fails with DRV_ERROR_BUSY and the
 *   memory stays (svm_register_pcie_th.c:583-596, malloc_mng.c:283-286, svm_alloc.c:89-94).
 *
 * Where the docs disagree, the docs' side is the default and legal_public_driver takes
 * the driver's: 507910 for a V1 registration of exactly a registered range, the docs'
 * refusal of pageable memory on kernels 5.10 and older, and a free of registered memory
 * that succeeds.
 *
 * Lock discipline: called with reg_lock held (drv_internal.h); no lock of its own.
 */
#include "drv_internal.h"
#include "fault_points.h"

static uint64_t round_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

static int same_seg(const simNode *n, const simDrvRequest *rq, uint64_t span)
{
    return n->host == rq->host && n->span == span;
}

/* PCIe: a range inside an existing node of the device registers anyway (BUSY ignored). */
static int inside_node(const simNode *n, const simDrvRequest *rq, uint64_t span)
{
    return !same_seg(n, rq, span) && rq->host >= n->host && rq->host + span <= n->host + n->span;
}

static aclError v3_check(const simDrvRequest *rq, simDrvPlan *plan)
{
    int pub = sim_drv_public_side();
    int ub = sim_config()->connect_ub;
    if (rq->readonly) {
        return sim_open_code(ACL_ERROR_RT_FEATURE_NOT_SUPPORT); /* svm_register_only.c:42-44 */
    }
    if (rq->iomemory) {
        return ub ? sim_open_code(ACL_ERROR_RT_FEATURE_NOT_SUPPORT) : ACL_ERROR_RT_DRV_INTERNAL_ERROR;
    }
    if (!rq->mem.found) {
        aclError rc = sim_drv_pageable_allowed(pub);
        if (rc != ACL_SUCCESS) {
            return rc;
        }
        if (ub && sim_drv_misaligned(rq, SIM_PAGE)) {
            return ACL_ERROR_RT_DRV_INTERNAL_ERROR; /* svm_register.c:779-782 */
        }
    }
    simDrvSizeSite size = {.size = rq->size};
    FAULT_POINT(DRIVER_SIZE, &size);
    if (size.answer.given) {
        return size.answer.code;
    }
    uint64_t span = sim_drv_node_span(rq, round_up(rq->size, SIM_PAGE));
    const simNode *n = sim_drv_blocking(rq, span, same_seg, ub ? NULL : inside_node);
    if (n != NULL) {
        /* A driver with pinned registration reports BUSY for a re-registration, as on v2. */
        int documented = sim_drv_pin_register() || (rq->v1 && !pub);
        return sim_drv_conflict(n, rq, same_seg(n, rq, span), documented, ACL_ERROR_RT_DRV_INTERNAL_ERROR);
    }
    if (!rq->mem.found) {
        aclError rc = sim_drv_pin_pages(rq);
        if (rc != ACL_SUCCESS) {
            return ACL_ERROR_RT_DRV_INTERNAL_ERROR; /* the pin fails with -EINVAL, svm_gup.c:81-93 */
        }
    }
    plan->span = span;
    if (rq->mapped) {
        const simNode *first = ub ? NULL : sim_drv_same_elsewhere(rq->device, rq->host, span);
        if (sim_drv_va_identity(rq) || (ub && rq->mem.found)) {
            plan->dev = rq->host;
        } else if (first != NULL) {
            plan->dev = first->dev; /* svm_register_pcie_th.c:440 */
        } else {
            plan->dev = sim_drv_window(span);
        }
    }
    return ACL_SUCCESS;
}

const simDriverOps sim_drv_v3_ops = {
    .name = "v3",
    .check = v3_check,
    .missing = ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, /* NOT_EXIST, npu_driver_mem.cc:275 */
    .answers_devptr = 0,
    .free_busy = 1,
};
