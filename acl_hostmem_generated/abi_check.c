/* Generated from spec 5d3dcfc70eb619e5 by codegen; do not edit. Regenerate: python -m codegen generate */
/* ABI check: the spec's values and layouts against a set of declarations.
 *
 *   cc -std=c11 -I acl_hostmem_generated/include acl_hostmem_generated/abi_check.c -o abi_check && ./abi_check
 *   cc -std=c11 -DACL_ABI_OFFICIAL -I <cann>/include acl_hostmem_generated/abi_check.c -o abi_check && ./abi_check
 *
 * Enum values, macros, sizes, offsets and function types are compile-time assertions.
 * aclError codes are checked when the program runs, because the official headers declare
 * some of them as `static const int`, which C does not treat as a constant expression. */
#ifdef ACL_ABI_OFFICIAL
#include "acl/acl.h"
#include "acl/acl_rt.h"
#else
#include "acl_hostmem.h"
#endif
#include <stddef.h>
#include <stdio.h>

#define SAME_TYPE(a, b) __builtin_types_compatible_p(__typeof__(a), b)

/* enum members */
_Static_assert(ACL_HOST_REGISTER_MAPPED == 0, "aclrtHostRegisterType: ACL_HOST_REGISTER_MAPPED must be 0");
_Static_assert(ACL_HOST_REGISTER_IOMEMORY == 4, "aclrtHostRegisterType: ACL_HOST_REGISTER_IOMEMORY must be 4");
_Static_assert(ACL_HOST_REGISTER_READONLY == 8, "aclrtHostRegisterType: ACL_HOST_REGISTER_READONLY must be 8");
_Static_assert(ACL_RT_MEM_ATTR_RSV == 0, "aclrtMallocAttrType: ACL_RT_MEM_ATTR_RSV must be 0");
_Static_assert(ACL_RT_MEM_ATTR_MODULE_ID == 1, "aclrtMallocAttrType: ACL_RT_MEM_ATTR_MODULE_ID must be 1");
_Static_assert(ACL_RT_MEM_ATTR_DEVICE_ID == 2, "aclrtMallocAttrType: ACL_RT_MEM_ATTR_DEVICE_ID must be 2");
_Static_assert(ACL_RT_MEM_ATTR_VA_FLAG == 3, "aclrtMallocAttrType: ACL_RT_MEM_ATTR_VA_FLAG must be 3");
_Static_assert(ACL_RT_HAC_TYPE_STARS == 0, "aclrtHacType: ACL_RT_HAC_TYPE_STARS must be 0");
_Static_assert(ACL_RT_HAC_TYPE_AICPU == 1, "aclrtHacType: ACL_RT_HAC_TYPE_AICPU must be 1");
_Static_assert(ACL_RT_HAC_TYPE_AIC == 2, "aclrtHacType: ACL_RT_HAC_TYPE_AIC must be 2");
_Static_assert(ACL_RT_HAC_TYPE_AIV == 3, "aclrtHacType: ACL_RT_HAC_TYPE_AIV must be 3");
_Static_assert(ACL_RT_HAC_TYPE_PCIEDMA == 4, "aclrtHacType: ACL_RT_HAC_TYPE_PCIEDMA must be 4");
_Static_assert(ACL_RT_HAC_TYPE_RDMA == 5, "aclrtHacType: ACL_RT_HAC_TYPE_RDMA must be 5");
_Static_assert(ACL_RT_HAC_TYPE_SDMA == 6, "aclrtHacType: ACL_RT_HAC_TYPE_SDMA must be 6");
_Static_assert(ACL_RT_HAC_TYPE_DVPP == 7, "aclrtHacType: ACL_RT_HAC_TYPE_DVPP must be 7");
_Static_assert(ACL_RT_HAC_TYPE_UDMA == 8, "aclrtHacType: ACL_RT_HAC_TYPE_UDMA must be 8");
_Static_assert(ACL_RT_HAC_TYPE_CCU == 9, "aclrtHacType: ACL_RT_HAC_TYPE_CCU must be 9");
_Static_assert(ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED == 0, "aclrtHostMemMapCapability: ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED must be 0");
_Static_assert(ACL_RT_HOST_MEM_MAP_SUPPORTED == 1, "aclrtHostMemMapCapability: ACL_RT_HOST_MEM_MAP_SUPPORTED must be 1");
_Static_assert(ACL_DEVICE == 0, "aclrtRunMode: ACL_DEVICE must be 0");
_Static_assert(ACL_HOST == 1, "aclrtRunMode: ACL_HOST must be 1");
_Static_assert(ACL_STREAM_STATUS_COMPLETE == 0, "aclrtStreamStatus: ACL_STREAM_STATUS_COMPLETE must be 0");
_Static_assert(ACL_STREAM_STATUS_NOT_READY == 1, "aclrtStreamStatus: ACL_STREAM_STATUS_NOT_READY must be 1");
_Static_assert(ACL_STREAM_STATUS_RESERVED == 65535, "aclrtStreamStatus: ACL_STREAM_STATUS_RESERVED must be 65535");
_Static_assert(ACL_MEMCPY_HOST_TO_HOST == 0, "aclrtMemcpyKind: ACL_MEMCPY_HOST_TO_HOST must be 0");
_Static_assert(ACL_MEMCPY_HOST_TO_DEVICE == 1, "aclrtMemcpyKind: ACL_MEMCPY_HOST_TO_DEVICE must be 1");
_Static_assert(ACL_MEMCPY_DEVICE_TO_HOST == 2, "aclrtMemcpyKind: ACL_MEMCPY_DEVICE_TO_HOST must be 2");
_Static_assert(ACL_MEMCPY_DEVICE_TO_DEVICE == 3, "aclrtMemcpyKind: ACL_MEMCPY_DEVICE_TO_DEVICE must be 3");
_Static_assert(ACL_MEMCPY_DEFAULT == 4, "aclrtMemcpyKind: ACL_MEMCPY_DEFAULT must be 4");
_Static_assert(ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE == 5, "aclrtMemcpyKind: ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE must be 5");
_Static_assert(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE == 6, "aclrtMemcpyKind: ACL_MEMCPY_INNER_DEVICE_TO_DEVICE must be 6");
_Static_assert(ACL_MEMCPY_INTER_DEVICE_TO_DEVICE == 7, "aclrtMemcpyKind: ACL_MEMCPY_INTER_DEVICE_TO_DEVICE must be 7");
_Static_assert(ACL_MEM_MALLOC_HUGE_FIRST == 0, "aclrtMemMallocPolicy: ACL_MEM_MALLOC_HUGE_FIRST must be 0");
_Static_assert(ACL_MEM_MALLOC_HUGE_ONLY == 1, "aclrtMemMallocPolicy: ACL_MEM_MALLOC_HUGE_ONLY must be 1");
_Static_assert(ACL_MEM_MALLOC_NORMAL_ONLY == 2, "aclrtMemMallocPolicy: ACL_MEM_MALLOC_NORMAL_ONLY must be 2");
_Static_assert(ACL_MEM_MALLOC_HUGE_FIRST_P2P == 3, "aclrtMemMallocPolicy: ACL_MEM_MALLOC_HUGE_FIRST_P2P must be 3");
_Static_assert(ACL_MEM_MALLOC_HUGE_ONLY_P2P == 4, "aclrtMemMallocPolicy: ACL_MEM_MALLOC_HUGE_ONLY_P2P must be 4");
_Static_assert(ACL_MEM_MALLOC_NORMAL_ONLY_P2P == 5, "aclrtMemMallocPolicy: ACL_MEM_MALLOC_NORMAL_ONLY_P2P must be 5");
_Static_assert(ACL_MEM_MALLOC_HUGE1G_ONLY == 6, "aclrtMemMallocPolicy: ACL_MEM_MALLOC_HUGE1G_ONLY must be 6");
_Static_assert(ACL_MEM_MALLOC_HUGE1G_ONLY_P2P == 7, "aclrtMemMallocPolicy: ACL_MEM_MALLOC_HUGE1G_ONLY_P2P must be 7");
_Static_assert(ACL_MEM_TYPE_LOW_BAND_WIDTH == 256, "aclrtMemMallocPolicy: ACL_MEM_TYPE_LOW_BAND_WIDTH must be 256");
_Static_assert(ACL_MEM_TYPE_HIGH_BAND_WIDTH == 4096, "aclrtMemMallocPolicy: ACL_MEM_TYPE_HIGH_BAND_WIDTH must be 4096");
_Static_assert(ACL_MEM_ACCESS_USER_SPACE_READONLY == 1048576, "aclrtMemMallocPolicy: ACL_MEM_ACCESS_USER_SPACE_READONLY must be 1048576");

