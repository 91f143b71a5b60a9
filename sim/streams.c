/*
 * Streams, device memory and data movement: aclrtCreateStream,
 * aclrtDestroyStream, aclrtSynchronizeStream, aclrtSynchronizeDevice,
 * aclrtStreamQuery, aclrtLaunchHostFunc, aclrtMalloc, aclrtFree,
 * aclrtMemset, aclrtMemcpy, aclrtMemcpyAsync.
 *
 * Each stream owns a worker thread that runs its tasks (copies and host
 * callbacks) one at a time in submission order; a callback that blocks
 * blocks its stream. A NULL stream handle means the default stream of the
 * calling thread's current device, created on first use.
 *
 * Lock discipline: streams_lock guards the stream table, the default-stream
 * slots, the creation counter and every stream's reference count.
 * stream->lock guards that stream's queue and flags and is only taken
 * without streams_lock held, or after it (order: streams_lock, then
 * stream->lock). No lock is held while a task runs or while a caller waits
 * for a stream. devmem_lock guards the device allocation table and is a
 * leaf (hostmem.c takes it under host_lock to recognise device memory). A
 * stream is freed when it has left the table, its worker has been joined and
 * its last reference is dropped; aclrtDestroyStreamForce drops the queued
 * tasks and detaches the worker instead of waiting for it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim_internal.h"

#define SIM_STREAM_MAGIC 0x5354524dU

typedef enum { TASK_COPY, TASK_HOST_FUNC } simTaskKind;

typedef struct simTask {
    struct simTask *next;
    simTaskKind kind;
    void *dst;
    const void *src;
    size_t count;
    aclrtHostFunc fn;
    void *args;
} simTask;

typedef struct simStream {
    struct simStream *next;
    uint32_t magic;
    int device;
    uint64_t seq;
    int refs;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t work;
    pthread_cond_t idle;
    simTask *head;
    simTask *tail;
    int running;
    int stop;
} simStream;

typedef struct simDevBlock {
    struct simDevBlock *next;
    void *ptr;
    size_t size;
} simDevBlock;

static pthread_mutex_t streams_lock = PTHREAD_MUTEX_INITIALIZER;
static simStream *g_streams;
static simStream *g_default[SIM_MAX_DEVICES];
static uint64_t g_stream_seq;
static uint64_t g_stream_count;

static pthread_mutex_t devmem_lock = PTHREAD_MUTEX_INITIALIZER;
static simDevBlock *g_devmem;
static uint64_t g_devmem_count;

/* ---- stream objects ------------------------------------------------------ */

static void stream_release(simStream *s);

static void *stream_worker(void *arg)
{
    simStream *s = arg;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (s->head == NULL && !s->stop) {
            pthread_cond_wait(&s->work, &s->lock);
        }
        if (s->head == NULL) {
            break;
        }
        simTask *t = s->head;
        s->head = t->next;
        s->tail = s->head ? s->tail : NULL;
        s->running = 1;
        pthread_mutex_unlock(&s->lock);
        if (t->kind == TASK_COPY) {
            memmove(t->dst, t->src, t->count);
        } else {
            t->fn(t->args);
        }
        free(t);
        pthread_mutex_lock(&s->lock);
        s->running = 0;
        if (s->head == NULL) {
            pthread_cond_broadcast(&s->idle);
        }
    }
    pthread_mutex_unlock(&s->lock);
    stream_release(s); /* the worker's own reference */
    return NULL;
}

/* Creates a stream on dev and puts it in the table; streams_lock held. */
static simStream *stream_new_locked(int dev)
{
    simStream *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return NULL;
    }
    s->magic = SIM_STREAM_MAGIC;
    s->device = dev;
    s->refs = 2; /* the table's reference and the worker's */
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->work, NULL);
    pthread_cond_init(&s->idle, NULL);
    if (pthread_create(&s->thread, NULL, stream_worker, s) != 0) {
        free(s);
        return NULL;
    }
    s->seq = ++g_stream_seq;
    s->next = g_streams;
    g_streams = s;
    g_stream_count++;
    return s;
}

