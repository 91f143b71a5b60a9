"""Helpers imported by the child processes that the simulator tests start.

The library reads its environment once, so every scenario runs in a fresh
interpreter: the test writes a short script, ``conftest.run_sim`` starts it
with the right ``ACLSIM_*`` variables, and the script does
``from simrun import *`` to get the bindings and a few helpers.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import cffi

ROOT = Path(__file__).resolve().parents[2]
GENERATED_CDEF = ROOT / "generated" / "acl_hostmem.cdef"

# Fallback declarations, used until the code generator has written
# generated/acl_hostmem.cdef. Only what the tests call is declared.
FALLBACK_CDEF = """
typedef int aclError;
typedef void *aclrtStream;
typedef void (*aclrtHostFunc)(void *args);
typedef enum { ACL_HOST_REGISTER_MAPPED = 0, ACL_HOST_REGISTER_IOMEMORY = 4,
               ACL_HOST_REGISTER_READONLY = 8 } aclrtHostRegisterType;
typedef enum { ACL_RT_MEM_ATTR_RSV = 0, ACL_RT_MEM_ATTR_MODULE_ID, ACL_RT_MEM_ATTR_DEVICE_ID,
               ACL_RT_MEM_ATTR_VA_FLAG } aclrtMallocAttrType;
typedef union { uint16_t moduleId; uint32_t deviceId; uint32_t vaFlag; uint8_t rsv[8]; }
    aclrtMallocAttrValue;
typedef struct { aclrtMallocAttrType attr; aclrtMallocAttrValue value; } aclrtMallocAttribute;
typedef struct { aclrtMallocAttribute *attrs; size_t numAttrs; } aclrtMallocConfig;
typedef enum { ACL_RT_HAC_TYPE_STARS = 0, ACL_RT_HAC_TYPE_AICPU, ACL_RT_HAC_TYPE_AIC,
               ACL_RT_HAC_TYPE_AIV, ACL_RT_HAC_TYPE_PCIEDMA, ACL_RT_HAC_TYPE_RDMA,
               ACL_RT_HAC_TYPE_SDMA, ACL_RT_HAC_TYPE_DVPP, ACL_RT_HAC_TYPE_UDMA,
               ACL_RT_HAC_TYPE_CCU } aclrtHacType;
typedef enum { ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED = 0, ACL_RT_HOST_MEM_MAP_SUPPORTED }
    aclrtHostMemMapCapability;
typedef enum { ACL_STREAM_STATUS_COMPLETE = 0, ACL_STREAM_STATUS_NOT_READY = 1,
               ACL_STREAM_STATUS_RESERVED = 0xFFFF } aclrtStreamStatus;
typedef enum { ACL_MEMCPY_HOST_TO_HOST, ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST,
               ACL_MEMCPY_DEVICE_TO_DEVICE, ACL_MEMCPY_DEFAULT, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE,
               ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE }
    aclrtMemcpyKind;
typedef enum { ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_ONLY, ACL_MEM_MALLOC_NORMAL_ONLY }
    aclrtMemMallocPolicy;
aclError aclInit(const char *configPath);
aclError aclFinalize(void);
aclError aclrtSetDevice(int32_t deviceId);
aclError aclrtResetDevice(int32_t deviceId);
aclError aclrtGetDeviceCount(uint32_t *count);
const char *aclrtGetSocName(void);
aclError aclrtCreateStream(aclrtStream *stream);
aclError aclrtDestroyStream(aclrtStream stream);
aclError aclrtSynchronizeStream(aclrtStream stream);
aclError aclrtSynchronizeDevice(void);
aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status);
aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtFree(void *devPtr);
aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count);
aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                     aclrtMemcpyKind kind);
aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                          aclrtMemcpyKind kind, aclrtStream stream);
aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args);
aclError aclsysGetVersionStr(char *pkgName, char *versionStr);
aclError aclrtMallocHost(void **hostPtr, size_t size);
aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg);
aclError aclrtFreeHost(void *hostPtr);
aclError aclrtFreeHostWithDevSync(void *hostPtr);
aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr);
aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag);
aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag);
aclError aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType,
                                     aclrtHostMemMapCapability *capabilities);
