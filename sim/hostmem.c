/*
 * Host memory: aclrtMallocHost, aclrtMallocHostWithCfg, aclrtFreeHost,
 * aclrtFreeHostWithDevSync and the statistics call.
 *
 * Blocks under SIM_SLAB_THRESHOLD bytes are carved from shared 1 MiB slabs
 * (granule 0 of each slab is never handed out) on the grain of the family's
 * driver, in whole grains: the svm v2 driver's pinned-host heap hands out 4 KiB
 * granules one after the other (devmm_virt_interface.c:1198-1199,
 * devmm_virt_com_heap.c:964-966), the svm v3 driver aligns host memory to the
 * host kernel's page (svm_alloc.c:63, cache_allocator.c:52-54; ACLSIM_HOST_PAGE),
 * and where no driver source exists the grain is the 64 bytes the docs promise.
 * ACLSIM_HOST_ALIGN overrides the grain (a power of two from 64 to the host page).
 * Larger blocks get their own mapping; VA_FLAG=1 (UVA) blocks of the v2 driver
 * are 2 MiB aligned and 2 MiB granular (devmm_virt_base_heap.c:73-74). The
 * mappings of the v2 and v3 drivers are not inherited by a forked child
 * (VM_DONTCOPY: v2 svm_module_ops.c:329-330, v3 svm_mmap_fops.c:288-289; here
 * MADV_DONTFORK). Every mapping is mlock()ed; when that fails the memory is kept
 * and counted as unlocked. Released large mappings are poisoned and parked in a
 * small quarantine before munmap, so a stream task that still reads them (a user
 * bug, or the devsync_no_wait fault) sees poison rather than a fault. A mapping that
 * leaves the quarantine keeps its pages in a small pool of spares instead, and a later
 * mapping of the same length takes them over at the fresh address the kernel picks for
 * it (mremap): the test suite allocates the same sizes over and over, and each fresh
 * page costs a fault and a clear of its 4 KiB, most of a run's system time. Nothing a
 * caller sees changes: the address is as fresh as a new mapping's, and the bytes are
 * poisoned on allocation either way.
 *
 * Answers follow the runtime source where the docs are silent
 * (hicann/runtime@681ef7610): the acl layer refuses NULL and size 0 with
 * ACL_ERROR_INVALID_PARAM (memory.cpp), the runtime refuses bad configuration
 * attributes and non-host pointers with ACL_ERROR_RT_PARAM_INVALID
 * (api_impl.cc:2445-2537), aclrtFreeHost needs no current context
 * (api_impl.cc:2514-2521) and a vaFlag other than 1 means plain memory
 * (npu_driver_mem.cc:842-848). Freeing memory leaves its registrations alone,
 * except that the svm v3 driver refuses to free memory a registration still holds
 * (legal_public_driver; svm v3 svm_alloc.c:89-94).
 *
 * The exported calls are hooks.c's; the model_* functions here answer as the model does.
 * The faults that act inside a call do so at its named fault points (FAULT_POINT, see
 * fault_points.h); their behaviour is in faults/hostmem.c.
 *
 * Lock discipline: host_lock guards the block table, the slabs, the arena,
 * the quarantine and every counter in this file. The only lock taken while it
 * is held is devmem_lock (streams.c, a leaf), to recognise device memory passed
 * to a host free. Callers that need registrations (freeing marks them, and asks
 * whether one holds the block) release host_lock first; registry.c calls
 * sim_host_lookup_range() while holding reg_lock (order: reg_lock, then
 * host_lock). Stream synchronisation happens before host_lock is taken.
 */
#define _GNU_SOURCE /* mremap, MREMAP_MAYMOVE, MREMAP_FIXED */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fault_points.h"

#define SIM_SLAB_SIZE (1UL << 20)
#define SIM_SLAB_GRANULES (SIM_SLAB_SIZE / SIM_GRANULE)
#define SIM_BUCKETS 4096
#define SIM_QUARANTINE 16
#define SIM_QUARANTINE_MAX_BLOCK (64UL << 20)
#define SIM_SPARES 32
#define SIM_SPARE_BYTES (512UL << 20)
#define SIM_ARENA_SIZE (64UL << 20)
#define SIM_RECENT 64