static void stream_free(simStream *s)
{
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->work);
    pthread_cond_destroy(&s->idle);
    s->magic = 0;
    free(s);
}

static void stream_release(simStream *s)
{
    pthread_mutex_lock(&streams_lock);
    int last = --s->refs == 0;
    pthread_mutex_unlock(&streams_lock);
    if (last) {
        stream_free(s);
    }
}

/* Looks a handle up (NULL = default stream of dev, created on demand) and
 * takes a reference. Returns NULL for an unknown handle. */
static simStream *stream_acquire(aclrtStream handle, int dev)
{
    simStream *found = NULL;
    pthread_mutex_lock(&streams_lock);
    if (handle == NULL) {
        if (dev >= 0 && dev < SIM_MAX_DEVICES) {
            if (g_default[dev] == NULL) {
                g_default[dev] = stream_new_locked(dev);
            }
            found = g_default[dev];
        }
    } else {
        for (simStream *s = g_streams; s != NULL; s = s->next) {
            if (s == (simStream *)handle) {
                found = s;
                break;
            }
        }
    }
    if (found != NULL) {
        found->refs++;
    }
    pthread_mutex_unlock(&streams_lock);
    return found;
}

/* Waits until the stream has nothing queued or running, or (deadline not NULL) until the
 * CLOCK_REALTIME deadline passes. */
static void stream_wait_until(simStream *s, const struct timespec *deadline)
{
    pthread_mutex_lock(&s->lock);
    while (s->head != NULL || s->running) {
        if (deadline == NULL) {
            pthread_cond_wait(&s->idle, &s->lock);
        } else if (pthread_cond_timedwait(&s->idle, &s->lock, deadline) == ETIMEDOUT) {
            break;
        }
    }
    pthread_mutex_unlock(&s->lock);
}

static void stream_wait(simStream *s)
{
    stream_wait_until(s, NULL);
}

static void stream_enqueue(simStream *s, simTask *t)
{
    pthread_mutex_lock(&s->lock);
    if (s->tail != NULL) {
        s->tail->next = t;
    } else {
        s->head = t;
    }
    s->tail = t;
    pthread_cond_signal(&s->work);
    pthread_mutex_unlock(&s->lock);
}

/* Unlinks s from the table; streams_lock held. */
static void stream_unlink_locked(simStream *s)
{
    for (simStream **pp = &g_streams; *pp != NULL; pp = &(*pp)->next) {
        if (*pp == s) {
            *pp = s->next;
            g_stream_count--;
            break;
        }
    }
    for (int d = 0; d < SIM_MAX_DEVICES; d++) {
        if (g_default[d] == s) {
            g_default[d] = NULL;
        }
    }
}

/* Drains, stops and joins a stream already unlinked; drops the table's reference. */
static void stream_retire(simStream *s)
{
    stream_wait(s);
    pthread_mutex_lock(&s->lock);
    s->stop = 1;
    pthread_cond_signal(&s->work);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->thread, NULL);
    stream_release(s);
}

/* Retires every stream of dev (all devices when dev < 0). */
static void retire_streams(int dev)
{
    for (;;) {
        simStream *victim = NULL;
        pthread_mutex_lock(&streams_lock);
        for (simStream *s = g_streams; s != NULL; s = s->next) {
            if (dev < 0 || s->device == dev) {
                victim = s;
                break;
            }
        }
        if (victim != NULL) {
            stream_unlink_locked(victim);
        }
        pthread_mutex_unlock(&streams_lock);
        if (victim == NULL) {
            return;
        }
        stream_retire(victim);
    }
}

void sim_device_release(int dev)
{
    retire_streams(dev);
}

void sim_streams_shutdown(void)
{
    retire_streams(-1);
}

/* Waits for each listed stream (referenced by the caller; until deadline when not NULL),
 * drops the references, frees the list. */
static void wait_and_release(simStream **list, size_t n, const struct timespec *deadline)
{
    for (size_t i = 0; i < n; i++) {
        stream_wait_until(list[i], deadline);
        stream_release(list[i]);
    }
    free(list);
}

