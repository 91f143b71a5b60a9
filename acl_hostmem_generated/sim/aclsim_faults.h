/* Generated from spec 124e27884054d455 by codegen; do not edit. Regenerate: python -m codegen generate */
/* The simulator's fault switches, from spec/faults.yaml. Enable with
 * ACLSIM_FAULTS=name[,name...]; each breaks the rules named in its comment. */
#ifndef ACLSIM_FAULTS_GENERATED_H
#define ACLSIM_FAULTS_GENERATED_H

typedef enum {
    ACLSIM_FAULT_ALIGN_MALLOC_OFF16 = 0, /* HM-ALIGN-MALLOC: Small blocks carved from a slab by aclrtMallocHost start 16 bytes past a 64-byte boundary. */
    ACLSIM_FAULT_ALIGN_CFG_OFF8 = 1, /* HM-ALIGN-MALLOC-CFG: Every pointer handed out by aclrtMallocHostWithCfg sits 8 bytes past a 64-byte boundary. */
    ACLSIM_FAULT_ALLOC_OVERLAP = 2, /* HM-ALIGN-LIVE: A small block of two or more granules books one granule too few, so its last 64 bytes are also the first 64 bytes of the next live block. */
    ACLSIM_FAULT_MEMSET_PARTIAL = 3, /* HM-CONTENT-MEMSET: aclrtMemset writes only the first half of the requested count. */
    ACLSIM_FAULT_REGISTER_CLOBBERS = 4, /* HM-CONTENT-REGISTER-PRESERVES: A successful registration zeroes the first 64 bytes of the registered range. */
    ACLSIM_FAULT_FREE_SCRIBBLES_NEIGHBOUR = 5, /* HM-CONTENT-FREE-ISOLATION: Releasing a small block also fills the 64 bytes that follow it in the slab with the poison byte. */
    ACLSIM_FAULT_SHORT_ALLOC = 6, /* HM-CONTENT-RW-FULL: Sizes above 4096 that are not whole pages come from a bump arena whose blocks share their last partial page with the next block. */
    ACLSIM_FAULT_DOUBLE_FREE_OK = 7, /* HM-PAIR-DOUBLE-FREE: Releasing a block that was already released reports success. */
    ACLSIM_FAULT_FREE_FOREIGN_OK = 8, /* HM-PAIR-FREE-FOREIGN: Releasing a pointer into the middle of a live block reports success and releases nothing. */
    ACLSIM_FAULT_FREE_CFG_REJECTED = 9, /* HM-PAIR-MALLOC-FREE: aclrtFreeHost refuses memory that aclrtMallocHostWithCfg handed out. */
    ACLSIM_FAULT_DOUBLE_UNREGISTER_OK = 10, /* HM-PAIR-DOUBLE-UNREGISTER: Unregistering a base pointer whose registration was already removed reports success. */
    ACLSIM_FAULT_UNREGISTER_INTERIOR_OK = 11, /* HM-PAIR-UNREG-UNKNOWN: Unregistering a pointer inside a registered range (not its base) reports success and changes nothing. */
    ACLSIM_FAULT_DOUBLE_REGISTER_OK = 12, /* HM-PAIR-DOUBLE-REGISTER: Registering exactly the same range twice succeeds the second time. */
    ACLSIM_FAULT_OVERLAP_REGISTER_OK = 13, /* HM-PAIR-OVERLAP-REGISTER: A range that overlaps a registered range without being identical to it registers anyway. */
    ACLSIM_FAULT_DEVPTR_AFTER_UNREGISTER = 14, /* HM-PAIR-GETDEVPTR-AFTER-UNREG: aclrtHostUnregister forgets the range but aclrtHostGetDevicePointer still answers its old device address. */
    ACLSIM_FAULT_PINNED_ON_PINNED_OK = 15, /* HM-PAIR-V2-PINNED-ON-PINNED: aclrtHostRegisterV2 with the PINNED bit accepts memory that aclrtMallocHost already pinned. */
    ACLSIM_FAULT_PINNED_MAPS = 16, /* HM-PAIR-V2-PINNED-NO-MAPPED: A PINNED-only registration also gets a device address, so aclrtHostGetDevicePointer succeeds for it. */
    ACLSIM_FAULT_REGISTER_RACE = 17, /* HM-PAIR-CONCURRENT-REGISTER: The overlap check and the insertion run under separate lock holds with a short sleep between them, so racing registrations of one range can all win. */
    ACLSIM_FAULT_EXHAUSTION_LEAK = 18, /* HM-PAIR-EXHAUSTION: Released blocks never return their bytes to the ACLSIM_HOST_MEM_LIMIT budget, so allocation keeps failing after frees. */
    ACLSIM_FAULT_UNREGISTER_FAILS = 19, /* HM-PAIR-REG-UNREG: Unregistering a valid registration answers ACL_ERROR_HOST_MEMORY_NOT_REGISTERED and leaves it in place. */
    ACLSIM_FAULT_PAGEABLE_REJECTED = 20, /* HM-REG-PAGEABLE: Memory that aclrtMallocHost did not hand out cannot be registered even on a kernel newer than 5.10. */
    ACLSIM_FAULT_LEGACY_KERNEL_ACCEPTS = 21, /* HM-REG-KERNEL-LEGACY: On an emulated 5.10 kernel, pageable memory registers anyway. */
    ACLSIM_FAULT_RESERVED_TYPE_OK = 22, /* HM-REG-RESERVED-TYPES: The reserved IOMEMORY and READONLY registration types and flag bits are accepted as if they were MAPPED. */
    ACLSIM_FAULT_DEVSYNC_FREE_LEAKS = 23, /* HM-PAIR-MALLOC-FREE: aclrtFreeHostWithDevSync reports success but keeps the block allocated, so the backend's live counters never give it back. */
    ACLSIM_FAULT_VA_FLAG_IGNORED = 24, /* HM-VA-IDENTITY: Memory allocated with VA_FLAG=1 gets a device address from the window instead of its own host address. */
    ACLSIM_FAULT_VA_FLAG_EVERYWHERE = 25, /* HM-VA-UNSUPPORTED: VA_FLAG=1 is accepted on every product family, including those without VA identity support. */
    ACLSIM_FAULT_DEVPTR_MISMATCH = 26, /* HM-VA-DEVPTR-CONSISTENT: aclrtHostGetDevicePointer answers an address one page past the one the registration gave. */
    ACLSIM_FAULT_MEMCPY_DEVPTR_OK = 27, /* HM-VA-DEVPTR-HOST-ONLY: aclrtMemcpy and aclrtMemcpyAsync accept a mapped device address that is not VA-identical and copy through it. */
    ACLSIM_FAULT_MALLOC_SYNCS = 28, /* HM-SYNC-MALLOC-NO-IMPLICIT: aclrtMallocHost waits for every stream of the current device before allocating. */
    ACLSIM_FAULT_FREE_SYNCS = 29, /* HM-SYNC-FREE-NO-IMPLICIT: aclrtFreeHost waits for every stream of the current device before releasing. */
    ACLSIM_FAULT_DEVSYNC_NO_WAIT = 30, /* HM-SYNC-DEVSYNC-WAITS: aclrtFreeHostWithDevSync releases at once; tasks still queued then read poison instead of the data. */
    ACLSIM_FAULT_DEVSYNC_ONE_STREAM = 31, /* HM-SYNC-DEVSYNC-ALL-STREAMS: aclrtFreeHostWithDevSync waits only for the oldest stream of the current device. */
    ACLSIM_FAULT_MALLOC_SIZE0_OK = 32, /* HM-INVAL-MALLOC-HOST: aclrtMallocHost with size 0 succeeds and hands out a one-granule block. */
    ACLSIM_FAULT_CFG_ATTRS_NULL_OK = 33, /* HM-INVAL-MALLOC-CFG: aclrtMallocHostWithCfg with numAttrs > 0 and attrs NULL treats the config as empty and succeeds. */
    ACLSIM_FAULT_FREE_NULL_OK = 34, /* HM-INVAL-FREE-HOST: aclrtFreeHost(NULL) reports success. */
    ACLSIM_FAULT_DEVSYNC_NULL_OK = 35, /* HM-INVAL-FREE-DEVSYNC: aclrtFreeHostWithDevSync(NULL) reports success. */
    ACLSIM_FAULT_REGISTER_TYPE_WRONG_CODE = 36, /* HM-INVAL-REGISTER: An aclrtHostRegister type outside the enumeration answers ACL_ERROR_INVALID_PARAM instead of ACL_ERROR_RT_FEATURE_NOT_SUPPORT. */
    ACLSIM_FAULT_V2_FLAG_UNCHECKED = 37, /* HM-INVAL-REGISTER-V2: aclrtHostRegisterV2 treats flag 0 and unknown bits as MAPPED. */
    ACLSIM_FAULT_GETDEVPTR_FLAG_IGNORED = 38, /* HM-INVAL-GETDEVPTR: aclrtHostGetDevicePointer ignores a non-zero flag. */
    ACLSIM_FAULT_UNREGISTER_NULL_OK = 39, /* HM-INVAL-UNREGISTER: aclrtHostUnregister(NULL) reports success. */
    ACLSIM_FAULT_CAP_BAD_HAC_OK = 40, /* HM-INVAL-CAPABILITIES: aclrtHostMemMapCapabilities answers SUPPORTED for a HAC type past the end of the enumeration. */
    ACLSIM_FAULT_NO_DEVICE_OK = 41, /* HM-CTX-NO-DEVICE: Host-memory calls from a thread without a current device act on device 0 instead of failing. */
    ACLSIM_FAULT_CAP_OUT_OF_RANGE = 42, /* HM-CAP-QUERY-ALL: The capability answer for SDMA is 7, outside the aclrtHostMemMapCapability enumeration. */
    ACLSIM_FAULT_CAP_FLAKY = 43, /* HM-CAP-STABLE: The capability answer for AIC flips on every call. */
    ACLSIM_FAULT_CAP_NONE = 44, /* HM-CAP-CONSISTENT: Every HAC type answers NOT_SUPPORTED although registration works on the product. */
    ACLSIM_FAULT_PROD_REGISTER_MISSING = 45, /* HM-PROD-SUPPORT: aclrtHostRegisterV2 answers ACL_ERROR_RT_FEATURE_NOT_SUPPORT on a product that supports it. */
    ACLSIM_FAULT_PROD_REGISTER_EXTRA = 46, /* HM-PROD-SUPPORT: aclrtHostRegister succeeds on a product that does not support it. */
    ACLSIM_FAULT_CRASH_IN_REGISTER = 47, /* HM-PAIR-REG-UNREG: aclrtHostRegister raises SIGSEGV. */
    ACLSIM_FAULT_HANG_IN_FREE = 48, /* HM-SYNC-FREE-NO-IMPLICIT: aclrtFreeHost deadlocks (blocks forever) when a stream of the current device has pending tasks. */
    ACLSIM_FAULT_HANG_IN_MALLOC = 49, /* HM-SYNC-MALLOC-NO-IMPLICIT: aclrtMallocHost blocks forever. */
    ACLSIM_FAULT_COUNT = 50
} aclsimFaultId;

