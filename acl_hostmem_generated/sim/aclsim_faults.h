/* Generated from spec 5d3dcfc70eb619e5 by codegen; do not edit. Regenerate: python -m codegen generate */
/* The simulator's fault switches, from spec/faults.yaml. Enable with
 * ACLSIM_FAULTS=name[,name...]; each breaks the rules named in its comment. Below them, the
 * fault points where they act. */
#ifndef ACLSIM_FAULTS_GENERATED_H
#define ACLSIM_FAULTS_GENERATED_H

typedef enum {
    ACLSIM_FAULT_ALIGN_MALLOC_OFF16 = 0, /* HM-ALIGN-MALLOC: Small blocks carved from a slab by aclrtMallocHost start 16 bytes past a 64-byte boundary. */
    ACLSIM_FAULT_ALIGN_CFG_OFF8 = 1, /* HM-ALIGN-MALLOC-CFG: Every pointer handed out by aclrtMallocHostWithCfg sits 8 bytes past a 64-byte boundary. */
    ACLSIM_FAULT_ALLOC_OVERLAP = 2, /* HM-ALIGN-LIVE: A small block of two or more granules books one granule too few, so its last 64 bytes are also the first 64 bytes of the next live block. */
    ACLSIM_FAULT_RUN_MODE_DEVICE = 3, /* HM-FORM-RUN-MODE: aclrtGetRunMode answers ACL_DEVICE on every product family. */
    ACLSIM_FAULT_CFG_MULTI_ATTR_REJECTED = 4, /* HM-CFG-MULTI-ATTR: aclrtMallocHostWithCfg refuses a configuration with more than one attribute. */
    ACLSIM_FAULT_CFG_DUPLICATE_REJECTED = 5, /* HM-CFG-DUPLICATE-ATTR: aclrtMallocHostWithCfg refuses a configuration that repeats an attribute type. */
    ACLSIM_FAULT_MEMSET_PARTIAL = 6, /* HM-CONTENT-MEMSET: aclrtMemset writes only the first half of the requested count. */
    ACLSIM_FAULT_REGISTER_CLOBBERS = 7, /* HM-CONTENT-REGISTER-PRESERVES: A successful registration zeroes the first 64 bytes of the registered range. */
    ACLSIM_FAULT_FREE_SCRIBBLES_NEIGHBOUR = 8, /* HM-CONTENT-FREE-ISOLATION: Releasing a small block also fills the 64 bytes that follow it in the slab with the poison byte. */
    ACLSIM_FAULT_SHORT_ALLOC = 9, /* HM-ALIGN-LIVE: Sizes above 4096 that are not whole pages come from a bump arena whose blocks share their last partial page with the next block, so live blocks overlap (the content cases see it too, as the same deviation). */
    ACLSIM_FAULT_DOUBLE_FREE_OK = 10, /* HM-PAIR-DOUBLE-FREE: Releasing a block that was already released reports success. */
    ACLSIM_FAULT_FREE_FOREIGN_OK = 11, /* HM-PAIR-FREE-FOREIGN: Releasing a pointer into the middle of a live block reports success and releases nothing. */
    ACLSIM_FAULT_FREE_DEVICE_MEM_OK = 12, /* HM-PAIR-FREE-DEVICE-MEM: The host free calls accept device memory from aclrtMalloc and release it. */
    ACLSIM_FAULT_FREE_CFG_REJECTED = 13, /* HM-PAIR-MALLOC-FREE: aclrtFreeHost refuses memory that aclrtMallocHostWithCfg handed out. */
    ACLSIM_FAULT_DOUBLE_UNREGISTER_OK = 14, /* HM-PAIR-DOUBLE-UNREGISTER: Unregistering a base pointer whose registration was removed earlier in the life of its memory reports success. */
    ACLSIM_FAULT_UNREGISTER_INTERIOR_OK = 15, /* HM-PAIR-UNREG-INTERIOR: Unregistering a pointer inside a registered range (not its base) reports success and changes nothing. */
    ACLSIM_FAULT_UNREGISTER_UNKNOWN_OK = 16, /* HM-PAIR-UNREG-UNKNOWN: Unregistering a pointer that was never registered reports success. */
    ACLSIM_FAULT_DOUBLE_REGISTER_OK = 17, /* HM-PAIR-DOUBLE-REGISTER, HM-PAIR-DOUBLE-REGISTER-V1: Registering exactly the same range twice with the same mapping succeeds the second time, with either registration call. */
    ACLSIM_FAULT_OVERLAP_REGISTER_OK = 18, /* HM-PAIR-OVERLAP-REGISTER: A range that overlaps a registered range without being identical to it registers anyway. */
    ACLSIM_FAULT_V1_OVERLAP_BASE_ONLY = 19, /* HM-PAIR-OVERLAP-REGISTER-V1: The driver checks a V1 registration for an overlap on its base pointer only, so aclrtHostRegister of a range that starts inside a registered range succeeds and maps those pages a second time. */
    ACLSIM_FAULT_REFUSED_REGISTRATION_RECORDED = 20, /* HM-PAIR-REFUSED-NO-RECORD: The runtime records a V2 registration the driver refused, so aclrtHostUnregister of its pointer goes to the driver, which has no such node (507899 on the svm v2 driver), instead of answering not registered. */
    ACLSIM_FAULT_PINNED_UPGRADE_HALF_APPLIED = 21, /* HM-PAIR-V2-PINNED-THEN-MAPPED-KEEPS: A PINNED|MAPPED registration of a range registered PINNED-only is refused, but the range is mapped all the same, so aclrtHostGetDevicePointer then answers a device address for it. */
    ACLSIM_FAULT_DEVPTR_AFTER_UNREGISTER = 22, /* HM-PAIR-GETDEVPTR-AFTER-UNREG: aclrtHostUnregister forgets the range but aclrtHostGetDevicePointer still answers its old device address. */
    ACLSIM_FAULT_STALE_REGISTRATION_STUCK = 23, /* HM-PAIR-FREE-REGISTERED: A registration whose memory was freed can no longer be unregistered (not registered) yet still blocks registering the address again. */
    ACLSIM_FAULT_PINNED_MAPS = 24, /* HM-PAIR-V2-PINNED-NO-MAPPED: A PINNED-only registration also gets a device address, so aclrtHostGetDevicePointer succeeds for it. */
    ACLSIM_FAULT_PINNED_MAPPED_UNMAPPED = 25, /* HM-PAIR-V2-PINNED-MAPPED: A registration with PINNED set gets no device address even when MAPPED is set too. */
    ACLSIM_FAULT_PINNED_THEN_MAPPED_OK = 26, /* HM-PAIR-V2-PINNED-THEN-MAPPED: A MAPPED registration of a range that is registered PINNED-only succeeds. */
    ACLSIM_FAULT_UNREGISTER_PINNED_FAILS = 27, /* HM-PAIR-UNREG-PINNED-ONLY: aclrtHostUnregister does not find PINNED-only registrations and answers not registered. */
    ACLSIM_FAULT_REGISTER_RACE = 28, /* HM-PAIR-CONCURRENT-REGISTER: The overlap check and the insertion run under separate lock holds with a short sleep between them, so racing registrations of one range can all win. */
    ACLSIM_FAULT_EXHAUSTION_LEAK = 29, /* HM-PAIR-EXHAUSTION: Released blocks never return their bytes to the ACLSIM_HOST_MEM_LIMIT budget, so allocation keeps failing after frees. */
    ACLSIM_FAULT_HUGE_SIZE_WRAPS = 30, /* HM-PAIR-HUGE-SIZE: The allocation size is rounded up to 32 bytes in 64-bit arithmetic that wraps, and a size limit is not checked, so the largest sizes get a tiny block. */
    ACLSIM_FAULT_UNREGISTER_FAILS = 31, /* HM-PAIR-REG-UNREG: Unregistering a valid MAPPED registration answers ACL_ERROR_HOST_MEMORY_NOT_REGISTERED and leaves it in place. */
    ACLSIM_FAULT_PAGEABLE_REJECTED = 32, /* HM-REG-PAGEABLE: Memory that aclrtMallocHost did not hand out cannot be registered even on a kernel newer than 5.10. */
    ACLSIM_FAULT_LEGACY_KERNEL_ACCEPTS = 33, /* HM-REG-KERNEL-LEGACY: On an emulated 5.10 kernel, pageable memory registers anyway. */
    ACLSIM_FAULT_RESERVED_READONLY_OK = 34, /* HM-REG-RESERVED-TYPES: The reserved READONLY registration type and flag are accepted as if they were MAPPED. */
    ACLSIM_FAULT_RESERVED_IOMEMORY_OK = 35, /* HM-REG-RESERVED-IOMEMORY: The reserved IOMEMORY registration type and flag are accepted as if they were MAPPED. */
    ACLSIM_FAULT_REGISTER_PARTIAL_PAGE_REJECTED = 36, /* HM-REG-ALLOC-BASE: A registration whose size is not a multiple of the page size is refused. */
    ACLSIM_FAULT_REGISTER_PAST_END_OK = 37, /* HM-REG-PAST-END: Registration does not check that the range is mapped memory of the process. */
    ACLSIM_FAULT_DEVSYNC_FREE_LEAKS = 38, /* HM-PAIR-MALLOC-FREE: aclrtFreeHostWithDevSync reports success but keeps the block allocated, so the backend's live counters never give it back. */
    ACLSIM_FAULT_VA_FLAG_IGNORED = 39, /* HM-VA-IDENTITY: Memory allocated with VA_FLAG=1 gets a device address from the window instead of its own host address. */
    ACLSIM_FAULT_VA_FLAG_EVERYWHERE = 40, /* HM-VA-UNSUPPORTED: VA_FLAG=1 is accepted on every product family, including those without VA identity support. */
    ACLSIM_FAULT_DEVPTR_MISMATCH = 41, /* HM-VA-DEVPTR-CONSISTENT: aclrtHostGetDevicePointer answers an address one page past the one the registration gave. */
    ACLSIM_FAULT_DEVPTR_INTERIOR_BASE = 42, /* HM-VA-DEVPTR-INTERIOR: aclrtHostGetDevicePointer of a pointer inside a registered range answers the base's device address, without the offset. */
    ACLSIM_FAULT_MALLOC_SYNCS = 43, /* HM-SYNC-MALLOC-NO-IMPLICIT: aclrtMallocHost waits for every stream of the current device before allocating. */
    ACLSIM_FAULT_MALLOC_CFG_SYNCS = 44, /* HM-SYNC-MALLOC-CFG-NO-IMPLICIT: aclrtMallocHostWithCfg waits for every stream of the current device before allocating. */
    ACLSIM_FAULT_FREE_SYNCS = 45, /* HM-SYNC-FREE-NO-IMPLICIT: aclrtFreeHost waits for every stream of the current device before releasing. */
    ACLSIM_FAULT_DEVSYNC_NO_WAIT = 46, /* HM-SYNC-DEVSYNC-WAITS, HM-SYNC-DEVSYNC-ALL-STREAMS: aclrtFreeHostWithDevSync releases at once; tasks still queued then read poison instead of the data. */
    ACLSIM_FAULT_DEVSYNC_ONE_STREAM = 47, /* HM-SYNC-DEVSYNC-ALL-STREAMS: aclrtFreeHostWithDevSync waits only for the oldest stream of the current device. */
    ACLSIM_FAULT_DEVSYNC_ALL_DEVICES = 48, /* HM-SYNC-DEVSYNC-CURRENT-DEVICE: aclrtFreeHostWithDevSync waits for the streams of every device, not only the current one. */
    ACLSIM_FAULT_MALLOC_SIZE0_OK = 49, /* HM-INVAL-MALLOC-HOST: aclrtMallocHost with size 0 succeeds and hands out a one-granule block. */
    ACLSIM_FAULT_CFG_ATTRS_NULL_OK = 50, /* HM-INVAL-MALLOC-CFG: aclrtMallocHostWithCfg with attrs NULL treats the configuration as empty and succeeds. */
    ACLSIM_FAULT_CFG_OTHER_DEVICE_OK = 51, /* HM-INVAL-CFG-OTHER-DEVICE: aclrtMallocHostWithCfg ignores the DEVICE_ID attribute, so one naming another device succeeds. */
    ACLSIM_FAULT_FREE_NULL_OK = 52, /* HM-INVAL-FREE-HOST: aclrtFreeHost(NULL) reports success. */
    ACLSIM_FAULT_DEVSYNC_NULL_OK = 53, /* HM-INVAL-FREE-DEVSYNC: aclrtFreeHostWithDevSync(NULL) reports success. */
    ACLSIM_FAULT_REGISTER_TYPE_WRONG_CODE = 54, /* HM-INVAL-REGISTER: An aclrtHostRegister type outside the enumeration answers ACL_ERROR_INVALID_PARAM instead of ACL_ERROR_RT_FEATURE_NOT_SUPPORT. */
    ACLSIM_FAULT_V2_FLAG_UNCHECKED = 55, /* HM-INVAL-REGISTER-V2: aclrtHostRegisterV2 treats flag 0 and unknown bits as MAPPED. */
    ACLSIM_FAULT_GETDEVPTR_FLAG_IGNORED = 56, /* HM-INVAL-GETDEVPTR: aclrtHostGetDevicePointer ignores a non-zero flag. */
    ACLSIM_FAULT_UNREGISTER_NULL_OK = 57, /* HM-INVAL-UNREGISTER: aclrtHostUnregister(NULL) reports success. */
    ACLSIM_FAULT_CAP_BAD_HAC_OK = 58, /* HM-INVAL-CAPABILITIES: aclrtHostMemMapCapabilities answers SUPPORTED for a HAC type past the end of the enumeration. */
    ACLSIM_FAULT_NO_DEVICE_OK = 59, /* HM-CTX-NO-DEVICE: Host-memory calls from a thread without a current context act on device 0 instead of failing. */
    ACLSIM_FAULT_FREE_NEEDS_CONTEXT = 60, /* HM-CTX-FREE-WITHOUT-CONTEXT: aclrtFreeHost from a thread without a current context fails with ACL_ERROR_RT_CONTEXT_NULL. */
    ACLSIM_FAULT_FOREIGN_DEVICE_UNREGISTER_LIES = 61, /* HM-CTX-OTHER-DEVICE: Unregistering under a device other than the one registered on reports success but keeps the registration. */
    ACLSIM_FAULT_CAP_OUT_OF_RANGE = 62, /* HM-CAP-QUERY-ALL: The capability answer for SDMA is 7, outside the aclrtHostMemMapCapability enumeration. */
    ACLSIM_FAULT_CAP_FLAKY = 63, /* HM-CAP-STABLE: The capability answer for AIC flips on every call. */
    ACLSIM_FAULT_CAP_NONE = 64, /* HM-CAP-CONSISTENT: Every HAC type answers NOT_SUPPORTED although registration works on the product. */
    ACLSIM_FAULT_PROD_REGISTER_MISSING = 65, /* HM-PROD-SUPPORT: aclrtHostRegisterV2 answers ACL_ERROR_RT_FEATURE_NOT_SUPPORT on a product that supports it. */
    ACLSIM_FAULT_PROD_REGISTER_EXTRA = 66, /* HM-PROD-SUPPORT: aclrtHostRegister succeeds on a product that does not support it. */
    ACLSIM_FAULT_CRASH_IN_REGISTER = 67, /* HM-PAIR-REG-UNREG: aclrtHostRegister raises SIGSEGV where it would register (arguments it refuses are still refused). */
    ACLSIM_FAULT_HANG_IN_FREE = 68, /* HM-SYNC-FREE-NO-IMPLICIT: aclrtFreeHost deadlocks (blocks forever) when a stream of the current device has pending tasks. */
    ACLSIM_FAULT_HANG_IN_MALLOC = 69, /* HM-SYNC-MALLOC-NO-IMPLICIT, HM-PAIR-MALLOC-FREE: aclrtMallocHost blocks forever. */
    ACLSIM_FAULT_REREGISTER_STALE_DEVPTR = 70, /* HM-EXPLORE-DOCUMENTED, HM-EXPLORE-ALL: For a range of host memory registered again after its registration ended, aclrtHostGetDevicePointer answers the device address of the range's first registration until the memory is freed. */
    ACLSIM_FAULT_DEVSYNC_SKIPS_OLD_STREAMS = 71, /* HM-EXPLORE-DOCUMENTED, HM-EXPLORE-ALL: aclrtFreeHostWithDevSync waits only for the streams created after the device's previous aclrtFreeHostWithDevSync. */
    ACLSIM_FAULT_UNREGISTER_FREED_LEAVES_MAPPING = 72, /* HM-EXPLORE-DOCUMENTED, HM-EXPLORE-ALL: Unregistering a range whose host memory was freed while it was registered ends the registration but leaves the driver's mapping behind, so registering memory at those addresses later (a new allocation in the same place) fails as already registered. */
    ACLSIM_FAULT_ALLOC_CROWDED_OVERLAP = 73, /* HM-EXPLORE-DOCUMENTED, HM-EXPLORE-ALL: Once 8 host blocks are live, a new small block of two or more granules books one granule too few, so the next block overlaps it. */
    ACLSIM_FAULT_UNREGISTER_DROPS_NEWER = 74, /* HM-EXPLORE-DOCUMENTED, HM-EXPLORE-ALL: aclrtHostUnregister also removes every registration made after the one it ends. */
    ACLSIM_FAULT_CAP_GLITCH_AFTER_UNREGISTER = 75, /* HM-EXPLORE-ALL: The first aclrtHostMemMapCapabilities query after an aclrtHostUnregister answers NOT_SUPPORTED whatever the HAC type. */
    ACLSIM_FAULT_THREAD_STALE_DEVPTR_CACHE = 76, /* HM-EXPLORE-DOCUMENTED, HM-EXPLORE-ALL: Each thread caches the last device address aclrtHostGetDevicePointer answered it; only that thread's own aclrtHostUnregister clears the cache, so a registration another thread removed still answers. */
    ACLSIM_FAULT_REGISTER_ROUNDS_2M = 77, /* HM-REG-NEIGHBOURS: A registration of aclrtMallocHost memory covers 2 MiB from its pointer in the driver's overlap check, so registering a neighbouring buffer fails with ACL_ERROR_RT_DRV_INTERNAL_ERROR. */
    ACLSIM_FAULT_PROT_READ_REGISTERS = 78, /* HM-REG-PROT-READ: Pageable memory the process may only read registers anyway, as if the driver pinned it without asking for write access. */
    ACLSIM_FAULT_SECOND_DEVICE_V2_OK = 79, /* HM-REG-SECOND-DEVICE: The runtime keeps its registration records per device, so aclrtHostRegisterV2 of a range registered under another device succeeds. */
    ACLSIM_FAULT_FORK_INHERITS = 80, /* HM-FORK-NOT-INHERITED: Memory from aclrtMallocHost is inherited by a forked child, as if the driver mapped it without VM_DONTCOPY. */
    ACLSIM_FAULT_ALIGN_BETWEEN_POINTS = 81, /* HM-ALIGN-MALLOC: aclrtMallocHost blocks of 8193 to 16383 bytes start 16 bytes past a 64-byte boundary, a size class no fixed matrix point falls in. */
    ACLSIM_FAULT_CONTENT_BETWEEN_POINTS = 82, /* HM-CONTENT-RW-FULL: Host blocks of 262145 to 524287 bytes share their last 4 KiB with the next block of that size class, which no fixed matrix point falls in. */
    ACLSIM_FAULT_VA_BETWEEN_POINTS = 83, /* HM-VA-IDENTITY: VA_FLAG=1 blocks of 16385 to 32767 bytes get a device address from the window instead of their own host address. */
    ACLSIM_FAULT_DEVSYNC_GIVES_UP = 84, /* HM-SYNC-DEVSYNC-WAITS, HM-SYNC-DEVSYNC-ALL-STREAMS: aclrtFreeHostWithDevSync waits at most one second for the device's streams, then frees the memory anyway. */
    ACLSIM_FAULT_CAP_NONE_SECOND_DEVICE = 85, /* HM-CAP-CONSISTENT: Device 1 answers NOT_SUPPORTED for every HAC type although registration works on it. */
    ACLSIM_FAULT_CAP_SUPPORTED_WITHOUT_REGISTRATION = 86, /* HM-CAP-CONSISTENT: On a product family without registration, the AIC capability answer is SUPPORTED. */
    ACLSIM_FAULT_LEGAL_ALT_CODES = 87, /* : Every refusal whose code the docs do not give answers another failure code (ACL_ERROR_INVALID_PARAM and ACL_ERROR_RT_PARAM_INVALID swap; FEATURE_NOT_SUPPORT, INVALID_DEVICEID, MEMORY_ALLOCATION and the registration codes of partial overlaps and interior pointers become ACL_ERROR_RT_PARAM_INVALID; a racing registration gets ACL_ERROR_RT_DRV_INTERNAL_ERROR). */
    ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED = 88, /* : Where no refusal is promised the call succeeds instead - a second or foreign host free is a no-op, reserved READONLY and IOMEMORY register as MAPPED, unaligned, read-only and past-the-end ranges register their whole pages, an overlapping V2 range registers, an interior unregister removes the containing range, PINNED-only memory and unregistered ranges answer a device pointer. */
    ACLSIM_FAULT_LEGAL_OTHER_CHOICES = 89, /* : Choices the source makes where the docs are silent go the other way - aclrtMallocHostWithCfg synchronises the device first, aclrtFreeHostWithDevSync waits for every device, aclrtFreeHost needs a current context, a repeated configuration attribute keeps its first value, the AIC capability answer alternates, a registration is per process so any device may remove it, freeing memory removes its registrations, and a forked child inherits aclrtMallocHost memory. */
    ACLSIM_FAULT_LEGAL_DRIVER_PIN_REGISTER = 90, /* : The driver-side pinning path (ACLSIM_PIN_REGISTER=driver, whose alias this is) - the driver supports pinned registration, as newer drivers do, so aclrtHostRegisterV2 PINNED goes to it too - registrations live in the driver per device, an interior pointer resolves to the base's device address plus its offset, unregistering under another device is refused as not registered, a range registered under one device registers under another, a repeated PINNED range is the driver's BUSY (507910) and any other overlap its refusal (507899). */
    ACLSIM_FAULT_LEGAL_SRC_PINNED_ON_PINNED = 91, /* : The runtime source's side of the conflict - aclrtHostRegisterV2 with PINNED on memory that is already page-locked is recorded in the runtime's registry and succeeds. */
    ACLSIM_FAULT_LEGAL_SRC_DEVICE_ID = 92, /* : The runtime source's side of the conflict - aclrtMallocHostWithCfg refuses every DEVICE_ID attribute, also one naming the current device, with ACL_ERROR_RT_PARAM_INVALID. */
    ACLSIM_FAULT_LEGAL_SRC_TRAINING_REGISTERS = 93, /* : The runtime source's side of the conflict - the Atlas training series has the host-register feature, so the registration calls work there. */
    ACLSIM_FAULT_LEGAL_MIN_ALIGNMENT = 94, /* : Host allocations are exactly as aligned as promised and no more - every pointer is 64 bytes past a 128-byte boundary, so none is ever page-aligned. */
    ACLSIM_FAULT_LEGAL_PAGE_ALIGNMENT = 95, /* : Host allocations are more aligned than promised - every pointer starts a page of its own. */
    ACLSIM_FAULT_LEGAL_RC_FORM = 96, /* : The product runs in RC form - aclrtGetRunMode answers ACL_DEVICE and host allocations are plain memory 32 bytes past a 64-byte boundary, which the docs allow there. */
    ACLSIM_FAULT_LEGAL_PUBLIC_DRIVER = 97, /* : Where the docs and the public driver's source disagree, the driver's side - a V1 registration of a range registered already answers ACL_ERROR_RT_DRV_INTERNAL_ERROR instead of 507910; on the svm v2 driver a registration covers whole host pages from its pointer (2 MiB for VA_FLAG=1 memory) and pageable memory must be host-page aligned; on kernels 5.10 and older pageable memory registers; on the svm v3 driver freeing memory that is still registered fails and keeps it. */
    ACLSIM_FAULT_LEGAL_DRV_MALLOC_FALLBACK = 98, /* : The svm v2 driver could not reserve its SVM range (an ASan build, a host that cannot map 8 TiB) and hands out plain malloc memory, 16 bytes past a 64-byte boundary. */
    ACLSIM_FAULT_COUNT = 99
} aclsimFaultId;

