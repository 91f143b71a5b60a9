/*
 * Fault points: the named places in the faithful model where faults and legal variants act.
 *
 * The faithful model (hostmem.c, registry.c, the driver files, the product tables, the gate
 * and the open codes) follows the runtime's and the driver's flow and, at each place
 * where some fault or variant deviates from it, fills a small site struct with what it knows
 * there and calls FAULT_POINT(NAME, &site). The behaviour of the faults lives in
 * sim/faults/<subject>.c, in one handler per point (sim_point_<name>), which reads the site
 * and writes back its fields: another answer, a step skipped or added, a changed request.
 * A site's outputs start at what the faithful model does, so a point none of whose faults
 * is on changes nothing.
 *
 * The points, their sites and the faults that act at each are declared in spec/faults.yaml
 * (`points:`, and each fault's `points:`) and generated into aclsim_faults.h: the point ids,
 * the handler each id calls, and the list of faults per point, from which faults.c arms a
 * point only when one of its faults is on. `python -m codegen lint` checks that every point
 * is called at its declared site and that each handler switches exactly the faults declared
 * at its point.
 *
 * Site fields that a handler may write are marked "out"; every other field is input. A
 * handler runs with the locks its call site holds, named per site below.
 */
#ifndef ACLSIM_FAULT_POINTS_H
#define ACLSIM_FAULT_POINTS_H

#include "sim_internal.h"

/* Whether any fault of the point is on (set by sim_faults_parse, read relaxed). */
SIM_INTERNAL int sim_point_armed(aclsimPointId id);