static const char *const aclsimFaultNames[ACLSIM_FAULT_COUNT] = {
    "align_malloc_off16",
    "align_cfg_off8",
    "alloc_overlap",
    "memset_partial",
    "register_clobbers",
    "free_scribbles_neighbour",
    "short_alloc",
    "double_free_ok",
    "free_foreign_ok",
    "free_cfg_rejected",
    "double_unregister_ok",
    "unregister_interior_ok",
    "double_register_ok",
    "overlap_register_ok",
    "devptr_after_unregister",
    "pinned_on_pinned_ok",
    "pinned_maps",
    "register_race",
    "exhaustion_leak",
    "unregister_fails",
    "pageable_rejected",
    "legacy_kernel_accepts",
    "reserved_type_ok",
    "devsync_free_leaks",
    "va_flag_ignored",
    "va_flag_everywhere",
    "devptr_mismatch",
    "memcpy_devptr_ok",
    "malloc_syncs",
    "free_syncs",
    "devsync_no_wait",
    "devsync_one_stream",
    "malloc_size0_ok",
    "cfg_attrs_null_ok",
    "free_null_ok",
    "devsync_null_ok",
    "register_type_wrong_code",
    "v2_flag_unchecked",
    "getdevptr_flag_ignored",
    "unregister_null_ok",
    "cap_bad_hac_ok",
    "no_device_ok",
    "cap_out_of_range",
    "cap_flaky",
    "cap_none",
    "prod_register_missing",
    "prod_register_extra",
    "crash_in_register",
    "hang_in_free",
    "hang_in_malloc",
};

#endif /* ACLSIM_FAULTS_GENERATED_H */
