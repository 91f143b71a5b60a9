/*
 * The driver layer of registration: what halHostRegister, halHostUnregisterEx and
 * halMemHostGetDevPointer do when the runtime calls them (hicann/runtime@681ef7610
 * src/runtime/driver/npu_driver_mem.cc:199-306), the nodes each device keeps, and the
 * simulated device VA window that mappings get their addresses from.
 *
 * The rules a registration is judged by belong to the family's driver generation
 * (products.c): the public svm v2 driver of Atlas A2/A3 (drv_v2.c), the public svm v3
 * driver of Ascend 950 (drv_v3.c), or, for families whose driver is not public, what the
 * docs say (drv_docs.c). This file holds the table they share and the parts every
 * generation answers alike:
 *
 * - nodes are per process and per device (v2 svm_master_remote_map.c:542-543, 553-561;
 *   v3 svm_register_pcie_th.c:46), so the same range may be registered under two devices;
 * - unregistering needs the exact base on the calling device (v2 :205, v3 :221-240); the
 *   code of a miss is the generation's (simDriverOps.missing);
 * - the driver's device-pointer lookup (v2 only, feature 11: devmm_svm.c:3867-3891) is a
 *   range lookup over the caller's unrounded sizes that answers the first registration
 *   holding the pointer (svm_mem_register_record.c:83-134; ascend_hal_base.h:2576-2577).
 *
 * Under ACLSIM_PIN_REGISTER=driver the driver also keeps pinned-only nodes, answers
 * device pointers itself and refuses an unknown base as not registered (halHostUnregister
 * NOT_EXIST, devmm_svm.c:4039, npu_driver_mem.cc:275), whatever the generation.
 *
 * The faults and variants that act in the driver layer do so at its named fault points
 * (FAULT_POINT, see fault_points.h: here and in the generation files); their behaviour is in
 * faults/driver.c.
 *
 * Lock discipline: the node table and the window's bump pointer are guarded by reg_lock
 * (registry.c); every function here is called with it held (see drv_internal.h). The
 * generation files call sim_vma_probe() (vma.c, no lock) and nothing else that locks;
 * the memory a request names was looked up by the caller (sim_host_lookup_range, which
 * takes host_lock after reg_lock). No stream lock is taken.
 */
#include <stdlib.h>
#include <sys/mman.h>

#include "drv_internal.h"
#include "fault_points.h"

static simNode *g_nodes;
static uintptr_t g_next_dev = SIM_VA_BASE;

static const simDriverOps *ops(void)
{
    switch (sim_config()->driver) {
    case SIM_DRV_V2:
        return &sim_drv_v2_ops;
    case SIM_DRV_V3:
        return &sim_drv_v3_ops;
    case SIM_DRV_DOCS:
        break;
    }
    return &sim_drv_docs_ops;
}

static int ranges_overlap(uintptr_t a, uint64_t alen, uintptr_t b, uint64_t blen)
{
    return a < b + blen && b < a + alen;
}

int sim_addr_in_va_window(const void *addr)
{
    uintptr_t a = (uintptr_t)addr;
    return a >= SIM_VA_BASE && a - SIM_VA_BASE < SIM_VA_SIZE;
}

uintptr_t sim_drv_window(uint64_t span)
{
    uintptr_t dev = g_next_dev;
    /* A page of gap after each mapping, so neighbouring window addresses never touch. */
    g_next_dev += (span + SIM_PAGE - 1) / SIM_PAGE * SIM_PAGE + SIM_PAGE;
    return dev;
}

int sim_drv_pin_register(void)
{
    return sim_config()->pin_register_driver;
}

int sim_drv_public_side(void)
{
    simDrvSideSite site = {.public_side = 0};
    FAULT_POINT(DRIVER_PUBLIC_SIDE, &site);
    return site.public_side;
}

int sim_drv_misaligned(const simDrvRequest *rq, uint64_t align)
{
    simDrvAlignmentSite site = {.host = rq->host, .align = align, .refused = rq->host % align != 0};
    FAULT_POINT(DRIVER_ALIGNMENT, &site);
    return site.refused;
}

