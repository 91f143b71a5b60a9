/*
 * Registration of host memory: aclrtHostRegister, aclrtHostRegisterV2,
 * aclrtHostGetDevicePointer and aclrtHostUnregister - the runtime's half. The driver's
 * half (its nodes per device, the device VA window) is driver.c and the file of the
 * family's driver generation.
 *
 * The runtime (hicann/runtime@681ef7610) takes its path for drivers without pinned
 * registration, because no public driver has the feature it asks for (driver
 * pkg_inc/ascend_hal_define.h:1612-1629 ends before feature 13; query_feature.c:116-118;
 * runtime raw_device.cc:257):
 *
 * - its records (core/src/common/register_memory.cc:15-18) are process-wide, with no
 *   device key: mapped bases -> (size, device address) and pinned bases -> size; lookups
 *   match the exact base (:117-129, :147-158) and an insert never replaces a key (:83,
 *   :95-96);
 * - aclrtHostRegisterV2 (api/impl/api_impl.cc:2592-2610) first refuses any overlap of
 *   [ptr, ptr+size) with a record (register_memory.cc:61-76, 507910) without calling the
 *   driver; PINNED alone is a pinned record and no driver call; with MAPPED (or the
 *   IOMEMORY/READONLY options, which count as mapped) the driver registers and the runtime
 *   records the mapping (and the pinned range when PINNED was set too);
 * - aclrtHostRegister (api_impl.cc:2557-2572) goes straight to the driver and records the
 *   mapping afterwards (unless the base is recorded already);
 * - aclrtHostUnregister (api_impl.cc:2614-2645) looks the exact base up in its records:
 *   neither mapped nor pinned is 507911 without a driver call; a mapping is undone by the
 *   driver on the current device first (its refusal is the answer, and the records stay);
 *   then the records go;
 * - aclrtHostGetDevicePointer (api_impl.cc:2647-2669) asks the driver when it answers
 *   (svm v2), else the mapped records by exact base; nothing is 107000.
 *
 * Where docs and source conflict (PINNED on page-locked memory) the docs win unless the
 * legal_src_pinned_on_pinned variant is on. ACLSIM_PIN_REGISTER=driver models a newer
 * driver that registers everything itself, per device: the runtime then keeps no records
 * and goes to the driver for every call (api_impl.cc:2589-2591; npu_driver_mem.cc:265-268).
 *
 * The exported calls are hooks.c's; the model_* functions here answer as the model does.
 * The faults that act inside a call do so at its named fault points (FAULT_POINT, see
 * fault_points.h); their behaviour, and the state only they keep, is in faults/registry.c.
 * legal_driver_pin_register is the exception: it selects another driver for every call.
 *
 * Lock discipline: reg_lock guards the records, the ring of recently removed records, the
 * registration counter, the fault state of faults/registry.c and (driver.c) the driver's
 * nodes and device window. A registration's runtime check, driver check and both insertions happen under
 * one hold of reg_lock, so of several threads registering one range exactly one wins (the
 * register_race fault splits that hold on purpose). While holding reg_lock this file and
 * the driver files call sim_host_lookup_range() (host_lock) and read /proc/self/maps
 * (vma.c, no lock); the order is always reg_lock then host_lock, never the reverse. No
 * stream lock is ever taken here.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "fault_points.h"
#include "aclsim_releases.h"

#define SIM_REG_RECENT 64
#define SIM_REG_VALID_FLAGS \
    (ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY | ACL_HOST_REG_PINNED)

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static simRecord *g_mapped;
static simRecord *g_pinned;
static uint64_t g_seq;
static simRecord g_recent[SIM_REG_RECENT];
static unsigned g_recent_next;

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The driver-side pinning path (ACLSIM_PIN_REGISTER=driver): the runtime keeps no records. */
static int pin_register_driver(void)
{
    return sim_config()->pin_register_driver;
}

/* Whether the device is part of a record's key: not in the runtime's maps. */
static int per_device_records(void)
{
    simRecordKeySite site = {.per_device = 0};
    FAULT_POINT(RECORDS_KEY, &site);
    return site.per_device;
}

static int overlaps(uintptr_t a, uint64_t alen, uintptr_t b, uint64_t blen)
{
    return a < b + blen && b < a + alen;
}

static int contains(uintptr_t base, uint64_t size, uintptr_t p, uint64_t len)
{
    return p >= base && p - base < size && len <= size - (p - base);
}

