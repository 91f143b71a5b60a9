# Generated from spec 5d3dcfc70eb619e5 by codegen; do not edit. Regenerate: python -m codegen generate
"""cffi ABI-mode bindings of the ACL host-memory interfaces and the harness calls.

``load(path)`` opens a library (the real libascendcl.so or the simulator) and returns an
:class:`AclLibrary` with one wrapper per function. Inputs take Python values: ``int`` for
integers, enums and addresses, ``None`` for NULL, ``str`` for strings, or cffi objects.
Output parameters are keyword-only: by default the wrapper allocates them and returns
what the call wrote; pass ``None`` to hand the function NULL instead. With ``raw=True`` a
wrapper returns the aclError (followed by the outputs, if any) instead of raising
:class:`AclError`, since conformance cases need the exact code.
"""

from __future__ import annotations

import os
import threading as _threading
from collections.abc import Callable
from typing import Any, Literal, overload

# What does not depend on the spec is written by hand: acl_runtime.py beside this module.
from .acl_runtime import CDEF as CDEF
from .acl_runtime import OUT as OUT
from .acl_runtime import CData as CData
from .acl_runtime import Out as Out
from .acl_runtime import LibraryBase as LibraryBase
from .acl_runtime import MallocConfig as MallocConfig
from .acl_runtime import TraceHook as TraceHook
from .acl_runtime import ffi as ffi
from .acl_runtime import address as address
from .acl_runtime import address_arg as _address_arg
from .acl_runtime import cell_arg as _cell_arg
from .acl_runtime import cstr_arg as _cstr
from .acl_runtime import pointer_arg as _ptr
from .acl_runtime import text_of as _text

SPEC_HASH = '5d3dcfc70eb619e5'

# ---- constants under their C names ----
ACL_SUCCESS = 0
ACL_ERROR_INVALID_PARAM = 100000
ACL_ERROR_UNINITIALIZE = 100001
ACL_ERROR_REPEAT_INITIALIZE = 100002
ACL_ERROR_REPEAT_FINALIZE = 100037
ACL_ERROR_BAD_ALLOC = 200000
ACL_ERROR_INVALID_DEVICE = 200002
ACL_ERROR_FEATURE_UNSUPPORTED = 200006
ACL_ERROR_RT_PARAM_INVALID = 107000
ACL_ERROR_RT_INVALID_DEVICEID = 107001
ACL_ERROR_RT_CONTEXT_NULL = 107002
ACL_ERROR_RT_INVALID_HANDLE = 107017
ACL_ERROR_RT_STREAM_CONTEXT = 107003
ACL_ERROR_RT_FEATURE_NOT_SUPPORT = 207000
ACL_ERROR_RT_MEMORY_ALLOCATION = 207001
ACL_ERROR_RT_DRV_INTERNAL_ERROR = 507899
ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 507910
ACL_ERROR_HOST_MEMORY_NOT_REGISTERED = 507911
ACL_HOST_REGISTER_MAPPED = 0
ACL_HOST_REGISTER_IOMEMORY = 4
ACL_HOST_REGISTER_READONLY = 8
ACL_RT_MEM_ATTR_RSV = 0
ACL_RT_MEM_ATTR_MODULE_ID = 1
ACL_RT_MEM_ATTR_DEVICE_ID = 2
ACL_RT_MEM_ATTR_VA_FLAG = 3
ACL_RT_HAC_TYPE_STARS = 0
ACL_RT_HAC_TYPE_AICPU = 1
ACL_RT_HAC_TYPE_AIC = 2
ACL_RT_HAC_TYPE_AIV = 3
ACL_RT_HAC_TYPE_PCIEDMA = 4
ACL_RT_HAC_TYPE_RDMA = 5
ACL_RT_HAC_TYPE_SDMA = 6
ACL_RT_HAC_TYPE_DVPP = 7
ACL_RT_HAC_TYPE_UDMA = 8
ACL_RT_HAC_TYPE_CCU = 9
ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED = 0
ACL_RT_HOST_MEM_MAP_SUPPORTED = 1
ACL_DEVICE = 0
ACL_HOST = 1
ACL_STREAM_STATUS_COMPLETE = 0
ACL_STREAM_STATUS_NOT_READY = 1
ACL_STREAM_STATUS_RESERVED = 65535
ACL_MEMCPY_HOST_TO_HOST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_MEMCPY_DEVICE_TO_DEVICE = 3
ACL_MEMCPY_DEFAULT = 4
ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE = 5
ACL_MEMCPY_INNER_DEVICE_TO_DEVICE = 6
ACL_MEMCPY_INTER_DEVICE_TO_DEVICE = 7
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEM_MALLOC_HUGE_ONLY = 1
ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEM_MALLOC_HUGE_FIRST_P2P = 3
ACL_MEM_MALLOC_HUGE_ONLY_P2P = 4
ACL_MEM_MALLOC_NORMAL_ONLY_P2P = 5
ACL_MEM_MALLOC_HUGE1G_ONLY = 6
ACL_MEM_MALLOC_HUGE1G_ONLY_P2P = 7
ACL_MEM_TYPE_LOW_BAND_WIDTH = 256
ACL_MEM_TYPE_HIGH_BAND_WIDTH = 4096
ACL_MEM_ACCESS_USER_SPACE_READONLY = 1048576
ACL_HOST_REG_MAPPED = 2
ACL_HOST_REG_IOMEMORY = 4
ACL_HOST_REG_READONLY = 8
ACL_HOST_REG_PINNED = 268435456
ACL_PKG_VERSION_MAX_SIZE = 128

ERRORS: dict[str, tuple[int, str, str]] = {
    'ACL_SUCCESS': (0, 'success', 'The call succeeded.'),
    'ACL_ERROR_INVALID_PARAM': (100000, 'caller', 'An argument failed validation.'),
    'ACL_ERROR_UNINITIALIZE': (100001, 'caller', 'aclInit has not been called.'),
    'ACL_ERROR_REPEAT_INITIALIZE': (100002, 'caller', 'Initialisation was requested twice.'),
    'ACL_ERROR_REPEAT_FINALIZE': (100037, 'caller', 'Finalisation was requested twice.'),
    'ACL_ERROR_BAD_ALLOC': (200000, 'resource', 'Memory could not be allocated.'),
    'ACL_ERROR_INVALID_DEVICE': (200002, 'resource', 'The device does not exist (deprecated in favour of the RT code).'),
    'ACL_ERROR_FEATURE_UNSUPPORTED': (200006, 'resource', 'The feature is not supported.'),
    'ACL_ERROR_RT_PARAM_INVALID': (107000, 'caller', 'The runtime rejected an argument.'),
    'ACL_ERROR_RT_INVALID_DEVICEID': (107001, 'caller', 'The device ID is out of range.'),
    'ACL_ERROR_RT_CONTEXT_NULL': (107002, 'caller', 'The calling thread has no current context or device.'),
    'ACL_ERROR_RT_INVALID_HANDLE': (107017, 'caller', 'The runtime or driver was handed an invalid handle or address.'),
    'ACL_ERROR_RT_STREAM_CONTEXT': (107003, 'caller', 'The stream belongs to another context.'),
    'ACL_ERROR_RT_FEATURE_NOT_SUPPORT': (207000, 'resource', 'The product or configuration does not support the feature.'),
    'ACL_ERROR_RT_MEMORY_ALLOCATION': (207001, 'resource', 'The runtime could not allocate memory.'),
    'ACL_ERROR_RT_DRV_INTERNAL_ERROR': (507899, 'internal', 'The driver reported an internal error.'),
    'ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED': (507910, 'internal', 'The host range is already registered.'),
    'ACL_ERROR_HOST_MEMORY_NOT_REGISTERED': (507911, 'internal', 'The host range to unregister was never registered.'),
}
"""Error name → (value, class, meaning)."""

ERROR_NAMES: dict[int, str] = {}
for _name, (_value, _cls, _meaning) in ERRORS.items():
    ERROR_NAMES.setdefault(_value, _name)