/* macros */
_Static_assert(ACL_HOST_REG_MAPPED == 0x2UL, "ACL_HOST_REG_MAPPED must be 0x2UL");
_Static_assert(ACL_HOST_REG_IOMEMORY == 0x4UL, "ACL_HOST_REG_IOMEMORY must be 0x4UL");
_Static_assert(ACL_HOST_REG_READONLY == 0x8UL, "ACL_HOST_REG_READONLY must be 0x8UL");
_Static_assert(ACL_HOST_REG_PINNED == 0x10000000UL, "ACL_HOST_REG_PINNED must be 0x10000000UL");
_Static_assert(ACL_PKG_VERSION_MAX_SIZE == 0x80, "ACL_PKG_VERSION_MAX_SIZE must be 0x80");

/* struct and union layouts */
_Static_assert(sizeof(aclrtMallocAttrValue) == 8, "sizeof(aclrtMallocAttrValue) must be 8");
_Static_assert(_Alignof(aclrtMallocAttrValue) == 4, "_Alignof(aclrtMallocAttrValue) must be 4");
_Static_assert(offsetof(aclrtMallocAttrValue, moduleId) == 0, "offsetof(aclrtMallocAttrValue, moduleId) must be 0");
_Static_assert(SAME_TYPE(((aclrtMallocAttrValue *)0)->moduleId, uint16_t), "aclrtMallocAttrValue.moduleId must be uint16_t");
_Static_assert(offsetof(aclrtMallocAttrValue, deviceId) == 0, "offsetof(aclrtMallocAttrValue, deviceId) must be 0");
_Static_assert(SAME_TYPE(((aclrtMallocAttrValue *)0)->deviceId, uint32_t), "aclrtMallocAttrValue.deviceId must be uint32_t");
_Static_assert(offsetof(aclrtMallocAttrValue, vaFlag) == 0, "offsetof(aclrtMallocAttrValue, vaFlag) must be 0");
_Static_assert(SAME_TYPE(((aclrtMallocAttrValue *)0)->vaFlag, uint32_t), "aclrtMallocAttrValue.vaFlag must be uint32_t");
_Static_assert(offsetof(aclrtMallocAttrValue, rsv) == 0, "offsetof(aclrtMallocAttrValue, rsv) must be 0");
_Static_assert(SAME_TYPE(((aclrtMallocAttrValue *)0)->rsv, uint8_t[8]), "aclrtMallocAttrValue.rsv must be uint8_t");
_Static_assert(sizeof(aclrtMallocAttribute) == 12, "sizeof(aclrtMallocAttribute) must be 12");
_Static_assert(_Alignof(aclrtMallocAttribute) == 4, "_Alignof(aclrtMallocAttribute) must be 4");
_Static_assert(offsetof(aclrtMallocAttribute, attr) == 0, "offsetof(aclrtMallocAttribute, attr) must be 0");
_Static_assert(SAME_TYPE(((aclrtMallocAttribute *)0)->attr, aclrtMallocAttrType), "aclrtMallocAttribute.attr must be aclrtMallocAttrType");
_Static_assert(offsetof(aclrtMallocAttribute, value) == 4, "offsetof(aclrtMallocAttribute, value) must be 4");
_Static_assert(SAME_TYPE(((aclrtMallocAttribute *)0)->value, aclrtMallocAttrValue), "aclrtMallocAttribute.value must be aclrtMallocAttrValue");
_Static_assert(sizeof(aclrtMallocConfig) == 16, "sizeof(aclrtMallocConfig) must be 16");
_Static_assert(_Alignof(aclrtMallocConfig) == 8, "_Alignof(aclrtMallocConfig) must be 8");
_Static_assert(offsetof(aclrtMallocConfig, attrs) == 0, "offsetof(aclrtMallocConfig, attrs) must be 0");
_Static_assert(SAME_TYPE(((aclrtMallocConfig *)0)->attrs, aclrtMallocAttribute *), "aclrtMallocConfig.attrs must be aclrtMallocAttribute *");
_Static_assert(offsetof(aclrtMallocConfig, numAttrs) == 8, "offsetof(aclrtMallocConfig, numAttrs) must be 8");
_Static_assert(SAME_TYPE(((aclrtMallocConfig *)0)->numAttrs, size_t), "aclrtMallocConfig.numAttrs must be size_t");