typedef enum { BLOCK_SLAB, BLOCK_MMAP, BLOCK_ARENA } simBlockKind;

typedef struct simSlab {
    struct simSlab *next;
    unsigned char *base;
    uint64_t bitmap[SIM_SLAB_GRANULES / 64];
    int locked;
} simSlab;

typedef struct simHostBlock {
    struct simHostBlock *next;
    uintptr_t user;       /* pointer handed to the caller */
    uint64_t size;        /* requested size */
    simBlockKind kind;
    simSlab *slab;        /* BLOCK_SLAB */
    uint32_t granule;     /* first booked granule */
    uint32_t booked;      /* granules marked used */
    unsigned char *map;   /* BLOCK_MMAP / BLOCK_ARENA: start of the region */
    size_t map_len;
    int locked;
    int va_flag;
    int from_cfg;
} simHostBlock;

typedef struct {
    void *map;
    size_t len;
} simQuarantined;

static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static simHostBlock *g_buckets[SIM_BUCKETS];
static simSlab *g_slabs;
static simQuarantined g_quarantine[SIM_QUARANTINE];
static unsigned g_quarantine_next;
typedef struct {
    size_t len; /* 0: the slot is empty */
    uint64_t age;
    int retired; /* its range could not be reserved again: never used */
} simSpare;
static simSpare g_spares[SIM_SPARES]; /* slot i holds its pages at g_spare_arena + i * SIM_QUARANTINE_MAX_BLOCK */
static unsigned char *g_spare_arena;
static uint64_t g_spare_age;
static size_t g_spare_bytes;
static unsigned char *g_arena;
static size_t g_arena_used;
static size_t g_arena_live; /* arena blocks not freed yet: with none, the arena starts over */
static uintptr_t g_recent_freed[SIM_RECENT];
static unsigned g_recent_next;
static uint64_t g_live_allocs, g_live_bytes, g_unlocked_allocs;
static uint64_t g_limit_used, g_locked_bytes;
static int g_mlock_warned;

static size_t bucket_of(uintptr_t p)
{
    return (size_t)(((uint64_t)(p >> 6) * 0x9E3779B97F4A7C15ULL) >> 52) & (SIM_BUCKETS - 1);
}

static size_t round_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

/* Whether the driver hands out plain malloc memory (legal_drv_malloc_fallback), with
 * another grain and placement. */
static int malloc_fallback(void)
{
    simHostAllocatorSite site = {.malloc_fallback = 0};
    FAULT_POINT(HOST_ALLOCATOR, &site);
    return site.malloc_fallback;
}

/* The grain small blocks start on and are booked in (see the top of the file). The
 * malloc fallback has no grain beyond malloc's own. */
static size_t host_grain(void)
{
    const simConfig *cfg = sim_config();
    if (cfg->host_align != 0) {
        return cfg->host_align;
    }
    switch (cfg->driver) {
    case SIM_DRV_V2:
        return malloc_fallback() ? SIM_GRANULE : SIM_PAGE;
    case SIM_DRV_V3:
        return cfg->host_page;
    case SIM_DRV_DOCS:
        break;
    }
    return SIM_GRANULE;
}

/* Whether host blocks are kept from a forked child: driver memory is VM_DONTCOPY, malloc
 * fallback memory is ordinary process memory. */
static int dont_fork(void)
{
    simHostMappingSite site = {.dont_fork = sim_config()->driver != SIM_DRV_DOCS && !malloc_fallback()};
    FAULT_POINT(HOST_MAPPING, &site);
    return site.dont_fork;
}

static size_t real_page(void)
{
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? (size_t)page : SIM_PAGE;
}

/* The spares live in slots of a range reserved for them (PROT_NONE where a slot is
 * empty), so that moving pages in or out never maps anything at an address a caller
 * may see: a freed block's range is unmapped as by munmap, and stays free for others. */