static const char *const aclsimFaultNames[ACLSIM_FAULT_COUNT] = {
    "align_malloc_off16",
    "align_cfg_off8",
    "alloc_overlap",
    "run_mode_device",
    "cfg_multi_attr_rejected",
    "cfg_duplicate_rejected",
    "memset_partial",
    "register_clobbers",
    "free_scribbles_neighbour",
    "short_alloc",
    "double_free_ok",
    "free_foreign_ok",
    "free_device_mem_ok",
    "free_cfg_rejected",
    "double_unregister_ok",
    "unregister_interior_ok",
    "unregister_unknown_ok",
    "double_register_ok",
    "overlap_register_ok",
    "v1_overlap_base_only",
    "refused_registration_recorded",
    "pinned_upgrade_half_applied",
    "devptr_after_unregister",
    "stale_registration_stuck",
    "pinned_maps",
    "pinned_mapped_unmapped",
    "pinned_then_mapped_ok",
    "unregister_pinned_fails",
    "register_race",
    "exhaustion_leak",
    "huge_size_wraps",
    "unregister_fails",
    "pageable_rejected",
    "legacy_kernel_accepts",
    "reserved_readonly_ok",
    "reserved_iomemory_ok",
    "register_partial_page_rejected",
    "register_past_end_ok",
    "devsync_free_leaks",
    "va_flag_ignored",
    "va_flag_everywhere",
    "devptr_mismatch",
    "devptr_interior_base",
    "malloc_syncs",
    "malloc_cfg_syncs",
    "free_syncs",
    "devsync_no_wait",
    "devsync_one_stream",
    "devsync_all_devices",
    "malloc_size0_ok",
    "cfg_attrs_null_ok",
    "cfg_other_device_ok",
    "free_null_ok",
    "devsync_null_ok",
    "register_type_wrong_code",
    "v2_flag_unchecked",
    "getdevptr_flag_ignored",
    "unregister_null_ok",
    "cap_bad_hac_ok",
    "no_device_ok",
    "free_needs_context",
    "foreign_device_unregister_lies",
    "cap_out_of_range",
    "cap_flaky",
    "cap_none",
    "prod_register_missing",
    "prod_register_extra",
    "crash_in_register",
    "hang_in_free",
    "hang_in_malloc",
    "reregister_stale_devptr",
    "devsync_skips_old_streams",
    "unregister_freed_leaves_mapping",
    "alloc_crowded_overlap",
    "unregister_drops_newer",
    "cap_glitch_after_unregister",
    "thread_stale_devptr_cache",
    "register_rounds_2m",
    "prot_read_registers",
    "second_device_v2_ok",
    "fork_inherits",
    "align_between_points",
    "content_between_points",
    "va_between_points",
    "devsync_gives_up",
    "cap_none_second_device",
    "cap_supported_without_registration",
    "legal_alt_codes",
    "legal_accept_unpromised",
    "legal_other_choices",
    "legal_driver_pin_register",
    "legal_src_pinned_on_pinned",
    "legal_src_device_id",
    "legal_src_training_registers",
    "legal_min_alignment",
    "legal_page_alignment",
    "legal_rc_form",
    "legal_public_driver",
    "legal_drv_malloc_fallback",
};