const simNode *sim_drv_next_overlap(const simNode *from, int device, uintptr_t host, uint64_t span)
{
    for (const simNode *n = from ? from->next : g_nodes; n != NULL; n = n->next) {
        if (n->device == device && ranges_overlap(n->host, n->span, host, span)) {
            return n;
        }
    }
    return NULL;
}

const simNode *sim_drv_same_elsewhere(int device, uintptr_t host, uint64_t span)
{
    const simNode *first = NULL;
    for (const simNode *n = g_nodes; n != NULL; n = n->next) {
        if (n->device != device && n->mapped && n->host == host && n->span == span) {
            first = n; /* the list holds the newest first: keep going for the oldest */
        }
    }
    return first;
}

uint64_t sim_drv_node_span(const simDrvRequest *rq, uint64_t span)
{
    simDrvNodeSpanSite site = {.rq = rq, .span = span};
    FAULT_POINT(DRIVER_NODE_SPAN, &site);
    return site.span;
}

aclError sim_drv_conflict(const simNode *n, const simDrvRequest *rq, int identical, int documented,
                          aclError other_code)
{
    if (!ranges_overlap(n->host, n->size, rq->host, rq->size)) {
        return ACL_ERROR_RT_DRV_INTERNAL_ERROR; /* only the register_rounds_2m span met */
    }
    if (identical && documented) {
        return sim_reg_conflict_code(&n->stamp, 1);
    }
    return other_code;
}

const simNode *sim_drv_blocking(const simDrvRequest *rq, uint64_t span,
                                int (*identical)(const simNode *, const simDrvRequest *, uint64_t),
                                int (*allowed)(const simNode *, const simDrvRequest *, uint64_t))
{
    for (const simNode *n = sim_drv_next_overlap(NULL, rq->device, rq->host, span); n != NULL;
         n = sim_drv_next_overlap(n, rq->device, rq->host, span)) {
        if (rq->v1 && !identical(n, rq, span) && rq->host > n->host && rq->host < n->host + n->span) {
            /* A V1 range starting inside a node: the kernel's overlap check refuses it whatever
             * the variant (v2 svm_master_remote_map.c:2083-2088), unless the generation lets a
             * range inside a node pass (v3 PCIe). */
            simDrvOverlapSite inside = {.passes = allowed != NULL && allowed(n, rq, span)};
            FAULT_POINT(DRIVER_OVERLAP, &inside);
            if (inside.passes) {
                continue;
            }
            return n;
        }
        if (sim_reg_conflict_ignored(identical(n, rq, span), n->mapped, rq->mapped)) {
            continue;
        }
        if (allowed != NULL && allowed(n, rq, span)) {
            continue;
        }
        return n;
    }
    return NULL;
}

int sim_drv_va_identity(const simDrvRequest *rq)
{
    simDrvVaIdentitySite site = {.block_size = rq->mem.size, .identity = rq->mem.found && rq->mem.va_flag};
    FAULT_POINT(DRIVER_VA_IDENTITY, &site);
    return site.identity;
}

aclError sim_drv_pin_pages(const simDrvRequest *rq)
{
    simVmaProbe probe = sim_vma_probe(rq->host, rq->size);
    simDrvPinPagesSite site = {.unmapped = !probe.mapped, .readonly = probe.mapped && !probe.writable};
    site.accepted = !site.unmapped && !site.readonly;
    FAULT_POINT(DRIVER_PIN_PAGES, &site);
    return site.accepted ? ACL_SUCCESS : ACL_ERROR_RT_INVALID_HANDLE;
}

aclError sim_drv_pageable_allowed(int public_side)
{
    /* 11-02_host_memory_management.md#aclrtHostRegister:292: on kernels 5.10 and older
     * pageable memory leads to an error (users report 507899). */
    simDrvPageableSite site = {.legacy_refused = sim_config()->legacy_kernel && !public_side};
    site.code = site.legacy_refused ? ACL_ERROR_RT_DRV_INTERNAL_ERROR : ACL_SUCCESS;
    FAULT_POINT(DRIVER_PAGEABLE, &site);
    return site.code;
}

