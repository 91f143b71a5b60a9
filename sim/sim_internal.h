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
/* The docs' page (11-02_host_memory_management.md#aclrtHostRegister:292: 4 KiB); the
 * emulated host kernel's PAGE_SIZE is sim_config()->host_page. */
#define SIM_PAGE 4096UL
#define SIM_GRANULE 64UL
/* The driver's huge-page unit (svm_define.h:108-109 DEVMM_SOMA_PAGE_SIZE). */
#define SIM_2M (2UL << 20)
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

/* Which svm driver the family's driver build uses (hicann/driver build.sh:46-64,
 * src/ascend_hal/svm/CMakeLists.txt:11-15): v2 for ascend910B (A2 and A3), v3 for
 * ascend950; every other family has no public driver source and keeps the docs-only
 * model. */
typedef enum { SIM_DRV_DOCS = 0, SIM_DRV_V2, SIM_DRV_V3 } simDriverGen;

SIM_INTERNAL simFamily sim_family_from_soc(const char *soc);
SIM_INTERNAL const char *sim_family_name(simFamily fam);
SIM_INTERNAL simDriverGen sim_driver_generation(simFamily fam);
SIM_INTERNAL int sim_api_supported(simFamily fam, simApi api);
/* The spec's product family ID (products.yaml) of a simulator family. */
SIM_INTERNAL const char *sim_family_id(simFamily fam);
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
    int release;               /* aclsimRelease the simulator answers as (ACLSIM_CANN_VERSION) */
    uint64_t host_align;       /* grain of small host blocks: 64 .. host_page; 0: the driver's (hostmem.c) */
    uint64_t host_page;        /* emulated host kernel PAGE_SIZE: 4096 (default) .. 65536 */
    simDriverGen driver;       /* the family's svm driver generation */
    int connect_ub;            /* ACLSIM_CONNECT=ub: the v3 host-device link is UB, not PCIe */
    int pin_register_driver;   /* ACLSIM_PIN_REGISTER=driver: V2 PINNED goes to the driver (init.c) */
} simConfig;

SIM_INTERNAL const simConfig *sim_config(void);
/* The release the simulator answers as: from the version string (ACLSIM_CANN_VERSION, else
 * the release it was built as), the newest known one not newer than it. */
SIM_INTERNAL int sim_release(void);
/* The version string aclsysGetVersionStr reports (before aclInit too). */
SIM_INTERNAL const char *sim_version_string(void);
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
    uintptr_t base;   /* the block's pointer and requested size */
    uint64_t size;
} simHostRange;

/* Blocks below this size are carved from the shared slabs. */
#define SIM_SLAB_THRESHOLD (64UL * 1024)

/* Reports whether [ptr, ptr+size) lies inside one live host allocation.
 * Takes host_lock. */
SIM_INTERNAL simHostRange sim_host_lookup_range(const void *ptr, uint64_t size);
/* Whether p is the pointer of one of the blocks freed last (a small ring). host_lock held. */
SIM_INTERNAL int sim_host_recently_freed(uintptr_t p);
/* Whether p lies inside a live block. host_lock held. */
SIM_INTERNAL int sim_host_inside_block(uintptr_t p);

/* ---- vma.c --------------------------------------------------------------- */
typedef struct {
    int mapped;   /* every page of the range belongs to a mapping of this process */
    int writable; /* ... and every one of those mappings may be written */
} simVmaProbe;

/* What the process's mappings (/proc/self/maps) say about the pages of [p, p+len). */
SIM_INTERNAL simVmaProbe sim_vma_probe(uintptr_t p, uint64_t len);

/* ---- registry.c ---------------------------------------------------------- */
/* Host memory [base, base+size) was released: registrations in it stay, as in the
 * runtime (unless a variant says otherwise). Caller must not hold host_lock. */
SIM_INTERNAL void sim_reg_memory_freed(const void *base, uint64_t size);
/* Host memory [base, base+size) was handed out afresh: records of registrations
 * removed earlier in that range describe other memory now and are forgotten. */
SIM_INTERNAL void sim_reg_memory_new(const void *base, uint64_t size);
/* Whether the driver refuses to free the block [base, base+size) because a registration
 * still holds it (svm v3 under legal_public_driver). Caller must not hold host_lock. */
SIM_INTERNAL int sim_reg_block_busy(const void *base, uint64_t size);
SIM_INTERNAL uint64_t sim_reg_live_count(void);
/* Whether an aclrtHostRegister type has bits the release does not know. */
SIM_INTERNAL int sim_reg_type_unknown(aclrtHostRegisterType type);
/* Whether an aclrtHostRegisterV2 flag is one the release accepts. */
SIM_INTERNAL int sim_reg_v2_flag_valid(uint32_t flag);

/* Who made a record or node, and when (registration order and the racing test). */
typedef struct {
    pthread_t owner;
    int64_t inserted_ns;
    uint64_t seq;
} simRegStamp;

/* A stamp for an entry the calling thread is about to insert. reg_lock held. */
SIM_INTERNAL simRegStamp sim_reg_stamp_now(uint64_t seq);
/* The already-registered answer for a conflict with the entry stamped s: identical ranges
 * get the documented 507910 (a racing one 507899 under legal_alt_codes), partial overlaps
 * the code only the source shows (sim_open_code). */