static unsigned char *spare_arena(void)
{
    if (g_spare_arena == NULL) { /* reserved on first use; without it nothing is kept */
        void *m = mmap(NULL, SIM_SPARES * SIM_QUARANTINE_MAX_BLOCK, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        g_spare_arena = m == MAP_FAILED ? NULL : m;
    }
    return g_spare_arena;
}

/* Empties slot i: its range goes back to the reservation (a slot that cannot is retired). */
static void spare_drop(unsigned i, int pages_present)
{
    unsigned char *slot = g_spare_arena + (size_t)i * SIM_QUARANTINE_MAX_BLOCK;
    size_t len = g_spares[i].len;
    /* Over pages still there, MAP_FIXED replaces them at once; over the hole a move left,
     * NOREPLACE refuses to take whatever another thread mapped there in the meantime. */
    int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | (pages_present ? MAP_FIXED : MAP_FIXED_NOREPLACE);
    void *m = mmap(slot, len, PROT_NONE, flags, -1, 0);
    if (m != slot) {
        if (m != MAP_FAILED) {
            munmap(m, len); /* a kernel without NOREPLACE took the address as a hint */
        }
        g_spares[i].retired = 1;
    }
    g_spare_bytes -= len;
    g_spares[i].len = 0;
}

/* The pages of a spare of exactly len bytes, moved to start (a fresh mapping of ours that
 * they replace); 0 when no spare has that length. host_lock held. */
static int spare_take(void *start, size_t len)
{
    for (unsigned i = 0; i < SIM_SPARES; i++) {
        if (g_spares[i].len != len) {
            continue;
        }
        void *slot = g_spare_arena + (size_t)i * SIM_QUARANTINE_MAX_BLOCK;
        int moved = mremap(slot, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, start) != MAP_FAILED;
        spare_drop(i, !moved);
        return moved;
    }
    return 0;
}

/* Keeps the pages of a mapping that leaves the quarantine as a spare, in place of the oldest
 * when every slot is taken; its old range is unmapped as by munmap. host_lock held. */
static void spare_keep(void *map, size_t len)
{
    if (len > SIM_QUARANTINE_MAX_BLOCK || spare_arena() == NULL) {
        munmap(map, len);
        return;
    }
    unsigned chosen = SIM_SPARES;
    for (unsigned i = 0; i < SIM_SPARES; i++) {
        if (g_spares[i].retired) {
            continue;
        }
        if (g_spares[i].len == 0) {
            chosen = i;
            break;
        }
        if (chosen == SIM_SPARES || g_spares[i].age < g_spares[chosen].age) {
            chosen = i;
        }
    }
    if (chosen == SIM_SPARES) { /* every slot retired */
        munmap(map, len);
        return;
    }
    if (g_spares[chosen].len != 0) {
        spare_drop(chosen, 1);
    }
    for (unsigned i = 0; g_spare_bytes + len > SIM_SPARE_BYTES && i < SIM_SPARES; i++) {
        if (g_spares[i].len != 0) {
            spare_drop(i, 1);
        }
    }
    if (g_spares[chosen].retired) {
        munmap(map, len);
        return;
    }
    unsigned char *slot = g_spare_arena + (size_t)chosen * SIM_QUARANTINE_MAX_BLOCK;
    if (mremap(map, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, slot) == MAP_FAILED) {
        munmap(map, len);
        return;
    }
    g_spares[chosen].len = len;
    g_spares[chosen].age = ++g_spare_age;
    g_spare_bytes += len;
}

/* A fresh read-write mapping of len bytes starting on a multiple of align (which may
 * exceed the machine's page: the emulated host page is not the real one); its pages
 * are a spare's where one has the length. */
static void *map_region(size_t len, size_t align)
{
    size_t page = real_page();
    size_t extra = align > page ? align : 0;
    size_t body = round_up(len, page);
    unsigned char *m = mmap(NULL, body + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        return NULL;
    }
    unsigned char *start = m;
    if (extra != 0) {
        start = (unsigned char *)round_up((uintptr_t)m, align);
        if (start > m) {
            munmap(m, (size_t)(start - m));
        }
        if (m + body + extra > start + body) {
            munmap(start + body, (size_t)(m + body + extra - (start + body)));
        }
    }
    if (g_spare_arena != NULL) {
        (void)spare_take(start, body);
    }
    if (dont_fork()) {
        (void)madvise(start, body, MADV_DONTFORK);
    }
    return start;
}

/* mlock with the emulated ACLSIM_MLOCK_LIMIT; returns 1 when locked. host_lock held. */
static int try_mlock(void *addr, size_t len)
{
    uint64_t limit = sim_config()->mlock_limit;
    int ok = 0;
    if (limit == 0 || g_locked_bytes + len <= limit) {
        ok = mlock(addr, len) == 0;
    }
    if (ok) {
        g_locked_bytes += len;
    } else {
        sim_warn_once(&g_mlock_warned,
                      "mlock failed (RLIMIT_MEMLOCK too low?); host memory stays pageable and "
                      "is counted in aclsimStats.unlocked_host_allocs");
    }
    return ok;
}

static void unlock_bytes(void *addr, size_t len)
{
    munlock(addr, len);
    g_locked_bytes = g_locked_bytes >= len ? g_locked_bytes - len : 0;
}

static int slab_test(const simSlab *s, size_t g)
{
    return (int)((s->bitmap[g / 64] >> (g % 64)) & 1U);
}

static void slab_mark(simSlab *s, size_t g, size_t n, int used)
{
    for (size_t i = g; i < g + n; i++) {
        if (used) {
            s->bitmap[i / 64] |= 1ULL << (i % 64);
        } else {
            s->bitmap[i / 64] &= ~(1ULL << (i % 64));
        }
    }
}

/* First fit of n free granules starting on a multiple of step granules;
 * granule 0 is the reserved header. */
static long slab_find(const simSlab *s, size_t n, size_t step)
{
    size_t g = step;
    while (g + n <= SIM_SLAB_GRANULES) {
        size_t k = 0;
        while (k < n && !slab_test(s, g + k)) {
            k++;
        }
        if (k == n) {
            return (long)g;
        }
        g = (g + k) / step * step + step; /* the next start past the used granule */
    }
    return -1;
}

static simSlab *slab_new(size_t align)
{
    void *base = map_region(SIM_SLAB_SIZE, align);
    if (base == NULL) {
        return NULL;
    }
    simSlab *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        munmap(base, SIM_SLAB_SIZE);
        return NULL;
    }
    s->base = base;
    s->locked = try_mlock(base, SIM_SLAB_SIZE);
    slab_mark(s, 0, 1, 1);
    s->next = g_slabs;
    g_slabs = s;
    return s;
}