/* typedefs and callbacks */
_Static_assert(SAME_TYPE((aclError){0}, int), "aclError must be int");
_Static_assert(SAME_TYPE((aclrtStream){0}, void *), "aclrtStream must be void *");
_Static_assert(SAME_TYPE((aclrtContext){0}, void *), "aclrtContext must be void *");
_Static_assert(SAME_TYPE((aclrtHostFunc)0, void (*)(void *)), "aclrtHostFunc has the wrong type");

/* function types */
_Static_assert(SAME_TYPE(&aclrtMallocHost, aclError (*)(void **, size_t)), "aclrtMallocHost must be aclError (*)(void **, size_t)");
_Static_assert(SAME_TYPE(&aclrtMallocHostWithCfg, aclError (*)(void **, uint64_t, aclrtMallocConfig *)), "aclrtMallocHostWithCfg must be aclError (*)(void **, uint64_t, aclrtMallocConfig *)");
_Static_assert(SAME_TYPE(&aclrtFreeHost, aclError (*)(void *)), "aclrtFreeHost must be aclError (*)(void *)");
_Static_assert(SAME_TYPE(&aclrtFreeHostWithDevSync, aclError (*)(void *)), "aclrtFreeHostWithDevSync must be aclError (*)(void *)");
_Static_assert(SAME_TYPE(&aclrtHostRegister, aclError (*)(void *, uint64_t, aclrtHostRegisterType, void **)), "aclrtHostRegister must be aclError (*)(void *, uint64_t, aclrtHostRegisterType, void **)");
_Static_assert(SAME_TYPE(&aclrtHostRegisterV2, aclError (*)(void *, uint64_t, uint32_t)), "aclrtHostRegisterV2 must be aclError (*)(void *, uint64_t, uint32_t)");
_Static_assert(SAME_TYPE(&aclrtHostGetDevicePointer, aclError (*)(void *, void **, uint32_t)), "aclrtHostGetDevicePointer must be aclError (*)(void *, void **, uint32_t)");
_Static_assert(SAME_TYPE(&aclrtHostMemMapCapabilities, aclError (*)(uint32_t, aclrtHacType, aclrtHostMemMapCapability *)), "aclrtHostMemMapCapabilities must be aclError (*)(uint32_t, aclrtHacType, aclrtHostMemMapCapability *)");
_Static_assert(SAME_TYPE(&aclrtHostUnregister, aclError (*)(void *)), "aclrtHostUnregister must be aclError (*)(void *)");
_Static_assert(SAME_TYPE(&aclInit, aclError (*)(const char *)), "aclInit must be aclError (*)(const char *)");
_Static_assert(SAME_TYPE(&aclFinalize, aclError (*)(void)), "aclFinalize must be aclError (*)(void)");
_Static_assert(SAME_TYPE(&aclrtSetDevice, aclError (*)(int32_t)), "aclrtSetDevice must be aclError (*)(int32_t)");
_Static_assert(SAME_TYPE(&aclrtResetDevice, aclError (*)(int32_t)), "aclrtResetDevice must be aclError (*)(int32_t)");
_Static_assert(SAME_TYPE(&aclrtResetDeviceForce, aclError (*)(int32_t)), "aclrtResetDeviceForce must be aclError (*)(int32_t)");
_Static_assert(SAME_TYPE(&aclrtGetDevice, aclError (*)(int32_t *)), "aclrtGetDevice must be aclError (*)(int32_t *)");
_Static_assert(SAME_TYPE(&aclrtGetRunMode, aclError (*)(aclrtRunMode *)), "aclrtGetRunMode must be aclError (*)(aclrtRunMode *)");
_Static_assert(SAME_TYPE(&aclrtCreateContext, aclError (*)(aclrtContext *, int32_t)), "aclrtCreateContext must be aclError (*)(aclrtContext *, int32_t)");
_Static_assert(SAME_TYPE(&aclrtDestroyContext, aclError (*)(aclrtContext)), "aclrtDestroyContext must be aclError (*)(aclrtContext)");
_Static_assert(SAME_TYPE(&aclrtSetCurrentContext, aclError (*)(aclrtContext)), "aclrtSetCurrentContext must be aclError (*)(aclrtContext)");
_Static_assert(SAME_TYPE(&aclrtGetCurrentContext, aclError (*)(aclrtContext *)), "aclrtGetCurrentContext must be aclError (*)(aclrtContext *)");
_Static_assert(SAME_TYPE(&aclrtGetDeviceCount, aclError (*)(uint32_t *)), "aclrtGetDeviceCount must be aclError (*)(uint32_t *)");
_Static_assert(SAME_TYPE(&aclrtGetSocName, const char * (*)(void)), "aclrtGetSocName must be const char * (*)(void)");
_Static_assert(SAME_TYPE(&aclrtCreateStream, aclError (*)(aclrtStream *)), "aclrtCreateStream must be aclError (*)(aclrtStream *)");
_Static_assert(SAME_TYPE(&aclrtDestroyStream, aclError (*)(aclrtStream)), "aclrtDestroyStream must be aclError (*)(aclrtStream)");
_Static_assert(SAME_TYPE(&aclrtDestroyStreamForce, aclError (*)(aclrtStream)), "aclrtDestroyStreamForce must be aclError (*)(aclrtStream)");
_Static_assert(SAME_TYPE(&aclrtSynchronizeStream, aclError (*)(aclrtStream)), "aclrtSynchronizeStream must be aclError (*)(aclrtStream)");
_Static_assert(SAME_TYPE(&aclrtSynchronizeDevice, aclError (*)(void)), "aclrtSynchronizeDevice must be aclError (*)(void)");
_Static_assert(SAME_TYPE(&aclrtStreamQuery, aclError (*)(aclrtStream, aclrtStreamStatus *)), "aclrtStreamQuery must be aclError (*)(aclrtStream, aclrtStreamStatus *)");
_Static_assert(SAME_TYPE(&aclrtMalloc, aclError (*)(void **, size_t, aclrtMemMallocPolicy)), "aclrtMalloc must be aclError (*)(void **, size_t, aclrtMemMallocPolicy)");
_Static_assert(SAME_TYPE(&aclrtFree, aclError (*)(void *)), "aclrtFree must be aclError (*)(void *)");
_Static_assert(SAME_TYPE(&aclrtMemset, aclError (*)(void *, size_t, int32_t, size_t)), "aclrtMemset must be aclError (*)(void *, size_t, int32_t, size_t)");
_Static_assert(SAME_TYPE(&aclrtMemcpy, aclError (*)(void *, size_t, const void *, size_t, aclrtMemcpyKind)), "aclrtMemcpy must be aclError (*)(void *, size_t, const void *, size_t, aclrtMemcpyKind)");
_Static_assert(SAME_TYPE(&aclrtMemcpyAsync, aclError (*)(void *, size_t, const void *, size_t, aclrtMemcpyKind, aclrtStream)), "aclrtMemcpyAsync must be aclError (*)(void *, size_t, const void *, size_t, aclrtMemcpyKind, aclrtStream)");
_Static_assert(SAME_TYPE(&aclrtLaunchHostFunc, aclError (*)(aclrtStream, aclrtHostFunc, void *)), "aclrtLaunchHostFunc must be aclError (*)(aclrtStream, aclrtHostFunc, void *)");
_Static_assert(SAME_TYPE(&aclsysGetVersionStr, aclError (*)(char *, char *)), "aclsysGetVersionStr must be aclError (*)(char *, char *)");
_Static_assert(SAME_TYPE(&aclrtGetVersion, aclError (*)(int32_t *, int32_t *, int32_t *)), "aclrtGetVersion must be aclError (*)(int32_t *, int32_t *, int32_t *)");