SIM_INTERNAL aclError sim_reg_conflict_code(const simRegStamp *s, int identical);
/* Whether a fault or variant lets a registration through a conflict with an existing
 * entry: identical says the ranges are the same, existing_mapped whether the existing one
 * has a mapping, request_mapped whether the new one asks for one. The one place the
 * conflict-skipping switches act, for the runtime's check and the driver's alike. */
SIM_INTERNAL int sim_reg_conflict_ignored(int identical, int existing_mapped, int request_mapped);

/* ---- driver.c ------------------------------------------------------------ */
/* What the runtime asks of the driver's halHostRegister (npu_driver_mem.cc:199-244). */
typedef struct {
    uintptr_t host;
    uint64_t size;        /* the caller's size */
    int device;           /* the device current for the calling thread */
    int mapped;           /* a device mapping is asked for */
    int pinned;           /* PINNED reaches the driver (ACLSIM_PIN_REGISTER=driver only) */
    int readonly;         /* READONLY reaches the driver (MEM_REGISTER_READ_ONLY) */
    int iomemory;         /* IOMEMORY reaches the driver (HOST_IO_MAP_DEV) */
    int v1;               /* aclrtHostRegister: an identical range is the docs' 507910 */
    simHostRange mem;     /* what the memory is */
    uint64_t seq;         /* the registration's number */
} simDrvRequest;

/* A registration the driver accepted but has not entered yet (the register_race fault
 * opens a window between the two). */
struct simNode;
typedef struct {
    simDrvRequest rq;
    uint64_t span;        /* the node covers [host, host+span) */
    uintptr_t dev;        /* the device address it answers (0: none) */
    struct simNode *node; /* allocated by sim_drv_check, entered by sim_drv_commit */
} simDrvPlan;

/* Every sim_drv_* call below is made with reg_lock (registry.c) held. */
/* Checks a registration; on success the plan must be committed. */
SIM_INTERNAL aclError sim_drv_check(const simDrvRequest *rq, simDrvPlan *plan);
SIM_INTERNAL void sim_drv_commit(simDrvPlan *plan);
/* halHostUnregisterEx of exactly base on device (any device when any_device). *elsewhere
 * is set when the base is registered on another device only. */
SIM_INTERNAL aclError sim_drv_unregister(uintptr_t base, int device, int any_device, int *elsewhere);
/* The driver's device-pointer lookup (svm v2 halMemHostGetDevPointer, or a driver with
 * pinned registration): 1 and *dev when a mapped node of device holds p. */
SIM_INTERNAL int sim_drv_devptr(uintptr_t p, int device, uintptr_t *base, uintptr_t *dev);
/* Whether the driver answers device pointers itself (else the runtime's records do). */
SIM_INTERNAL int sim_drv_answers_devptr(void);
/* The code of a mapped record's unregister when the driver has no node with its base. */
SIM_INTERNAL aclError sim_drv_missing_code(void);
/* Nodes of registrations numbered seq (or every number above seq) are dropped. */
SIM_INTERNAL void sim_drv_forget(uint64_t seq, int and_newer);
/* Host memory [base, base+size) was released (drop: its nodes go too). */
SIM_INTERNAL void sim_drv_memory_freed(uintptr_t base, uint64_t size, int drop);
/* Whether a live node starts inside the block [base, base+size). */
SIM_INTERNAL int sim_drv_holds_block(uintptr_t base, uint64_t size);
/* Nodes whose registration number `recorded` does not claim. */
SIM_INTERNAL uint64_t sim_drv_count_unrecorded(int (*recorded)(uint64_t seq));
/* A fresh address from the simulated device window for a mapping of span bytes. */
SIM_INTERNAL uintptr_t sim_drv_window(uint64_t span);
SIM_INTERNAL int sim_addr_in_va_window(const void *addr);

/* ---- streams.c ----------------------------------------------------------- */
/* Waits for every stream of device dev (only the oldest one when
 * only_first is set; every device when dev < 0). */
SIM_INTERNAL void sim_sync_device(int dev, int only_first);
/* Like sim_sync_device(dev, 0) but gives up after timeout_ms (devsync_gives_up). */
SIM_INTERNAL void sim_sync_device_timed(int dev, int64_t timeout_ms);
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

/* ---- hooks.c ------------------------------------------------------------- */
/* The faithful implementations of the exported calls whose answer-rewrite faults hooks.c
 * applies; each takes the exported call's arguments (in hostmem.c, registry.c, products.c,
 * init.c and streams.c). */
SIM_INTERNAL aclError model_aclrtMallocHost(void **hostPtr, size_t size);
SIM_INTERNAL aclError model_aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg);
SIM_INTERNAL aclError model_aclrtFreeHost(void *hostPtr);
SIM_INTERNAL aclError model_aclrtFreeHostWithDevSync(void *hostPtr);
SIM_INTERNAL aclError model_aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr);
SIM_INTERNAL aclError model_aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag);
SIM_INTERNAL aclError model_aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag);
SIM_INTERNAL aclError model_aclrtHostUnregister(void *ptr);
SIM_INTERNAL aclError model_aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType,
                                                        aclrtHostMemMapCapability *capabilities);
SIM_INTERNAL aclError model_aclrtGetRunMode(aclrtRunMode *runMode);
SIM_INTERNAL aclError model_aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count);

#endif /* ACLSIM_INTERNAL_H */
