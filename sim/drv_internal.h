/*
 * Interfaces shared by the driver layer's files only: driver.c (the node table, the device
 * VA window, the calls the runtime layer makes) and the rules of each driver generation,
 * drv_docs.c, drv_v2.c and drv_v3.c. registry.c sees only the sim_drv_* calls of
 * sim_internal.h.
 *
 * Everything here runs with reg_lock (registry.c) held: the node table has no lock of
 * its own, because every change of it is part of one runtime call that already holds
 * reg_lock, and the runtime's check, the driver's check and both insertions must happen
 * under one hold for exactly one of several racing registrations to win.
 */
#ifndef ACLSIM_DRV_INTERNAL_H
#define ACLSIM_DRV_INTERNAL_H

#include "sim_internal.h"

/* One registration as the driver keeps it, per device: the kernel's node (its range is
 * the rounded span) together with the user-space record that remembers the caller's
 * size and the device address (svm v2 devmm_svm.c:3844-3845). */
typedef struct simNode {
    struct simNode *next;
    uintptr_t host;
    uint64_t size;      /* the caller's size */
    uint64_t span;      /* the node covers [host, host+span) in the overlap checks */
    uintptr_t dev;      /* device address; 0 for a pinned-only node */
    int device;
    int mapped;
    int pinned;         /* pinned registration (ACLSIM_PIN_REGISTER=driver) */
    int mlocked;        /* pageable pages this node locked */
    int freed;          /* its host memory was released while registered */
    simRegStamp stamp;
} simNode;

/* The rules of one driver generation. check() looks at the memory and the node table
 * and, on success, fills plan->span and plan->dev. */
typedef struct {
    const char *name;
    aclError (*check)(const simDrvRequest *rq, simDrvPlan *plan);
    aclError missing;   /* unregister of a base this device has no node for */
    int answers_devptr; /* halMemHostGetDevPointer answers from the driver's records */
    int free_busy;      /* freeing a block a node holds fails (the driver's side only) */
} simDriverOps;

extern const simDriverOps sim_drv_docs_ops;
extern const simDriverOps sim_drv_v2_ops;
extern const simDriverOps sim_drv_v3_ops;

/* The next node after `from` (from the head when NULL) on device whose range overlaps
 * [host, host+span), half open. */
SIM_INTERNAL const simNode *sim_drv_next_overlap(const simNode *from, int device, uintptr_t host, uint64_t span);
/* The first node of another device than `device` with exactly this host and span. */
SIM_INTERNAL const simNode *sim_drv_same_elsewhere(int device, uintptr_t host, uint64_t span);
/* Whether the driver supports pinned registration (ACLSIM_PIN_REGISTER=driver). */
SIM_INTERNAL int sim_drv_pin_register(void);
/* Whether the public driver's side of its conflicts with the docs answers (else the docs'
 * side, the default; fault point driver.public_side). */
SIM_INTERNAL int sim_drv_public_side(void);
/* Whether the driver refuses the registration's pointer as not aligned to `align` (fault
 * point driver.alignment). */
SIM_INTERNAL int sim_drv_misaligned(const simDrvRequest *rq, uint64_t align);
/* The span a node of the request covers in the driver's overlap check: the generation's
 * `span` (fault point driver.node_span). */
SIM_INTERNAL uint64_t sim_drv_node_span(const simDrvRequest *rq, uint64_t span);
/* The answer for a conflict with node n: identical (the docs' case, documented only when
 * `documented`) or another overlap (other_code). A conflict that only the
 * register_rounds_2m span creates is a plain driver refusal, 507899. */
SIM_INTERNAL aclError sim_drv_conflict(const simNode *n, const simDrvRequest *rq, int identical, int documented,
                                       aclError other_code);
/* Whether a node on the device stops the registration (the conflict-skipping faults
 * and variants considered at register.conflict and driver.overlap); NULL when none does. */
SIM_INTERNAL const simNode *sim_drv_blocking(const simDrvRequest *rq, uint64_t span,
                                             int (*identical)(const simNode *, const simDrvRequest *, uint64_t),
                                             int (*allowed)(const simNode *, const simDrvRequest *, uint64_t));
/* Whether a mapping of host memory keeps the host address as its device address: VA_FLAG=1
 * memory does, else the caller takes a window address (fault point driver.va_identity). */
SIM_INTERNAL int sim_drv_va_identity(const simDrvRequest *rq);
/* What pinning the pages of pageable memory finds (the v2 and v3 drivers pin with write
 * access): ACL_SUCCESS, or ACL_ERROR_RT_INVALID_HANDLE for pages that are not mapped or
 * not writable (-EFAULT -> DRV_ERROR_INVALID_HANDLE -> 107017; fault point driver.pin_pages). */
SIM_INTERNAL aclError sim_drv_pin_pages(const simDrvRequest *rq);
/* The docs' refusal of pageable memory on kernels 5.10 and older:
 * ACL_ERROR_RT_DRV_INTERNAL_ERROR or ACL_SUCCESS (fault point driver.pageable). public_side:
 * the public driver has no kernel-version check (sim_drv_public_side). */
SIM_INTERNAL aclError sim_drv_pageable_allowed(int public_side);

#endif /* ACLSIM_DRV_INTERNAL_H */
