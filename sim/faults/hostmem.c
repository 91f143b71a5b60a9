/*
 * The faults and legal variants of host memory, at the points of hostmem.c (see
 * fault_points.h). Each handler switches the faults spec/faults.yaml declares at its point.
 *
 * Lock discipline: each handler runs under the locks its site names; the only state kept
 * here, the per-device stream numbers of devsync_skips_old_streams, is atomic.
 */
#include <string.h>
#include <unistd.h>

#include "fault_points.h"

/* alloc_crowded_overlap: the live block count from which the booking goes short. */
#define SIM_CROWDED 8

/* devsync_skips_old_streams: per device, the newest stream number at its last devsync. */
static uint64_t g_devsync_seen[SIM_MAX_DEVICES];

/* legal_drv_malloc_fallback: the v2 driver could not map its SVM range and hands out plain
 * malloc memory (devmm_svm_init.c:250-263, devmm_svm.c:376-386). */
void sim_point_host_allocator(simHostAllocatorSite *site)
{
    if (sim_config()->driver == SIM_DRV_V2 && aclsim_fault(ACLSIM_FAULT_LEGAL_DRV_MALLOC_FALLBACK)) {
        site->malloc_fallback = 1;
    }
}

/* Nothing documents whether a forked child sees host blocks, so a child that inherits the
 * memory is another legal choice (legal_other_choices); fork_inherits is a driver that
 * forgot VM_DONTCOPY. */
void sim_point_host_mapping(simHostMappingSite *site)
{
    if (aclsim_fault(ACLSIM_FAULT_FORK_INHERITS) || aclsim_fault(ACLSIM_FAULT_LEGAL_OTHER_CHOICES)) {
        site->dont_fork = 0;
    }
}

/* alloc_overlap, and alloc_crowded_overlap once crowded: the allocator books in 64-byte
 * granules whatever the grain, one granule short, so the next block starts inside this
 * one's last 64 bytes. */
void sim_point_host_slab_booking(simHostSlabSite *site)
{
    int crowded = site->live_allocs >= SIM_CROWDED && aclsim_fault(ACLSIM_FAULT_ALLOC_CROWDED_OVERLAP);
    if (aclsim_fault(ACLSIM_FAULT_ALLOC_OVERLAP) || crowded) {
        site->short_booking = 1;
    }
}

/* The alignment variants place the pointer: exactly 64-byte (never 128-byte) aligned
 * (legal_min_alignment), or 32 bytes off in RC form, where the docs promise nothing
 * (legal_rc_form). */
void sim_point_host_placement(simHostPlacementSite *site)
{
    if (sim_config()->device_run_mode && aclsim_fault(ACLSIM_FAULT_LEGAL_RC_FORM)) {
        site->pad = 32;
    } else if (aclsim_fault(ACLSIM_FAULT_LEGAL_MIN_ALIGNMENT)) {
        site->pad = SIM_GRANULE;
    }
}

/* Where a block is carved from: huge_size_wraps skips the limit check (its booked size
 * wrapped); legal_page_alignment gives every block pages of its own; content_between_points
 * makes one size class share its last 4 KiB with the next block, and short_alloc every size
 * above a page that is not whole pages share its last partial page. */
void sim_point_host_carve(simHostCarveSite *site)
{
    if (aclsim_fault(ACLSIM_FAULT_HUGE_SIZE_WRAPS)) {
        site->check_limit = 0;
    }
    if (aclsim_fault(ACLSIM_FAULT_LEGAL_PAGE_ALIGNMENT)) {
        site->own_pages = 1;
    }
    int shortable = site->size > SIM_PAGE && site->size % SIM_PAGE != 0;
    if (!site->va_flag && site->size > 262144 && site->size < 524288 &&
        aclsim_fault(ACLSIM_FAULT_CONTENT_BETWEEN_POINTS)) {
        site->arena_step = (site->span + SIM_PAGE - 1) / SIM_PAGE * SIM_PAGE - SIM_PAGE;
    } else if (!site->own_pages && shortable && aclsim_fault(ACLSIM_FAULT_SHORT_ALLOC)) {
        site->arena_step = site->span / SIM_PAGE * SIM_PAGE;
    }
}

/* free_scribbles_neighbour writes the slab granule after the block; exhaustion_leak keeps
 * the freed bytes in the model's count against the limit. */