/* References to the streams of dev (every device when dev < 0; only the oldest one when
 * only_first), in a list the caller frees. */
static simStream **device_streams(int dev, int only_first, size_t *count)
{
    simStream **list = NULL;
    size_t n = 0;
    pthread_mutex_lock(&streams_lock);
    list = calloc(g_stream_count + 1, sizeof(*list));
    for (simStream *s = g_streams; s != NULL && list != NULL; s = s->next) {
        if (dev >= 0 && s->device != dev) {
            continue;
        }
        if (only_first && n == 1) {
            if (s->seq < list[0]->seq) {
                list[0]->refs--; /* cannot reach zero: the table holds one */
                list[0] = s;
                s->refs++;
            }
            continue;
        }
        s->refs++;
        list[n++] = s;
    }
    pthread_mutex_unlock(&streams_lock);
    *count = n;
    return list;
}

void sim_sync_device(int dev, int only_first)
{
    size_t n = 0;
    simStream **list = device_streams(dev, only_first, &n);
    wait_and_release(list, n, NULL);
}

void sim_sync_device_timed(int dev, int64_t timeout_ms)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline); /* the clock of the streams' condition variables */
    deadline.tv_sec += timeout_ms / 1000;
    deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    size_t n = 0;
    simStream **list = device_streams(dev, 0, &n);
    wait_and_release(list, n, &deadline);
}

uint64_t sim_sync_device_since(int dev, uint64_t since)
{
    simStream **list = NULL;
    size_t n = 0;
    pthread_mutex_lock(&streams_lock);
    uint64_t newest = g_stream_seq;
    list = calloc(g_stream_count + 1, sizeof(*list));
    for (simStream *s = g_streams; s != NULL && list != NULL; s = s->next) {
        if (s->device == dev && s->seq > since) {
            s->refs++;
            list[n++] = s;
        }
    }
    pthread_mutex_unlock(&streams_lock);
    wait_and_release(list, n, NULL);
    return newest;
}

int sim_device_busy(int dev)
{
    int busy = 0;
    pthread_mutex_lock(&streams_lock);
    for (simStream *s = g_streams; s != NULL && !busy; s = s->next) {
        if (s->device != dev) {
            continue;
        }
        pthread_mutex_lock(&s->lock);
        busy = s->head != NULL || s->running;
        pthread_mutex_unlock(&s->lock);
    }
    pthread_mutex_unlock(&streams_lock);
    return busy;
}

uint64_t sim_stream_live_count(void)
{
    pthread_mutex_lock(&streams_lock);
    uint64_t n = g_stream_count;
    pthread_mutex_unlock(&streams_lock);
    return n;
}

/* Common checks of the calls that act on the current device. */
static aclError need_device(int *dev)
{
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    *dev = sim_current_device();
    return *dev < 0 ? ACL_ERROR_RT_CONTEXT_NULL : ACL_SUCCESS;
}

