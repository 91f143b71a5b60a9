/*
 * Internal interfaces shared by the simulator's translation units.
 * Nothing declared here is exported from libascendcl.so (see the visibility
 * attribute on SIM_INTERNAL); the exported surface is the generated
 * acl_hostmem.h plus sim/aclsim.h.
 */
#ifndef ACLSIM_INTERNAL_H
#define ACLSIM_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "acl_hostmem.h"
#include "aclsim_faults.h"
#include "aclsim.h"

#define SIM_INTERNAL __attribute__((visibility("hidden")))
#define SIM_EXPORT __attribute__((visibility("default")))

#define SIM_MAX_DEVICES 8
#define SIM_PAGE 4096UL
#define SIM_GRANULE 64UL
/* Base of the simulated device VA window; above the 47-bit user space, so a
 * dereference of a window address from the host faults, as a real mapped
 * device address would. */
#define SIM_VA_BASE 0x1000000000000ULL
#define SIM_VA_SIZE 0x100000000000ULL

/* ---- products.c ---------------------------------------------------------- */
typedef enum {
    SIM_FAM_950 = 0,
    SIM_FAM_A3,
    SIM_FAM_A2,
    SIM_FAM_310B,
    SIM_FAM_310P,
    SIM_FAM_910,
    SIM_FAM_IPV350,
    SIM_FAM_UNKNOWN
} simFamily;

typedef enum {
    SIM_API_MALLOC_HOST = 0,
    SIM_API_MALLOC_HOST_CFG,
    SIM_API_FREE_HOST,
    SIM_API_FREE_HOST_DEVSYNC,
    SIM_API_REGISTER,
    SIM_API_REGISTER_V2,
    SIM_API_GET_DEVPTR,
    SIM_API_MEMMAP_CAP,
    SIM_API_UNREGISTER
} simApi;

SIM_INTERNAL simFamily sim_family_from_soc(const char *soc);
SIM_INTERNAL const char *sim_family_name(simFamily fam);
SIM_INTERNAL int sim_api_supported(simFamily fam, simApi api);
SIM_INTERNAL int sim_va_flag_supported(simFamily fam);
SIM_INTERNAL int sim_kernel_is_legacy(const char *release);

/* ---- faults.c ------------------------------------------------------------ */
SIM_INTERNAL int sim_faults_parse(const char *spec);
SIM_INTERNAL int aclsim_fault(aclsimFaultId id);
/* The code of a refusal whose code the docs do not give: rc itself, or another failure
 * code under the legal_alt_codes variant (the suite must judge such codes only at their
 * own, lower level). Documented codes never pass through here. */
SIM_INTERNAL aclError sim_open_code(aclError rc);

/* ---- init.c -------------------------------------------------------------- */
typedef struct {
    char soc[64];
    simFamily family;
    uint32_t device_count;
    unsigned char poison;
    uint64_t host_mem_limit;   /* 0 = unlimited */
    uint64_t mlock_limit;      /* emulated RLIMIT_MEMLOCK, 0 = the real one */
    int legacy_kernel;         /* kernel <= 5.10 */
    int device_run_mode;       /* ACLSIM_RUN_MODE=device: RC / Control-CPU-open form */
    char cann_version[64];
    uint64_t host_align;       /* alignment of slab blocks: 64 (default) .. SIM_PAGE */
} simConfig;

SIM_INTERNAL const simConfig *sim_config(void);
SIM_INTERNAL int sim_initialized(void);
/* Drops one reference to a device (force: all of them); at zero its streams are retired
 * and its default context dies. Returns -1 when the device held no reference. */
SIM_INTERNAL int sim_device_unref(int dev, int force);
SIM_INTERNAL void sim_device_ref(int dev);
/* Common prologue of the host-memory calls after their argument checks: initialised,
 * supported on this product, and (need_context) the thread has a current context. On
 * success *dev receives the device the call acts on (-1 without a context). */
SIM_INTERNAL aclError sim_hostmem_gate(simApi api, int *dev, int need_context);
SIM_INTERNAL void sim_warn_once(int *flag, const char *msg);

/* ---- context.c ----------------------------------------------------------- */
/* The calling thread's current device (that of its current context), or -1. */
SIM_INTERNAL int sim_current_device(void);
/* Makes the default context of dev current for the calling thread. */
SIM_INTERNAL void sim_context_use_default(int dev);
/* Kills the default context of dev (its device was released). */
SIM_INTERNAL void sim_context_drop_default(int dev);
/* Forgets every context (aclFinalize). */
SIM_INTERNAL void sim_contexts_reset(void);

/* ---- hostmem.c ----------------------------------------------------------- */
typedef struct {
    int found;
    int pinned;       /* allocated (page-locked) by aclrtMallocHost / WithCfg */
    int va_flag;      /* allocated with VA_FLAG=1 */
} simHostRange;

/* Reports whether [ptr, ptr+size) lies inside one live host allocation.
 * Takes host_lock. */
SIM_INTERNAL simHostRange sim_host_lookup_range(const void *ptr, uint64_t size);

/* ---- registry.c ---------------------------------------------------------- */
/* Host memory [base, base+size) was released: registrations in it stay, as in the
 * runtime (unless a variant says otherwise). Caller must not hold host_lock. */
SIM_INTERNAL void sim_reg_memory_freed(const void *base, uint64_t size);
/* Host memory [base, base+size) was handed out afresh: records of registrations
 * removed earlier in that range describe other memory now and are forgotten. */
SIM_INTERNAL void sim_reg_memory_new(const void *base, uint64_t size);
SIM_INTERNAL int sim_addr_in_va_window(const void *addr);
SIM_INTERNAL uint64_t sim_reg_live_count(void);
/* Whether an unregistration succeeded since the last call (cap_glitch_after_unregister). */
SIM_INTERNAL int sim_reg_take_unregistered_mark(void);

/* ---- streams.c ----------------------------------------------------------- */
/* Waits for every stream of device dev (only the oldest one when
 * only_first is set; every device when dev < 0). */
SIM_INTERNAL void sim_sync_device(int dev, int only_first);
/* Waits for the streams of device dev created after stream number `since`
 * (devsync_skips_old_streams); returns the newest stream number so far. */
SIM_INTERNAL uint64_t sim_sync_device_since(int dev, uint64_t since);
/* Whether any stream of the device has queued or running tasks. */
SIM_INTERNAL int sim_device_busy(int dev);
SIM_INTERNAL void sim_streams_shutdown(void);
SIM_INTERNAL void sim_device_release(int dev);
SIM_INTERNAL uint64_t sim_stream_live_count(void);
SIM_INTERNAL uint64_t sim_devmem_live_count(void);
/* Whether p is the start of a live aclrtMalloc block; releasing one returns 0 when found. */
SIM_INTERNAL int sim_devmem_contains(const void *p);
SIM_INTERNAL int sim_devmem_release(void *p);

#endif /* ACLSIM_INTERNAL_H */
