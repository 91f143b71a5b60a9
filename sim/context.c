/*
 * Contexts and the calling thread's current context: aclrtCreateContext,
 * aclrtDestroyContext, aclrtSetCurrentContext, aclrtGetCurrentContext and
 * aclrtGetDevice.
 *
 * A context binds a device. aclrtSetDevice makes the device's default context
 * current for the calling thread (threads setting the same device share it);
 * aclrtCreateContext makes a new one current; the last aclrtSetCurrentContext
 * wins. Host-memory calls that need a context act on the device of the
 * current one (04_device_management.md#aclrtSetDevice; acl_rt.h).
 *
 * Contexts live in a fixed table and a handle is a pointer into it, so a
 * stale handle never points at freed memory. Each slot has a generation,
 * bumped when the slot dies; a thread remembers the generation it saw, so a
 * context destroyed (or a default context whose device was reset) stops being
 * current for every thread at once.
 *
 * Lock discipline: ctx_lock guards the table (slot states and generations
 * are also read with atomic loads by sim_current_device, which takes no
 * lock). ctx_lock is a leaf lock.
 */
#include <string.h>

#include "sim_internal.h"

#define SIM_MAX_CONTEXTS 256

typedef struct {
    int alive;
    int device;
    int is_default;
    unsigned generation;
} simContext;

static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static simContext g_contexts[SIM_MAX_CONTEXTS];
static int g_default_slot[SIM_MAX_DEVICES] = {-1, -1, -1, -1, -1, -1, -1, -1};

static __thread simContext *t_ctx;
static __thread unsigned t_ctx_generation;

/* A free slot made alive for dev; -1 when the table is full. ctx_lock held. */
static int slot_new(int dev, int is_default)
{
    for (int i = 0; i < SIM_MAX_CONTEXTS; i++) {
        if (!g_contexts[i].alive) {
            g_contexts[i].alive = 1;
            g_contexts[i].device = dev;
            g_contexts[i].is_default = is_default;
            return i;
        }
    }
    return -1;
}

/* ctx_lock held. */
static void slot_kill(simContext *c)
{
    __atomic_store_n(&c->alive, 0, __ATOMIC_RELEASE);
    __atomic_add_fetch(&c->generation, 1, __ATOMIC_ACQ_REL);
}

static void make_current(simContext *c)
{
    t_ctx = c;
    t_ctx_generation = c ? __atomic_load_n(&c->generation, __ATOMIC_ACQUIRE) : 0;
}

static simContext *current(void)
{
    simContext *c = t_ctx;
    if (c == NULL || !sim_initialized() || !__atomic_load_n(&c->alive, __ATOMIC_ACQUIRE) ||
        __atomic_load_n(&c->generation, __ATOMIC_ACQUIRE) != t_ctx_generation) {
        return NULL;
    }
    return c;
}

int sim_current_device(void)
{
    simContext *c = current();
    return c ? c->device : -1;
}

/* The live context a handle names, or NULL. ctx_lock held. */
static simContext *from_handle(aclrtContext handle)
{
    simContext *c = (simContext *)handle;
    if (c < g_contexts || c >= g_contexts + SIM_MAX_CONTEXTS || !c->alive) {
        return NULL;
    }
    return c;
}

void sim_context_use_default(int dev)
{
    pthread_mutex_lock(&ctx_lock);
    int slot = g_default_slot[dev];
    if (slot < 0 || !g_contexts[slot].alive) {
        slot = slot_new(dev, 1);
        g_default_slot[dev] = slot;
    }
    pthread_mutex_unlock(&ctx_lock);
    make_current(slot >= 0 ? &g_contexts[slot] : NULL);
}

void sim_context_drop_default(int dev)
{
    pthread_mutex_lock(&ctx_lock);
    int slot = g_default_slot[dev];
    if (slot >= 0 && g_contexts[slot].alive) {
        slot_kill(&g_contexts[slot]);
    }
    g_default_slot[dev] = -1;
    pthread_mutex_unlock(&ctx_lock);
}

void sim_contexts_reset(void)
{
    pthread_mutex_lock(&ctx_lock);
    for (int i = 0; i < SIM_MAX_CONTEXTS; i++) {
        if (g_contexts[i].alive) {
            slot_kill(&g_contexts[i]);
        }
    }
    for (int d = 0; d < SIM_MAX_DEVICES; d++) {
        g_default_slot[d] = -1;
    }
    pthread_mutex_unlock(&ctx_lock);
}

SIM_EXPORT aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId)
{
    if (context == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    if (deviceId < 0 || (uint32_t)deviceId >= sim_config()->device_count) {
        return ACL_ERROR_RT_INVALID_DEVICEID;
    }
    pthread_mutex_lock(&ctx_lock);
    int slot = slot_new(deviceId, 0);
    pthread_mutex_unlock(&ctx_lock);
    if (slot < 0) {
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    sim_device_ref(deviceId);
    make_current(&g_contexts[slot]);
    *context = &g_contexts[slot];
    return ACL_SUCCESS;
}

SIM_EXPORT aclError aclrtDestroyContext(aclrtContext context)
{
    if (context == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    pthread_mutex_lock(&ctx_lock);
    simContext *c = from_handle(context);
    int ok = c != NULL && !c->is_default; /* only contexts from aclrtCreateContext */
    int dev = ok ? c->device : -1;
    if (ok) {
        slot_kill(c);
    }
    pthread_mutex_unlock(&ctx_lock);
    if (!ok) {
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    (void)sim_device_unref(dev, 0);
    return ACL_SUCCESS;
}

SIM_EXPORT aclError aclrtSetCurrentContext(aclrtContext context)
{
    if (context == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    pthread_mutex_lock(&ctx_lock);
    simContext *c = from_handle(context);
    pthread_mutex_unlock(&ctx_lock);
    if (c == NULL) {
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    make_current(c);
    return ACL_SUCCESS;
}

SIM_EXPORT aclError aclrtGetCurrentContext(aclrtContext *context)
{
    if (context == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    simContext *c = current();
    if (c == NULL) {
        return ACL_ERROR_RT_CONTEXT_NULL;
    }
    *context = c;
    return ACL_SUCCESS;
}

SIM_EXPORT aclError aclrtGetDevice(int32_t *deviceId)
{
    if (deviceId == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    int dev = sim_current_device();
    if (dev < 0) {
        return ACL_ERROR_RT_CONTEXT_NULL; /* "returns an error" without a device (04:331) */
    }
    *deviceId = dev;
    return ACL_SUCCESS;
}