void sim_point_host_release(simHostReleaseSite *site)
{
    if (site->next != NULL && aclsim_fault(ACLSIM_FAULT_FREE_SCRIBBLES_NEIGHBOUR)) {
        memset(site->next, site->poison, SIM_GRANULE);
    }
    if (aclsim_fault(ACLSIM_FAULT_EXHAUSTION_LEAK)) {
        site->limit_returned = 0;
    }
}

/* free_device_mem_ok releases the device block the pointer starts; legal_accept_unpromised
 * accepts any pointer, double_free_ok one freed recently, free_foreign_ok one inside a live
 * block. */
void sim_point_host_free_unknown(simHostFreeUnknownSite *site)
{
    if (site->device_memory) {
        if (aclsim_fault(ACLSIM_FAULT_FREE_DEVICE_MEM_OK)) {
            site->answer.given = 1;
            site->answer.code = sim_devmem_release((void *)site->p) == 0 ? ACL_SUCCESS : ACL_ERROR_RT_PARAM_INVALID;
        }
        return;
    }
    if (aclsim_fault(ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED) ||
        (aclsim_fault(ACLSIM_FAULT_DOUBLE_FREE_OK) && sim_host_recently_freed(site->p)) ||
        (aclsim_fault(ACLSIM_FAULT_FREE_FOREIGN_OK) && sim_host_inside_block(site->p))) {
        site->answer.given = 1;
        site->answer.code = ACL_SUCCESS;
    }
}

/* free_cfg_rejected: aclrtFreeHost refuses a WithCfg block; devsync_free_leaks: the devsync
 * free keeps the block allocated and counted, and answers success. */
void sim_point_host_free_block(simHostFreeBlockSite *site)
{
    if (site->plain_free && site->from_cfg && aclsim_fault(ACLSIM_FAULT_FREE_CFG_REJECTED)) {
        site->answer.given = 1;
        site->answer.code = ACL_ERROR_INVALID_PARAM;
    } else if (!site->plain_free && aclsim_fault(ACLSIM_FAULT_DEVSYNC_FREE_LEAKS)) {
        site->answer.given = 1;
        site->answer.code = ACL_SUCCESS;
    }
}

/* hang_in_malloc never returns; malloc_syncs and malloc_cfg_syncs (and legal_other_choices,
 * for WithCfg) wait for the device the gate picked. */
void sim_point_alloc_accepted(simAllocAcceptedSite *site)
{
    if (!site->from_cfg) {
        if (aclsim_fault(ACLSIM_FAULT_HANG_IN_MALLOC)) {
            for (;;) {
                pause();
            }
        }
        if (aclsim_fault(ACLSIM_FAULT_MALLOC_SYNCS)) {
            sim_sync_device(site->dev, 0);
        }
        return;
    }
    if (aclsim_fault(ACLSIM_FAULT_MALLOC_CFG_SYNCS) || aclsim_fault(ACLSIM_FAULT_LEGAL_OTHER_CHOICES)) {
        sim_sync_device(site->dev, 0);
    }
}

/* The 32-byte rounding of the runtime (api_impl.cc:2432) done in wrapping 64-bit arithmetic
 * by the huge_size_wraps fault; never below one granule. */
static uint64_t wrapped_size(uint64_t size)
{
    uint64_t rounded = (size + 0x1FU) & ~(uint64_t)0x1FU;
    return rounded == 0 ? SIM_GRANULE : rounded;
}

/* huge_size_wraps books the wrapped size; align_malloc_off16 (small MallocHost blocks),
 * align_between_points (one MallocHost size class) and align_cfg_off8 (WithCfg blocks
 * without VA_FLAG) move the pointer off the 64-byte boundary. */
void sim_point_alloc_request(simAllocRequestSite *site)
{
    simAllocReq *req = site->req;
    if (aclsim_fault(ACLSIM_FAULT_HUGE_SIZE_WRAPS)) {
        req->size = wrapped_size(site->asked);
    }
    if (req->from_cfg) {
        if (!req->va_flag && aclsim_fault(ACLSIM_FAULT_ALIGN_CFG_OFF8)) {
            req->offset = 8;
        }
        return;
    }
    if (req->size + 16 < SIM_SLAB_THRESHOLD && aclsim_fault(ACLSIM_FAULT_ALIGN_MALLOC_OFF16)) {
        req->offset = 16;
    }
    if (site->asked > 8192 && site->asked < 16384 && aclsim_fault(ACLSIM_FAULT_ALIGN_BETWEEN_POINTS)) {
        req->offset = 16;
    }
}

