/*
 * Registration of host memory: aclrtHostRegister, aclrtHostRegisterV2,
 * aclrtHostGetDevicePointer, aclrtHostUnregister, and the simulated device
 * VA window that mapped ranges get their device addresses from.
 *
 * The model follows the runtime source (hicann/runtime@681ef7610) where the
 * docs are silent, on its path for drivers without pinned registration
 * (src/runtime/api/impl/api_impl.cc:2557-2669):
 *
 * - the runtime keeps a process-wide registry of mapped ranges (with their
 *   device address) and pinned ranges (core/src/common/register_memory.cc);
 * - the "driver" (halHostRegister, halHostUnregisterEx) keeps the mapped
 *   ranges per device and refuses re-registration with BUSY, which the
 *   runtime reports as already registered (driver/npu_driver_mem.cc:241);
 * - V1 goes straight to the driver; V2 first checks the whole registry for an
 *   overlap, maps through the driver and records PINNED in the registry only;
 * - unregister and the device-pointer lookup match the exact base; an
 *   unregister under another device than the mapping's is refused by the
 *   driver and changes nothing;
 * - freeing host memory does not touch its registrations.
 *
 * Both layers are one list here: an entry is mapped (it has a device address
 * and belongs to the device current at registration), pinned (V2 PINNED), or
 * both. Where docs and source conflict (PINNED on page-locked memory) the
 * docs win unless the legal_src_pinned_on_pinned variant is on. The variant
 * legal_driver_pin_register models newer drivers that register everything
 * themselves, per device.
 *
 * Lock discipline: reg_lock guards the registration list, the ring of
 * recently removed registrations and the window's bump pointer. The check
 * for overlap and the insertion happen under one hold of reg_lock, so of
 * several threads registering one range exactly one wins (the register_race
 * fault splits that hold on purpose). While holding reg_lock this file may
 * call sim_host_lookup_range() (host_lock); the order is always reg_lock
 * then host_lock, never the reverse. No stream lock is ever taken here. The
 * per-thread device address cache of the thread_stale_devptr_cache fault is
 * thread-local and needs no lock.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "sim_internal.h"

#define SIM_REG_RECENT 64
#define SIM_REG_VALID_FLAGS \
    (ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY | ACL_HOST_REG_PINNED)

typedef struct simReg {
    struct simReg *next;
    uintptr_t host;
    uint64_t size;
    uintptr_t dev;    /* device address; 0 when the range is not mapped (PINNED only) */
    int device;       /* device current at registration */
    int mapped;       /* has a device mapping (V1, V2 MAPPED) */
    int pinned;       /* in the runtime's pinned registry (V2 PINNED) */
    int mlocked;      /* pageable range locked by PINNED */
    int freed;        /* its host memory was released while registered */
    pthread_t owner;
    int64_t inserted_ns; /* when its registering call entered it in the table (it returns right after) */
} simReg;

typedef struct {
    int mapped;
    int pinned;
    int v2;
} simRegMode;

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static simReg *g_regs;
static uint64_t g_reg_count;
static simReg g_recent[SIM_REG_RECENT];
static unsigned g_recent_next;
static uintptr_t g_next_dev = SIM_VA_BASE;
/* reregister_stale_devptr: the first device address each base inside host memory got, until the memory is freed. */
#define SIM_FIRST_MAX 64
static simReg g_first[SIM_FIRST_MAX];
static unsigned g_first_next;
/* unregister_freed_leaves_mapping: ranges whose mapping the driver kept when a freed registration was removed. */
#define SIM_GHOST_MAX 16
static simReg g_ghosts[SIM_GHOST_MAX];
static unsigned g_ghost_next;
/* cap_glitch_after_unregister: set by a successful unregistration, taken by the next capability query. */
static int g_unregistered_mark;
/* thread_stale_devptr_cache: the last (host, device) pair aclrtHostGetDevicePointer answered this thread. */
static __thread uintptr_t t_cached_host;
static __thread uintptr_t t_cached_dev;