aclError aclrtHostUnregister(void *ptr);
"""

ACLSIM_CDEF = """
typedef struct {
    uint64_t live_host_allocs; uint64_t live_host_bytes; uint64_t live_registrations;
    uint64_t live_streams; uint64_t live_device_allocs; uint64_t unlocked_host_allocs;
} aclsimStats;
aclError aclsimGetStats(aclsimStats *out);
const char *aclsimActiveFaults(void);
const char *aclsimFamilyName(void);
int aclsimFaultCount(void);
const char *aclsimFaultName(int index);
"""

# Error codes and flags (values from the official aclError page).
SUCCESS = 0
INVALID_PARAM = 100000
UNINITIALIZE = 100001
REPEAT_INITIALIZE = 100002
REPEAT_FINALIZE = 100037
RT_INVALID_DEVICEID = 107001
RT_CONTEXT_NULL = 107002
RT_STREAM_CONTEXT = 107003
RT_FEATURE_NOT_SUPPORT = 207000
RT_MEMORY_ALLOCATION = 207001
RT_DRV_INTERNAL_ERROR = 507899
ALREADY_REGISTERED = 507910
NOT_REGISTERED = 507911
REG_MAPPED = 0x2
REG_IOMEMORY = 0x4
REG_READONLY = 0x8
REG_PINNED = 0x10000000
PAGE = 4096
VA_WINDOW_BASE = 0x1000000000000


def _cdef_text() -> str:
    """Return the ACL declarations: the generated cdef when present, else the fallback."""
    if GENERATED_CDEF.is_file():
        return GENERATED_CDEF.read_text()
    return FALLBACK_CDEF


def load() -> tuple[cffi.FFI, Any]:
    """Build the cffi ABI-mode bindings and open the library named by ACLSIM_LIB."""
    ffi = cffi.FFI()
    ffi.cdef(_cdef_text())
    ffi.cdef(ACLSIM_CDEF)
    lib_path = os.environ.get("ACLSIM_LIB", str(ROOT / "build" / "sim" / "libascendcl.so"))
    return ffi, ffi.dlopen(lib_path)


ffi, lib = load()


def expect(rc: int, want: int, what: str = "") -> None:
    """Fail the child (AssertionError → non-zero exit) when rc differs from want."""
    assert rc == want, f"{what}: got {rc}, want {want}"


def init(device: int | None = 0) -> None:
    """aclInit and, unless device is None, aclrtSetDevice(device)."""
    expect(lib.aclInit(ffi.NULL), SUCCESS, "aclInit")
    if device is not None:
        expect(lib.aclrtSetDevice(device), SUCCESS, "aclrtSetDevice")


def addr(ptr: Any) -> int:
    """Integer value of a cffi pointer."""
    return int(ffi.cast("uintptr_t", ptr))


def malloc_host(size: int) -> Any:
    """aclrtMallocHost that must succeed; returns the pointer."""
    out = ffi.new("void **")
    expect(lib.aclrtMallocHost(out, size), SUCCESS, f"aclrtMallocHost({size})")
    return out[0]


def make_cfg(*attrs: tuple[int, int]) -> Any:
    """An aclrtMallocConfig holding (attr, value) pairs; keep the result alive while used."""
    arr = ffi.new("aclrtMallocAttribute[]", max(len(attrs), 1))
    for i, (kind, value) in enumerate(attrs):
        arr[i].attr = kind
        if kind == lib.ACL_RT_MEM_ATTR_MODULE_ID:
            arr[i].value.moduleId = value
        elif kind == lib.ACL_RT_MEM_ATTR_DEVICE_ID:
            arr[i].value.deviceId = value
        else:
            arr[i].value.vaFlag = value
    cfg = ffi.new("aclrtMallocConfig *")
    cfg.attrs = arr
    cfg.numAttrs = len(attrs)
    return cfg, arr


def malloc_cfg(size: int, *attrs: tuple[int, int]) -> tuple[int, Any]:
    """aclrtMallocHostWithCfg; returns (rc, pointer)."""
    cfg, _keep = make_cfg(*attrs)
    out = ffi.new("void **")
    rc = lib.aclrtMallocHostWithCfg(out, size, cfg)
    return rc, out[0]


def register(ptr: Any, size: int) -> tuple[int, Any]:
    """aclrtHostRegister with MAPPED; returns (rc, device pointer)."""
    out = ffi.new("void **")
    rc = lib.aclrtHostRegister(ptr, size, lib.ACL_HOST_REGISTER_MAPPED, out)
    return rc, out[0]


def devptr(ptr: Any, flag: int = 0) -> tuple[int, Any]:
    """aclrtHostGetDevicePointer; returns (rc, device pointer)."""
    out = ffi.new("void **")
    rc = lib.aclrtHostGetDevicePointer(ptr, out, flag)
    return rc, out[0]


def stats() -> Any:
    """Current aclsimStats."""
    out = ffi.new("aclsimStats *")
    expect(lib.aclsimGetStats(out), SUCCESS, "aclsimGetStats")
    return out


def pageable(size: int) -> Any:
    """Page-aligned memory not allocated by the library (an mmap owned by Python)."""
    import mmap

    region = mmap.mmap(-1, size)
    buf = ffi.from_buffer(region)
    _KEEP.append(region)
    return ffi.cast("void *", buf)


def fill(ptr: Any, size: int, pattern: bytes) -> None:
    """Write a repeating pattern over [ptr, ptr+size)."""
    data = (pattern * (size // len(pattern) + 1))[:size]
    ffi.memmove(ptr, data, size)


def read(ptr: Any, size: int) -> bytes:
    """Copy [ptr, ptr+size) out."""
    return bytes(ffi.buffer(ffi.cast("char *", ptr), size))


_KEEP: list[Any] = []

__all__ = [name for name in dir() if not name.startswith("__")]
