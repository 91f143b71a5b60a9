/*
 * The faults and legal variants of registration, at the points of registry.c (see
 * fault_points.h). Each handler switches the faults spec/faults.yaml declares at its point.
 *
 * Lock discipline: every handler but register.start runs with reg_lock held (register.checked
 * may drop and retake it: register_race), so the state kept here - the base of a refused
 * registration the faulty runtime recorded, and the first device address of each base - is
 * guarded by reg_lock; the start time of a registering call is thread-local.
 */
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "fault_points.h"

/* reregister_stale_devptr: the first device address each base inside host memory got, until
 * the memory is freed. */
#define SIM_FIRST_MAX 64
static struct {
    uintptr_t host;
    uintptr_t dev;
} g_first[SIM_FIRST_MAX];
static unsigned g_first_next;
/* refused_registration_recorded: the base of the last V2 mapping the driver refused, which
 * the faulty runtime recorded all the same (0: none). */
static uintptr_t g_refused_base;
/* legal_alt_codes: when this thread's registering call started (the racing test below). */
static __thread int64_t t_register_started_ns;

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int contains(uintptr_t base, uint64_t size, uintptr_t p, uint64_t len)
{
    return p >= base && p - base < size && len <= size - (p - base);
}

/* second_device_v2_ok: the records are kept per device, so the device becomes part of the key. */
void sim_point_records_key(simRecordKeySite *site)
{
    if (aclsim_fault(ACLSIM_FAULT_SECOND_DEVICE_V2_OK)) {
        site->per_device = 1;
    }
}

void sim_point_register_start(simRegisterStartSite *site)
{
    (void)site;
    if (aclsim_fault(ACLSIM_FAULT_LEGAL_ALT_CODES)) {
        t_register_started_ns = now_ns();
    }
}

/* Each lets the registration go on and enter the records: the same range again with the
 * same mapping (double_register_ok), a mapping over a PINNED-only one
 * (pinned_then_mapped_ok), a partial overlap (overlap_register_ok, legal_accept_unpromised). */
void sim_point_register_conflict(simRegConflictSite *site)
{
    if (site->identical && site->existing_mapped == site->request_mapped &&
        aclsim_fault(ACLSIM_FAULT_DOUBLE_REGISTER_OK)) {
        site->ignored = 1;
    } else if (site->identical && site->request_mapped && !site->existing_mapped &&
               aclsim_fault(ACLSIM_FAULT_PINNED_THEN_MAPPED_OK)) {
        site->ignored = 1;
    } else if (!site->identical &&
               (aclsim_fault(ACLSIM_FAULT_OVERLAP_REGISTER_OK) || aclsim_fault(ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED))) {
        site->ignored = 1;
    }
}

/* Whether the conflict with the entry stamped s is a racing registration: another thread's
 * call that overlapped this one in time (this call started before that one entered its
 * range). A call made after the other returned is a plain second registration, whatever
 * the thread. */
static int racing(const simRegStamp *s)
{
    return !pthread_equal(s->owner, pthread_self()) && t_register_started_ns < s->inserted_ns;
}

/* legal_alt_codes: a racing registration of the same range gets 507899, as the driver's own
 * refusal, instead of the documented 507910. */
void sim_point_register_conflict_code(simRegConflictCodeSite *site)
{
    if (aclsim_fault(ACLSIM_FAULT_LEGAL_ALT_CODES) && racing(site->stamp)) {
        site->code = ACL_ERROR_RT_DRV_INTERNAL_ERROR;
    }
}

/* legal_src_pinned_on_pinned registers PINNED on page-locked memory, as the runtime source
 * does; pinned_maps maps a PINNED-only registration, pinned_mapped_unmapped drops the
 * mapping of PINNED|MAPPED. */
void sim_point_register_mode(simRegModeSite *site)
{
    simRegMode *mode = site->mode;
    if (aclsim_fault(ACLSIM_FAULT_LEGAL_SRC_PINNED_ON_PINNED)) {
        site->pinned_on_pinned_ok = 1;
    }
    if (mode->pinned && !mode->mapped && aclsim_fault(ACLSIM_FAULT_PINNED_MAPS)) {
        mode->mapped = 1;
    }
    if (mode->pinned && mode->mapped && aclsim_fault(ACLSIM_FAULT_PINNED_MAPPED_UNMAPPED)) {
        mode->mapped = 0;
    }
}

/* After the checks: pinned_upgrade_half_applied maps the PINNED-only record a refused
 * upgrade met; refused_registration_recorded records a V2 mapping the driver refused;
 * register_race opens a window between the checks and the insertion. */