/* Books whole grains for `span` bytes; the block starts at granule*64, on the grain. */
static int slab_alloc(simHostBlock *b, size_t span)
{
    simHostSlabSite site = {.live_allocs = g_live_allocs, .short_booking = 0};
    FAULT_POINT(HOST_SLAB_BOOKING, &site);
    int short_booking = site.short_booking; /* in 64-byte granules, one short */
    size_t unit = short_booking ? SIM_GRANULE : host_grain();
    size_t n = round_up(span, unit) / SIM_GRANULE;
    size_t step = unit / SIM_GRANULE;
    size_t booked = short_booking && n >= 2 ? n - 1 : n;
    simSlab *s;
    long g = -1;
    for (s = g_slabs; s != NULL; s = s->next) {
        if ((uintptr_t)s->base % unit != 0) {
            continue; /* made for a finer grain (an earlier aclInit) */
        }
        g = slab_find(s, n, step);
        if (g >= 0) {
            break;
        }
    }
    if (s == NULL) {
        s = slab_new(unit);
        if (s == NULL) {
            return -1;
        }
        g = slab_find(s, n, step);
    }
    slab_mark(s, (size_t)g, booked, 1);
    b->kind = BLOCK_SLAB;
    b->slab = s;
    b->granule = (uint32_t)g;
    b->booked = (uint32_t)booked;
    b->map = s->base + (size_t)g * SIM_GRANULE;
    b->map_len = booked * SIM_GRANULE;
    b->locked = s->locked;
    return 0;
}

/* A block with a mapping of its own, align-aligned and align-granular. */
static int mmap_alloc(simHostBlock *b, size_t span, size_t align)
{
    size_t len = round_up(span, align);
    void *map = map_region(len, align);
    if (map == NULL) {
        return -1;
    }
    b->kind = BLOCK_MMAP;
    b->map = map;
    b->map_len = len;
    b->locked = try_mlock(map, len);
    return 0;
}

/* short_alloc and content_between_points: a bump arena whose next block starts `step`
 * bytes after this one, inside it. */