/* The fault points the faithful model calls (FAULT_POINT, sim/fault_points.h), from the
 * `points:` of kind point in spec/faults.yaml; each names its sites. */
typedef enum {
    ACLSIM_POINT_HOST_ALLOCATOR = 0, /* sim/hostmem.c:malloc_fallback: Which allocator the family's driver hands host memory out from. */
    ACLSIM_POINT_HOST_MAPPING = 1, /* sim/hostmem.c:dont_fork: How a fresh host mapping is made, kept from a forked child or not. */
    ACLSIM_POINT_HOST_SLAB_BOOKING = 2, /* sim/hostmem.c:slab_alloc: How many granules a small block books in its slab. */
    ACLSIM_POINT_HOST_PLACEMENT = 3, /* sim/hostmem.c:placement_pad: Where the pointer handed out sits inside the booked region. */
    ACLSIM_POINT_HOST_CARVE = 4, /* sim/hostmem.c:host_alloc: Where a block's memory is carved from, and whether the host memory limit is checked. */
    ACLSIM_POINT_HOST_RELEASE = 5, /* sim/hostmem.c:block_release: A block leaves the table and its memory is released. */
    ACLSIM_POINT_HOST_FREE_UNKNOWN = 6, /* sim/hostmem.c:free_unknown: A free of a pointer that starts no live host block. */
    ACLSIM_POINT_HOST_FREE_BLOCK = 7, /* sim/hostmem.c:host_free: A free of a live host block, before the driver is asked. */
    ACLSIM_POINT_ALLOC_ACCEPTED = 8, /* sim/hostmem.c:model_aclrtMallocHost, sim/hostmem.c:model_aclrtMallocHostWithCfg: An allocation call passed every refusal, on the device its gate picked. */
    ACLSIM_POINT_ALLOC_REQUEST = 9, /* sim/hostmem.c:model_aclrtMallocHost, sim/hostmem.c:model_aclrtMallocHostWithCfg: The booked request (size, offset of the pointer) is built from the caller's size. */
    ACLSIM_POINT_CFG_ATTRIBUTE = 10, /* sim/hostmem.c:parse_cfg: The configuration parse reaches an attribute, after the earlier ones have been judged. */
    ACLSIM_POINT_FREE_GATE = 11, /* sim/hostmem.c:model_aclrtFreeHost: What aclrtFreeHost's gate asks for (a current context or not). */
    ACLSIM_POINT_FREE_ACCEPTED = 12, /* sim/hostmem.c:model_aclrtFreeHost: aclrtFreeHost passed its gate, on the device it picked. */
    ACLSIM_POINT_DEVSYNC_WAIT = 13, /* sim/hostmem.c:model_aclrtFreeHostWithDevSync: aclrtFreeHostWithDevSync waits for the device before the free. */
    ACLSIM_POINT_RECORDS_KEY = 14, /* sim/registry.c:per_device_records: How the runtime's registration records are keyed. */
    ACLSIM_POINT_REGISTER_START = 15, /* sim/registry.c:register_range: A registering call starts, before reg_lock is taken. */
    ACLSIM_POINT_REGISTER_CONFLICT = 16, /* sim/registry.c:sim_reg_conflict_ignored: A registration meets an existing record or driver node. */
    ACLSIM_POINT_REGISTER_CONFLICT_CODE = 17, /* sim/registry.c:sim_reg_conflict_code: The code of a conflict with an identical range. */
    ACLSIM_POINT_REGISTER_MODE = 18, /* sim/registry.c:register_range: What a registration asks for, before the docs' check of PINNED on page-locked memory. */
    ACLSIM_POINT_REGISTER_CHECKED = 19, /* sim/registry.c:register_range: The runtime's and the driver's checks of a registration are done; nothing entered yet. */
    ACLSIM_POINT_REGISTER_PINNED_RECORD = 20, /* sim/registry.c:register_range: A PINNED record is made. */
    ACLSIM_POINT_REGISTER_DONE = 21, /* sim/registry.c:register_range: A registration went in. */
    ACLSIM_POINT_REGISTER_RESERVED_OPTION = 22, /* sim/registry.c:reserved_accepted: A registration asks for a reserved option (IOMEMORY, READONLY). */
    ACLSIM_POINT_REGISTER_ACCEPTED = 23, /* sim/registry.c:model_aclrtHostRegister: A register call passed every argument check. */
    ACLSIM_POINT_DEVPTR_LOOKUP = 24, /* sim/registry.c:lookup_devptr: The device address of a host pointer was looked up (release 9.1.0 on). */
    ACLSIM_POINT_DEVPTR_ANSWER = 25, /* sim/registry.c:model_aclrtHostGetDevicePointer: The device address aclrtHostGetDevicePointer answers. */
    ACLSIM_POINT_UNREGISTER_UNKNOWN = 26, /* sim/registry.c:unregister_unknown: An unregistration of a pointer that is no recorded base. */
    ACLSIM_POINT_UNREGISTER_RECORDS = 27, /* sim/registry.c:unregister_base: The records of the base being unregistered were looked up. */
    ACLSIM_POINT_UNREGISTER_MAPPING = 28, /* sim/registry.c:unregister_base: A mapped record's mapping is about to be undone by the driver. */
    ACLSIM_POINT_UNREGISTER_DRIVER_REFUSED = 29, /* sim/registry.c:unregister_base: The driver refused to undo a mapping. */
    ACLSIM_POINT_UNREGISTER_REMOVING = 30, /* sim/registry.c:unregister_base: The records of a registration are removed. */
    ACLSIM_POINT_MEMORY_FREED = 31, /* sim/registry.c:sim_reg_memory_freed: Host memory holding registrations was released. */
    ACLSIM_POINT_CODES_OPEN = 32, /* sim/faults.c:sim_open_code: A refusal whose code the docs do not give gets its code. */
    ACLSIM_POINT_GATE_DEVICES = 33, /* sim/init.c:sim_hostmem_gate: A host-memory call that needs a current context finds none. */
    ACLSIM_POINT_PRODUCTS_REGISTRATION = 34, /* sim/products.c:family_has_registration: Whether a product family has host registration at all. */
    ACLSIM_POINT_PRODUCTS_API_SUPPORT = 35, /* sim/products.c:sim_api_supported: Whether a product family supports a call. */
    ACLSIM_POINT_PRODUCTS_VA_FLAG = 36, /* sim/products.c:sim_va_flag_supported: Whether a product family supports VA_FLAG. */
    ACLSIM_POINT_PRODUCTS_CAPABILITY = 37, /* sim/products.c:model_aclrtHostMemMapCapabilities: The product table's capability answer for one HAC type. */
    ACLSIM_POINT_DRIVER_PUBLIC_SIDE = 38, /* sim/driver.c:sim_drv_public_side: Which side of the docs' and the public driver's conflicts the driver answers from. */
    ACLSIM_POINT_DRIVER_ALIGNMENT = 39, /* sim/driver.c:sim_drv_misaligned: The driver checks the alignment of a registration's pointer. */
    ACLSIM_POINT_DRIVER_SIZE = 40, /* sim/drv_docs.c:docs_check, sim/drv_v2.c:v2_check, sim/drv_v3.c:v3_check: The driver takes the caller's size, before its overlap check. */
    ACLSIM_POINT_DRIVER_PAGEABLE = 41, /* sim/driver.c:sim_drv_pageable_allowed: The driver decides whether pageable memory registers at all. */
    ACLSIM_POINT_DRIVER_PIN_PAGES = 42, /* sim/driver.c:sim_drv_pin_pages, sim/drv_docs.c:docs_check: The driver judges the process's mappings of a pageable range. */
    ACLSIM_POINT_DRIVER_NODE_SPAN = 43, /* sim/driver.c:sim_drv_node_span: How far the driver's node of a registration reaches in the overlap checks. */
    ACLSIM_POINT_DRIVER_OVERLAP = 44, /* sim/driver.c:sim_drv_blocking: A V1 range starts inside a node of the device. */
    ACLSIM_POINT_DRIVER_VA_IDENTITY = 45, /* sim/driver.c:sim_drv_va_identity: Whether a mapping of host memory keeps the host address as its device address. */
    ACLSIM_POINT_COUNT = 46
} aclsimPointId;