simRegStamp sim_reg_stamp_now(uint64_t seq)
{
    simRegStamp s = {pthread_self(), now_ns(), seq};
    return s;
}

aclError sim_reg_conflict_code(const simRegStamp *s, int identical)
{
    if (!identical) {
        return sim_open_code(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    }
    simRegConflictCodeSite site = {.stamp = s, .code = ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED};
    FAULT_POINT(REGISTER_CONFLICT_CODE, &site);
    return site.code;
}

int sim_reg_conflict_ignored(int identical, int existing_mapped, int request_mapped)
{
    simRegConflictSite site = {identical, existing_mapped, request_mapped, .ignored = 0};
    FAULT_POINT(REGISTER_CONFLICT, &site);
    return site.ignored;
}

/* ---- the records --------------------------------------------------------- */

/* The link to the record of list with base p (and device, when the device is part of
 * the key), or NULL. reg_lock held. */
static simRecord **record_link(simRecord **list, uintptr_t p, int device)
{
    for (simRecord **link = list; *link != NULL; link = &(*link)->next) {
        if ((*link)->host == p && (!per_device_records() || (*link)->device == device)) {
            return link;
        }
    }
    return NULL;
}

/* std::map::insert: an existing key stays as it is. Returns whether r went in. */
static int record_insert(simRecord **list, simRecord *r)
{
    if (record_link(list, r->host, r->device) != NULL) {
        return 0;
    }
    r->next = *list;
    *list = r;
    return 1;
}

simRecord **sim_reg_records(int pinned)
{
    return pinned ? &g_pinned : &g_mapped;
}

simRecord **sim_reg_record_link(simRecord **list, uintptr_t p, int device)
{
    return record_link(list, p, device);
}

/* Unlinks a record, remembers it in the recent ring and frees it. reg_lock held. */
static void record_remove(simRecord **link)
{
    simRecord *r = *link;
    *link = r->next;
    if (r->mlocked) {
        munlock((void *)r->host, r->size);
    }
    g_recent[g_recent_next] = *r;
    g_recent[g_recent_next].next = NULL;
    g_recent_next = (g_recent_next + 1) % SIM_REG_RECENT;
    free(r);
}

void sim_reg_record_remove(simRecord **link)
{
    record_remove(link);
}

const simRecord *sim_reg_removed(uintptr_t p, int with_dev)
{
    for (unsigned i = 0; i < SIM_REG_RECENT; i++) {
        const simRecord *r = &g_recent[i];
        if (r->size != 0 && (!with_dev || r->dev != 0) && r->host == p) {
            return r;
        }
    }
    return NULL;
}

/* Whether a mapped record was made by registration seq (its driver node is recorded). */
static int mapped_recorded(uint64_t seq)
{
    for (const simRecord *r = g_mapped; r != NULL; r = r->next) {
        if (r->stamp.seq == seq) {
            return 1;
        }
    }
    return 0;
}

/* The runtime's V2 check (register_memory.cc:61-76): any record overlapping the range
 * refuses it. reg_lock held. */
static aclError runtime_check(uintptr_t p, uint64_t size, int device, int request_mapped)
{
    simRecord *lists[2] = {g_mapped, g_pinned};
    for (int l = 0; l < 2; l++) {
        for (const simRecord *r = lists[l]; r != NULL; r = r->next) {
            if ((per_device_records() && r->device != device) || !overlaps(r->host, r->size, p, size)) {
                continue;
            }
            int identical = r->host == p && r->size == size;
            if (sim_reg_conflict_ignored(identical, l == 0, request_mapped)) {
                continue;
            }
            return sim_reg_conflict_code(&r->stamp, identical);
        }
    }
    return ACL_SUCCESS;
}

static simRecord *record_new(uintptr_t p, uint64_t size, int device)
{
    simRecord *r = calloc(1, sizeof(*r));
    if (r != NULL) {
        r->host = p;
        r->size = size;
        r->device = device;
    }
    return r;
}

/* ---- registering --------------------------------------------------------- */

/* The shared tail of both register calls, after argument, product and context checks.
 * *dev_out receives the device address (0 when not mapped). */
static aclError register_range(void *ptr, uint64_t size, simRegMode mode, int device, void **dev_out)
{
    uintptr_t p = (uintptr_t)ptr;
    simHostRange host = sim_host_lookup_range(ptr, size);
    int driver_pins = pin_register_driver();
    simRegModeSite mode_site = {.mode = &mode, .host = &host, .pinned_on_pinned_ok = 0};
    FAULT_POINT(REGISTER_MODE, &mode_site);
    if (mode.pinned && host.pinned && !mode_site.pinned_on_pinned_ok) {
        /* Docs: PINNED is only for pageable memory; page-locked memory is an error. */
        return sim_open_code(ACL_ERROR_RT_PARAM_INVALID);
    }
    /* Only mappings reach the driver, unless the driver registers pinned memory too. */
    int via_driver = mode.mapped || driver_pins;
    simRecord *mrec = NULL;
    simRecord *prec = NULL;
    if (!driver_pins) {
        mrec = mode.mapped ? record_new(p, size, device) : NULL;
        prec = mode.pinned ? record_new(p, size, device) : NULL;
        if ((mode.mapped && mrec == NULL) || (mode.pinned && prec == NULL)) {
            free(mrec);
            free(prec);
            return ACL_ERROR_RT_MEMORY_ALLOCATION;
        }
    }
    simRegisterStartSite start = {.host = p};
    FAULT_POINT(REGISTER_START, &start);

    pthread_mutex_lock(&reg_lock);
    uint64_t seq = ++g_seq;
    simRegCheckedSite checked = {.host = p, .size = size, .device = device, .mode = mode,
                                 .driver_pins = driver_pins, .lock = &reg_lock};
    aclError rc = ACL_SUCCESS;
    if (!mode.v1 && !driver_pins) {
        rc = runtime_check(p, size, device, mode.mapped); /* api_impl.cc:2597-2599 */
        checked.refused_by_runtime = rc != ACL_SUCCESS;
    }
    simDrvPlan plan;
    memset(&plan, 0, sizeof(plan));
    if (rc == ACL_SUCCESS && via_driver) {
        simDrvRequest rq = {
            .host = p,
            .size = size,
            .device = device,
            .mapped = mode.mapped,
            .pinned = mode.pinned && driver_pins,
            .readonly = mode.readonly,
            .iomemory = mode.iomemory,
            .v1 = mode.v1,
            .mem = host,
            .seq = seq,
        };
        rc = sim_drv_check(&rq, &plan);
    }
    checked.rc = rc;
    FAULT_POINT(REGISTER_CHECKED, &checked);
    if (rc != ACL_SUCCESS) {
        pthread_mutex_unlock(&reg_lock);
        free(mrec);
        free(prec);
        return rc;
    }
    uintptr_t dev = 0;
    if (via_driver) {
        dev = plan.dev;
        sim_drv_commit(&plan);
    }
    if (mrec != NULL) {
        mrec->dev = dev;
        mrec->stamp = sim_reg_stamp_now(seq);
        if (!record_insert(&g_mapped, mrec)) {
            free(mrec); /* V1 of a recorded base: the first record stays (api_impl.cc:2567-2568) */
        }
    }
    if (prec != NULL) {
        simRegPinnedRecordSite pinned = {.mapped = mode.mapped, .size = size, .dev = 0};
        FAULT_POINT(REGISTER_PINNED_RECORD, &pinned);
        prec->dev = pinned.dev;
        prec->stamp = sim_reg_stamp_now(seq);
        if (record_insert(&g_pinned, prec)) {
            prec->mlocked = !host.found && mlock(ptr, size) == 0;
        } else {
            free(prec);
        }
    }
    simRegDoneSite done = {.host = p, .host_found = host.found, .dev = dev};
    FAULT_POINT(REGISTER_DONE, &done);
    pthread_mutex_unlock(&reg_lock);
    *dev_out = (void *)dev;
    return ACL_SUCCESS;
}

/* Whether a reserved type or flag (IOMEMORY when iomemory, else READONLY) is taken as a
 * plain mapping: never in the model, which passes it on. */
static int reserved_accepted(int iomemory)
{
    simRegReservedSite site = {.iomemory = iomemory, .accepted = 0};
    FAULT_POINT(REGISTER_RESERVED_OPTION, &site);
    return site.accepted;
}

/* IOMEMORY and READONLY: the runtime passes them to the driver unchecked
 * (npu_driver_mem.cc:205-218), so on a public driver the driver answers. The docs call them
 * reserved, not supported yet, which is what a family without a public driver answers.
 * Returns ACL_SUCCESS and sets the mode, or the refusal. */
static aclError reserved_options(int iomemory, int readonly, int accepted, simRegMode *mode)
{
    if (accepted) {
        return ACL_SUCCESS; /* registered as MAPPED */
    }
    if (sim_config()->driver == SIM_DRV_DOCS) {
        return sim_open_code(ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    }
    mode->iomemory = iomemory;
    mode->readonly = readonly;
    return ACL_SUCCESS;
}

/* The types the release knows: v8.5.0 api_error.cc:1470 knows only MAPPED; later releases
 * IOMEMORY and READONLY too (api_error.cc:1997-2003). */
int sim_reg_type_unknown(aclrtHostRegisterType type)
{
    uint32_t known = sim_release() == ACLSIM_REL_8_5_0 ? 0u
                                                        : (uint32_t)(ACL_HOST_REGISTER_IOMEMORY | ACL_HOST_REGISTER_READONLY);
    return ((uint32_t)type & ~known) != 0;
}

/* api_error.cc:2016-2022: a non-empty OR of the four flags; before 9.1.0 only MAPPED and
 * PINNED (v9.0.0 api_error.cc:1492-1499, v8.5.0 :1485-1492). */
int sim_reg_v2_flag_valid(uint32_t flag)
{
    uint32_t valid = sim_release() < ACLSIM_REL_9_1_0 ? (uint32_t)(ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED)
                                                      : (uint32_t)SIM_REG_VALID_FLAGS;
    return flag != 0 && (flag & ~valid) == 0;
}

aclError model_aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr)
{
    /* memory.cpp:492-495: ptr, devPtr, size. */
    if (ptr == NULL || devPtr == NULL || size == 0) {
        return sim_open_code(ACL_ERROR_INVALID_PARAM);
    }
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    /* Bits outside the types the release knows are not supported. */
    uint32_t bits = (uint32_t)type;
    if (sim_reg_type_unknown(type)) {
        return sim_open_code(ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    }
    int dev;
    aclError rc = sim_hostmem_gate(SIM_API_REGISTER, &dev, 1);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    simRegMode mode = {.mapped = 1, .v1 = 1};
    if (bits != ACL_HOST_REGISTER_MAPPED) {
        int iomemory = (bits & ACL_HOST_REGISTER_IOMEMORY) != 0;
        rc = reserved_options(iomemory, (bits & ACL_HOST_REGISTER_READONLY) != 0, reserved_accepted(iomemory), &mode);
        if (rc != ACL_SUCCESS) {
            return rc;
        }
    }
    simRegAcceptedSite accepted = {.v1 = 1};
    FAULT_POINT(REGISTER_ACCEPTED, &accepted);
    return register_range(ptr, size, mode, dev, devPtr);
}

aclError model_aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag)
{
    /* memory.cpp:504-505: ptr, size. */
    if (ptr == NULL || size == 0) {
        return sim_open_code(ACL_ERROR_INVALID_PARAM);
    }
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    if (!sim_reg_v2_flag_valid(flag)) {
        return sim_open_code(ACL_ERROR_RT_PARAM_INVALID); /* an invalid value */
    }
    int dev;
    aclError rc = sim_hostmem_gate(SIM_API_REGISTER_V2, &dev, 1);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    simRegMode mode = {.mapped = (flag & ACL_HOST_REG_MAPPED) != 0, .pinned = (flag & ACL_HOST_REG_PINNED) != 0};
    int iomemory = (flag & ACL_HOST_REG_IOMEMORY) != 0;
    int readonly = (flag & ACL_HOST_REG_READONLY) != 0;
    if (iomemory || readonly) {
        int accepted = (!iomemory || reserved_accepted(1)) && (!readonly || reserved_accepted(0));
        rc = reserved_options(iomemory, readonly, accepted, &mode);
        if (rc != ACL_SUCCESS) {
            return rc;
        }
        mode.mapped = 1; /* api_impl.cc:2594-2596: they count as mapped */
    }
    void *unused;
    return register_range(ptr, size, mode, dev, &unused);
}

/* ---- device pointers ----------------------------------------------------- */

/* The device address for p (0: none) and the base it was found under. reg_lock held. */
static uintptr_t lookup_devptr(uintptr_t p, int device, uintptr_t *base)
{
    simDevptrLookupSite site = {.p = p, .device = device, .base = base};
    *base = p;
    if (sim_drv_answers_devptr()) {
        /* The driver's range lookup (npu_driver_mem.cc:282-306): base address plus offset. */
        site.by_driver = 1;
        site.found = sim_drv_devptr(p, device, base, &site.node_dev);
        site.dev = site.found ? site.node_dev + (p - *base) : 0;
    } else {
        simRecord **link = record_link(&g_mapped, p, device); /* register_memory.cc:147-158 */
        site.found = link != NULL;
        site.dev = site.found ? (*link)->dev : 0;
    }
    FAULT_POINT(DEVPTR_LOOKUP, &site);
    return site.dev;
}

aclError model_aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag)
{
    /* memory.cpp:514-516: pHost, pDevice, then the reserved flag. */
    if (pHost == NULL || pDevice == NULL) {
        return sim_open_code(ACL_ERROR_INVALID_PARAM);
    }
    if (flag != 0) {
        return sim_open_code(ACL_ERROR_INVALID_PARAM);
    }
    /* Before 9.1.0 the answer comes from the registry alone, without a context or the driver
     * (v9.0.0 api_impl.cc:2599-2604, register_memory.cc:148-159): the exact base, else NULL. */
    int registry_only = sim_release() < ACLSIM_REL_9_1_0;
    int device;
    aclError rc = sim_hostmem_gate(SIM_API_GET_DEVPTR, &device, !registry_only);
    if (rc != ACL_SUCCESS) {
        return rc == ACL_ERROR_RT_FEATURE_NOT_SUPPORT ? sim_open_code(ACL_ERROR_RT_PARAM_INVALID) : rc;
    }
    uintptr_t p = (uintptr_t)pHost;
    uintptr_t base = p;
    pthread_mutex_lock(&reg_lock);
    uintptr_t dev = 0;
    if (registry_only) {
        simRecord **link = record_link(&g_mapped, p, device < 0 ? 0 : device);
        dev = link != NULL ? (*link)->dev : 0;
    } else {
        dev = lookup_devptr(p, device, &base);
    }
    simDevptrAnswerSite answer = {.p = p, .base = base, .dev = dev};
    FAULT_POINT(DEVPTR_ANSWER, &answer);
    dev = answer.dev;
    pthread_mutex_unlock(&reg_lock);
    if (dev == 0 && !registry_only) {
        /* api_impl.cc:2653-2660; the driver's NOT_EXIST is the same (npu_driver_mem.cc:291-296) */
        return sim_open_code(ACL_ERROR_RT_PARAM_INVALID);
    }
    *pDevice = (void *)dev;
    return ACL_SUCCESS;
}

