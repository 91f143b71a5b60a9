/*
 * Registration of host memory: aclrtHostRegister, aclrtHostRegisterV2,
 * aclrtHostGetDevicePointer, aclrtHostUnregister, and the simulated device
 * VA window that mapped ranges get their device addresses from.
 *
 * Lock discipline: reg_lock guards the live registration list, the ring of
 * recently removed registrations and the window's bump pointer. The check
 * for overlap and the insertion happen under one hold of reg_lock, so of
 * several threads registering one range exactly one wins (the register_race
 * fault splits that hold on purpose). While holding reg_lock this file may
 * call sim_host_lookup_range() (host_lock); the order is always reg_lock
 * then host_lock, never the reverse. No stream lock is ever taken here.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sim_internal.h"

#define SIM_REG_RECENT 64
#define SIM_REG_VALID_FLAGS \
    (ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY | ACL_HOST_REG_PINNED)
#define SIM_REG_RESERVED_FLAGS (ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY)

typedef struct simReg {
    struct simReg *next;
    uintptr_t host;
    uint64_t size;
    uintptr_t dev;    /* 0 when the range has no device mapping (PINNED only) */
    int mlocked;      /* pageable range pinned by the PINNED flag */
} simReg;

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static simReg *g_regs;
static uint64_t g_reg_count;
static simReg g_recent[SIM_REG_RECENT];
static unsigned g_recent_next;
static uintptr_t g_next_dev = SIM_VA_BASE;

int sim_addr_in_va_window(const void *addr)
{
    uintptr_t a = (uintptr_t)addr;
    return a >= SIM_VA_BASE && a - SIM_VA_BASE < SIM_VA_SIZE;
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

/* 0 when no live registration conflicts with [p, p+size); reg_lock held. */
static aclError check_conflict(uintptr_t p, uint64_t size)
{
    for (simReg *r = g_regs; r != NULL; r = r->next) {
        if (!overlaps(r, p, size)) {
            continue;
        }
        int same = r->host == p && r->size == size;
        if (same && aclsim_fault(ACLSIM_FAULT_DOUBLE_REGISTER_OK)) {
            continue;
        }
        if (!same && aclsim_fault(ACLSIM_FAULT_OVERLAP_REGISTER_OK)) {
            continue;
        }
        return ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    }
    return ACL_SUCCESS;
}

typedef struct {
    int mapped;
    int pinned;
} simRegMode;

/* Shared tail of both register calls, after argument, product and context
 * checks. *dev_out receives the device address (0 when not mapped). */
static aclError register_range(void *ptr, uint64_t size, simRegMode mode, void **dev_out)
{
    uintptr_t p = (uintptr_t)ptr;
    simHostRange host = sim_host_lookup_range(ptr, size);
    if (!host.found) {
        int legacy = sim_config()->legacy_kernel && !aclsim_fault(ACLSIM_FAULT_LEGACY_KERNEL_ACCEPTS);
        if (legacy || aclsim_fault(ACLSIM_FAULT_PAGEABLE_REJECTED)) {
            return ACL_ERROR_RT_DRV_INTERNAL_ERROR;
        }
        if (msync(ptr, size, MS_ASYNC) != 0) {
            return ACL_ERROR_INVALID_PARAM; /* not mapped in this process */
        }
    }
    if (mode.pinned && host.pinned && !aclsim_fault(ACLSIM_FAULT_PINNED_ON_PINNED_OK)) {
        return ACL_ERROR_INVALID_PARAM;
    }
    if (!mode.mapped && aclsim_fault(ACLSIM_FAULT_PINNED_MAPS)) {
        mode.mapped = 1;
    }
    simReg *r = calloc(1, sizeof(*r));
    if (r == NULL) {
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    r->host = p;
    r->size = size;

    pthread_mutex_lock(&reg_lock);
    aclError rc = check_conflict(p, size);
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
    if (mode.mapped) {
        if (host.va_flag && !aclsim_fault(ACLSIM_FAULT_VA_FLAG_IGNORED)) {
            r->dev = p;
        } else {
            r->dev = g_next_dev;
            g_next_dev += (size + SIM_PAGE - 1) / SIM_PAGE * SIM_PAGE + SIM_PAGE;
        }
    }
    if (mode.pinned && !host.found) {
        r->mlocked = mlock(ptr, size) == 0;
    }
    if (aclsim_fault(ACLSIM_FAULT_REGISTER_CLOBBERS)) {
        memset(ptr, 0, size < 64 ? size : 64);
    }
    r->next = g_regs;
    g_regs = r;
    g_reg_count++;
    pthread_mutex_unlock(&reg_lock);
    *dev_out = (void *)r->dev;
    return ACL_SUCCESS;
}

SIM_EXPORT aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr)
{
    if (ptr == NULL || size == 0 || devPtr == NULL || (uintptr_t)ptr % SIM_PAGE != 0) {
        return ACL_ERROR_INVALID_PARAM;
    }
    if (aclsim_fault(ACLSIM_FAULT_CRASH_IN_REGISTER)) {
        raise(SIGSEGV);
    }
    aclError rc = sim_hostmem_gate(SIM_API_REGISTER, NULL);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    if (type == ACL_HOST_REGISTER_IOMEMORY || type == ACL_HOST_REGISTER_READONLY) {
        if (!aclsim_fault(ACLSIM_FAULT_RESERVED_TYPE_OK)) {
            return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
        }
    } else if (type != ACL_HOST_REGISTER_MAPPED) {
        return aclsim_fault(ACLSIM_FAULT_REGISTER_TYPE_WRONG_CODE) ? ACL_ERROR_INVALID_PARAM
                                                                   : ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
    }
    simRegMode mode = {1, 0};
    return register_range(ptr, size, mode, devPtr);
}

SIM_EXPORT aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag)
{
    if (ptr == NULL || size == 0 || (uintptr_t)ptr % SIM_PAGE != 0) {
        return ACL_ERROR_INVALID_PARAM;
    }
    if (flag == 0 || (flag & ~(uint32_t)SIM_REG_VALID_FLAGS) != 0) {
        if (!aclsim_fault(ACLSIM_FAULT_V2_FLAG_UNCHECKED)) {
            return ACL_ERROR_INVALID_PARAM;
        }
        flag = (uint32_t)ACL_HOST_REG_MAPPED;
    }
    aclError rc = sim_hostmem_gate(SIM_API_REGISTER_V2, NULL);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    if (flag & SIM_REG_RESERVED_FLAGS) {
        if (!aclsim_fault(ACLSIM_FAULT_RESERVED_TYPE_OK)) {
            return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
        }
        flag = (flag & ~(uint32_t)SIM_REG_RESERVED_FLAGS) | (uint32_t)ACL_HOST_REG_MAPPED;
    }
    simRegMode mode = {(flag & ACL_HOST_REG_MAPPED) != 0, (flag & ACL_HOST_REG_PINNED) != 0};
    void *unused;
    return register_range(ptr, size, mode, &unused);
}