static int arena_alloc(simHostBlock *b, size_t span, size_t step)
{
    if (g_arena == NULL) {
        g_arena = map_region(SIM_ARENA_SIZE, SIM_PAGE);
        if (g_arena == NULL) {
            return -1;
        }
    }
    if (g_arena_used + round_up(span, SIM_PAGE) > SIM_ARENA_SIZE && g_arena_live == 0) {
        g_arena_used = 0; /* every block of it was freed: its bytes are free to hand out again */
    }
    if (g_arena_used + round_up(span, SIM_PAGE) > SIM_ARENA_SIZE) {
        return -1;
    }
    g_arena_live++;
    b->kind = BLOCK_ARENA;
    b->map = g_arena + g_arena_used;
    b->map_len = span;
    b->locked = 0;
    g_arena_used += step;
    return 0;
}

static void table_insert(simHostBlock *b)
{
    size_t i = bucket_of(b->user);
    b->next = g_buckets[i];
    g_buckets[i] = b;
}

static simHostBlock *table_remove(uintptr_t user)
{
    for (simHostBlock **pp = &g_buckets[bucket_of(user)]; *pp != NULL; pp = &(*pp)->next) {
        if ((*pp)->user == user) {
            simHostBlock *b = *pp;
            *pp = b->next;
            return b;
        }
    }
    return NULL;
}

static simHostBlock *table_find(uintptr_t user)
{
    for (simHostBlock *b = g_buckets[bucket_of(user)]; b != NULL; b = b->next) {
        if (b->user == user) {
            return b;
        }
    }
    return NULL;
}

/* The live block that contains [p, p+len), or NULL. host_lock held. */
static simHostBlock *table_containing(uintptr_t p, uint64_t len)
{
    for (size_t i = 0; i < SIM_BUCKETS; i++) {
        for (simHostBlock *b = g_buckets[i]; b != NULL; b = b->next) {
            if (p >= b->user && p - b->user < b->size && len <= b->size - (p - b->user)) {
                return b;
            }
        }
    }
    return NULL;
}

/* Extra bytes booked so that the alignment variants can place the pointer: none in the
 * model, which hands out the start of the booked region. */
static size_t placement_pad(void)
{
    simHostPlacementSite site = {.pad = 0};
    FAULT_POINT(HOST_PLACEMENT, &site);
    return site.pad;
}

static size_t placement_offset(uintptr_t start)
{
    size_t pad = placement_pad();
    if (pad == SIM_GRANULE) {
        return (start + SIM_GRANULE) % (2 * SIM_GRANULE) == 0 ? 0 : SIM_GRANULE; /* land on 64 mod 128 */
    }
    return pad;
}

/* The alignment and granularity of a block with its own mapping. */
static size_t block_align(int va_flag)
{
    if (va_flag && sim_config()->driver == SIM_DRV_V2) {
        return SIM_2M; /* the v2 host-UVA heap: devmm_virt_base_heap.c:73-74 */
    }
    size_t grain = host_grain();
    return grain > SIM_PAGE ? grain : SIM_PAGE;
}