/* ---- unregistering ------------------------------------------------------- */

/* The answer for a pointer that is no recorded base (reg_lock held): 507911 without a
 * driver call (api_impl.cc:2638-2641). */
static aclError unregister_unknown(uintptr_t p)
{
    simUnregUnknownSite site = {.p = p};
    FAULT_POINT(UNREGISTER_UNKNOWN, &site);
    if (site.answer.given) {
        return site.answer.code;
    }
    simRecord *lists[2] = {g_mapped, g_pinned};
    for (int l = 0; l < 2; l++) {
        for (const simRecord *r = lists[l]; r != NULL; r = r->next) {
            if (contains(r->host, r->size, p, 1)) {
                return sim_open_code(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED); /* only the exact base counts */
            }
        }
    }
    return ACL_ERROR_HOST_MEMORY_NOT_REGISTERED; /* 25-01_aclError.md: 507911 */
}

/* Unregistering on the runtime's path (api_impl.cc:2614-2645), reg_lock held. */
static aclError unregister_base(uintptr_t p, int device)
{
    simRecord **mapped = record_link(&g_mapped, p, device);
    simRecord **pinned = record_link(&g_pinned, p, device);
    simUnregRecordsSite records = {.mapped_found = mapped != NULL};
    FAULT_POINT(UNREGISTER_RECORDS, &records);
    if (records.answer.given) {
        return records.answer.code;
    }
    if (records.pinned_hidden) {
        pinned = NULL;
    }
    if (mapped == NULL && pinned == NULL) {
        return unregister_unknown(p);
    }
    if (mapped != NULL) {
        simRecord *r = *mapped;
        simUnregMappingSite mapping = {.freed = r->freed};
        FAULT_POINT(UNREGISTER_MAPPING, &mapping);
        if (mapping.answer.given) {
            return mapping.answer.code;
        }
        if (!mapping.leave_mapping) {
            int elsewhere = 0;
            aclError rc = sim_drv_unregister(p, device, mapping.any_device, &elsewhere);
            if (rc != ACL_SUCCESS) {
                /* The driver's refusal is the answer and the records stay (api_impl.cc:2629-2633). */
                simUnregRefusedSite refused = {.elsewhere = elsewhere, .code = rc};
                FAULT_POINT(UNREGISTER_DRIVER_REFUSED, &refused);
                return refused.code;
            }
        }
        simUnregRemovingSite removing = {.seq = r->stamp.seq};
        FAULT_POINT(UNREGISTER_REMOVING, &removing);
        record_remove(record_link(&g_mapped, p, device));
        pinned = record_link(&g_pinned, p, device);
    }
    if (pinned != NULL) {
        simUnregRemovingSite removing = {.seq = (*pinned)->stamp.seq};
        FAULT_POINT(UNREGISTER_REMOVING, &removing);
        record_remove(record_link(&g_pinned, p, device));
    }
    return ACL_SUCCESS;
}