static int check_code(const char *name, long actual, long expected)
{
    if (actual == expected) {
        return 0;
    }
    fprintf(stderr, "abi_check: %s is %ld, the spec says %ld\n", name, actual, expected);
    return 1;
}

int main(void)
{
    int failures = 0;
    failures += check_code("ACL_SUCCESS", (long)ACL_SUCCESS, 0L);
    failures += check_code("ACL_ERROR_INVALID_PARAM", (long)ACL_ERROR_INVALID_PARAM, 100000L);
    failures += check_code("ACL_ERROR_UNINITIALIZE", (long)ACL_ERROR_UNINITIALIZE, 100001L);
    failures += check_code("ACL_ERROR_REPEAT_INITIALIZE", (long)ACL_ERROR_REPEAT_INITIALIZE, 100002L);
    failures += check_code("ACL_ERROR_REPEAT_FINALIZE", (long)ACL_ERROR_REPEAT_FINALIZE, 100037L);
    failures += check_code("ACL_ERROR_BAD_ALLOC", (long)ACL_ERROR_BAD_ALLOC, 200000L);
    failures += check_code("ACL_ERROR_INVALID_DEVICE", (long)ACL_ERROR_INVALID_DEVICE, 200002L);
    failures += check_code("ACL_ERROR_FEATURE_UNSUPPORTED", (long)ACL_ERROR_FEATURE_UNSUPPORTED, 200006L);
    failures += check_code("ACL_ERROR_RT_PARAM_INVALID", (long)ACL_ERROR_RT_PARAM_INVALID, 107000L);
    failures += check_code("ACL_ERROR_RT_INVALID_DEVICEID", (long)ACL_ERROR_RT_INVALID_DEVICEID, 107001L);
    failures += check_code("ACL_ERROR_RT_CONTEXT_NULL", (long)ACL_ERROR_RT_CONTEXT_NULL, 107002L);
    failures += check_code("ACL_ERROR_RT_INVALID_HANDLE", (long)ACL_ERROR_RT_INVALID_HANDLE, 107017L);
    failures += check_code("ACL_ERROR_RT_STREAM_CONTEXT", (long)ACL_ERROR_RT_STREAM_CONTEXT, 107003L);
    failures += check_code("ACL_ERROR_RT_FEATURE_NOT_SUPPORT", (long)ACL_ERROR_RT_FEATURE_NOT_SUPPORT, 207000L);
    failures += check_code("ACL_ERROR_RT_MEMORY_ALLOCATION", (long)ACL_ERROR_RT_MEMORY_ALLOCATION, 207001L);
    failures += check_code("ACL_ERROR_RT_DRV_INTERNAL_ERROR", (long)ACL_ERROR_RT_DRV_INTERNAL_ERROR, 507899L);
    failures += check_code("ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED", (long)ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, 507910L);
    failures += check_code("ACL_ERROR_HOST_MEMORY_NOT_REGISTERED", (long)ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, 507911L);
    if (failures == 0) {
        printf("abi_check: OK (43 enum members, 5 macros, 3 layouts, 36 functions, 18 error codes)\n");
    }
    return failures == 0 ? 0 : 1;
}