ENUMS: dict[str, dict[str, int]] = {
    'aclrtHostRegisterType': {'ACL_HOST_REGISTER_MAPPED': 0, 'ACL_HOST_REGISTER_IOMEMORY': 4, 'ACL_HOST_REGISTER_READONLY': 8},
    'aclrtMallocAttrType': {'ACL_RT_MEM_ATTR_RSV': 0, 'ACL_RT_MEM_ATTR_MODULE_ID': 1, 'ACL_RT_MEM_ATTR_DEVICE_ID': 2, 'ACL_RT_MEM_ATTR_VA_FLAG': 3},
    'aclrtHacType': {'ACL_RT_HAC_TYPE_STARS': 0, 'ACL_RT_HAC_TYPE_AICPU': 1, 'ACL_RT_HAC_TYPE_AIC': 2, 'ACL_RT_HAC_TYPE_AIV': 3, 'ACL_RT_HAC_TYPE_PCIEDMA': 4, 'ACL_RT_HAC_TYPE_RDMA': 5, 'ACL_RT_HAC_TYPE_SDMA': 6, 'ACL_RT_HAC_TYPE_DVPP': 7, 'ACL_RT_HAC_TYPE_UDMA': 8, 'ACL_RT_HAC_TYPE_CCU': 9},
    'aclrtHostMemMapCapability': {'ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED': 0, 'ACL_RT_HOST_MEM_MAP_SUPPORTED': 1},
    'aclrtRunMode': {'ACL_DEVICE': 0, 'ACL_HOST': 1},
    'aclrtStreamStatus': {'ACL_STREAM_STATUS_COMPLETE': 0, 'ACL_STREAM_STATUS_NOT_READY': 1, 'ACL_STREAM_STATUS_RESERVED': 65535},
    'aclrtMemcpyKind': {'ACL_MEMCPY_HOST_TO_HOST': 0, 'ACL_MEMCPY_HOST_TO_DEVICE': 1, 'ACL_MEMCPY_DEVICE_TO_HOST': 2, 'ACL_MEMCPY_DEVICE_TO_DEVICE': 3, 'ACL_MEMCPY_DEFAULT': 4, 'ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE': 5, 'ACL_MEMCPY_INNER_DEVICE_TO_DEVICE': 6, 'ACL_MEMCPY_INTER_DEVICE_TO_DEVICE': 7},
    'aclrtMemMallocPolicy': {'ACL_MEM_MALLOC_HUGE_FIRST': 0, 'ACL_MEM_MALLOC_HUGE_ONLY': 1, 'ACL_MEM_MALLOC_NORMAL_ONLY': 2, 'ACL_MEM_MALLOC_HUGE_FIRST_P2P': 3, 'ACL_MEM_MALLOC_HUGE_ONLY_P2P': 4, 'ACL_MEM_MALLOC_NORMAL_ONLY_P2P': 5, 'ACL_MEM_MALLOC_HUGE1G_ONLY': 6, 'ACL_MEM_MALLOC_HUGE1G_ONLY_P2P': 7, 'ACL_MEM_TYPE_LOW_BAND_WIDTH': 256, 'ACL_MEM_TYPE_HIGH_BAND_WIDTH': 4096, 'ACL_MEM_ACCESS_USER_SPACE_READONLY': 1048576},
}

# Which aclrtMallocAttrValue member each aclrtMallocAttrType selects.
MALLOC_ATTR_FIELDS: dict[int, str] = {
    ACL_RT_MEM_ATTR_MODULE_ID: 'moduleId',
    ACL_RT_MEM_ATTR_DEVICE_ID: 'deviceId',
    ACL_RT_MEM_ATTR_VA_FLAG: 'vaFlag',
}


def error_name(code: int) -> str:
    """Symbolic name of an aclError value, or ``UNKNOWN(<code>)``."""
    return ERROR_NAMES.get(code, f"UNKNOWN({code})")


def error_meaning(code: int) -> str:
    """What an aclError value means, per the spec."""
    name = ERROR_NAMES.get(code)
    return ERRORS[name][2] if name else "not an error code of the spec"


class AclError(Exception):
    """A call returned a non-zero aclError."""

    def __init__(self, function: str, code: int) -> None:
        self.function = function
        self.code = code
        self.name = error_name(code)
        self.meaning = error_meaning(code)
        super().__init__(f"{function} failed: {code} {self.name} ({self.meaning})")


class _OutputCells(_threading.local):
    """The output cells of the calling thread: one per output slot, made on the thread's first call.

    A wrapper clears its cell before the C call (a call that fails without writing reads as
    0 or NULL, as with a fresh cell) and reads it right after the call returns, before
    anything else can run on the thread, so one cell per slot and thread is enough.
    """

    def __init__(self) -> None:
        self.aclrtContext_p0 = ffi.new('aclrtContext *')
        self.aclrtHostMemMapCapability_p0 = ffi.new('aclrtHostMemMapCapability *')
        self.aclrtRunMode_p0 = ffi.new('aclrtRunMode *')
        self.aclrtStreamStatus_p0 = ffi.new('aclrtStreamStatus *')
        self.aclrtStream_p0 = ffi.new('aclrtStream *')
        self.int32_t_p0 = ffi.new('int32_t *')
        self.int32_t_p1 = ffi.new('int32_t *')
        self.int32_t_p2 = ffi.new('int32_t *')
        self.uint32_t_p0 = ffi.new('uint32_t *')
        self.uintptr_t_p0 = ffi.new('uintptr_t *')


_cells = _OutputCells()


def malloc_config(*attrs: tuple[int, int], num_attrs: int | None = None, attrs_null: bool = False) -> MallocConfig:
    """Build an aclrtMallocConfig from (attribute type, value) pairs."""
    return MallocConfig(attrs, MALLOC_ATTR_FIELDS, num_attrs=num_attrs, attrs_null=attrs_null)