aclError model_aclrtHostUnregister(void *ptr)
{
    if (ptr == NULL) {
        return sim_open_code(ACL_ERROR_INVALID_PARAM);
    }
    int device;
    aclError rc = sim_hostmem_gate(SIM_API_UNREGISTER, &device, 1);
    if (rc == ACL_ERROR_RT_FEATURE_NOT_SUPPORT) {
        /* Without registration support the runtime's registry is empty: not registered. */
        return ACL_ERROR_HOST_MEMORY_NOT_REGISTERED;
    }
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    uintptr_t p = (uintptr_t)ptr;
    pthread_mutex_lock(&reg_lock);
    if (pin_register_driver()) {
        int elsewhere = 0;
        rc = sim_drv_unregister(p, device, 0, &elsewhere); /* halHostUnregister, per device */
    } else {
        rc = unregister_base(p, device);
    }
    pthread_mutex_unlock(&reg_lock);
    return rc;
}

/* ---- what host memory and statistics need -------------------------------- */

void sim_reg_memory_freed(const void *base, uint64_t size)
{
    uintptr_t b = (uintptr_t)base;
    pthread_mutex_lock(&reg_lock);
    simMemoryFreedSite site = {.base = b, .size = size, .drop = 0};
    FAULT_POINT(MEMORY_FREED, &site);
    int drop = site.drop;
    simRecord **lists[2] = {&g_mapped, &g_pinned};
    for (int l = 0; l < 2; l++) {
        simRecord **link = lists[l];
        while (*link != NULL) {
            if (!overlaps((*link)->host, (*link)->size, b, size)) {
                link = &(*link)->next;
            } else if (drop) {
                record_remove(link);
            } else {
                (*link)->freed = 1;
                link = &(*link)->next;
            }
        }
    }
    sim_drv_memory_freed(b, size, drop);
    /* Freed memory has no history: a later allocation at the same address starts clean,
     * so the faults that act on recently removed registrations never reach it. */
    for (unsigned i = 0; i < SIM_REG_RECENT; i++) {
        if (g_recent[i].size != 0 && overlaps(g_recent[i].host, g_recent[i].size, b, size)) {
            g_recent[i].size = 0;
        }
    }
    pthread_mutex_unlock(&reg_lock);
}