aclError sim_drv_check(const simDrvRequest *rq, simDrvPlan *plan)
{
    plan->rq = *rq;
    plan->span = rq->size;
    plan->dev = 0;
    plan->node = NULL;
    aclError rc = ops()->check(rq, plan);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    plan->node = calloc(1, sizeof(*plan->node));
    return plan->node != NULL ? ACL_SUCCESS : ACL_ERROR_RT_MEMORY_ALLOCATION;
}

void sim_drv_commit(simDrvPlan *plan)
{
    simNode *n = plan->node;
    const simDrvRequest *rq = &plan->rq;
    n->host = rq->host;
    n->size = rq->size;
    n->span = plan->span;
    n->dev = plan->dev;
    n->device = rq->device;
    n->mapped = rq->mapped;
    n->pinned = rq->pinned;
    /* A driver with pinned registration locks the pages of pageable memory itself. */
    if (rq->pinned && !rq->mem.found) {
        n->mlocked = mlock((void *)rq->host, rq->size) == 0;
    }
    n->stamp = sim_reg_stamp_now(rq->seq);
    n->next = g_nodes;
    g_nodes = n;
    plan->node = NULL;
}

static void node_unlink(simNode **link)
{
    simNode *n = *link;
    *link = n->next;
    if (n->mlocked) {
        munlock((void *)n->host, n->size);
    }
    free(n);
}

aclError sim_drv_unregister(uintptr_t base, int device, int any_device, int *elsewhere)
{
    simNode **hit = NULL;
    simNode **other = NULL;
    for (simNode **link = &g_nodes; *link != NULL; link = &(*link)->next) {
        if ((*link)->host != base) {
            continue;
        }
        if ((*link)->device == device) {
            hit = link; /* the oldest node with the base wins (the list holds the newest first) */
        } else {
            other = link;
        }
    }
    if (hit == NULL && any_device) {
        hit = other;
    }
    *elsewhere = hit == NULL && other != NULL;
    if (hit == NULL) {
        return sim_drv_missing_code();
    }
    node_unlink(hit);
    return ACL_SUCCESS;
}

int sim_drv_answers_devptr(void)
{
    return sim_drv_pin_register() || ops()->answers_devptr;
}

aclError sim_drv_missing_code(void)
{
    return sim_drv_pin_register() ? ACL_ERROR_HOST_MEMORY_NOT_REGISTERED : ops()->missing;
}

int sim_drv_devptr(uintptr_t p, int device, uintptr_t *base, uintptr_t *dev)
{
    const simNode *first = NULL;
    for (const simNode *n = g_nodes; n != NULL; n = n->next) {
        if (n->device == device && n->mapped && n->dev != 0 && p >= n->host && p - n->host < n->size) {
            first = n;
        }
    }
    if (first == NULL) {
        return 0;
    }
    *base = first->host;
    *dev = first->dev;
    return 1;
}

void sim_drv_forget(uint64_t seq, int and_newer)
{
    simNode **link = &g_nodes;
    while (*link != NULL) {
        uint64_t s = (*link)->stamp.seq;
        if (s == seq || (and_newer && s > seq)) {
            node_unlink(link);
        } else {
            link = &(*link)->next;
        }
    }
}

void sim_drv_memory_freed(uintptr_t base, uint64_t size, int drop)
{
    simNode **link = &g_nodes;
    while (*link != NULL) {
        if (!ranges_overlap((*link)->host, (*link)->size, base, size)) {
            link = &(*link)->next;
        } else if (drop) {
            node_unlink(link);
        } else {
            (*link)->freed = 1;
            link = &(*link)->next;
        }
    }
}

int sim_drv_holds_block(uintptr_t base, uint64_t size)
{
    if (!ops()->free_busy || !sim_drv_public_side()) {
        return 0;
    }
    for (const simNode *n = g_nodes; n != NULL; n = n->next) {
        if (!n->freed && n->host >= base && n->host - base < size) {
            return 1;
        }
    }
    return 0;
}

uint64_t sim_drv_count_unrecorded(int (*recorded)(uint64_t seq))
{
    uint64_t count = 0;
    for (const simNode *n = g_nodes; n != NULL; n = n->next) {
        count += recorded(n->stamp.seq) ? 0 : 1;
    }
    return count;
}