class AclLibrary(LibraryBase):
    """An opened ACL library with one wrapper per function of the spec (bound on first call: LibraryBase)."""

    @overload
    def aclrtMallocHost(self, size: int, *, raw: Literal[False] = False) -> int: ...

    @overload
    def aclrtMallocHost(self, size: int, *, raw: Literal[True]) -> tuple[int, int]: ...


    @overload
    def aclrtMallocHost(self, size: int, *, hostPtr: CData | int | Out | None = OUT, raw: bool = False) -> Any: ...

    def aclrtMallocHost(self, size: int, *, hostPtr: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Allocates page-locked host memory whose start is 64-byte aligned. (11-02_host_memory_management.md#aclrtMallocHost)"""
        return self._bind('aclrtMallocHost', _wrap_aclrtMallocHost, 'aclError(*)(uintptr_t *, size_t)')(size, hostPtr=hostPtr, raw=raw)

    @overload
    def aclrtMallocHostWithCfg(self, size: int, cfg: CData | int | None, *, raw: Literal[False] = False) -> int: ...

    @overload
    def aclrtMallocHostWithCfg(self, size: int, cfg: CData | int | None, *, raw: Literal[True]) -> tuple[int, int]: ...


    @overload
    def aclrtMallocHostWithCfg(self, size: int, cfg: CData | int | None, *, ptr: CData | int | Out | None = OUT, raw: bool = False) -> Any: ...

    def aclrtMallocHostWithCfg(self, size: int, cfg: CData | int | None, *, ptr: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Allocates page-locked, 64-byte aligned host memory with optional configuration attributes. (11-02_host_memory_management.md#aclrtMallocHostWithCfg)"""
        return self._bind('aclrtMallocHostWithCfg', _wrap_aclrtMallocHostWithCfg, 'aclError(*)(uintptr_t *, uint64_t, aclrtMallocConfig *)')(size, cfg, ptr=ptr, raw=raw)

    @overload
    def aclrtFreeHost(self, hostPtr: CData | int | None, *, raw: Literal[False] = False) -> None: ...

    @overload
    def aclrtFreeHost(self, hostPtr: CData | int | None, *, raw: Literal[True]) -> int: ...


    @overload
    def aclrtFreeHost(self, hostPtr: CData | int | None, *, raw: bool = False) -> Any: ...

    def aclrtFreeHost(self, hostPtr: CData | int | None, *, raw: bool = False) -> Any:
        """Frees host memory from aclrtMallocHost or aclrtMallocHostWithCfg at once, without any synchronisation. (11-02_host_memory_management.md#aclrtFreeHost)"""
        return self._bind('aclrtFreeHost', _wrap_aclrtFreeHost, 'aclError(*)(uintptr_t)')(hostPtr, raw=raw)

    @overload
    def aclrtFreeHostWithDevSync(self, hostPtr: CData | int | None, *, raw: Literal[False] = False) -> None: ...

    @overload
    def aclrtFreeHostWithDevSync(self, hostPtr: CData | int | None, *, raw: Literal[True]) -> int: ...


    @overload
    def aclrtFreeHostWithDevSync(self, hostPtr: CData | int | None, *, raw: bool = False) -> Any: ...

    def aclrtFreeHostWithDevSync(self, hostPtr: CData | int | None, *, raw: bool = False) -> Any:
        """Synchronises the current device, waits for the tasks that use the memory, then frees it. (11-02_host_memory_management.md#aclrtFreeHostWithDevSync)"""
        return self._bind('aclrtFreeHostWithDevSync', _wrap_aclrtFreeHostWithDevSync, 'aclError(*)(uintptr_t)')(hostPtr, raw=raw)

    @overload
    def aclrtHostRegister(self, ptr: CData | int | None, size: int, type: int, *, raw: Literal[False] = False) -> int: ...

    @overload
    def aclrtHostRegister(self, ptr: CData | int | None, size: int, type: int, *, raw: Literal[True]) -> tuple[int, int]: ...


    @overload
    def aclrtHostRegister(self, ptr: CData | int | None, size: int, type: int, *, devPtr: CData | int | Out | None = OUT, raw: bool = False) -> Any: ...

    def aclrtHostRegister(self, ptr: CData | int | None, size: int, type: int, *, devPtr: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Maps host memory for device access and returns the device address of the mapping. (11-02_host_memory_management.md#aclrtHostRegister)"""
        return self._bind('aclrtHostRegister', _wrap_aclrtHostRegister, 'aclError(*)(uintptr_t, uint64_t, aclrtHostRegisterType, uintptr_t *)')(ptr, size, type, devPtr=devPtr, raw=raw)

    @overload
    def aclrtHostRegisterV2(self, ptr: CData | int | None, size: int, flag: int, *, raw: Literal[False] = False) -> None: ...

    @overload
    def aclrtHostRegisterV2(self, ptr: CData | int | None, size: int, flag: int, *, raw: Literal[True]) -> int: ...


    @overload
    def aclrtHostRegisterV2(self, ptr: CData | int | None, size: int, flag: int, *, raw: bool = False) -> Any: ...

    def aclrtHostRegisterV2(self, ptr: CData | int | None, size: int, flag: int, *, raw: bool = False) -> Any:
        """Registers host memory with a set of ACL_HOST_REG_* flags. (11-02_host_memory_management.md#aclrtHostRegisterV2)"""
        return self._bind('aclrtHostRegisterV2', _wrap_aclrtHostRegisterV2, 'aclError(*)(uintptr_t, uint64_t, uint32_t)')(ptr, size, flag, raw=raw)

    @overload
    def aclrtHostGetDevicePointer(self, pHost: CData | int | None, flag: int, *, raw: Literal[False] = False) -> int: ...

    @overload
    def aclrtHostGetDevicePointer(self, pHost: CData | int | None, flag: int, *, raw: Literal[True]) -> tuple[int, int]: ...


    @overload
    def aclrtHostGetDevicePointer(self, pHost: CData | int | None, flag: int, *, pDevice: CData | int | Out | None = OUT, raw: bool = False) -> Any: ...

    def aclrtHostGetDevicePointer(self, pHost: CData | int | None, flag: int, *, pDevice: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Returns the device address of host memory registered with aclrtHostRegister or aclrtHostRegisterV2. (11-02_host_memory_management.md#aclrtHostGetDevicePointer)"""
        return self._bind('aclrtHostGetDevicePointer', _wrap_aclrtHostGetDevicePointer, 'aclError(*)(uintptr_t, uintptr_t *, uint32_t)')(pHost, flag, pDevice=pDevice, raw=raw)

    @overload
    def aclrtHostMemMapCapabilities(self, deviceId: int, hacType: int, *, raw: Literal[False] = False) -> int: ...

    @overload
    def aclrtHostMemMapCapabilities(self, deviceId: int, hacType: int, *, raw: Literal[True]) -> tuple[int, int]: ...


    @overload
    def aclrtHostMemMapCapabilities(self, deviceId: int, hacType: int, *, capabilities: CData | int | Out | None = OUT, raw: bool = False) -> Any: ...

    def aclrtHostMemMapCapabilities(self, deviceId: int, hacType: int, *, capabilities: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Tells whether a hardware accelerator of a device can access registered host memory. (11-02_host_memory_management.md#aclrtHostMemMapCapabilities)"""
        return self._bind('aclrtHostMemMapCapabilities', _wrap_aclrtHostMemMapCapabilities, 'aclError(*)(uint32_t, aclrtHacType, aclrtHostMemMapCapability *)')(deviceId, hacType, capabilities=capabilities, raw=raw)

    @overload
    def aclrtHostUnregister(self, ptr: CData | int | None, *, raw: Literal[False] = False) -> None: ...

    @overload
    def aclrtHostUnregister(self, ptr: CData | int | None, *, raw: Literal[True]) -> int: ...


    @overload
    def aclrtHostUnregister(self, ptr: CData | int | None, *, raw: bool = False) -> Any: ...

    def aclrtHostUnregister(self, ptr: CData | int | None, *, raw: bool = False) -> Any:
        """Removes a registration made by aclrtHostRegister or aclrtHostRegisterV2. (11-02_host_memory_management.md#aclrtHostUnregister)"""
        return self._bind('aclrtHostUnregister', _wrap_aclrtHostUnregister, 'aclError(*)(uintptr_t)')(ptr, raw=raw)

    @overload
    def aclInit(self, configPath: str | bytes | None, *, raw: Literal[False] = False) -> None: ...

    @overload
    def aclInit(self, configPath: str | bytes | None, *, raw: Literal[True]) -> int: ...


    @overload
    def aclInit(self, configPath: str | bytes | None, *, raw: bool = False) -> Any: ...

    def aclInit(self, configPath: str | bytes | None, *, raw: bool = False) -> Any:
        """Initialises the runtime; configPath may be NULL. (02_initialization_and_deinitialization.md#aclInit)"""
        return self._bind('aclInit', _wrap_aclInit, 'aclError(*)(const char *)')(configPath, raw=raw)

    @overload
    def aclFinalize(self, *, raw: Literal[False] = False) -> None: ...

    @overload
    def aclFinalize(self, *, raw: Literal[True]) -> int: ...


    @overload
    def aclFinalize(self, *, raw: bool = False) -> Any: ...

    def aclFinalize(self, *, raw: bool = False) -> Any:
        """Releases the runtime. (02_initialization_and_deinitialization.md#aclFinalize)"""
        return self._bind('aclFinalize', _wrap_aclFinalize, 'aclError(*)(void)')(raw=raw)

    @overload
    def aclrtSetDevice(self, deviceId: int, *, raw: Literal[False] = False) -> None: ...

    @overload
    def aclrtSetDevice(self, deviceId: int, *, raw: Literal[True]) -> int: ...


    @overload
    def aclrtSetDevice(self, deviceId: int, *, raw: bool = False) -> Any: ...

    def aclrtSetDevice(self, deviceId: int, *, raw: bool = False) -> Any:
        """Makes a device current for the calling thread. (04_device_management.md#aclrtSetDevice)"""
        return self._bind('aclrtSetDevice', _wrap_aclrtSetDevice, 'aclError(*)(int32_t)')(deviceId, raw=raw)

    @overload
    def aclrtResetDevice(self, deviceId: int, *, raw: Literal[False] = False) -> None: ...

    @overload
    def aclrtResetDevice(self, deviceId: int, *, raw: Literal[True]) -> int: ...


    @overload
    def aclrtResetDevice(self, deviceId: int, *, raw: bool = False) -> Any: ...

    def aclrtResetDevice(self, deviceId: int, *, raw: bool = False) -> Any:
        """Drops one reference to a device; at zero its default context, default stream and the streams created in it are released (after their tasks finish). (04_device_management.md#aclrtResetDevice)"""
        return self._bind('aclrtResetDevice', _wrap_aclrtResetDevice, 'aclError(*)(int32_t)')(deviceId, raw=raw)

    @overload
    def aclrtResetDeviceForce(self, deviceId: int, *, raw: Literal[False] = False) -> None: ...

    @overload
    def aclrtResetDeviceForce(self, deviceId: int, *, raw: Literal[True]) -> int: ...


    @overload
    def aclrtResetDeviceForce(self, deviceId: int, *, raw: bool = False) -> Any: ...

    def aclrtResetDeviceForce(self, deviceId: int, *, raw: bool = False) -> Any:
        """Releases a device's resources at once whatever its reference count; a second forced reset of the released device fails. (04_device_management.md#aclrtResetDeviceForce)"""
        return self._bind('aclrtResetDeviceForce', _wrap_aclrtResetDeviceForce, 'aclError(*)(int32_t)')(deviceId, raw=raw)

    @overload
    def aclrtGetDevice(self, *, raw: Literal[False] = False) -> int: ...

    @overload
    def aclrtGetDevice(self, *, raw: Literal[True]) -> tuple[int, int]: ...


    @overload
    def aclrtGetDevice(self, *, deviceId: CData | int | Out | None = OUT, raw: bool = False) -> Any: ...

    def aclrtGetDevice(self, *, deviceId: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Reports the device of the calling thread's current context; fails when no device was set. (04_device_management.md#aclrtGetDevice)"""
        return self._bind('aclrtGetDevice', _wrap_aclrtGetDevice, 'aclError(*)(int32_t *)')(deviceId=deviceId, raw=raw)

    @overload
    def aclrtGetRunMode(self, *, raw: Literal[False] = False) -> int: ...

    @overload
    def aclrtGetRunMode(self, *, raw: Literal[True]) -> tuple[int, int]: ...


    @overload
    def aclrtGetRunMode(self, *, runMode: CData | int | Out | None = OUT, raw: bool = False) -> Any: ...

    def aclrtGetRunMode(self, *, runMode: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Reports where the software stack runs - ACL_HOST (EP form) or ACL_DEVICE (RC / Control-CPU-open form). (04_device_management.md#aclrtGetRunMode)"""
        return self._bind('aclrtGetRunMode', _wrap_aclrtGetRunMode, 'aclError(*)(aclrtRunMode *)')(runMode=runMode, raw=raw)

    @overload
    def aclrtCreateContext(self, deviceId: int, *, raw: Literal[False] = False) -> CData: ...

    @overload
    def aclrtCreateContext(self, deviceId: int, *, raw: Literal[True]) -> tuple[int, CData]: ...


    @overload
    def aclrtCreateContext(self, deviceId: int, *, context: CData | int | Out | None = OUT, raw: bool = False) -> Any: ...

    def aclrtCreateContext(self, deviceId: int, *, context: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Creates a context on a device and makes it the calling thread's current context. (05_context_management.md#aclrtCreateContext)"""
        return self._bind('aclrtCreateContext', _wrap_aclrtCreateContext, 'aclError(*)(aclrtContext *, int32_t)')(deviceId, context=context, raw=raw)

    @overload
    def aclrtDestroyContext(self, context: CData | int | None, *, raw: Literal[False] = False) -> None: ...

    @overload
    def aclrtDestroyContext(self, context: CData | int | None, *, raw: Literal[True]) -> int: ...


    @overload
    def aclrtDestroyContext(self, context: CData | int | None, *, raw: bool = False) -> Any: ...

    def aclrtDestroyContext(self, context: CData | int | None, *, raw: bool = False) -> Any:
        """Destroys a context created by aclrtCreateContext; a thread whose current context it was has none afterwards. (05_context_management.md#aclrtDestroyContext)"""
        return self._bind('aclrtDestroyContext', _wrap_aclrtDestroyContext, 'aclError(*)(aclrtContext)')(context, raw=raw)

    @overload
    def aclrtSetCurrentContext(self, context: CData | int | None, *, raw: Literal[False] = False) -> None: ...

    @overload
    def aclrtSetCurrentContext(self, context: CData | int | None, *, raw: Literal[True]) -> int: ...


    @overload
    def aclrtSetCurrentContext(self, context: CData | int | None, *, raw: bool = False) -> Any: ...

    def aclrtSetCurrentContext(self, context: CData | int | None, *, raw: bool = False) -> Any:
        """Makes a context the calling thread's current context (the last call wins). (05_context_management.md#aclrtSetCurrentContext)"""
        return self._bind('aclrtSetCurrentContext', _wrap_aclrtSetCurrentContext, 'aclError(*)(aclrtContext)')(context, raw=raw)

    @overload
    def aclrtGetCurrentContext(self, *, raw: Literal[False] = False) -> CData: ...

    @overload
    def aclrtGetCurrentContext(self, *, raw: Literal[True]) -> tuple[int, CData]: ...


    @overload
    def aclrtGetCurrentContext(self, *, context: CData | int | Out | None = OUT, raw: bool = False) -> Any: ...

    def aclrtGetCurrentContext(self, *, context: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Reports the calling thread's current context. (05_context_management.md#aclrtGetCurrentContext)"""
        return self._bind('aclrtGetCurrentContext', _wrap_aclrtGetCurrentContext, 'aclError(*)(aclrtContext *)')(context=context, raw=raw)

    @overload
    def aclrtGetDeviceCount(self, *, raw: Literal[False] = False) -> int: ...

    @overload
    def aclrtGetDeviceCount(self, *, raw: Literal[True]) -> tuple[int, int]: ...


    @overload
    def aclrtGetDeviceCount(self, *, count: CData | int | Out | None = OUT, raw: bool = False) -> Any: ...

    def aclrtGetDeviceCount(self, *, count: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Reports the number of usable devices. (04_device_management.md#aclrtGetDeviceCount)"""
        return self._bind('aclrtGetDeviceCount', _wrap_aclrtGetDeviceCount, 'aclError(*)(uint32_t *)')(count=count, raw=raw)

    def aclrtGetSocName(self) -> Any:
        """Returns the SoC name of the current product, or NULL on failure. (04_device_management.md#aclrtGetSocName)"""
        return self._bind('aclrtGetSocName', _wrap_aclrtGetSocName, 'const char *(*)(void)')()

    @overload
    def aclrtCreateStream(self, *, raw: Literal[False] = False) -> CData: ...

    @overload
    def aclrtCreateStream(self, *, raw: Literal[True]) -> tuple[int, CData]: ...


    @overload
    def aclrtCreateStream(self, *, stream: CData | int | Out | None = OUT, raw: bool = False) -> Any: ...

    def aclrtCreateStream(self, *, stream: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Creates a stream on the current device. (06_stream_management.md#aclrtCreateStream)"""
        return self._bind('aclrtCreateStream', _wrap_aclrtCreateStream, 'aclError(*)(aclrtStream *)')(stream=stream, raw=raw)

    @overload
    def aclrtDestroyStream(self, stream: CData | int | None, *, raw: Literal[False] = False) -> None: ...

    @overload
    def aclrtDestroyStream(self, stream: CData | int | None, *, raw: Literal[True]) -> int: ...


    @overload
    def aclrtDestroyStream(self, stream: CData | int | None, *, raw: bool = False) -> Any: ...

    def aclrtDestroyStream(self, stream: CData | int | None, *, raw: bool = False) -> Any:
        """Destroys a stream. (06_stream_management.md#aclrtDestroyStream)"""
        return self._bind('aclrtDestroyStream', _wrap_aclrtDestroyStream, 'aclError(*)(aclrtStream)')(stream, raw=raw)

    @overload
    def aclrtDestroyStreamForce(self, stream: CData | int | None, *, raw: Literal[False] = False) -> None: ...

    @overload
    def aclrtDestroyStreamForce(self, stream: CData | int | None, *, raw: Literal[True]) -> int: ...


    @overload
    def aclrtDestroyStreamForce(self, stream: CData | int | None, *, raw: bool = False) -> Any: ...

    def aclrtDestroyStreamForce(self, stream: CData | int | None, *, raw: bool = False) -> Any:
        """Destroys a stream at once, without waiting for its unfinished tasks. (06_stream_management.md#aclrtDestroyStreamForce)"""
        return self._bind('aclrtDestroyStreamForce', _wrap_aclrtDestroyStreamForce, 'aclError(*)(aclrtStream)')(stream, raw=raw)

    @overload
    def aclrtSynchronizeStream(self, stream: CData | int | None, *, raw: Literal[False] = False) -> None: ...

    @overload
    def aclrtSynchronizeStream(self, stream: CData | int | None, *, raw: Literal[True]) -> int: ...


    @overload
    def aclrtSynchronizeStream(self, stream: CData | int | None, *, raw: bool = False) -> Any: ...

    def aclrtSynchronizeStream(self, stream: CData | int | None, *, raw: bool = False) -> Any:
        """Waits until every task of a stream has finished. (06_stream_management.md#aclrtSynchronizeStream)"""
        return self._bind('aclrtSynchronizeStream', _wrap_aclrtSynchronizeStream, 'aclError(*)(aclrtStream)')(stream, raw=raw)

    @overload
    def aclrtSynchronizeDevice(self, *, raw: Literal[False] = False) -> None: ...

    @overload
    def aclrtSynchronizeDevice(self, *, raw: Literal[True]) -> int: ...


    @overload
    def aclrtSynchronizeDevice(self, *, raw: bool = False) -> Any: ...

    def aclrtSynchronizeDevice(self, *, raw: bool = False) -> Any:
        """Waits until every task of the current device has finished. (04_device_management.md#aclrtSynchronizeDevice)"""
        return self._bind('aclrtSynchronizeDevice', _wrap_aclrtSynchronizeDevice, 'aclError(*)(void)')(raw=raw)

    @overload
    def aclrtStreamQuery(self, stream: CData | int | None, *, raw: Literal[False] = False) -> int: ...

    @overload
    def aclrtStreamQuery(self, stream: CData | int | None, *, raw: Literal[True]) -> tuple[int, int]: ...


    @overload
    def aclrtStreamQuery(self, stream: CData | int | None, *, status: CData | int | Out | None = OUT, raw: bool = False) -> Any: ...

    def aclrtStreamQuery(self, stream: CData | int | None, *, status: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Reports whether a stream still has pending tasks. (06_stream_management.md#aclrtStreamQuery)"""
        return self._bind('aclrtStreamQuery', _wrap_aclrtStreamQuery, 'aclError(*)(aclrtStream, aclrtStreamStatus *)')(stream, status=status, raw=raw)

    @overload
    def aclrtMalloc(self, size: int, policy: int, *, raw: Literal[False] = False) -> int: ...

    @overload
    def aclrtMalloc(self, size: int, policy: int, *, raw: Literal[True]) -> tuple[int, int]: ...


    @overload
    def aclrtMalloc(self, size: int, policy: int, *, devPtr: CData | int | Out | None = OUT, raw: bool = False) -> Any: ...

    def aclrtMalloc(self, size: int, policy: int, *, devPtr: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Allocates device memory. (11-01_device_memory_malloc_and_free.md#aclrtMalloc)"""
        return self._bind('aclrtMalloc', _wrap_aclrtMalloc, 'aclError(*)(uintptr_t *, size_t, aclrtMemMallocPolicy)')(size, policy, devPtr=devPtr, raw=raw)

    @overload
    def aclrtFree(self, devPtr: CData | int | None, *, raw: Literal[False] = False) -> None: ...

    @overload
    def aclrtFree(self, devPtr: CData | int | None, *, raw: Literal[True]) -> int: ...


    @overload
    def aclrtFree(self, devPtr: CData | int | None, *, raw: bool = False) -> Any: ...

    def aclrtFree(self, devPtr: CData | int | None, *, raw: bool = False) -> Any:
        """Frees device memory. (11-01_device_memory_malloc_and_free.md#aclrtFree)"""
        return self._bind('aclrtFree', _wrap_aclrtFree, 'aclError(*)(uintptr_t)')(devPtr, raw=raw)

    @overload
    def aclrtMemset(self, devPtr: CData | int | None, maxCount: int, value: int, count: int, *, raw: Literal[False] = False) -> None: ...

    @overload
    def aclrtMemset(self, devPtr: CData | int | None, maxCount: int, value: int, count: int, *, raw: Literal[True]) -> int: ...


    @overload
    def aclrtMemset(self, devPtr: CData | int | None, maxCount: int, value: int, count: int, *, raw: bool = False) -> Any: ...

    def aclrtMemset(self, devPtr: CData | int | None, maxCount: int, value: int, count: int, *, raw: bool = False) -> Any:
        """Sets count bytes of memory to a value, synchronously. (11-03_memory_copy_and_set.md#aclrtMemset)"""
        return self._bind('aclrtMemset', _wrap_aclrtMemset, 'aclError(*)(uintptr_t, size_t, int32_t, size_t)')(devPtr, maxCount, value, count, raw=raw)

    @overload
    def aclrtMemcpy(self, dst: CData | int | None, destMax: int, src: CData | int | None, count: int, kind: int, *, raw: Literal[False] = False) -> None: ...

    @overload
    def aclrtMemcpy(self, dst: CData | int | None, destMax: int, src: CData | int | None, count: int, kind: int, *, raw: Literal[True]) -> int: ...


    @overload
    def aclrtMemcpy(self, dst: CData | int | None, destMax: int, src: CData | int | None, count: int, kind: int, *, raw: bool = False) -> Any: ...

    def aclrtMemcpy(self, dst: CData | int | None, destMax: int, src: CData | int | None, count: int, kind: int, *, raw: bool = False) -> Any:
        """Copies memory synchronously. (11-03_memory_copy_and_set.md#aclrtMemcpy)"""
        return self._bind('aclrtMemcpy', _wrap_aclrtMemcpy, 'aclError(*)(uintptr_t, size_t, uintptr_t, size_t, aclrtMemcpyKind)')(dst, destMax, src, count, kind, raw=raw)

    @overload
    def aclrtMemcpyAsync(self, dst: CData | int | None, destMax: int, src: CData | int | None, count: int, kind: int, stream: CData | int | None, *, raw: Literal[False] = False) -> None: ...

    @overload
    def aclrtMemcpyAsync(self, dst: CData | int | None, destMax: int, src: CData | int | None, count: int, kind: int, stream: CData | int | None, *, raw: Literal[True]) -> int: ...


    @overload
    def aclrtMemcpyAsync(self, dst: CData | int | None, destMax: int, src: CData | int | None, count: int, kind: int, stream: CData | int | None, *, raw: bool = False) -> Any: ...

    def aclrtMemcpyAsync(self, dst: CData | int | None, destMax: int, src: CData | int | None, count: int, kind: int, stream: CData | int | None, *, raw: bool = False) -> Any:
        """Queues a memory copy on a stream. (11-03_memory_copy_and_set.md#aclrtMemcpyAsync)"""
        return self._bind('aclrtMemcpyAsync', _wrap_aclrtMemcpyAsync, 'aclError(*)(uintptr_t, size_t, uintptr_t, size_t, aclrtMemcpyKind, aclrtStream)')(dst, destMax, src, count, kind, stream, raw=raw)

    @overload
    def aclrtLaunchHostFunc(self, stream: CData | int | None, fn: CData | int | None, args: CData | int | None, *, raw: Literal[False] = False) -> None: ...

    @overload
    def aclrtLaunchHostFunc(self, stream: CData | int | None, fn: CData | int | None, args: CData | int | None, *, raw: Literal[True]) -> int: ...


    @overload
    def aclrtLaunchHostFunc(self, stream: CData | int | None, fn: CData | int | None, args: CData | int | None, *, raw: bool = False) -> Any: ...

    def aclrtLaunchHostFunc(self, stream: CData | int | None, fn: CData | int | None, args: CData | int | None, *, raw: bool = False) -> Any:
        """Queues a host callback on a stream; it blocks later tasks of the stream until it returns. (12_execution_control.md#aclrtLaunchHostFunc)"""
        return self._bind('aclrtLaunchHostFunc', _wrap_aclrtLaunchHostFunc, 'aclError(*)(aclrtStream, aclrtHostFunc, uintptr_t)')(stream, fn, args, raw=raw)

    @overload
    def aclsysGetVersionStr(self, pkgName: str | bytes | None, *, raw: Literal[False] = False) -> str: ...

    @overload
    def aclsysGetVersionStr(self, pkgName: str | bytes | None, *, raw: Literal[True]) -> tuple[int, str]: ...


    @overload
    def aclsysGetVersionStr(self, pkgName: str | bytes | None, *, versionStr: CData | int | Out | None = OUT, raw: bool = False) -> Any: ...

    def aclsysGetVersionStr(self, pkgName: str | bytes | None, *, versionStr: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Reports the version string of an installed package (e.g. \"runtime\", \"driver\"). (24_other_APIs.md#aclsysGetVersionStr)"""
        return self._bind('aclsysGetVersionStr', _wrap_aclsysGetVersionStr, 'aclError(*)(char *, char *)')(pkgName, versionStr=versionStr, raw=raw)

    @overload
    def aclrtGetVersion(self, *, raw: Literal[False] = False) -> tuple[int, int, int]: ...

    @overload
    def aclrtGetVersion(self, *, raw: Literal[True]) -> tuple[int, int, int, int]: ...


    @overload
    def aclrtGetVersion(self, *, majorVersion: CData | int | Out | None = OUT, minorVersion: CData | int | Out | None = OUT, patchVersion: CData | int | Out | None = OUT, raw: bool = False) -> Any: ...

    def aclrtGetVersion(self, *, majorVersion: CData | int | Out | None = OUT, minorVersion: CData | int | Out | None = OUT, patchVersion: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Reports the ACL API version (deprecated); the harness's fallback when aclsysGetVersionStr fails. (24_other_APIs.md#aclrtGetVersion_deprecated)"""
        return self._bind('aclrtGetVersion', _wrap_aclrtGetVersion, 'aclError(*)(int32_t *, int32_t *, int32_t *)')(majorVersion=majorVersion, minorVersion=minorVersion, patchVersion=patchVersion, raw=raw)


def _wrap_aclrtMallocHost(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    _mine = _cells
    _OUT = OUT

    def aclrtMallocHost(size: int, *, hostPtr: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Allocates page-locked host memory whose start is 64-byte aligned. (11-02_host_memory_management.md#aclrtMallocHost)"""
        if hostPtr is _OUT:
            c_hostPtr = _mine.uintptr_t_p0
            c_hostPtr[0] = 0
        else:
            c_hostPtr = _cell_arg(hostPtr, 'uintptr_t *')
        _rc = _call(c_hostPtr, size)
        _out_hostPtr = c_hostPtr[0] if hostPtr is _OUT else None
        if _hook is not None:
            _hook('aclrtMallocHost', {'hostPtr': hostPtr, 'size': size}, _rc)
        if raw:
            return _rc, _out_hostPtr
        if _rc:
            raise AclError('aclrtMallocHost', _rc)
        return _out_hostPtr

    return aclrtMallocHost


def _wrap_aclrtMallocHostWithCfg(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    _mine = _cells
    _OUT = OUT

    def aclrtMallocHostWithCfg(size: int, cfg: CData | int | None, *, ptr: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Allocates page-locked, 64-byte aligned host memory with optional configuration attributes. (11-02_host_memory_management.md#aclrtMallocHostWithCfg)"""
        if ptr is _OUT:
            c_ptr = _mine.uintptr_t_p0
            c_ptr[0] = 0
        else:
            c_ptr = _cell_arg(ptr, 'uintptr_t *')
        c_cfg = cfg if cfg is not None and cfg.__class__ is not int else _ptr(cfg, 'aclrtMallocConfig *')
        _rc = _call(c_ptr, size, c_cfg)
        _out_ptr = c_ptr[0] if ptr is _OUT else None
        if _hook is not None:
            _hook('aclrtMallocHostWithCfg', {'ptr': ptr, 'size': size, 'cfg': cfg}, _rc)
        if raw:
            return _rc, _out_ptr
        if _rc:
            raise AclError('aclrtMallocHostWithCfg', _rc)
        return _out_ptr

    return aclrtMallocHostWithCfg


def _wrap_aclrtFreeHost(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    def aclrtFreeHost(hostPtr: CData | int | None, *, raw: bool = False) -> Any:
        """Frees host memory from aclrtMallocHost or aclrtMallocHostWithCfg at once, without any synchronisation. (11-02_host_memory_management.md#aclrtFreeHost)"""
        c_hostPtr = hostPtr if hostPtr.__class__ is int else _address_arg(hostPtr)
        _rc = _call(c_hostPtr)
        if _hook is not None:
            _hook('aclrtFreeHost', {'hostPtr': hostPtr}, _rc)
        if raw:
            return _rc
        if _rc:
            raise AclError('aclrtFreeHost', _rc)
        return None

    return aclrtFreeHost


def _wrap_aclrtFreeHostWithDevSync(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    def aclrtFreeHostWithDevSync(hostPtr: CData | int | None, *, raw: bool = False) -> Any:
        """Synchronises the current device, waits for the tasks that use the memory, then frees it. (11-02_host_memory_management.md#aclrtFreeHostWithDevSync)"""
        c_hostPtr = hostPtr if hostPtr.__class__ is int else _address_arg(hostPtr)
        _rc = _call(c_hostPtr)
        if _hook is not None:
            _hook('aclrtFreeHostWithDevSync', {'hostPtr': hostPtr}, _rc)
        if raw:
            return _rc
        if _rc:
            raise AclError('aclrtFreeHostWithDevSync', _rc)
        return None

    return aclrtFreeHostWithDevSync


def _wrap_aclrtHostRegister(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    _mine = _cells
    _OUT = OUT

    def aclrtHostRegister(ptr: CData | int | None, size: int, type: int, *, devPtr: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Maps host memory for device access and returns the device address of the mapping. (11-02_host_memory_management.md#aclrtHostRegister)"""
        c_ptr = ptr if ptr.__class__ is int else _address_arg(ptr)
        if devPtr is _OUT:
            c_devPtr = _mine.uintptr_t_p0
            c_devPtr[0] = 0
        else:
            c_devPtr = _cell_arg(devPtr, 'uintptr_t *')
        _rc = _call(c_ptr, size, type, c_devPtr)
        _out_devPtr = c_devPtr[0] if devPtr is _OUT else None
        if _hook is not None:
            _hook('aclrtHostRegister', {'ptr': ptr, 'size': size, 'type': type, 'devPtr': devPtr}, _rc)
        if raw:
            return _rc, _out_devPtr
        if _rc:
            raise AclError('aclrtHostRegister', _rc)
        return _out_devPtr

    return aclrtHostRegister


def _wrap_aclrtHostRegisterV2(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    def aclrtHostRegisterV2(ptr: CData | int | None, size: int, flag: int, *, raw: bool = False) -> Any:
        """Registers host memory with a set of ACL_HOST_REG_* flags. (11-02_host_memory_management.md#aclrtHostRegisterV2)"""
        c_ptr = ptr if ptr.__class__ is int else _address_arg(ptr)
        _rc = _call(c_ptr, size, flag)
        if _hook is not None:
            _hook('aclrtHostRegisterV2', {'ptr': ptr, 'size': size, 'flag': flag}, _rc)
        if raw:
            return _rc
        if _rc:
            raise AclError('aclrtHostRegisterV2', _rc)
        return None

    return aclrtHostRegisterV2


def _wrap_aclrtHostGetDevicePointer(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    _mine = _cells
    _OUT = OUT

    def aclrtHostGetDevicePointer(pHost: CData | int | None, flag: int, *, pDevice: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Returns the device address of host memory registered with aclrtHostRegister or aclrtHostRegisterV2. (11-02_host_memory_management.md#aclrtHostGetDevicePointer)"""
        c_pHost = pHost if pHost.__class__ is int else _address_arg(pHost)
        if pDevice is _OUT:
            c_pDevice = _mine.uintptr_t_p0
            c_pDevice[0] = 0
        else:
            c_pDevice = _cell_arg(pDevice, 'uintptr_t *')
        _rc = _call(c_pHost, c_pDevice, flag)
        _out_pDevice = c_pDevice[0] if pDevice is _OUT else None
        if _hook is not None:
            _hook('aclrtHostGetDevicePointer', {'pHost': pHost, 'pDevice': pDevice, 'flag': flag}, _rc)
        if raw:
            return _rc, _out_pDevice
        if _rc:
            raise AclError('aclrtHostGetDevicePointer', _rc)
        return _out_pDevice

    return aclrtHostGetDevicePointer


def _wrap_aclrtHostMemMapCapabilities(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    _mine = _cells
    _OUT = OUT

    def aclrtHostMemMapCapabilities(deviceId: int, hacType: int, *, capabilities: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Tells whether a hardware accelerator of a device can access registered host memory. (11-02_host_memory_management.md#aclrtHostMemMapCapabilities)"""
        if capabilities is _OUT:
            c_capabilities = _mine.aclrtHostMemMapCapability_p0
            c_capabilities[0] = 0
        else:
            c_capabilities = _cell_arg(capabilities, 'aclrtHostMemMapCapability *')
        _rc = _call(deviceId, hacType, c_capabilities)
        _out_capabilities = c_capabilities[0] if capabilities is _OUT else None
        if _hook is not None:
            _hook('aclrtHostMemMapCapabilities', {'deviceId': deviceId, 'hacType': hacType, 'capabilities': capabilities}, _rc)
        if raw:
            return _rc, _out_capabilities
        if _rc:
            raise AclError('aclrtHostMemMapCapabilities', _rc)
        return _out_capabilities

    return aclrtHostMemMapCapabilities


def _wrap_aclrtHostUnregister(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    def aclrtHostUnregister(ptr: CData | int | None, *, raw: bool = False) -> Any:
        """Removes a registration made by aclrtHostRegister or aclrtHostRegisterV2. (11-02_host_memory_management.md#aclrtHostUnregister)"""
        c_ptr = ptr if ptr.__class__ is int else _address_arg(ptr)
        _rc = _call(c_ptr)
        if _hook is not None:
            _hook('aclrtHostUnregister', {'ptr': ptr}, _rc)
        if raw:
            return _rc
        if _rc:
            raise AclError('aclrtHostUnregister', _rc)
        return None

    return aclrtHostUnregister


def _wrap_aclInit(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    def aclInit(configPath: str | bytes | None, *, raw: bool = False) -> Any:
        """Initialises the runtime; configPath may be NULL. (02_initialization_and_deinitialization.md#aclInit)"""
        c_configPath = _cstr(configPath)
        _rc = _call(c_configPath)
        if _hook is not None:
            _hook('aclInit', {'configPath': configPath}, _rc)
        if raw:
            return _rc
        if _rc:
            raise AclError('aclInit', _rc)
        return None

    return aclInit


def _wrap_aclFinalize(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    def aclFinalize(*, raw: bool = False) -> Any:
        """Releases the runtime. (02_initialization_and_deinitialization.md#aclFinalize)"""
        _rc = _call()
        if _hook is not None:
            _hook('aclFinalize', {}, _rc)
        if raw:
            return _rc
        if _rc:
            raise AclError('aclFinalize', _rc)
        return None

    return aclFinalize


def _wrap_aclrtSetDevice(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    def aclrtSetDevice(deviceId: int, *, raw: bool = False) -> Any:
        """Makes a device current for the calling thread. (04_device_management.md#aclrtSetDevice)"""
        _rc = _call(deviceId)
        if _hook is not None:
            _hook('aclrtSetDevice', {'deviceId': deviceId}, _rc)
        if raw:
            return _rc
        if _rc:
            raise AclError('aclrtSetDevice', _rc)
        return None

    return aclrtSetDevice


def _wrap_aclrtResetDevice(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    def aclrtResetDevice(deviceId: int, *, raw: bool = False) -> Any:
        """Drops one reference to a device; at zero its default context, default stream and the streams created in it are released (after their tasks finish). (04_device_management.md#aclrtResetDevice)"""
        _rc = _call(deviceId)
        if _hook is not None:
            _hook('aclrtResetDevice', {'deviceId': deviceId}, _rc)
        if raw:
            return _rc
        if _rc:
            raise AclError('aclrtResetDevice', _rc)
        return None

    return aclrtResetDevice


def _wrap_aclrtResetDeviceForce(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    def aclrtResetDeviceForce(deviceId: int, *, raw: bool = False) -> Any:
        """Releases a device's resources at once whatever its reference count; a second forced reset of the released device fails. (04_device_management.md#aclrtResetDeviceForce)"""
        _rc = _call(deviceId)
        if _hook is not None:
            _hook('aclrtResetDeviceForce', {'deviceId': deviceId}, _rc)
        if raw:
            return _rc
        if _rc:
            raise AclError('aclrtResetDeviceForce', _rc)
        return None

    return aclrtResetDeviceForce


def _wrap_aclrtGetDevice(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    _mine = _cells
    _OUT = OUT

    def aclrtGetDevice(*, deviceId: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Reports the device of the calling thread's current context; fails when no device was set. (04_device_management.md#aclrtGetDevice)"""
        if deviceId is _OUT:
            c_deviceId = _mine.int32_t_p0
            c_deviceId[0] = 0
        else:
            c_deviceId = _cell_arg(deviceId, 'int32_t *')
        _rc = _call(c_deviceId)
        _out_deviceId = c_deviceId[0] if deviceId is _OUT else None
        if _hook is not None:
            _hook('aclrtGetDevice', {'deviceId': deviceId}, _rc)
        if raw:
            return _rc, _out_deviceId
        if _rc:
            raise AclError('aclrtGetDevice', _rc)
        return _out_deviceId

    return aclrtGetDevice


def _wrap_aclrtGetRunMode(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    _mine = _cells
    _OUT = OUT

    def aclrtGetRunMode(*, runMode: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Reports where the software stack runs - ACL_HOST (EP form) or ACL_DEVICE (RC / Control-CPU-open form). (04_device_management.md#aclrtGetRunMode)"""
        if runMode is _OUT:
            c_runMode = _mine.aclrtRunMode_p0
            c_runMode[0] = 0
        else:
            c_runMode = _cell_arg(runMode, 'aclrtRunMode *')
        _rc = _call(c_runMode)
        _out_runMode = c_runMode[0] if runMode is _OUT else None
        if _hook is not None:
            _hook('aclrtGetRunMode', {'runMode': runMode}, _rc)
        if raw:
            return _rc, _out_runMode
        if _rc:
            raise AclError('aclrtGetRunMode', _rc)
        return _out_runMode

    return aclrtGetRunMode


def _wrap_aclrtCreateContext(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    _mine = _cells
    _OUT = OUT

    def aclrtCreateContext(deviceId: int, *, context: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Creates a context on a device and makes it the calling thread's current context. (05_context_management.md#aclrtCreateContext)"""
        if context is _OUT:
            c_context = _mine.aclrtContext_p0
            c_context[0] = ffi.NULL
        else:
            c_context = _cell_arg(context, 'aclrtContext *')
        _rc = _call(c_context, deviceId)
        _out_context = c_context[0] if context is _OUT else None
        if _hook is not None:
            _hook('aclrtCreateContext', {'context': context, 'deviceId': deviceId}, _rc)
        if raw:
            return _rc, _out_context
        if _rc:
            raise AclError('aclrtCreateContext', _rc)
        return _out_context

    return aclrtCreateContext


def _wrap_aclrtDestroyContext(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    def aclrtDestroyContext(context: CData | int | None, *, raw: bool = False) -> Any:
        """Destroys a context created by aclrtCreateContext; a thread whose current context it was has none afterwards. (05_context_management.md#aclrtDestroyContext)"""
        c_context = context if context is not None and context.__class__ is not int else _ptr(context, 'aclrtContext')
        _rc = _call(c_context)
        if _hook is not None:
            _hook('aclrtDestroyContext', {'context': context}, _rc)
        if raw:
            return _rc
        if _rc:
            raise AclError('aclrtDestroyContext', _rc)
        return None

    return aclrtDestroyContext


def _wrap_aclrtSetCurrentContext(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    def aclrtSetCurrentContext(context: CData | int | None, *, raw: bool = False) -> Any:
        """Makes a context the calling thread's current context (the last call wins). (05_context_management.md#aclrtSetCurrentContext)"""
        c_context = context if context is not None and context.__class__ is not int else _ptr(context, 'aclrtContext')
        _rc = _call(c_context)
        if _hook is not None:
            _hook('aclrtSetCurrentContext', {'context': context}, _rc)
        if raw:
            return _rc
        if _rc:
            raise AclError('aclrtSetCurrentContext', _rc)
        return None

    return aclrtSetCurrentContext


def _wrap_aclrtGetCurrentContext(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    _mine = _cells
    _OUT = OUT

    def aclrtGetCurrentContext(*, context: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Reports the calling thread's current context. (05_context_management.md#aclrtGetCurrentContext)"""
        if context is _OUT:
            c_context = _mine.aclrtContext_p0
            c_context[0] = ffi.NULL
        else:
            c_context = _cell_arg(context, 'aclrtContext *')
        _rc = _call(c_context)
        _out_context = c_context[0] if context is _OUT else None
        if _hook is not None:
            _hook('aclrtGetCurrentContext', {'context': context}, _rc)
        if raw:
            return _rc, _out_context
        if _rc:
            raise AclError('aclrtGetCurrentContext', _rc)
        return _out_context

    return aclrtGetCurrentContext


def _wrap_aclrtGetDeviceCount(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    _mine = _cells
    _OUT = OUT

    def aclrtGetDeviceCount(*, count: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Reports the number of usable devices. (04_device_management.md#aclrtGetDeviceCount)"""
        if count is _OUT:
            c_count = _mine.uint32_t_p0
            c_count[0] = 0
        else:
            c_count = _cell_arg(count, 'uint32_t *')
        _rc = _call(c_count)
        _out_count = c_count[0] if count is _OUT else None
        if _hook is not None:
            _hook('aclrtGetDeviceCount', {'count': count}, _rc)
        if raw:
            return _rc, _out_count
        if _rc:
            raise AclError('aclrtGetDeviceCount', _rc)
        return _out_count

    return aclrtGetDeviceCount


def _wrap_aclrtGetSocName(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    def aclrtGetSocName() -> Any:
        """Returns the SoC name of the current product, or NULL on failure. (04_device_management.md#aclrtGetSocName)"""
        _rc = _call()
        if _hook is not None:
            _hook('aclrtGetSocName', {}, _rc)
        return None if _rc == ffi.NULL else _text(_rc)

    return aclrtGetSocName


def _wrap_aclrtCreateStream(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    _mine = _cells
    _OUT = OUT

    def aclrtCreateStream(*, stream: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Creates a stream on the current device. (06_stream_management.md#aclrtCreateStream)"""
        if stream is _OUT:
            c_stream = _mine.aclrtStream_p0
            c_stream[0] = ffi.NULL
        else:
            c_stream = _cell_arg(stream, 'aclrtStream *')
        _rc = _call(c_stream)
        _out_stream = c_stream[0] if stream is _OUT else None
        if _hook is not None:
            _hook('aclrtCreateStream', {'stream': stream}, _rc)
        if raw:
            return _rc, _out_stream
        if _rc:
            raise AclError('aclrtCreateStream', _rc)
        return _out_stream

    return aclrtCreateStream


def _wrap_aclrtDestroyStream(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    def aclrtDestroyStream(stream: CData | int | None, *, raw: bool = False) -> Any:
        """Destroys a stream. (06_stream_management.md#aclrtDestroyStream)"""
        c_stream = stream if stream is not None and stream.__class__ is not int else _ptr(stream, 'aclrtStream')
        _rc = _call(c_stream)
        if _hook is not None:
            _hook('aclrtDestroyStream', {'stream': stream}, _rc)
        if raw:
            return _rc
        if _rc:
            raise AclError('aclrtDestroyStream', _rc)
        return None

    return aclrtDestroyStream


def _wrap_aclrtDestroyStreamForce(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    def aclrtDestroyStreamForce(stream: CData | int | None, *, raw: bool = False) -> Any:
        """Destroys a stream at once, without waiting for its unfinished tasks. (06_stream_management.md#aclrtDestroyStreamForce)"""
        c_stream = stream if stream is not None and stream.__class__ is not int else _ptr(stream, 'aclrtStream')
        _rc = _call(c_stream)
        if _hook is not None:
            _hook('aclrtDestroyStreamForce', {'stream': stream}, _rc)
        if raw:
            return _rc
        if _rc:
            raise AclError('aclrtDestroyStreamForce', _rc)
        return None

    return aclrtDestroyStreamForce


def _wrap_aclrtSynchronizeStream(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    def aclrtSynchronizeStream(stream: CData | int | None, *, raw: bool = False) -> Any:
        """Waits until every task of a stream has finished. (06_stream_management.md#aclrtSynchronizeStream)"""
        c_stream = stream if stream is not None and stream.__class__ is not int else _ptr(stream, 'aclrtStream')
        _rc = _call(c_stream)
        if _hook is not None:
            _hook('aclrtSynchronizeStream', {'stream': stream}, _rc)
        if raw:
            return _rc
        if _rc:
            raise AclError('aclrtSynchronizeStream', _rc)
        return None

    return aclrtSynchronizeStream


def _wrap_aclrtSynchronizeDevice(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    def aclrtSynchronizeDevice(*, raw: bool = False) -> Any:
        """Waits until every task of the current device has finished. (04_device_management.md#aclrtSynchronizeDevice)"""
        _rc = _call()
        if _hook is not None:
            _hook('aclrtSynchronizeDevice', {}, _rc)
        if raw:
            return _rc
        if _rc:
            raise AclError('aclrtSynchronizeDevice', _rc)
        return None

    return aclrtSynchronizeDevice


def _wrap_aclrtStreamQuery(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    _mine = _cells
    _OUT = OUT

    def aclrtStreamQuery(stream: CData | int | None, *, status: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Reports whether a stream still has pending tasks. (06_stream_management.md#aclrtStreamQuery)"""
        c_stream = stream if stream is not None and stream.__class__ is not int else _ptr(stream, 'aclrtStream')
        if status is _OUT:
            c_status = _mine.aclrtStreamStatus_p0
            c_status[0] = 0
        else:
            c_status = _cell_arg(status, 'aclrtStreamStatus *')
        _rc = _call(c_stream, c_status)
        _out_status = c_status[0] if status is _OUT else None
        if _hook is not None:
            _hook('aclrtStreamQuery', {'stream': stream, 'status': status}, _rc)
        if raw:
            return _rc, _out_status
        if _rc:
            raise AclError('aclrtStreamQuery', _rc)
        return _out_status

    return aclrtStreamQuery


def _wrap_aclrtMalloc(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    _mine = _cells
    _OUT = OUT

    def aclrtMalloc(size: int, policy: int, *, devPtr: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Allocates device memory. (11-01_device_memory_malloc_and_free.md#aclrtMalloc)"""
        if devPtr is _OUT:
            c_devPtr = _mine.uintptr_t_p0
            c_devPtr[0] = 0
        else:
            c_devPtr = _cell_arg(devPtr, 'uintptr_t *')
        _rc = _call(c_devPtr, size, policy)
        _out_devPtr = c_devPtr[0] if devPtr is _OUT else None
        if _hook is not None:
            _hook('aclrtMalloc', {'devPtr': devPtr, 'size': size, 'policy': policy}, _rc)
        if raw:
            return _rc, _out_devPtr
        if _rc:
            raise AclError('aclrtMalloc', _rc)
        return _out_devPtr

    return aclrtMalloc


def _wrap_aclrtFree(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    def aclrtFree(devPtr: CData | int | None, *, raw: bool = False) -> Any:
        """Frees device memory. (11-01_device_memory_malloc_and_free.md#aclrtFree)"""
        c_devPtr = devPtr if devPtr.__class__ is int else _address_arg(devPtr)
        _rc = _call(c_devPtr)
        if _hook is not None:
            _hook('aclrtFree', {'devPtr': devPtr}, _rc)
        if raw:
            return _rc
        if _rc:
            raise AclError('aclrtFree', _rc)
        return None

    return aclrtFree


def _wrap_aclrtMemset(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    def aclrtMemset(devPtr: CData | int | None, maxCount: int, value: int, count: int, *, raw: bool = False) -> Any:
        """Sets count bytes of memory to a value, synchronously. (11-03_memory_copy_and_set.md#aclrtMemset)"""
        c_devPtr = devPtr if devPtr.__class__ is int else _address_arg(devPtr)
        _rc = _call(c_devPtr, maxCount, value, count)
        if _hook is not None:
            _hook('aclrtMemset', {'devPtr': devPtr, 'maxCount': maxCount, 'value': value, 'count': count}, _rc)
        if raw:
            return _rc
        if _rc:
            raise AclError('aclrtMemset', _rc)
        return None

    return aclrtMemset


def _wrap_aclrtMemcpy(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    def aclrtMemcpy(dst: CData | int | None, destMax: int, src: CData | int | None, count: int, kind: int, *, raw: bool = False) -> Any:
        """Copies memory synchronously. (11-03_memory_copy_and_set.md#aclrtMemcpy)"""
        c_dst = dst if dst.__class__ is int else _address_arg(dst)
        c_src = src if src.__class__ is int else _address_arg(src)
        _rc = _call(c_dst, destMax, c_src, count, kind)
        if _hook is not None:
            _hook('aclrtMemcpy', {'dst': dst, 'destMax': destMax, 'src': src, 'count': count, 'kind': kind}, _rc)
        if raw:
            return _rc
        if _rc:
            raise AclError('aclrtMemcpy', _rc)
        return None

    return aclrtMemcpy


def _wrap_aclrtMemcpyAsync(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    def aclrtMemcpyAsync(dst: CData | int | None, destMax: int, src: CData | int | None, count: int, kind: int, stream: CData | int | None, *, raw: bool = False) -> Any:
        """Queues a memory copy on a stream. (11-03_memory_copy_and_set.md#aclrtMemcpyAsync)"""
        c_dst = dst if dst.__class__ is int else _address_arg(dst)
        c_src = src if src.__class__ is int else _address_arg(src)
        c_stream = stream if stream is not None and stream.__class__ is not int else _ptr(stream, 'aclrtStream')
        _rc = _call(c_dst, destMax, c_src, count, kind, c_stream)
        if _hook is not None:
            _hook('aclrtMemcpyAsync', {'dst': dst, 'destMax': destMax, 'src': src, 'count': count, 'kind': kind, 'stream': stream}, _rc)
        if raw:
            return _rc
        if _rc:
            raise AclError('aclrtMemcpyAsync', _rc)
        return None

    return aclrtMemcpyAsync


def _wrap_aclrtLaunchHostFunc(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    def aclrtLaunchHostFunc(stream: CData | int | None, fn: CData | int | None, args: CData | int | None, *, raw: bool = False) -> Any:
        """Queues a host callback on a stream; it blocks later tasks of the stream until it returns. (12_execution_control.md#aclrtLaunchHostFunc)"""
        c_stream = stream if stream is not None and stream.__class__ is not int else _ptr(stream, 'aclrtStream')
        c_fn = fn if fn is not None and fn.__class__ is not int else _ptr(fn, 'aclrtHostFunc')
        c_args = args if args.__class__ is int else _address_arg(args)
        _rc = _call(c_stream, c_fn, c_args)
        if _hook is not None:
            _hook('aclrtLaunchHostFunc', {'stream': stream, 'fn': fn, 'args': args}, _rc)
        if raw:
            return _rc
        if _rc:
            raise AclError('aclrtLaunchHostFunc', _rc)
        return None

    return aclrtLaunchHostFunc


def _wrap_aclsysGetVersionStr(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    _OUT = OUT

    def aclsysGetVersionStr(pkgName: str | bytes | None, *, versionStr: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Reports the version string of an installed package (e.g. \"runtime\", \"driver\"). (24_other_APIs.md#aclsysGetVersionStr)"""
        c_pkgName = _cstr(pkgName)
        c_versionStr = ffi.new("char[]", ACL_PKG_VERSION_MAX_SIZE) if versionStr is _OUT else _ptr(versionStr, "char *")
        _rc = _call(c_pkgName, c_versionStr)
        _out_versionStr = _text(c_versionStr) if versionStr is _OUT else None
        if _hook is not None:
            _hook('aclsysGetVersionStr', {'pkgName': pkgName, 'versionStr': versionStr}, _rc)
        if raw:
            return _rc, _out_versionStr
        if _rc:
            raise AclError('aclsysGetVersionStr', _rc)
        return _out_versionStr

    return aclsysGetVersionStr


def _wrap_aclrtGetVersion(_hook: TraceHook | None, _call: CData) -> Callable[..., Any]:
    _mine = _cells
    _OUT = OUT

    def aclrtGetVersion(*, majorVersion: CData | int | Out | None = OUT, minorVersion: CData | int | Out | None = OUT, patchVersion: CData | int | Out | None = OUT, raw: bool = False) -> Any:
        """Reports the ACL API version (deprecated); the harness's fallback when aclsysGetVersionStr fails. (24_other_APIs.md#aclrtGetVersion_deprecated)"""
        if majorVersion is _OUT:
            c_majorVersion = _mine.int32_t_p0
            c_majorVersion[0] = 0
        else:
            c_majorVersion = _cell_arg(majorVersion, 'int32_t *')
        if minorVersion is _OUT:
            c_minorVersion = _mine.int32_t_p1
            c_minorVersion[0] = 0
        else:
            c_minorVersion = _cell_arg(minorVersion, 'int32_t *')
        if patchVersion is _OUT:
            c_patchVersion = _mine.int32_t_p2
            c_patchVersion[0] = 0
        else:
            c_patchVersion = _cell_arg(patchVersion, 'int32_t *')
        _rc = _call(c_majorVersion, c_minorVersion, c_patchVersion)
        _out_majorVersion = c_majorVersion[0] if majorVersion is _OUT else None
        _out_minorVersion = c_minorVersion[0] if minorVersion is _OUT else None
        _out_patchVersion = c_patchVersion[0] if patchVersion is _OUT else None
        if _hook is not None:
            _hook('aclrtGetVersion', {'majorVersion': majorVersion, 'minorVersion': minorVersion, 'patchVersion': patchVersion}, _rc)
        if raw:
            return _rc, _out_majorVersion, _out_minorVersion, _out_patchVersion
        if _rc:
            raise AclError('aclrtGetVersion', _rc)
        return _out_majorVersion, _out_minorVersion, _out_patchVersion

    return aclrtGetVersion


def load(path: str | os.PathLike[str]) -> AclLibrary:
    """Open the ACL library at ``path`` (ABI mode, ``ffi.dlopen``)."""
    return AclLibrary(path)