void sim_reg_memory_new(const void *base, uint64_t size)
{
    uintptr_t b = (uintptr_t)base;
    pthread_mutex_lock(&reg_lock);
    for (unsigned i = 0; i < SIM_REG_RECENT; i++) {
        if (g_recent[i].size != 0 && overlaps(g_recent[i].host, g_recent[i].size, b, size)) {
            memset(&g_recent[i], 0, sizeof(g_recent[i]));
        }
    }
    pthread_mutex_unlock(&reg_lock);
}

int sim_reg_block_busy(const void *base, uint64_t size)
{
    pthread_mutex_lock(&reg_lock);
    int busy = sim_drv_holds_block((uintptr_t)base, size);
    pthread_mutex_unlock(&reg_lock);
    return busy;
}

/* Everything the backend still holds: each registration's records once, and every
 * driver node no mapped record accounts for (a second device's node, one left behind). */
uint64_t sim_reg_live_count(void)
{
    pthread_mutex_lock(&reg_lock);
    uint64_t n = 0;
    for (const simRecord *r = g_mapped; r != NULL; r = r->next) {
        n++;
    }
    for (const simRecord *r = g_pinned; r != NULL; r = r->next) {
        n += record_link(&g_mapped, r->host, r->device) != NULL ? 0 : 1;
    }
    n += sim_drv_count_unrecorded(mapped_recorded);
    pthread_mutex_unlock(&reg_lock);
    return n;
}