static const char *const aclsimPointNames[ACLSIM_POINT_COUNT] = {
    "host.allocator",
    "host.mapping",
    "host.slab_booking",
    "host.placement",
    "host.carve",
    "host.release",
    "host.free_unknown",
    "host.free_block",
    "alloc.accepted",
    "alloc.request",
    "cfg.attribute",
    "free.gate",
    "free.accepted",
    "devsync.wait",
    "records.key",
    "register.start",
    "register.conflict",
    "register.conflict_code",
    "register.mode",
    "register.checked",
    "register.pinned_record",
    "register.done",
    "register.reserved_option",
    "register.accepted",
    "devptr.lookup",
    "devptr.answer",
    "unregister.unknown",
    "unregister.records",
    "unregister.mapping",
    "unregister.driver_refused",
    "unregister.removing",
    "memory.freed",
    "codes.open",
    "gate.devices",
    "products.registration",
    "products.api_support",
    "products.va_flag",
    "products.capability",
    "driver.public_side",
    "driver.alignment",
    "driver.size",
    "driver.pageable",
    "driver.pin_pages",
    "driver.node_span",
    "driver.overlap",
    "driver.va_identity",
};

/* The handler each point calls. */
#define ACLSIM_POINT_HANDLER_HOST_ALLOCATOR sim_point_host_allocator
#define ACLSIM_POINT_HANDLER_HOST_MAPPING sim_point_host_mapping
#define ACLSIM_POINT_HANDLER_HOST_SLAB_BOOKING sim_point_host_slab_booking
#define ACLSIM_POINT_HANDLER_HOST_PLACEMENT sim_point_host_placement
#define ACLSIM_POINT_HANDLER_HOST_CARVE sim_point_host_carve
#define ACLSIM_POINT_HANDLER_HOST_RELEASE sim_point_host_release
#define ACLSIM_POINT_HANDLER_HOST_FREE_UNKNOWN sim_point_host_free_unknown
#define ACLSIM_POINT_HANDLER_HOST_FREE_BLOCK sim_point_host_free_block
#define ACLSIM_POINT_HANDLER_ALLOC_ACCEPTED sim_point_alloc_accepted
#define ACLSIM_POINT_HANDLER_ALLOC_REQUEST sim_point_alloc_request
#define ACLSIM_POINT_HANDLER_CFG_ATTRIBUTE sim_point_cfg_attribute
#define ACLSIM_POINT_HANDLER_FREE_GATE sim_point_free_gate
#define ACLSIM_POINT_HANDLER_FREE_ACCEPTED sim_point_free_accepted
#define ACLSIM_POINT_HANDLER_DEVSYNC_WAIT sim_point_devsync_wait
#define ACLSIM_POINT_HANDLER_RECORDS_KEY sim_point_records_key
#define ACLSIM_POINT_HANDLER_REGISTER_START sim_point_register_start
#define ACLSIM_POINT_HANDLER_REGISTER_CONFLICT sim_point_register_conflict
#define ACLSIM_POINT_HANDLER_REGISTER_CONFLICT_CODE sim_point_register_conflict_code
#define ACLSIM_POINT_HANDLER_REGISTER_MODE sim_point_register_mode
#define ACLSIM_POINT_HANDLER_REGISTER_CHECKED sim_point_register_checked
#define ACLSIM_POINT_HANDLER_REGISTER_PINNED_RECORD sim_point_register_pinned_record
#define ACLSIM_POINT_HANDLER_REGISTER_DONE sim_point_register_done
#define ACLSIM_POINT_HANDLER_REGISTER_RESERVED_OPTION sim_point_register_reserved_option
#define ACLSIM_POINT_HANDLER_REGISTER_ACCEPTED sim_point_register_accepted
#define ACLSIM_POINT_HANDLER_DEVPTR_LOOKUP sim_point_devptr_lookup
#define ACLSIM_POINT_HANDLER_DEVPTR_ANSWER sim_point_devptr_answer
#define ACLSIM_POINT_HANDLER_UNREGISTER_UNKNOWN sim_point_unregister_unknown
#define ACLSIM_POINT_HANDLER_UNREGISTER_RECORDS sim_point_unregister_records
#define ACLSIM_POINT_HANDLER_UNREGISTER_MAPPING sim_point_unregister_mapping
#define ACLSIM_POINT_HANDLER_UNREGISTER_DRIVER_REFUSED sim_point_unregister_driver_refused
#define ACLSIM_POINT_HANDLER_UNREGISTER_REMOVING sim_point_unregister_removing
#define ACLSIM_POINT_HANDLER_MEMORY_FREED sim_point_memory_freed
#define ACLSIM_POINT_HANDLER_CODES_OPEN sim_point_codes_open
#define ACLSIM_POINT_HANDLER_GATE_DEVICES sim_point_gate_devices
#define ACLSIM_POINT_HANDLER_PRODUCTS_REGISTRATION sim_point_products_registration
#define ACLSIM_POINT_HANDLER_PRODUCTS_API_SUPPORT sim_point_products_api_support
#define ACLSIM_POINT_HANDLER_PRODUCTS_VA_FLAG sim_point_products_va_flag
#define ACLSIM_POINT_HANDLER_PRODUCTS_CAPABILITY sim_point_products_capability
#define ACLSIM_POINT_HANDLER_DRIVER_PUBLIC_SIDE sim_point_driver_public_side
#define ACLSIM_POINT_HANDLER_DRIVER_ALIGNMENT sim_point_driver_alignment
#define ACLSIM_POINT_HANDLER_DRIVER_SIZE sim_point_driver_size
#define ACLSIM_POINT_HANDLER_DRIVER_PAGEABLE sim_point_driver_pageable
#define ACLSIM_POINT_HANDLER_DRIVER_PIN_PAGES sim_point_driver_pin_pages
#define ACLSIM_POINT_HANDLER_DRIVER_NODE_SPAN sim_point_driver_node_span
#define ACLSIM_POINT_HANDLER_DRIVER_OVERLAP sim_point_driver_overlap
#define ACLSIM_POINT_HANDLER_DRIVER_VA_IDENTITY sim_point_driver_va_identity