static aclError host_alloc(const simAllocReq *req, void **out)
{
    const simConfig *cfg = sim_config();
    if (req->size > (uint64_t)SIZE_MAX - SIM_PAGE * 4) {
        return sim_open_code(ACL_ERROR_RT_MEMORY_ALLOCATION);
    }
    simHostBlock *b = calloc(1, sizeof(*b));
    if (b == NULL) {
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    size_t span = (size_t)req->size + req->offset + placement_pad();
    simHostCarveSite carve = {.size = req->size, .span = span, .va_flag = req->va_flag, .check_limit = 1,
                              .own_pages = req->va_flag};
    FAULT_POINT(HOST_CARVE, &carve);
    pthread_mutex_lock(&host_lock);
    if (cfg->host_mem_limit != 0 && carve.check_limit &&
        (g_limit_used > cfg->host_mem_limit || req->size > cfg->host_mem_limit - g_limit_used)) {
        pthread_mutex_unlock(&host_lock);
        free(b);
        return sim_open_code(ACL_ERROR_RT_MEMORY_ALLOCATION);
    }
    int rc;
    if (carve.arena_step != 0) {
        rc = arena_alloc(b, span, carve.arena_step);
    } else if (!carve.own_pages && span < SIM_SLAB_THRESHOLD) {
        rc = slab_alloc(b, span);
    } else {
        rc = mmap_alloc(b, span, block_align(req->va_flag));
    }
    if (rc != 0) {
        pthread_mutex_unlock(&host_lock);
        free(b);
        return sim_open_code(ACL_ERROR_RT_MEMORY_ALLOCATION);
    }
    b->user = (uintptr_t)b->map + req->offset + placement_offset((uintptr_t)b->map);
    b->size = req->size;
    b->va_flag = req->va_flag;
    b->from_cfg = req->from_cfg;
    memset(b->map, cfg->poison, b->kind == BLOCK_ARENA ? span : b->map_len);
    table_insert(b);
    g_live_allocs++;
    g_live_bytes += b->size;
    g_limit_used += b->size;
    g_unlocked_allocs += b->locked ? 0 : 1;
    uintptr_t user = b->user;
    uint64_t size = b->size;
    pthread_mutex_unlock(&host_lock);
    sim_reg_memory_new((void *)user, size); /* fresh memory: old registration records are void */
    *out = (void *)user;
    return ACL_SUCCESS;
}

static void quarantine_park(void *map, size_t len)
{
    if (len > SIM_QUARANTINE_MAX_BLOCK) {
        munmap(map, len);
        return;
    }
    simQuarantined *q = &g_quarantine[g_quarantine_next];
    if (q->map != NULL) {
        spare_keep(q->map, q->len);
    }
    q->map = map;
    q->len = len;
    g_quarantine_next = (g_quarantine_next + 1) % SIM_QUARANTINE;
}

/* Releases the memory of a block already removed from the table. host_lock held. */
static void block_release(simHostBlock *b)
{
    unsigned char poison = sim_config()->poison;
    size_t end = (size_t)b->granule + b->booked;
    int next_in_slab = b->kind == BLOCK_SLAB && end < SIM_SLAB_GRANULES;
    simHostReleaseSite site = {.next = next_in_slab ? b->slab->base + end * SIM_GRANULE : NULL,
                               .poison = poison, .limit_returned = 1};
    FAULT_POINT(HOST_RELEASE, &site);
    if (b->kind == BLOCK_SLAB) {
        memset(b->map, poison, b->map_len);
        slab_mark(b->slab, b->granule, b->booked, 0);
    } else if (b->kind == BLOCK_MMAP) {
        memset(b->map, poison, b->map_len);
        if (b->locked) {
            unlock_bytes(b->map, b->map_len);
        }
        quarantine_park(b->map, b->map_len);
    } else {
        g_arena_live--; /* not poisoned: that would hit the neighbour sharing its last page */
    }
    g_live_allocs--;
    g_live_bytes -= b->size;
    if (site.limit_returned) {
        g_limit_used -= b->size;
    }
    g_unlocked_allocs -= b->locked ? 0 : 1;
    g_recent_freed[g_recent_next] = b->user;
    g_recent_next = (g_recent_next + 1) % SIM_RECENT;
}

int sim_host_recently_freed(uintptr_t p)
{
    for (unsigned i = 0; i < SIM_RECENT; i++) {
        if (g_recent_freed[i] == p) {
            return 1;
        }
    }
    return 0;
}

int sim_host_inside_block(uintptr_t p)
{
    return table_containing(p, 1) != NULL;
}

/* The answer for a pointer that is no live block: device memory is refused by its location
 * (api_impl.cc:2524-2533); anything else goes to the driver's halMemFree (api_impl.cc:2536),
 * which refuses it as an invalid value. host_lock held. */
static aclError free_unknown(uintptr_t p)
{
    simHostFreeUnknownSite site = {.p = p, .device_memory = sim_devmem_contains((void *)p)};
    FAULT_POINT(HOST_FREE_UNKNOWN, &site);
    if (site.answer.given) {
        return site.answer.code;
    }
    return sim_open_code(ACL_ERROR_RT_PARAM_INVALID);
}

/* Frees a block by its user pointer; `plain_free` is set for aclrtFreeHost. */
static aclError host_free(void *ptr, int plain_free)
{
    uintptr_t p = (uintptr_t)ptr;
    pthread_mutex_lock(&host_lock);
    simHostBlock *b = table_find(p);
    if (b == NULL) {
        aclError rc = free_unknown(p);
        pthread_mutex_unlock(&host_lock);
        return rc;
    }
    simHostFreeBlockSite site = {.plain_free = plain_free, .from_cfg = b->from_cfg};
    FAULT_POINT(HOST_FREE_BLOCK, &site);
    if (site.answer.given) {
        pthread_mutex_unlock(&host_lock);
        return site.answer.code;
    }
    uint64_t size = b->size;
    pthread_mutex_unlock(&host_lock);

    /* The svm v3 driver's free fails while a registration holds the block (its handle
     * keeps a reference: svm_register_pcie_th.c:583-596, malloc_mng.c:283-286), with
     * DRV_ERROR_BUSY (svm_alloc.c:89-94), 507899 through the runtime; the block stays. */
    if (sim_reg_block_busy(ptr, size)) {
        return ACL_ERROR_RT_DRV_INTERNAL_ERROR;
    }
    pthread_mutex_lock(&host_lock);
    b = table_remove(p);
    if (b == NULL) {
        aclError rc = free_unknown(p); /* another thread freed it meanwhile */
        pthread_mutex_unlock(&host_lock);
        return rc;
    }
    pthread_mutex_unlock(&host_lock);

    /* The runtime's free leaves registrations of the block alone (lock order: reg before host). */
    sim_reg_memory_freed(ptr, b->size);

    pthread_mutex_lock(&host_lock);
    block_release(b);
    pthread_mutex_unlock(&host_lock);
    free(b);
    return ACL_SUCCESS;
}

simHostRange sim_host_lookup_range(const void *ptr, uint64_t size)
{
    simHostRange r = {0, 0, 0, 0, 0};
    pthread_mutex_lock(&host_lock);
    simHostBlock *b = table_containing((uintptr_t)ptr, size);
    if (b != NULL) {
        r.found = 1;
        r.pinned = 1;
        r.va_flag = b->va_flag;
        r.base = b->user;
        r.size = b->size;
    }
    pthread_mutex_unlock(&host_lock);
    return r;
}

aclError model_aclrtMallocHost(void **hostPtr, size_t size)
{
    /* memory.cpp:582-584 */
    if (hostPtr == NULL || size == 0) {
        return sim_open_code(ACL_ERROR_INVALID_PARAM);
    }
    int dev;
    aclError rc = sim_hostmem_gate(SIM_API_MALLOC_HOST, &dev, 1);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    simAllocAcceptedSite accepted = {.dev = dev, .from_cfg = 0};
    FAULT_POINT(ALLOC_ACCEPTED, &accepted);
    simAllocReq req = {size, 0, 0, 0};
    simAllocRequestSite request = {.req = &req, .asked = size};
    FAULT_POINT(ALLOC_REQUEST, &request);
    if (malloc_fallback()) {
        req.offset = 16; /* glibc malloc: 16-byte alignment only */
    }
    return host_alloc(&req, hostPtr);
}

typedef struct {
    int has_device;
    uint32_t device;
    int va_flag;
} simCfgRequest;

/* Parses the attribute list as the runtime does (api_impl.cc:2445-2494): a non-NULL cfg needs
 * an attrs array; MODULE_ID and VA_FLAG are taken in order (a later one wins); DEVICE_ID is
 * accepted when it names the current device (docs, checked later) or refused (source, under
 * legal_src_device_id); every other type is an invalid value. */
static aclError parse_cfg(const aclrtMallocConfig *cfg, simCfgRequest *out)
{
    memset(out, 0, sizeof(*out));
    if (cfg == NULL) {
        return ACL_SUCCESS;
    }
    if (cfg->attrs == NULL) {
        return sim_open_code(ACL_ERROR_RT_PARAM_INVALID);
    }
    for (size_t i = 0; i < cfg->numAttrs; i++) {
        const aclrtMallocAttribute *a = &cfg->attrs[i];
        simCfgAttributeSite site = {.cfg = cfg, .index = i};
        FAULT_POINT(CFG_ATTRIBUTE, &site);
        if (site.answer.given) {
            return site.answer.code;
        }
        if (site.skip) {
            continue;
        }
        switch (a->attr) {
        case ACL_RT_MEM_ATTR_MODULE_ID:
            break;
        case ACL_RT_MEM_ATTR_VA_FLAG:
            out->va_flag = a->value.vaFlag == 1U; /* npu_driver_mem.cc:842: only 1 asks for VA identity */
            break;
        case ACL_RT_MEM_ATTR_DEVICE_ID:
            out->has_device = !site.device_unchecked;
            out->device = a->value.deviceId;
            break;
        default:
            return sim_open_code(ACL_ERROR_RT_PARAM_INVALID);
        }
    }
    return ACL_SUCCESS;
}

aclError model_aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg)
{
    /* memory.cpp:439-440 */
    if (ptr == NULL || size == 0) {
        return sim_open_code(ACL_ERROR_INVALID_PARAM);
    }
    if (!sim_initialized()) {
        return ACL_ERROR_UNINITIALIZE;
    }
    simCfgRequest creq;
    aclError rc = parse_cfg(cfg, &creq); /* before the context check, as in api_impl.cc:2489-2497 */
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    int dev;
    rc = sim_hostmem_gate(SIM_API_MALLOC_HOST_CFG, &dev, 1);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    if (creq.has_device && creq.device != (uint32_t)dev) {
        return sim_open_code(ACL_ERROR_RT_PARAM_INVALID); /* 25-04_Structs.md:662 */
    }
    if (creq.va_flag && !sim_va_flag_supported(sim_config()->family)) {
        return sim_open_code(ACL_ERROR_RT_FEATURE_NOT_SUPPORT); /* api_c_memory.cc:112 */
    }
    simAllocAcceptedSite accepted = {.dev = dev, .from_cfg = 1};
    FAULT_POINT(ALLOC_ACCEPTED, &accepted);
    simAllocReq req = {size, 0, creq.va_flag, 1};
    simAllocRequestSite request = {.req = &req, .asked = size};
    FAULT_POINT(ALLOC_REQUEST, &request);
    if (!creq.va_flag && malloc_fallback()) {
        req.offset = 16; /* glibc malloc: 16-byte alignment only */
    }
    return host_alloc(&req, ptr);
}