void sim_point_register_checked(simRegCheckedSite *site)
{
    const simRegMode *mode = &site->mode;
    if (site->rc != ACL_SUCCESS && site->refused_by_runtime && mode->pinned && mode->mapped &&
        aclsim_fault(ACLSIM_FAULT_PINNED_UPGRADE_HALF_APPLIED)) {
        simRecord **pinned = sim_reg_record_link(sim_reg_records(1), site->host, site->device);
        if (pinned != NULL && (*pinned)->dev == 0 &&
            sim_reg_record_link(sim_reg_records(0), site->host, site->device) == NULL) {
            (*pinned)->dev = sim_drv_window(site->size); /* mapped, although the call was refused */
        }
    }
    if (site->rc != ACL_SUCCESS && !site->refused_by_runtime && !mode->v1 && !site->driver_pins &&
        aclsim_fault(ACLSIM_FAULT_REFUSED_REGISTRATION_RECORDED)) {
        g_refused_base = site->host;
    }
    if (site->rc == ACL_SUCCESS && aclsim_fault(ACLSIM_FAULT_REGISTER_RACE)) {
        pthread_mutex_unlock(site->lock);
        usleep(2000);
        pthread_mutex_lock(site->lock);
    }
}

/* legal_accept_unpromised: PINNED-only memory answers a device pointer. */
void sim_point_register_pinned_record(simRegPinnedRecordSite *site)
{
    if (!site->mapped && aclsim_fault(ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED)) {
        site->dev = sim_drv_window(site->size);
    }
}

/* A registration of the base the faulty runtime recorded replaces that record
 * (refused_registration_recorded); reregister_stale_devptr remembers each base's first
 * device address for the lookups to come. */
void sim_point_register_done(simRegDoneSite *site)
{
    if (aclsim_fault(ACLSIM_FAULT_REFUSED_REGISTRATION_RECORDED) && g_refused_base == site->host) {
        g_refused_base = 0;
    }
    if (aclsim_fault(ACLSIM_FAULT_REREGISTER_STALE_DEVPTR) && site->host_found && site->dev != 0) {
        int known = 0;
        for (unsigned i = 0; i < SIM_FIRST_MAX; i++) {
            known |= g_first[i].host == site->host && g_first[i].dev != 0;
        }
        if (!known) {
            g_first[g_first_next].host = site->host;
            g_first[g_first_next].dev = site->dev;
            g_first_next = (g_first_next + 1) % SIM_FIRST_MAX;
        }
    }
}

/* A reserved option registered as a plain mapping: every one under legal_accept_unpromised,
 * IOMEMORY under reserved_iomemory_ok, READONLY under reserved_readonly_ok. The driver is
 * then asked for a plain mapping, so its answer changes too. */
void sim_point_register_reserved_option(simRegReservedSite *site)
{
    if (aclsim_fault(ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED) ||
        aclsim_fault(site->iomemory ? ACLSIM_FAULT_RESERVED_IOMEMORY_OK : ACLSIM_FAULT_RESERVED_READONLY_OK)) {
        site->accepted = 1;
    }
}

/* crash_in_register: a call that would register, not one refused for its arguments. */
void sim_point_register_accepted(simRegAcceptedSite *site)
{
    if (site->v1 && aclsim_fault(ACLSIM_FAULT_CRASH_IN_REGISTER)) {
        raise(SIGSEGV);
    }
}

/* devptr_interior_base answers the base's device address for an interior pointer (the
 * driver's node without the offset; with the records, the record containing p); the
 * pinned records answer under legal_accept_unpromised and pinned_upgrade_half_applied, and
 * removed records under devptr_after_unregister and legal_accept_unpromised. */
void sim_point_devptr_lookup(simDevptrLookupSite *site)
{
    int interior = aclsim_fault(ACLSIM_FAULT_DEVPTR_INTERIOR_BASE);
    if (site->found) {
        if (site->by_driver && interior) {
            site->dev = site->node_dev;
        }
        return;
    }
    for (const simRecord *r = *sim_reg_records(0); r != NULL && !site->by_driver && interior; r = r->next) {
        if (contains(r->host, r->size, site->p, 1)) {
            *site->base = r->host;
            site->dev = r->dev;
            return;
        }
    }
    int accept = aclsim_fault(ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED);
    if (accept || aclsim_fault(ACLSIM_FAULT_PINNED_UPGRADE_HALF_APPLIED)) {
        simRecord **pinned = sim_reg_record_link(sim_reg_records(1), site->p, site->device);
        if (pinned != NULL && (*pinned)->dev != 0) {
            site->dev = (*pinned)->dev;
            return;
        }
    }
    if (accept || aclsim_fault(ACLSIM_FAULT_DEVPTR_AFTER_UNREGISTER)) {
        const simRecord *gone = sim_reg_removed(site->p, 1);
        site->dev = gone != NULL ? gone->dev : 0;
    }
}

/* reregister_stale_devptr: the first device address the base got stands. */
void sim_point_devptr_answer(simDevptrAnswerSite *site)
{
    if (site->dev == 0 || !aclsim_fault(ACLSIM_FAULT_REREGISTER_STALE_DEVPTR)) {
        return;
    }
    for (unsigned i = 0; i < SIM_FIRST_MAX; i++) {
        if (g_first[i].host == site->base && g_first[i].dev != 0) {
            site->dev = g_first[i].dev + (site->p - site->base);
        }
    }
}

static void answer(simFaultAnswer *a, aclError code)
{
    a->given = 1;
    a->code = code;
}