SIM_EXPORT aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag)
{
    if (pHost == NULL || pDevice == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    if (flag != 0 && !aclsim_fault(ACLSIM_FAULT_GETDEVPTR_FLAG_IGNORED)) {
        return ACL_ERROR_INVALID_PARAM;
    }
    aclError rc = sim_hostmem_gate(SIM_API_GET_DEVPTR, NULL);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    uintptr_t p = (uintptr_t)pHost;
    pthread_mutex_lock(&reg_lock);
    const simReg *hit = NULL;
    for (const simReg *r = g_regs; r != NULL && hit == NULL; r = r->next) {
        hit = contains(r->host, r->size, p, 1) ? r : NULL;
    }
    if (hit == NULL && aclsim_fault(ACLSIM_FAULT_DEVPTR_AFTER_UNREGISTER)) {
        for (unsigned i = 0; i < SIM_REG_RECENT && hit == NULL; i++) {
            const simReg *r = &g_recent[i];
            hit = (r->size != 0 && contains(r->host, r->size, p, 1)) ? r : NULL;
        }
    }
    uintptr_t dev = 0;
    if (hit != NULL && hit->dev != 0) {
        dev = hit->dev + (p - hit->host);
        if (aclsim_fault(ACLSIM_FAULT_DEVPTR_MISMATCH)) {
            dev += SIM_PAGE;
        }
    }
    pthread_mutex_unlock(&reg_lock);
    if (dev == 0) {
        return ACL_ERROR_INVALID_PARAM;
    }
    *pDevice = (void *)dev;
    return ACL_SUCCESS;
}

SIM_EXPORT aclError aclrtHostUnregister(void *ptr)
{
    if (ptr == NULL) {
        return aclsim_fault(ACLSIM_FAULT_UNREGISTER_NULL_OK) ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
    }
    aclError rc = sim_hostmem_gate(SIM_API_UNREGISTER, NULL);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    uintptr_t p = (uintptr_t)ptr;
    pthread_mutex_lock(&reg_lock);
    rc = ACL_ERROR_HOST_MEMORY_NOT_REGISTERED;
    for (simReg **link = &g_regs; *link != NULL; link = &(*link)->next) {
        if ((*link)->host == p) {
            if (!aclsim_fault(ACLSIM_FAULT_UNREGISTER_FAILS)) {
                reg_remove(link);
                rc = ACL_SUCCESS;
            }
            pthread_mutex_unlock(&reg_lock);
            return rc;
        }
    }
    if (aclsim_fault(ACLSIM_FAULT_DOUBLE_UNREGISTER_OK)) {
        for (unsigned i = 0; i < SIM_REG_RECENT; i++) {
            rc = (g_recent[i].size != 0 && g_recent[i].host == p) ? ACL_SUCCESS : rc;
        }
    }
    if (aclsim_fault(ACLSIM_FAULT_UNREGISTER_INTERIOR_OK)) {
        for (const simReg *r = g_regs; r != NULL; r = r->next) {
            rc = contains(r->host, r->size, p, 1) ? ACL_SUCCESS : rc;
        }
    }
    pthread_mutex_unlock(&reg_lock);
    return rc;
}

void sim_reg_drop_range(const void *base, uint64_t size)
{
    uintptr_t b = (uintptr_t)base;
    pthread_mutex_lock(&reg_lock);
    simReg **link = &g_regs;
    while (*link != NULL) {
        if (overlaps(*link, b, size)) {
            reg_remove(link);
        } else {
            link = &(*link)->next;
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

void *sim_reg_dev_to_host(const void *addr, uint64_t len)
{
    uintptr_t a = (uintptr_t)addr;
    void *host = NULL;
    pthread_mutex_lock(&reg_lock);
    for (const simReg *r = g_regs; r != NULL && host == NULL; r = r->next) {
        if (r->dev != 0 && r->dev != r->host && contains(r->dev, r->size, a, len)) {
            host = (void *)(r->host + (a - r->dev));
        }
    }
    pthread_mutex_unlock(&reg_lock);
    return host;
}

uint64_t sim_reg_live_count(void)
{
    pthread_mutex_lock(&reg_lock);
    uint64_t n = g_reg_count;
    pthread_mutex_unlock(&reg_lock);
    return n;
}