SIM_EXPORT aclError aclrtCreateStream(aclrtStream *stream)
{
    if (stream == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    int dev;
    aclError rc = need_device(&dev);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    pthread_mutex_lock(&streams_lock);
    simStream *s = stream_new_locked(dev);
    pthread_mutex_unlock(&streams_lock);
    if (s == NULL) {
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    *stream = s;
    return ACL_SUCCESS;
}

/* Takes a handle out of the table; NULL when it names no live stream. */
static simStream *stream_unlink_handle(aclrtStream stream)
{
    simStream *victim = NULL;
    pthread_mutex_lock(&streams_lock);
    for (simStream *s = g_streams; s != NULL; s = s->next) {
        if (s == (simStream *)stream) {
            victim = s;
            stream_unlink_locked(s);
            break;
        }
    }
    pthread_mutex_unlock(&streams_lock);
    return victim;
}

SIM_EXPORT aclError aclrtDestroyStream(aclrtStream stream)
{
    if (stream == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    simStream *victim = stream_unlink_handle(stream);
    if (victim == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    stream_retire(victim);
    return ACL_SUCCESS;
}

/* aclrtDestroyStreamForce: destroy at once without waiting for unfinished tasks
 * (06_stream_management.md#aclrtDestroyStreamForce). Queued tasks are dropped; a task
 * already running finishes on the detached worker, which frees the stream after it. */
SIM_EXPORT aclError aclrtDestroyStreamForce(aclrtStream stream)
{
    if (stream == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    simStream *victim = stream_unlink_handle(stream);
    if (victim == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    pthread_mutex_lock(&victim->lock);
    simTask *t = victim->head;
    victim->head = victim->tail = NULL;
    victim->stop = 1;
    pthread_cond_signal(&victim->work);
    pthread_cond_broadcast(&victim->idle);
    pthread_mutex_unlock(&victim->lock);
    while (t != NULL) {
        simTask *next = t->next;
        free(t);
        t = next;
    }
    pthread_detach(victim->thread);
    stream_release(victim);
    return ACL_SUCCESS;
}

/* Resolves the stream of a synchronising or querying call; a stream of another device is
 * allowed, the default stream needs a current device. */
static aclError waited_stream(aclrtStream stream, simStream **out)
{
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    int dev = sim_current_device();
    if (stream == NULL && dev < 0) {
        return ACL_ERROR_RT_CONTEXT_NULL;
    }
    *out = stream_acquire(stream, dev);
    return *out == NULL ? ACL_ERROR_INVALID_PARAM : ACL_SUCCESS;
}

SIM_EXPORT aclError aclrtSynchronizeStream(aclrtStream stream)
{
    simStream *s = NULL;
    aclError rc = waited_stream(stream, &s);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    stream_wait(s);
    stream_release(s);
    return ACL_SUCCESS;
}

SIM_EXPORT aclError aclrtSynchronizeDevice(void)
{
    int dev;
    aclError rc = need_device(&dev);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    sim_sync_device(dev, 0);
    return ACL_SUCCESS;
}

SIM_EXPORT aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status)
{
    if (status == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    simStream *s = NULL;
    aclError rc = waited_stream(stream, &s);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    pthread_mutex_lock(&s->lock);
    *status = (s->head != NULL || s->running) ? ACL_STREAM_STATUS_NOT_READY : ACL_STREAM_STATUS_COMPLETE;
    pthread_mutex_unlock(&s->lock);
    stream_release(s);
    return ACL_SUCCESS;
}

/* Resolves the stream for an asynchronous call on the current device. */
static aclError async_stream(aclrtStream stream, simStream **out)
{
    int dev;
    aclError rc = need_device(&dev);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    simStream *s = stream_acquire(stream, dev);
    if (s == NULL) {
        return stream == NULL ? ACL_ERROR_RT_MEMORY_ALLOCATION : ACL_ERROR_INVALID_PARAM;
    }
    if (s->device != dev) {
        stream_release(s);
        return ACL_ERROR_RT_STREAM_CONTEXT;
    }
    *out = s;
    return ACL_SUCCESS;
}

SIM_EXPORT aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args)
{
    if (fn == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    simStream *s;
    aclError rc = async_stream(stream, &s);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    simTask *t = calloc(1, sizeof(*t));
    if (t == NULL) {
        stream_release(s);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    t->kind = TASK_HOST_FUNC;
    t->fn = fn;
    t->args = args;
    stream_enqueue(s, t);
    stream_release(s);
    return ACL_SUCCESS;
}

/* ---- device memory ------------------------------------------------------- */

SIM_EXPORT aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    (void)policy; /* huge pages make no difference to the simulator */
    if (devPtr == NULL || size == 0) {
        return ACL_ERROR_INVALID_PARAM;
    }
    int dev;
    aclError rc = need_device(&dev);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    simDevBlock *b = calloc(1, sizeof(*b));
    void *mem = NULL;
    if (b == NULL || posix_memalign(&mem, SIM_GRANULE, size) != 0) {
        free(b);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    memset(mem, sim_config()->poison, size);
    b->ptr = mem;
    b->size = size;
    pthread_mutex_lock(&devmem_lock);
    b->next = g_devmem;
    g_devmem = b;
    g_devmem_count++;
    pthread_mutex_unlock(&devmem_lock);
    *devPtr = mem;
    return ACL_SUCCESS;
}

SIM_EXPORT aclError aclrtFree(void *devPtr)
{
    if (devPtr == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    return sim_devmem_release(devPtr) == 0 ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}

int sim_devmem_contains(const void *p)
{
    int found = 0;
    pthread_mutex_lock(&devmem_lock);
    for (const simDevBlock *b = g_devmem; b != NULL && !found; b = b->next) {
        found = b->ptr == p;
    }
    pthread_mutex_unlock(&devmem_lock);
    return found;
}

int sim_devmem_release(void *p)
{
    simDevBlock *found = NULL;
    pthread_mutex_lock(&devmem_lock);
    for (simDevBlock **pp = &g_devmem; *pp != NULL; pp = &(*pp)->next) {
        if ((*pp)->ptr == p) {
            found = *pp;
            *pp = found->next;
            g_devmem_count--;
            break;
        }
    }
    pthread_mutex_unlock(&devmem_lock);
    if (found == NULL) {
        return -1;
    }
    free(found->ptr);
    free(found);
    return 0;
}

uint64_t sim_devmem_live_count(void)
{
    pthread_mutex_lock(&devmem_lock);
    uint64_t n = g_devmem_count;
    pthread_mutex_unlock(&devmem_lock);
    return n;
}

/* ---- memset / memcpy ----------------------------------------------------- */

/* An address for a host-side access: mapped device addresses from the VA window
 * are device-only (11-02_host_memory_management.md#aclrtHostRegister:284) and
 * refused (NULL). */
static void *host_side(const void *addr)
{
    return sim_addr_in_va_window(addr) ? NULL : (void *)addr;
}

aclError model_aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count)
{
    if (devPtr == NULL || count > maxCount) {
        return ACL_ERROR_INVALID_PARAM;
    }
    int dev;
    aclError rc = need_device(&dev);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    void *target = host_side(devPtr);
    if (target == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    memset(target, value, count);
    return ACL_SUCCESS;
}

typedef struct {
    void *dst;
    const void *src;
} simCopyPlan;

static aclError plan_copy(void *dst, size_t destMax, const void *src, size_t count,
                          aclrtMemcpyKind kind, simCopyPlan *plan)
{
    if (dst == NULL || src == NULL || count > destMax ||
        (unsigned)kind > (unsigned)ACL_MEMCPY_INTER_DEVICE_TO_DEVICE) {
        return ACL_ERROR_INVALID_PARAM;
    }
    plan->dst = host_side(dst);
    plan->src = host_side(src);
    if (plan->dst == NULL || plan->src == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    return ACL_SUCCESS;
}

SIM_EXPORT aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                                aclrtMemcpyKind kind)
{
    if (dst == NULL || src == NULL || count > destMax) {
        return ACL_ERROR_INVALID_PARAM;
    }
    int dev;
    aclError rc = need_device(&dev);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    simCopyPlan plan;
    rc = plan_copy(dst, destMax, src, count, kind, &plan);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    memmove(plan.dst, plan.src, count);
    return ACL_SUCCESS;
}

SIM_EXPORT aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                                     aclrtMemcpyKind kind, aclrtStream stream)
{
    if (dst == NULL || src == NULL || count > destMax) {
        return ACL_ERROR_INVALID_PARAM;
    }
    simStream *s;
    aclError rc = async_stream(stream, &s);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    simCopyPlan plan;
    rc = plan_copy(dst, destMax, src, count, kind, &plan);
    simTask *t = rc == ACL_SUCCESS ? calloc(1, sizeof(*t)) : NULL;
    if (rc == ACL_SUCCESS && t == NULL) {
        rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    if (rc == ACL_SUCCESS) {
        t->kind = TASK_COPY;
        t->dst = plan.dst;
        t->src = plan.src;
        t->count = count;
        stream_enqueue(s, t);
    }
    stream_release(s);
    return rc;
}