/* An unknown base: the refused registration's record sends the call to the driver, which
 * has no node (refused_registration_recorded); a base removed earlier succeeds again
 * (double_unregister_ok); a pointer inside a record succeeds (unregister_interior_ok) or
 * removes the record (legal_accept_unpromised); any other pointer succeeds
 * (unregister_unknown_ok). */
void sim_point_unregister_unknown(simUnregUnknownSite *site)
{
    uintptr_t p = site->p;
    if (g_refused_base != 0 && g_refused_base == p && aclsim_fault(ACLSIM_FAULT_REFUSED_REGISTRATION_RECORDED)) {
        g_refused_base = 0;
        answer(&site->answer, sim_drv_missing_code());
        return;
    }
    if (aclsim_fault(ACLSIM_FAULT_DOUBLE_UNREGISTER_OK) && sim_reg_removed(p, 0) != NULL) {
        answer(&site->answer, ACL_SUCCESS);
        return;
    }
    for (int l = 0; l < 2; l++) {
        for (simRecord **link = sim_reg_records(l); *link != NULL; link = &(*link)->next) {
            if (!contains((*link)->host, (*link)->size, p, 1)) {
                continue;
            }
            if (aclsim_fault(ACLSIM_FAULT_UNREGISTER_INTERIOR_OK)) {
                answer(&site->answer, ACL_SUCCESS);
            } else if (aclsim_fault(ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED)) {
                sim_drv_forget((*link)->stamp.seq, 0); /* the driver drops the range containing the pointer */
                sim_reg_record_remove(link);
                answer(&site->answer, ACL_SUCCESS);
            }
            return; /* the model refuses: only the exact base counts */
        }
    }
    if (aclsim_fault(ACLSIM_FAULT_UNREGISTER_UNKNOWN_OK) && sim_reg_removed(p, 0) == NULL) {
        answer(&site->answer, ACL_SUCCESS);
    }
}

/* unregister_pinned_fails finds no PINNED record; unregister_fails refuses a mapped one. */
void sim_point_unregister_records(simUnregRecordsSite *site)
{
    if (aclsim_fault(ACLSIM_FAULT_UNREGISTER_PINNED_FAILS)) {
        site->pinned_hidden = 1;
    }
    if (site->mapped_found && aclsim_fault(ACLSIM_FAULT_UNREGISTER_FAILS)) {
        answer(&site->answer, ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    }
}

/* Of a record whose memory was freed, stale_registration_stuck refuses the removal and
 * unregister_freed_leaves_mapping leaves the driver's node behind; legal_other_choices lets
 * any device remove it (a registration is per process). */
void sim_point_unregister_mapping(simUnregMappingSite *site)
{
    if (site->freed && aclsim_fault(ACLSIM_FAULT_STALE_REGISTRATION_STUCK)) {
        answer(&site->answer, ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
        return;
    }
    if (site->freed && aclsim_fault(ACLSIM_FAULT_UNREGISTER_FREED_LEAVES_MAPPING)) {
        site->leave_mapping = 1;
    }
    if (aclsim_fault(ACLSIM_FAULT_LEGAL_OTHER_CHOICES)) {
        site->any_device = 1;
    }
}

/* foreign_device_unregister_lies: the refusal of a base registered on another device only
 * becomes success. */
void sim_point_unregister_driver_refused(simUnregRefusedSite *site)
{
    if (site->elsewhere && aclsim_fault(ACLSIM_FAULT_FOREIGN_DEVICE_UNREGISTER_LIES)) {
        site->code = ACL_SUCCESS;
    }
}

/* unregister_drops_newer: every registration made after registration seq goes too, its
 * records and its driver nodes. */
void sim_point_unregister_removing(simUnregRemovingSite *site)
{
    if (!aclsim_fault(ACLSIM_FAULT_UNREGISTER_DROPS_NEWER)) {
        return;
    }
    for (int l = 0; l < 2; l++) {
        simRecord **link = sim_reg_records(l);
        while (*link != NULL) {
            if ((*link)->stamp.seq > site->seq) {
                sim_reg_record_remove(link);
            } else {
                link = &(*link)->next;
            }
        }
    }
    sim_drv_forget(site->seq, 1);
}

/* legal_other_choices: freeing unregisters. The state kept here for the memory goes with it:
 * the refused registration's record, the first device addresses. */
void sim_point_memory_freed(simMemoryFreedSite *site)
{
    uintptr_t b = site->base;
    if (aclsim_fault(ACLSIM_FAULT_LEGAL_OTHER_CHOICES)) {
        site->drop = 1;
    }
    if (aclsim_fault(ACLSIM_FAULT_REFUSED_REGISTRATION_RECORDED) && g_refused_base != 0 &&
        g_refused_base >= b && g_refused_base - b < site->size) {
        g_refused_base = 0;
    }
    if (aclsim_fault(ACLSIM_FAULT_REREGISTER_STALE_DEVPTR)) {
        for (unsigned i = 0; i < SIM_FIRST_MAX; i++) {
            if (g_first[i].host >= b && g_first[i].host - b < site->size) {
                g_first[i].host = 0;
                g_first[i].dev = 0;
            }
        }
    }
}