aclError model_aclrtFreeHost(void *hostPtr)
{
    /* memory.cpp:621 */
    if (hostPtr == NULL) {
        return sim_open_code(ACL_ERROR_INVALID_PARAM);
    }
    int dev;
    simFreeGateSite gate = {.need_context = 0}; /* api_impl.cc:2514-2521: no context needed */
    FAULT_POINT(FREE_GATE, &gate);
    aclError rc = sim_hostmem_gate(SIM_API_FREE_HOST, &dev, gate.need_context);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    simFreeAcceptedSite accepted = {.dev = dev};
    FAULT_POINT(FREE_ACCEPTED, &accepted);
    return host_free(hostPtr, 1);
}

aclError model_aclrtFreeHostWithDevSync(void *hostPtr)
{
    /* memory.cpp:644 */
    if (hostPtr == NULL) {
        return sim_open_code(ACL_ERROR_INVALID_PARAM);
    }
    int dev;
    aclError rc = sim_hostmem_gate(SIM_API_FREE_HOST_DEVSYNC, &dev, 1);
    if (rc != ACL_SUCCESS) {
        return rc;
    }
    /* api_c_memory.cc:185-193: synchronise the current device, then free. */
    simDevsyncWaitSite wait = {.dev = dev, .waited = 0};
    FAULT_POINT(DEVSYNC_WAIT, &wait);
    if (!wait.waited) {
        sim_sync_device(dev, 0);
    }
    return host_free(hostPtr, 0);
}

SIM_EXPORT aclError aclsimGetStats(aclsimStats *out)
{
    if (out == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    memset(out, 0, sizeof(*out));
    pthread_mutex_lock(&host_lock);
    out->live_host_allocs = g_live_allocs;
    out->live_host_bytes = g_live_bytes;
    out->unlocked_host_allocs = g_unlocked_allocs;
    pthread_mutex_unlock(&host_lock);
    out->live_registrations = sim_reg_live_count();
    out->live_streams = sim_stream_live_count();
    out->live_device_allocs = sim_devmem_live_count();
    return ACL_SUCCESS;
}