/* Whether attrs[i] repeats the type of an earlier attribute. */
static int repeated(const aclrtMallocConfig *cfg, size_t i)
{
    for (size_t j = 0; j < i; j++) {
        if (cfg->attrs[j].attr == cfg->attrs[i].attr) {
            return 1;
        }
    }
    return 0;
}

/* At an attribute, after the earlier ones have been judged: cfg_duplicate_rejected refuses a
 * repeated type, legal_other_choices lets the first value win; legal_src_device_id refuses
 * DEVICE_ID as the runtime source does, and cfg_other_device_ok forgets the device it must
 * check. */
void sim_point_cfg_attribute(simCfgAttributeSite *site)
{
    int again = repeated(site->cfg, site->index);
    if (again && aclsim_fault(ACLSIM_FAULT_CFG_DUPLICATE_REJECTED)) {
        site->answer.given = 1;
        site->answer.code = ACL_ERROR_RT_PARAM_INVALID;
        return;
    }
    if (again && aclsim_fault(ACLSIM_FAULT_LEGAL_OTHER_CHOICES)) {
        site->skip = 1;
        return;
    }
    if (site->cfg->attrs[site->index].attr != ACL_RT_MEM_ATTR_DEVICE_ID) {
        return;
    }
    if (aclsim_fault(ACLSIM_FAULT_LEGAL_SRC_DEVICE_ID)) {
        site->answer.given = 1;
        site->answer.code = sim_open_code(ACL_ERROR_RT_PARAM_INVALID);
        return;
    }
    if (aclsim_fault(ACLSIM_FAULT_CFG_OTHER_DEVICE_OK)) {
        site->device_unchecked = 1;
    }
}

/* free_needs_context, and legal_other_choices: aclrtFreeHost asks for a current context. */
void sim_point_free_gate(simFreeGateSite *site)
{
    if (aclsim_fault(ACLSIM_FAULT_FREE_NEEDS_CONTEXT) || aclsim_fault(ACLSIM_FAULT_LEGAL_OTHER_CHOICES)) {
        site->need_context = 1;
    }
}

/* hang_in_free never returns while the device is busy; free_syncs waits for it. */
void sim_point_free_accepted(simFreeAcceptedSite *site)
{
    if (site->dev >= 0 && aclsim_fault(ACLSIM_FAULT_HANG_IN_FREE) && sim_device_busy(site->dev)) {
        for (;;) {
            pause();
        }
    }
    if (site->dev >= 0 && aclsim_fault(ACLSIM_FAULT_FREE_SYNCS)) {
        sim_sync_device(site->dev, 0);
    }
}

/* Each waits otherwise for the streams: only those created since the last devsync, at most
 * a second, not at all, on every device (also legal_other_choices), or the oldest stream
 * only. */
void sim_point_devsync_wait(simDevsyncWaitSite *site)
{
    int dev = site->dev;
    site->waited = 1;
    if (aclsim_fault(ACLSIM_FAULT_DEVSYNC_SKIPS_OLD_STREAMS) && dev >= 0 && dev < SIM_MAX_DEVICES) {
        uint64_t since = __atomic_load_n(&g_devsync_seen[dev], __ATOMIC_ACQUIRE);
        __atomic_store_n(&g_devsync_seen[dev], sim_sync_device_since(dev, since), __ATOMIC_RELEASE);
    } else if (aclsim_fault(ACLSIM_FAULT_DEVSYNC_GIVES_UP)) {
        sim_sync_device_timed(dev, 1000);
    } else if (!aclsim_fault(ACLSIM_FAULT_DEVSYNC_NO_WAIT)) {
        int all = aclsim_fault(ACLSIM_FAULT_DEVSYNC_ALL_DEVICES) || aclsim_fault(ACLSIM_FAULT_LEGAL_OTHER_CHOICES);
        sim_sync_device(all ? -1 : dev, aclsim_fault(ACLSIM_FAULT_DEVSYNC_ONE_STREAM));
    }
}