/* The faults that act at each point: point p's are aclsimPointFaultList[aclsimPointFirst[p]]
 * up to aclsimPointFirst[p + 1]. A point is armed when one of them is on. */
static const aclsimFaultId aclsimPointFaultList[] = {
    ACLSIM_FAULT_LEGAL_DRV_MALLOC_FALLBACK, /* host.allocator */
    ACLSIM_FAULT_FORK_INHERITS, /* host.mapping */
    ACLSIM_FAULT_LEGAL_OTHER_CHOICES, /* host.mapping */
    ACLSIM_FAULT_ALLOC_OVERLAP, /* host.slab_booking */
    ACLSIM_FAULT_ALLOC_CROWDED_OVERLAP, /* host.slab_booking */
    ACLSIM_FAULT_LEGAL_MIN_ALIGNMENT, /* host.placement */
    ACLSIM_FAULT_LEGAL_RC_FORM, /* host.placement */
    ACLSIM_FAULT_SHORT_ALLOC, /* host.carve */
    ACLSIM_FAULT_HUGE_SIZE_WRAPS, /* host.carve */
    ACLSIM_FAULT_CONTENT_BETWEEN_POINTS, /* host.carve */
    ACLSIM_FAULT_LEGAL_PAGE_ALIGNMENT, /* host.carve */
    ACLSIM_FAULT_FREE_SCRIBBLES_NEIGHBOUR, /* host.release */
    ACLSIM_FAULT_EXHAUSTION_LEAK, /* host.release */
    ACLSIM_FAULT_DOUBLE_FREE_OK, /* host.free_unknown */
    ACLSIM_FAULT_FREE_FOREIGN_OK, /* host.free_unknown */
    ACLSIM_FAULT_FREE_DEVICE_MEM_OK, /* host.free_unknown */
    ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED, /* host.free_unknown */
    ACLSIM_FAULT_FREE_CFG_REJECTED, /* host.free_block */
    ACLSIM_FAULT_DEVSYNC_FREE_LEAKS, /* host.free_block */
    ACLSIM_FAULT_MALLOC_SYNCS, /* alloc.accepted */
    ACLSIM_FAULT_MALLOC_CFG_SYNCS, /* alloc.accepted */
    ACLSIM_FAULT_HANG_IN_MALLOC, /* alloc.accepted */
    ACLSIM_FAULT_LEGAL_OTHER_CHOICES, /* alloc.accepted */
    ACLSIM_FAULT_ALIGN_MALLOC_OFF16, /* alloc.request */
    ACLSIM_FAULT_ALIGN_CFG_OFF8, /* alloc.request */
    ACLSIM_FAULT_HUGE_SIZE_WRAPS, /* alloc.request */
    ACLSIM_FAULT_ALIGN_BETWEEN_POINTS, /* alloc.request */
    ACLSIM_FAULT_CFG_DUPLICATE_REJECTED, /* cfg.attribute */
    ACLSIM_FAULT_CFG_OTHER_DEVICE_OK, /* cfg.attribute */
    ACLSIM_FAULT_LEGAL_OTHER_CHOICES, /* cfg.attribute */
    ACLSIM_FAULT_LEGAL_SRC_DEVICE_ID, /* cfg.attribute */
    ACLSIM_FAULT_FREE_NEEDS_CONTEXT, /* free.gate */
    ACLSIM_FAULT_LEGAL_OTHER_CHOICES, /* free.gate */
    ACLSIM_FAULT_FREE_SYNCS, /* free.accepted */
    ACLSIM_FAULT_HANG_IN_FREE, /* free.accepted */
    ACLSIM_FAULT_DEVSYNC_NO_WAIT, /* devsync.wait */
    ACLSIM_FAULT_DEVSYNC_ONE_STREAM, /* devsync.wait */
    ACLSIM_FAULT_DEVSYNC_ALL_DEVICES, /* devsync.wait */
    ACLSIM_FAULT_DEVSYNC_SKIPS_OLD_STREAMS, /* devsync.wait */
    ACLSIM_FAULT_DEVSYNC_GIVES_UP, /* devsync.wait */
    ACLSIM_FAULT_LEGAL_OTHER_CHOICES, /* devsync.wait */
    ACLSIM_FAULT_SECOND_DEVICE_V2_OK, /* records.key */
    ACLSIM_FAULT_LEGAL_ALT_CODES, /* register.start */
    ACLSIM_FAULT_DOUBLE_REGISTER_OK, /* register.conflict */
    ACLSIM_FAULT_OVERLAP_REGISTER_OK, /* register.conflict */
    ACLSIM_FAULT_PINNED_THEN_MAPPED_OK, /* register.conflict */
    ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED, /* register.conflict */
    ACLSIM_FAULT_LEGAL_ALT_CODES, /* register.conflict_code */
    ACLSIM_FAULT_PINNED_MAPS, /* register.mode */
    ACLSIM_FAULT_PINNED_MAPPED_UNMAPPED, /* register.mode */
    ACLSIM_FAULT_LEGAL_SRC_PINNED_ON_PINNED, /* register.mode */
    ACLSIM_FAULT_REFUSED_REGISTRATION_RECORDED, /* register.checked */
    ACLSIM_FAULT_PINNED_UPGRADE_HALF_APPLIED, /* register.checked */
    ACLSIM_FAULT_REGISTER_RACE, /* register.checked */
    ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED, /* register.pinned_record */
    ACLSIM_FAULT_REFUSED_REGISTRATION_RECORDED, /* register.done */
    ACLSIM_FAULT_REREGISTER_STALE_DEVPTR, /* register.done */
    ACLSIM_FAULT_RESERVED_READONLY_OK, /* register.reserved_option */
    ACLSIM_FAULT_RESERVED_IOMEMORY_OK, /* register.reserved_option */
    ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED, /* register.reserved_option */
    ACLSIM_FAULT_CRASH_IN_REGISTER, /* register.accepted */
    ACLSIM_FAULT_PINNED_UPGRADE_HALF_APPLIED, /* devptr.lookup */
    ACLSIM_FAULT_DEVPTR_AFTER_UNREGISTER, /* devptr.lookup */
    ACLSIM_FAULT_DEVPTR_INTERIOR_BASE, /* devptr.lookup */
    ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED, /* devptr.lookup */
    ACLSIM_FAULT_REREGISTER_STALE_DEVPTR, /* devptr.answer */
    ACLSIM_FAULT_DOUBLE_UNREGISTER_OK, /* unregister.unknown */
    ACLSIM_FAULT_UNREGISTER_INTERIOR_OK, /* unregister.unknown */
    ACLSIM_FAULT_UNREGISTER_UNKNOWN_OK, /* unregister.unknown */
    ACLSIM_FAULT_REFUSED_REGISTRATION_RECORDED, /* unregister.unknown */
    ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED, /* unregister.unknown */
    ACLSIM_FAULT_UNREGISTER_PINNED_FAILS, /* unregister.records */
    ACLSIM_FAULT_UNREGISTER_FAILS, /* unregister.records */
    ACLSIM_FAULT_STALE_REGISTRATION_STUCK, /* unregister.mapping */
    ACLSIM_FAULT_UNREGISTER_FREED_LEAVES_MAPPING, /* unregister.mapping */
    ACLSIM_FAULT_LEGAL_OTHER_CHOICES, /* unregister.mapping */
    ACLSIM_FAULT_FOREIGN_DEVICE_UNREGISTER_LIES, /* unregister.driver_refused */
    ACLSIM_FAULT_UNREGISTER_DROPS_NEWER, /* unregister.removing */
    ACLSIM_FAULT_REFUSED_REGISTRATION_RECORDED, /* memory.freed */
    ACLSIM_FAULT_REREGISTER_STALE_DEVPTR, /* memory.freed */
    ACLSIM_FAULT_LEGAL_OTHER_CHOICES, /* memory.freed */
    ACLSIM_FAULT_LEGAL_ALT_CODES, /* codes.open */
    ACLSIM_FAULT_NO_DEVICE_OK, /* gate.devices */
    ACLSIM_FAULT_LEGAL_SRC_TRAINING_REGISTERS, /* products.registration */
    ACLSIM_FAULT_PROD_REGISTER_MISSING, /* products.api_support */
    ACLSIM_FAULT_PROD_REGISTER_EXTRA, /* products.api_support */
    ACLSIM_FAULT_VA_FLAG_EVERYWHERE, /* products.va_flag */
    ACLSIM_FAULT_CAP_SUPPORTED_WITHOUT_REGISTRATION, /* products.capability */
    ACLSIM_FAULT_LEGAL_PUBLIC_DRIVER, /* driver.public_side */
    ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED, /* driver.alignment */
    ACLSIM_FAULT_REGISTER_PARTIAL_PAGE_REJECTED, /* driver.size */
    ACLSIM_FAULT_PAGEABLE_REJECTED, /* driver.pageable */
    ACLSIM_FAULT_LEGACY_KERNEL_ACCEPTS, /* driver.pageable */
    ACLSIM_FAULT_REGISTER_PAST_END_OK, /* driver.pin_pages */
    ACLSIM_FAULT_PROT_READ_REGISTERS, /* driver.pin_pages */
    ACLSIM_FAULT_LEGAL_ACCEPT_UNPROMISED, /* driver.pin_pages */
    ACLSIM_FAULT_REGISTER_ROUNDS_2M, /* driver.node_span */
    ACLSIM_FAULT_V1_OVERLAP_BASE_ONLY, /* driver.overlap */
    ACLSIM_FAULT_VA_FLAG_IGNORED, /* driver.va_identity */
    ACLSIM_FAULT_VA_BETWEEN_POINTS, /* driver.va_identity */
};