/* Calls the point's handler when one of its faults is on. */
#define FAULT_POINT(name, site)                          \
    do {                                                 \
        if (sim_point_armed(ACLSIM_POINT_##name)) {      \
            ACLSIM_POINT_HANDLER_##name(site);           \
        }                                                \
    } while (0)

/* A refusal or acceptance a fault puts in the model's place. */
typedef struct {
    int given;     /* out: the call returns `code` here */
    aclError code; /* out */
} simFaultAnswer;

/* ---- host memory (hostmem.c; faults/hostmem.c) ---------------------------- */

/* host.allocator: which allocator the family's driver uses. */
typedef struct {
    int malloc_fallback; /* out: plain malloc memory instead of the driver's */
} simHostAllocatorSite;

/* host.mapping: how a fresh mapping is made. */
typedef struct {
    int dont_fork; /* out: kept from a forked child (the driver's VM_DONTCOPY) */
} simHostMappingSite;

/* host.slab_booking: how many granules a small block books. host_lock held. */
typedef struct {
    uint64_t live_allocs; /* blocks live now */
    int short_booking;    /* out: book in 64-byte granules, one short */
} simHostSlabSite;

/* host.placement: where the pointer sits inside the booked region. */
typedef struct {
    size_t pad; /* out: extra bytes booked before the pointer (64: land on 64 mod 128) */
} simHostPlacementSite;

/* host.carve: how a block's memory is found, before host_lock is taken. */
typedef struct {
    uint64_t size;      /* the request's size */
    size_t span;        /* the bytes to book */
    int va_flag;        /* VA_FLAG=1 */
    int check_limit;    /* out: the emulated host memory limit is checked */
    int own_pages;      /* out: the block gets a mapping of its own */
    size_t arena_step;  /* out: nonzero: from the bump arena, the next block this many bytes on */
} simHostCarveSite;

/* host.release: a block is released (removed from the table). host_lock held. */
typedef struct {
    unsigned char *next;  /* the slab granule after a slab block, NULL when none */
    unsigned char poison;
    int limit_returned;   /* out: its bytes go back to the emulated limit */
} simHostReleaseSite;

/* host.free_unknown: a free of a pointer that starts no live block. host_lock held. */
typedef struct {
    uintptr_t p;
    int device_memory;     /* p starts a live aclrtMalloc block */
    simFaultAnswer answer; /* out */
} simHostFreeUnknownSite;

/* host.free_block: a free of a live block, before the driver is asked. host_lock held. */
typedef struct {
    int plain_free;        /* aclrtFreeHost (not WithDevSync) */
    int from_cfg;          /* allocated by aclrtMallocHostWithCfg */
    simFaultAnswer answer; /* out */
} simHostFreeBlockSite;

/* The request a host allocation books (hostmem.c host_alloc). */
typedef struct {
    uint64_t size;
    size_t offset;   /* bytes between the booked region and the user pointer */
    int va_flag;     /* whole pages, own mapping */
    int from_cfg;
} simAllocReq;

/* alloc.accepted: an allocation call passed every refusal, on the device dev. */
typedef struct {
    int dev;
    int from_cfg; /* aclrtMallocHostWithCfg */
} simAllocAcceptedSite;

/* alloc.request: the request is built from the caller's size. */
typedef struct {
    simAllocReq *req; /* out: size and offset */
    uint64_t asked;   /* the caller's size */
} simAllocRequestSite;

/* cfg.attribute: the parse reaches attribute `index` of cfg. */
typedef struct {
    const aclrtMallocConfig *cfg;
    size_t index;
    simFaultAnswer answer; /* out: the parse stops with this code */
    int skip;              /* out: the attribute is passed over */
    int device_unchecked;  /* out: a DEVICE_ID attribute is not kept for the check */
} simCfgAttributeSite;

/* free.gate: what aclrtFreeHost's gate asks for. */
typedef struct {
    int need_context; /* out */
} simFreeGateSite;

/* free.accepted: aclrtFreeHost passed its gate, on device dev (-1: no context). */
typedef struct {
    int dev;
} simFreeAcceptedSite;

/* devsync.wait: aclrtFreeHostWithDevSync waits for the device dev. */
typedef struct {
    int dev;
    int waited; /* out: the fault waited its own way; the model's wait is skipped */
} simDevsyncWaitSite;

/* ---- registration (registry.c; faults/registry.c) -------------------------- */

/* One record of the runtime's registration maps (a mapped or a pinned one). */
typedef struct simRecord {
    struct simRecord *next;
    uintptr_t host;
    uint64_t size;
    uintptr_t dev;    /* mapped: the device address the driver gave; pinned: 0 (see accept_unpromised) */
    int device;       /* device current at insertion: no key of the runtime's maps, only under second_device_v2_ok */
    int mlocked;      /* pageable range locked for PINNED */
    int freed;        /* its host memory was released while registered */
    simRegStamp stamp;
} simRecord;

/* What a registration asks for. */
typedef struct {
    int mapped;       /* a device mapping (MAPPED, or IOMEMORY/READONLY passed on) */
    int pinned;       /* PINNED */
    int v1;           /* aclrtHostRegister */
    int readonly;     /* READONLY reaches the driver */
    int iomemory;     /* IOMEMORY reaches the driver */
} simRegMode;

/* The records, for the fault side; every call with reg_lock held. */
SIM_INTERNAL simRecord **sim_reg_records(int pinned);
SIM_INTERNAL simRecord **sim_reg_record_link(simRecord **list, uintptr_t p, int device);
SIM_INTERNAL void sim_reg_record_remove(simRecord **link);
/* A record removed earlier in the life of its memory with base p (with_dev: one that had a
 * device address), or NULL. */
SIM_INTERNAL const simRecord *sim_reg_removed(uintptr_t p, int with_dev);

/* records.key: how records are keyed. */
typedef struct {
    int per_device; /* out: the device is part of the key */
} simRecordKeySite;

/* register.start: a registering call starts (before reg_lock). */
typedef struct {
    uintptr_t host;
} simRegisterStartSite;

/* register.conflict: a registration meets an existing entry (a record or a driver node). */
typedef struct {
    int identical;       /* the same range */
    int existing_mapped; /* the existing entry has a mapping */
    int request_mapped;  /* the new registration asks for one */
    int ignored;         /* out: the registration goes on */
} simRegConflictSite;

/* register.conflict_code: the documented code of an identical range's conflict. */
typedef struct {
    const simRegStamp *stamp; /* the existing entry's */
    aclError code;            /* out */
} simRegConflictCodeSite;

/* register.mode: what a registration asks for, before the docs' PINNED check. */
typedef struct {
    simRegMode *mode;          /* out: mapped */
    const simHostRange *host;  /* the host block the range lies in */
    int pinned_on_pinned_ok;   /* out: the docs' refusal of PINNED on page-locked memory is lifted */
} simRegModeSite;

/* register.checked: the runtime's and the driver's checks are done. reg_lock held (lock). */
typedef struct {
    uintptr_t host;
    uint64_t size;
    int device;
    simRegMode mode;
    int driver_pins;        /* legal_driver_pin_register: no records */
    int refused_by_runtime; /* the runtime's overlap check refused */
    aclError rc;            /* the checks' answer */
    pthread_mutex_t *lock;  /* reg_lock */
} simRegCheckedSite;

/* register.pinned_record: a PINNED record is made. reg_lock held. */
typedef struct {
    int mapped;     /* the registration has a mapping too */
    uint64_t size;
    uintptr_t dev;  /* out: the device address the record answers (0: none) */
} simRegPinnedRecordSite;

/* register.done: a registration went in. reg_lock held. */
typedef struct {
    uintptr_t host;
    int host_found; /* inside host memory the simulator allocated */
    uintptr_t dev;  /* its device address (0: none) */
} simRegDoneSite;

/* register.reserved_option: IOMEMORY (iomemory) or READONLY is asked for. */
typedef struct {
    int iomemory;
    int accepted; /* out: registered as a plain mapping */
} simRegReservedSite;

/* register.accepted: a register call passed every argument check. */
typedef struct {
    int v1; /* aclrtHostRegister */
} simRegAcceptedSite;

/* devptr.lookup: the device address for p was looked up (release 9.1.0 on). reg_lock held. */
typedef struct {
    uintptr_t p;
    int device;
    int by_driver;     /* the driver answered (its node), else the mapped records */
    int found;         /* a node or a record holds p */
    uintptr_t node_dev;/* the driver's node: its device address (by_driver and found) */
    uintptr_t *base;   /* out: the base p was found under */
    uintptr_t dev;     /* out: the answer (0: none) */
} simDevptrLookupSite;

/* devptr.answer: the device address aclrtHostGetDevicePointer answers. reg_lock held. */
typedef struct {
    uintptr_t p;
    uintptr_t base;
    uintptr_t dev;  /* out */
} simDevptrAnswerSite;

/* unregister.unknown: p is no recorded base. reg_lock held. */
typedef struct {
    uintptr_t p;
    simFaultAnswer answer; /* out */
} simUnregUnknownSite;

/* unregister.records: the records of base p were looked up. reg_lock held. */
typedef struct {
    int mapped_found;
    int pinned_hidden;     /* out: the pinned record is not found */
    simFaultAnswer answer; /* out */
} simUnregRecordsSite;

/* unregister.mapping: a mapped record's mapping is about to be undone. reg_lock held. */
typedef struct {
    int freed;             /* its host memory was released */
    int leave_mapping;     /* out: the driver is not asked */
    int any_device;        /* out: the driver removes the base on any device */
    simFaultAnswer answer; /* out */
} simUnregMappingSite;

/* unregister.driver_refused: the driver refused to undo the mapping. reg_lock held. */
typedef struct {
    int elsewhere; /* the base is registered on another device only */
    aclError code; /* out: the answer */
} simUnregRefusedSite;

/* unregister.removing: the records of registration seq go. reg_lock held. */
typedef struct {
    uint64_t seq;
} simUnregRemovingSite;

/* memory.freed: host memory [base, base+size) was released. reg_lock held. */
typedef struct {
    uintptr_t base;
    uint64_t size;
    int drop; /* out: its registrations go too */
} simMemoryFreedSite;

/* ---- the runtime's common steps (faults.c, init.c; faults/runtime.c) ------- */

/* codes.open: a refusal whose code the docs do not give answers `code`. */
typedef struct {
    aclError code; /* out: starts at the model's code */
} simOpenCodeSite;

/* gate.devices: a host-memory call that needs a current context finds none. */
typedef struct {
    int dev; /* out: the device the call goes on with (-1: refused, no context) */
} simGateDevicesSite;

/* ---- product tables (products.c; faults/products.c) ------------------------ */

/* products.registration: whether the family has host registration at all. */
typedef struct {
    simFamily family;
    int registration; /* out */
} simProductRegistrationSite;

/* products.api_support: whether the family supports the call (in the release answered as). */
typedef struct {
    simFamily family;
    simApi api;
    int supported; /* out */
} simProductApiSite;

/* products.va_flag: whether the family supports VA_FLAG. */
typedef struct {
    simFamily family;
    int supported; /* out */
} simProductVaFlagSite;

/* products.capability: the capability answer for one HAC type. */
typedef struct {
    int registration; /* the family has host registration */
    aclrtHacType hac;
    int supported;    /* out */
} simProductCapabilitySite;

/* ---- the driver layer (driver.c, drv_*.c; faults/driver.c). reg_lock held. -- */

/* driver.public_side: which side of the docs' and the public driver's conflicts answers. */
typedef struct {
    int public_side; /* out: the driver's side (else the docs') */
} simDrvSideSite;

/* driver.alignment: the driver checks the pointer of a registration against `align`. */
typedef struct {
    uintptr_t host;
    uint64_t align;
    int refused; /* out: starts at host % align != 0 */
} simDrvAlignmentSite;

/* driver.size: the driver takes the caller's size (it rounds a partial page up itself). */
typedef struct {
    uint64_t size;
    simFaultAnswer answer; /* out: the check stops with this code */
} simDrvSizeSite;

/* driver.pageable: the driver decides whether pageable memory registers at all. */
typedef struct {
    int legacy_refused; /* the docs' refusal on kernels 5.10 and older applies */
    aclError code;      /* out: starts at ACL_ERROR_RT_DRV_INTERNAL_ERROR or ACL_SUCCESS */
} simDrvPageableSite;

/* driver.pin_pages: the driver judges the process's mappings of a pageable range. */
typedef struct {
    int unmapped;  /* a page of the range is not mapped in the process */
    int readonly;  /* mapped, but not writable (a driver that pins for writing) */
    int accepted;  /* out: starts at !unmapped && !readonly */
} simDrvPinPagesSite;

/* driver.node_span: how far the node of a registration reaches in the overlap checks. */
typedef struct {
    const simDrvRequest *rq;
    uint64_t span; /* out: starts at the generation's span */
} simDrvNodeSpanSite;

/* driver.overlap: a V1 range starts inside a node of the device. */
typedef struct {
    int passes; /* out: starts at what the generation lets pass */
} simDrvOverlapSite;

/* driver.va_identity: whether a mapping keeps the host address as its device address. */
typedef struct {
    uint64_t block_size; /* the size of the host block the range lies in */
    int identity;        /* out: starts at VA_FLAG=1 memory */
} simDrvVaIdentitySite;

/* The handlers (faults/hostmem.c, faults/registry.c, faults/runtime.c, faults/products.c,
 * faults/driver.c). */
SIM_INTERNAL void sim_point_host_allocator(simHostAllocatorSite *site);
SIM_INTERNAL void sim_point_host_mapping(simHostMappingSite *site);
SIM_INTERNAL void sim_point_host_slab_booking(simHostSlabSite *site);
SIM_INTERNAL void sim_point_host_placement(simHostPlacementSite *site);
SIM_INTERNAL void sim_point_host_carve(simHostCarveSite *site);
SIM_INTERNAL void sim_point_host_release(simHostReleaseSite *site);
SIM_INTERNAL void sim_point_host_free_unknown(simHostFreeUnknownSite *site);
SIM_INTERNAL void sim_point_host_free_block(simHostFreeBlockSite *site);
SIM_INTERNAL void sim_point_alloc_accepted(simAllocAcceptedSite *site);
SIM_INTERNAL void sim_point_alloc_request(simAllocRequestSite *site);
SIM_INTERNAL void sim_point_cfg_attribute(simCfgAttributeSite *site);
SIM_INTERNAL void sim_point_free_gate(simFreeGateSite *site);
SIM_INTERNAL void sim_point_free_accepted(simFreeAcceptedSite *site);
SIM_INTERNAL void sim_point_devsync_wait(simDevsyncWaitSite *site);
SIM_INTERNAL void sim_point_records_key(simRecordKeySite *site);
SIM_INTERNAL void sim_point_register_start(simRegisterStartSite *site);
SIM_INTERNAL void sim_point_register_conflict(simRegConflictSite *site);
SIM_INTERNAL void sim_point_register_conflict_code(simRegConflictCodeSite *site);
SIM_INTERNAL void sim_point_register_mode(simRegModeSite *site);
SIM_INTERNAL void sim_point_register_checked(simRegCheckedSite *site);
SIM_INTERNAL void sim_point_register_pinned_record(simRegPinnedRecordSite *site);
SIM_INTERNAL void sim_point_register_done(simRegDoneSite *site);
SIM_INTERNAL void sim_point_register_reserved_option(simRegReservedSite *site);
SIM_INTERNAL void sim_point_register_accepted(simRegAcceptedSite *site);
SIM_INTERNAL void sim_point_devptr_lookup(simDevptrLookupSite *site);
SIM_INTERNAL void sim_point_devptr_answer(simDevptrAnswerSite *site);
SIM_INTERNAL void sim_point_unregister_unknown(simUnregUnknownSite *site);
SIM_INTERNAL void sim_point_unregister_records(simUnregRecordsSite *site);
SIM_INTERNAL void sim_point_unregister_mapping(simUnregMappingSite *site);
SIM_INTERNAL void sim_point_unregister_driver_refused(simUnregRefusedSite *site);
SIM_INTERNAL void sim_point_unregister_removing(simUnregRemovingSite *site);
SIM_INTERNAL void sim_point_memory_freed(simMemoryFreedSite *site);
SIM_INTERNAL void sim_point_codes_open(simOpenCodeSite *site);
SIM_INTERNAL void sim_point_gate_devices(simGateDevicesSite *site);
SIM_INTERNAL void sim_point_products_registration(simProductRegistrationSite *site);
SIM_INTERNAL void sim_point_products_api_support(simProductApiSite *site);
SIM_INTERNAL void sim_point_products_va_flag(simProductVaFlagSite *site);
SIM_INTERNAL void sim_point_products_capability(simProductCapabilitySite *site);
SIM_INTERNAL void sim_point_driver_public_side(simDrvSideSite *site);
SIM_INTERNAL void sim_point_driver_alignment(simDrvAlignmentSite *site);
SIM_INTERNAL void sim_point_driver_size(simDrvSizeSite *site);
SIM_INTERNAL void sim_point_driver_pageable(simDrvPageableSite *site);
SIM_INTERNAL void sim_point_driver_pin_pages(simDrvPinPagesSite *site);
SIM_INTERNAL void sim_point_driver_node_span(simDrvNodeSpanSite *site);
SIM_INTERNAL void sim_point_driver_overlap(simDrvOverlapSite *site);
SIM_INTERNAL void sim_point_driver_va_identity(simDrvVaIdentitySite *site);

#endif /* ACLSIM_FAULT_POINTS_H */