int sim_addr_in_va_window(const void *addr)
{
    uintptr_t a = (uintptr_t)addr;
    return a >= SIM_VA_BASE && a - SIM_VA_BASE < SIM_VA_SIZE;
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int pin_register_driver(void)
{
    return aclsim_fault(ACLSIM_FAULT_LEGAL_DRIVER_PIN_REGISTER);
}

static int overlaps(const simReg *r, uintptr_t p, uint64_t size)
{
    return p < r->host + r->size && r->host < p + size;
}

static int contains(uintptr_t base, uint64_t size, uintptr_t p, uint64_t len)
{
    return p >= base && p - base < size && len <= size - (p - base);
}

/* Unlinks r (reg_lock held), remembers it in the recent ring and frees it. */
static void reg_remove(simReg **link)
{
    simReg *r = *link;
    *link = r->next;
    g_reg_count--;
    if (r->mlocked) {
        munlock((void *)r->host, r->size);
    }
    g_recent[g_recent_next] = *r;
    g_recent[g_recent_next].next = NULL;
    g_recent_next = (g_recent_next + 1) % SIM_REG_RECENT;
    free(r);
}

/* The link to the first entry with base p that `want` accepts, or NULL. reg_lock held. */
static simReg **find_base(uintptr_t p, int (*want)(const simReg *, int), int device)
{
    for (simReg **link = &g_regs; *link != NULL; link = &(*link)->next) {
        if ((*link)->host == p && want(*link, device)) {
            return link;
        }
    }
    return NULL;
}

static int is_mapped(const simReg *r, int device)
{
    (void)device;
    return r->mapped;
}

static int is_pinned(const simReg *r, int device)
{
    (void)device;
    return r->pinned && !aclsim_fault(ACLSIM_FAULT_UNREGISTER_PINNED_FAILS);
}

static int mapped_on(const simReg *r, int device)
{
    return r->mapped && r->device == device;
}

static int any_on(const simReg *r, int device)
{
    return r->device == device;
}

/* When this thread's registering call started (the racing test below). */
static __thread int64_t t_register_started_ns;

/* Whether the conflict between an existing entry and a new identical range is a racing
 * registration: another thread's call that overlapped this one in time (this call started
 * before that one entered its range). A call made after the other returned is a plain
 * second registration, whatever the thread. The legal_alt_codes variant answers racing
 * ones differently. */
static int racing(const simReg *r)
{
    return !pthread_equal(r->owner, pthread_self()) && t_register_started_ns < r->inserted_ns;
}

/* The already-registered answer for a conflict with r; identical ranges get the documented
 * code, partial overlaps the code only the source shows. */
static aclError conflict_code(const simReg *r, uintptr_t p, uint64_t size)
{
    if (r->host == p && r->size == size) {
        if (aclsim_fault(ACLSIM_FAULT_LEGAL_ALT_CODES) && racing(r)) {
            return ACL_ERROR_RT_DRV_INTERNAL_ERROR;
        }
        return ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    }
    return sim_open_code(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
}

/* Conflicts the new range has (reg_lock held). registry: the runtime's own V2 check over
 * every range of every device (register_memory.cc:61-76); otherwise the driver's check of
 * one device's ranges (mapped ones only, unless the driver pins too). */
static aclError check_conflict(uintptr_t p, uint64_t size, int registry, int device, int mapped_request)
{
    if (aclsim_fault(ACLSIM_FAULT_UNREGISTER_FREED_LEAVES_MAPPING)) {
        for (unsigned i = 0; i < SIM_GHOST_MAX; i++) {
            if (g_ghosts[i].size != 0 && overlaps(&g_ghosts[i], p, size)) {
                return ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
            }
        }
    }
    for (simReg *r = g_regs; r != NULL; r = r->next) {
        if (!overlaps(r, p, size)) {
            continue;
        }
        if (!registry && (r->device != device || (!r->mapped && !pin_register_driver()))) {
            continue;
        }
        int same = r->host == p && r->size == size;
        if (same && aclsim_fault(ACLSIM_FAULT_DOUBLE_REGISTER_OK)) {
            continue;
        }
        if (same && mapped_request && !r->mapped && aclsim_fault(ACLSIM_FAULT_PINNED_THEN_MAPPED_OK)) {
            continue;
        }
        if (!same && (aclsim_fault(ACLSIM_FAULT_OVERLAP_REGISTER_OK) ||
                      aclsim_fault(ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED))) {
            continue;
        }
        return conflict_code(r, p, size);
    }
    return ACL_SUCCESS;
}

/* What the driver's halHostRegister says about the memory itself (before any table). */
static aclError driver_memory_check(void *ptr, uint64_t size, simHostRange host)
{
    int lenient = aclsim_fault(ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED);
    if ((uintptr_t)ptr % SIM_PAGE != 0 && !lenient) {
        return sim_open_code(ACL_ERROR_RT_PARAM_INVALID); /* the caller must pass 4 KiB-aligned memory */
    }
    if (size % SIM_PAGE != 0 && aclsim_fault(ACLSIM_FAULT_REGISTER_PARTIAL_PAGE_REJECTED)) {
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    if (host.found) {
        return ACL_SUCCESS;
    }
    int legacy = sim_config()->legacy_kernel && !aclsim_fault(ACLSIM_FAULT_LEGACY_KERNEL_ACCEPTS);
    if (legacy || aclsim_fault(ACLSIM_FAULT_PAGEABLE_REJECTED)) {
        return ACL_ERROR_RT_DRV_INTERNAL_ERROR; /* what users report on kernels <= 5.10 */
    }
    uintptr_t start = (uintptr_t)ptr / SIM_PAGE * SIM_PAGE;
    size_t span = (size_t)((uintptr_t)ptr + size - start);
    if (msync((void *)start, span, MS_ASYNC) != 0 && !lenient && !aclsim_fault(ACLSIM_FAULT_REGISTER_PAST_END_OK)) {
        return sim_open_code(ACL_ERROR_RT_PARAM_INVALID); /* not (all) mapped in this process */
    }
    return ACL_SUCCESS;
}

static uintptr_t new_device_address(uintptr_t host, uint64_t size, simHostRange range)
{
    if (range.va_flag && !aclsim_fault(ACLSIM_FAULT_VA_FLAG_IGNORED)) {
        return host; /* VA identity: the device uses the host address */
    }
    uintptr_t dev = g_next_dev;
    g_next_dev += (size + SIM_PAGE - 1) / SIM_PAGE * SIM_PAGE + SIM_PAGE;
    return dev;
}

/* The shared tail of both register calls, after argument, product and context checks.
 * *dev_out receives the device address (0 when not mapped). */
static aclError register_range(void *ptr, uint64_t size, simRegMode mode, int device, void **dev_out)
{
    uintptr_t p = (uintptr_t)ptr;
    simHostRange host = sim_host_lookup_range(ptr, size);
    int driver_pins = pin_register_driver();
    if (mode.pinned && host.pinned && !aclsim_fault(ACLSIM_FAULT_LEGAL_SRC_PINNED_ON_PINNED)) {
        /* Docs: PINNED is only for pageable memory; page-locked memory is an error. */
        return sim_open_code(ACL_ERROR_RT_PARAM_INVALID);
    }
    int via_driver = mode.mapped || driver_pins; /* PINNED-only stays in the runtime's registry */
    if (via_driver) {
        aclError rc = driver_memory_check(ptr, size, host);
        if (rc != ACL_SUCCESS) {
            return rc;
        }
    }
    if (mode.pinned && !mode.mapped && aclsim_fault(ACLSIM_FAULT_PINNED_MAPS)) {
        mode.mapped = 1;
    }
    if (mode.pinned && mode.mapped && aclsim_fault(ACLSIM_FAULT_PINNED_MAPPED_UNMAPPED)) {
        mode.mapped = 0;
    }
    simReg *r = calloc(1, sizeof(*r));
    if (r == NULL) {
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    r->host = p;
    r->size = size;
    r->device = device;
    r->owner = pthread_self();
    t_register_started_ns = now_ns();

    pthread_mutex_lock(&reg_lock);
    int registry_check = mode.v2 && !driver_pins;
    aclError rc = check_conflict(p, size, registry_check, device, mode.mapped);
    if (rc == ACL_SUCCESS && via_driver && registry_check) {
        rc = check_conflict(p, size, 0, device, mode.mapped); /* then the driver's own check */
    }
    if (rc == ACL_SUCCESS && aclsim_fault(ACLSIM_FAULT_REGISTER_RACE)) {
        pthread_mutex_unlock(&reg_lock);
        usleep(2000);
        pthread_mutex_lock(&reg_lock);
    }
    if (rc != ACL_SUCCESS) {
        pthread_mutex_unlock(&reg_lock);
        free(r);
        return rc;
    }
    r->mapped = mode.mapped;
    r->pinned = mode.pinned;
    if (mode.mapped || aclsim_fault(ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED)) {
        r->dev = new_device_address(p, size, host);
    }
    if (mode.pinned && !host.found) {
        r->mlocked = mlock(ptr, size) == 0;
    }
    if (aclsim_fault(ACLSIM_FAULT_REGISTER_CLOBBERS)) {
        memset(ptr, 0, size < 64 ? size : 64);
    }
    if (aclsim_fault(ACLSIM_FAULT_REREGISTER_STALE_DEVPTR) && host.found && r->dev != 0) {
        int known = 0;
        for (unsigned i = 0; i < SIM_FIRST_MAX; i++) {
            known |= g_first[i].host == p && g_first[i].dev != 0;
        }
        if (!known) {
            g_first[g_first_next].host = p;
            g_first[g_first_next].dev = r->dev;
            g_first_next = (g_first_next + 1) % SIM_FIRST_MAX;
        }
    }
    r->inserted_ns = now_ns();
    r->next = g_regs;
    g_regs = r;
    g_reg_count++;
    pthread_mutex_unlock(&reg_lock);
    *dev_out = (void *)r->dev;
    return ACL_SUCCESS;
}

/* A reserved type or flag: the driver does not support it yet (docs), unless a switch
 * makes it a plain mapping. */
static int reserved_accepted(int iomemory)
{
    return aclsim_fault(ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED) ||
           aclsim_fault(iomemory ? ACLSIM_FAULT_RESERVED_IOMEMORY_OK : ACLSIM_FAULT_RESERVED_READONLY_OK);
}

SIM_EXPORT aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr)
{
    /* memory.cpp:492-495: ptr, devPtr, size. */
    if (ptr == NULL || devPtr == NULL || size == 0) {
        return sim_open_code(ACL_ERROR_INVALID_PARAM);
    }
    if (aclsim_fault(ACLSIM_FAULT_CRASH_IN_REGISTER)) {
        raise(SIGSEGV);
    }
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    /* api_error.cc:1997-2003: bits outside IOMEMORY|READONLY are not supported. */
    uint32_t bits = (uint32_t)type;
    if ((bits & ~(uint32_t)(ACL_HOST_REGISTER_IOMEMORY | ACL_HOST_REGISTER_READONLY)) != 0) {
        return aclsim_fault(ACLSIM_FAULT_REGISTER_TYPE_WRONG_CODE) ? ACL_ERROR_INVALID_PARAM
                                                                   : sim_open_code(ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    }
    int dev;
    aclError rc = sim_hostmem_gate(SIM_API_REGISTER, &dev, 1);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    if (bits != ACL_HOST_REGISTER_MAPPED && !reserved_accepted((bits & ACL_HOST_REGISTER_IOMEMORY) != 0)) {
        return sim_open_code(ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    }
    simRegMode mode = {1, 0, 0};
    return register_range(ptr, size, mode, dev, devPtr);
}

SIM_EXPORT aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag)
{
    /* memory.cpp:504-505: ptr, size. */
    if (ptr == NULL || size == 0) {
        return sim_open_code(ACL_ERROR_INVALID_PARAM);
    }
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    /* api_error.cc:2016-2022: a non-empty OR of the four flags, else an invalid value. */
    if (flag == 0 || (flag & ~(uint32_t)SIM_REG_VALID_FLAGS) != 0) {
        if (!aclsim_fault(ACLSIM_FAULT_V2_FLAG_UNCHECKED)) {
            return sim_open_code(ACL_ERROR_RT_PARAM_INVALID);
        }
        flag = (uint32_t)ACL_HOST_REG_MAPPED;
    }
    int dev;
    aclError rc = sim_hostmem_gate(SIM_API_REGISTER_V2, &dev, 1);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    uint32_t reserved = flag & (uint32_t)(ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY);
    if (reserved != 0) {
        int iomemory = (reserved & ACL_HOST_REG_IOMEMORY) != 0;
        int readonly = (reserved & ACL_HOST_REG_READONLY) != 0;
        if ((iomemory && !reserved_accepted(1)) || (readonly && !reserved_accepted(0))) {
            return sim_open_code(ACL_ERROR_RT_FEATURE_NOT_SUPPORT); /* reserved, not supported yet */
        }
        flag = (flag & ~reserved) | (uint32_t)ACL_HOST_REG_MAPPED;
    }
    simRegMode mode = {(flag & ACL_HOST_REG_MAPPED) != 0, (flag & ACL_HOST_REG_PINNED) != 0, 1};
    void *unused;
    return register_range(ptr, size, mode, dev, &unused);
}

/* The entry a device-pointer lookup finds for p, with the offset to add (reg_lock held). */
static const simReg *lookup_devptr(uintptr_t p, int device, uintptr_t *offset)
{
    *offset = 0;
    for (const simReg *r = g_regs; r != NULL; r = r->next) {
        int usable = r->mapped || ((aclsim_fault(ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED)) && r->dev != 0);
        if (!usable) {
            continue;
        }
        if (pin_register_driver()) {
            /* The driver resolves any address of a range mapped on this device. */
            if (r->device == device && contains(r->host, r->size, p, 1)) {
                *offset = p - r->host;
                return r;
            }
        } else if (r->host == p) {
            return r; /* the runtime's registry matches the exact base (register_memory.cc:147-158) */
        } else if (contains(r->host, r->size, p, 1) && aclsim_fault(ACLSIM_FAULT_DEVPTR_INTERIOR_BASE)) {
            return r;
        }
    }
    return NULL;
}

/* A removed registration still answering (faults and the accept variant). reg_lock held. */
static const simReg *lookup_removed(uintptr_t p)
{
    for (unsigned i = 0; i < SIM_REG_RECENT; i++) {
        const simReg *r = &g_recent[i];
        if (r->size != 0 && r->dev != 0 && r->host == p) {
            return r;
        }
    }
    return NULL;
}

SIM_EXPORT aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag)
{
    /* memory.cpp:514-516: pHost, pDevice, then the reserved flag. */
    if (pHost == NULL || pDevice == NULL) {
        return sim_open_code(ACL_ERROR_INVALID_PARAM);
    }
    if (flag != 0 && !aclsim_fault(ACLSIM_FAULT_GETDEVPTR_FLAG_IGNORED)) {
        return sim_open_code(ACL_ERROR_INVALID_PARAM);
    }
    int device;
    aclError rc = sim_hostmem_gate(SIM_API_GET_DEVPTR, &device, 1);
    if (rc != ACL_SUCCESS) {
        return rc == ACL_ERROR_RT_FEATURE_NOT_SUPPORT ? sim_open_code(ACL_ERROR_RT_PARAM_INVALID) : rc;
    }
    uintptr_t p = (uintptr_t)pHost;
    uintptr_t offset = 0;
    pthread_mutex_lock(&reg_lock);
    const simReg *hit = lookup_devptr(p, device, &offset);
    if (hit == NULL && (aclsim_fault(ACLSIM_FAULT_DEVPTR_AFTER_UNREGISTER) ||
                        aclsim_fault(ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED))) {
        hit = lookup_removed(p);
    }
    uintptr_t dev = hit != NULL ? hit->dev + offset : 0;
    if (dev != 0 && aclsim_fault(ACLSIM_FAULT_DEVPTR_MISMATCH)) {
        dev += SIM_PAGE;
    }
    if (dev != 0 && aclsim_fault(ACLSIM_FAULT_REREGISTER_STALE_DEVPTR)) {
        for (unsigned i = 0; i < SIM_FIRST_MAX; i++) {
            if (g_first[i].host == hit->host && g_first[i].dev != 0) {
                dev = g_first[i].dev + offset;
            }
        }
    }
    if (aclsim_fault(ACLSIM_FAULT_THREAD_STALE_DEVPTR_CACHE) && t_cached_host == p && t_cached_dev != 0) {
        dev = t_cached_dev;
    }
    pthread_mutex_unlock(&reg_lock);
    if (dev == 0) {
        return sim_open_code(ACL_ERROR_RT_PARAM_INVALID); /* api_impl.cc:2653-2660 */
    }
    t_cached_host = p;
    t_cached_dev = dev;
    *pDevice = (void *)dev;
    return ACL_SUCCESS;
}

/* Whether p is the base of a registration removed earlier in the life of its memory. */
static int recently_removed(uintptr_t p)
{
    for (unsigned i = 0; i < SIM_REG_RECENT; i++) {
        if (g_recent[i].size != 0 && g_recent[i].host == p) {
            return 1;
        }
    }
    return 0;
}

/* The answer for a pointer that is no registered base (reg_lock held). */
static aclError unregister_unknown(uintptr_t p)
{
    if (aclsim_fault(ACLSIM_FAULT_DOUBLE_UNREGISTER_OK) && recently_removed(p)) {
        return ACL_SUCCESS;
    }
    for (simReg **link = &g_regs; *link != NULL; link = &(*link)->next) {
        if (!contains((*link)->host, (*link)->size, p, 1)) {
            continue;
        }
        if (aclsim_fault(ACLSIM_FAULT_UNREGISTER_INTERIOR_OK)) {
            return ACL_SUCCESS;
        }
        if (aclsim_fault(ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED)) {
            reg_remove(link); /* the driver drops the range containing the pointer */
            return ACL_SUCCESS;
        }
        return sim_open_code(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED); /* only the exact base counts */
    }
    if (aclsim_fault(ACLSIM_FAULT_UNREGISTER_UNKNOWN_OK) && !recently_removed(p)) {
        return ACL_SUCCESS;
    }
    return ACL_ERROR_HOST_MEMORY_NOT_REGISTERED; /* 25-01_aclError.md: 507911 */
}

/* unregister_drops_newer: every registration made after the one at *link goes too. The list
 * holds the newest first, so those are the entries before it. Returns the entry's link. reg_lock held. */
static simReg **drop_newer(simReg **link)
{
    if (!aclsim_fault(ACLSIM_FAULT_UNREGISTER_DROPS_NEWER)) {
        return link;
    }
    const simReg *target = *link;
    while (g_regs != target) {
        reg_remove(&g_regs);
    }
    return &g_regs;
}

/* Unregistering on the runtime's path (api_impl.cc:2623-2641), reg_lock held. */
static aclError unregister_base(uintptr_t p, int device)
{
    int per_process = aclsim_fault(ACLSIM_FAULT_LEGAL_OTHER_CHOICES);
    simReg **mapped = find_base(p, is_mapped, device);
    simReg **pinned = find_base(p, is_pinned, device);
    if (pin_register_driver()) {
        mapped = find_base(p, any_on, device); /* the driver's table, per device */
        pinned = NULL;
    }
    if (mapped == NULL && pinned == NULL) {
        return unregister_unknown(p);
    }
    if (mapped != NULL) {
        simReg **on_device = per_process ? mapped : find_base(p, mapped_on, device);
        if (pin_register_driver()) {
            on_device = mapped;
        }
        if (on_device == NULL) {
            /* The mapping belongs to another device; its driver call fails and nothing changes. */
            return aclsim_fault(ACLSIM_FAULT_FOREIGN_DEVICE_UNREGISTER_LIES) ? ACL_SUCCESS
                                                                              : ACL_ERROR_HOST_MEMORY_NOT_REGISTERED;
        }
        if ((*on_device)->freed && aclsim_fault(ACLSIM_FAULT_STALE_REGISTRATION_STUCK)) {
            return ACL_ERROR_HOST_MEMORY_NOT_REGISTERED;
        }
        if ((*on_device)->freed && aclsim_fault(ACLSIM_FAULT_UNREGISTER_FREED_LEAVES_MAPPING)) {
            g_ghosts[g_ghost_next] = **on_device;
            g_ghost_next = (g_ghost_next + 1) % SIM_GHOST_MAX;
        }
        reg_remove(drop_newer(on_device));
        pinned = find_base(p, is_pinned, device);
    }
    if (pinned != NULL) {
        reg_remove(drop_newer(pinned));
    }
    g_unregistered_mark = 1;
    if (t_cached_host == p) {
        t_cached_host = 0;
    }
    return ACL_SUCCESS;
}

SIM_EXPORT aclError aclrtHostUnregister(void *ptr)
{
    if (ptr == NULL) {
        return aclsim_fault(ACLSIM_FAULT_UNREGISTER_NULL_OK) ? ACL_SUCCESS : sim_open_code(ACL_ERROR_INVALID_PARAM);
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
    pthread_mutex_lock(&reg_lock);
    if (aclsim_fault(ACLSIM_FAULT_UNREGISTER_FAILS) && find_base((uintptr_t)ptr, is_mapped, device) != NULL) {
        pthread_mutex_unlock(&reg_lock);
        return ACL_ERROR_HOST_MEMORY_NOT_REGISTERED;
    }
    rc = unregister_base((uintptr_t)ptr, device);
    pthread_mutex_unlock(&reg_lock);
    return rc;
}

void sim_reg_memory_freed(const void *base, uint64_t size)
{
    uintptr_t b = (uintptr_t)base;
    int drop = aclsim_fault(ACLSIM_FAULT_LEGAL_OTHER_CHOICES); /* freeing unregisters, another legal choice */
    pthread_mutex_lock(&reg_lock);
    simReg **link = &g_regs;
    while (*link != NULL) {
        if (!overlaps(*link, b, size)) {
            link = &(*link)->next;
        } else if (drop) {
            reg_remove(link);
        } else {
            (*link)->freed = 1;
            link = &(*link)->next;
        }
    }
    for (unsigned i = 0; i < SIM_FIRST_MAX; i++) {
        if (g_first[i].host >= b && g_first[i].host - b < size) {
            g_first[i].host = 0;
            g_first[i].dev = 0;
        }
    }
    /* Freed memory has no history: a later allocation at the same address starts clean,
     * so the faults that act on recently removed registrations never reach it. */
    for (unsigned i = 0; i < SIM_REG_RECENT; i++) {
        if (g_recent[i].size != 0 && overlaps(&g_recent[i], b, size)) {
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
        if (g_recent[i].size != 0 && overlaps(&g_recent[i], b, size)) {
            memset(&g_recent[i], 0, sizeof(g_recent[i]));
        }
    }
    pthread_mutex_unlock(&reg_lock);
}

uint64_t sim_reg_live_count(void)
{
    pthread_mutex_lock(&reg_lock);
    uint64_t n = g_reg_count;
    pthread_mutex_unlock(&reg_lock);
    return n;
}

int sim_reg_take_unregistered_mark(void)
{
    pthread_mutex_lock(&reg_lock);
    int mark = g_unregistered_mark;
    g_unregistered_mark = 0;
    pthread_mutex_unlock(&reg_lock);
    return mark;
}