static const unsigned short aclsimPointFirst[ACLSIM_POINT_COUNT + 1] = {
    0, /* host.allocator */
    1, /* host.mapping */
    3, /* host.slab_booking */
    5, /* host.placement */
    7, /* host.carve */
    11, /* host.release */
    13, /* host.free_unknown */
    17, /* host.free_block */
    19, /* alloc.accepted */
    23, /* alloc.request */
    27, /* cfg.attribute */
    31, /* free.gate */
    33, /* free.accepted */
    35, /* devsync.wait */
    41, /* records.key */
    42, /* register.start */
    43, /* register.conflict */
    47, /* register.conflict_code */
    48, /* register.mode */
    51, /* register.checked */
    54, /* register.pinned_record */
    55, /* register.done */
    57, /* register.reserved_option */
    60, /* register.accepted */
    61, /* devptr.lookup */
    65, /* devptr.answer */
    66, /* unregister.unknown */
    71, /* unregister.records */
    73, /* unregister.mapping */
    76, /* unregister.driver_refused */
    77, /* unregister.removing */
    78, /* memory.freed */
    81, /* codes.open */
    82, /* gate.devices */
    83, /* products.registration */
    84, /* products.api_support */
    86, /* products.va_flag */
    87, /* products.capability */
    88, /* driver.public_side */
    89, /* driver.alignment */
    90, /* driver.size */
    91, /* driver.pageable */
    93, /* driver.pin_pages */
    96, /* driver.node_span */
    97, /* driver.overlap */
    98, /* driver.va_identity */
    100
};

#endif /* ACLSIM_FAULTS_GENERATED_H */
