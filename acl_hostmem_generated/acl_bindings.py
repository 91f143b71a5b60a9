# Generated from spec 8d00f42bea87b41b by codegen; do not edit. Regenerate: python -m codegen generate
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
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

from cffi import FFI

SPEC_HASH = '8d00f42bea87b41b'

# The declarations have one home, acl_hostmem.cdef beside this module (generated from the
# same spec); no prose from the spec is embedded in this file's source.
CDEF = resources.files(__package__).joinpath("acl_hostmem.cdef").read_text(encoding="utf-8")

ffi = FFI()
ffi.cdef(CDEF)

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


class _Out:
    """Marker for an output parameter the wrapper allocates itself."""

    def __repr__(self) -> str:
        return "OUT"


OUT: Any = _Out()

TraceHook = Callable[[str, dict[str, Any], Any], None]


def address(value: Any) -> int:
    """The integer address of a pointer (cdata or int); 0 for NULL."""
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    return int(ffi.cast("uintptr_t", value))


def _ptr(value: Any, ctype: str) -> Any:
    if value is None:
        return ffi.NULL
    if isinstance(value, int):
        return ffi.cast(ctype, value)
    return value


def _cstr(value: Any) -> Any:
    if value is None:
        return ffi.NULL
    if isinstance(value, str):
        return ffi.new("char[]", value.encode())
    if isinstance(value, bytes):
        return ffi.new("char[]", value)
    return value


def _out(value: Any, ctype: str, read: Callable[[Any], Any], size: int | None = None) -> tuple[Any, Callable[[], Any]]:
    """(argument to pass, reader of the result) for an output parameter."""
    if value is OUT:
        cell = ffi.new(ctype, size) if size is not None else ffi.new(ctype)
        return cell, lambda: read(cell)
    return _ptr(value, ctype), lambda: None


def _read_addr(cell: Any) -> int:
    return address(cell[0])


def _read_handle(cell: Any) -> Any:
    return cell[0]


def _read_int(cell: Any) -> int:
    return int(cell[0])


def _read_text(cell: Any) -> str:
    return ffi.string(cell).decode("utf-8", errors="replace")


class MallocConfig:
    """An aclrtMallocConfig that owns its attribute array (keep it alive across the call).

    ``attrs`` is a sequence of (aclrtMallocAttrType, value) pairs; the value lands in the
    union member the type selects (unknown types write the raw bytes). ``num_attrs``
    overrides the count and ``attrs_null`` passes a NULL array, to build invalid configs.
    """

    def __init__(self, attrs: Sequence[tuple[int, int]] = (), *, num_attrs: int | None = None,
                 attrs_null: bool = False) -> None:
        self.ptr = ffi.new("aclrtMallocConfig *")
        self.array = ffi.new("aclrtMallocAttribute[]", max(len(attrs), 1))
        for index, (kind, value) in enumerate(attrs):
            self.array[index].attr = kind
            member = MALLOC_ATTR_FIELDS.get(kind)
            if member is not None:
                setattr(self.array[index].value, member, value)
            else:
                raw = value.to_bytes(8, "little", signed=False)
                for offset, byte in enumerate(raw):
                    self.array[index].value.rsv[offset] = byte
        self.ptr.attrs = ffi.NULL if attrs_null else self.array
        self.ptr.numAttrs = len(attrs) if num_attrs is None else num_attrs


def malloc_config(*attrs: tuple[int, int], num_attrs: int | None = None, attrs_null: bool = False) -> MallocConfig:
    """Build an aclrtMallocConfig from (attribute type, value) pairs."""
    return MallocConfig(attrs, num_attrs=num_attrs, attrs_null=attrs_null)


class AclLibrary:
    """An opened ACL library with one wrapper per function of the spec."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self.lib = ffi.dlopen(self.path)
        self.trace: TraceHook | None = None

    def _invoke(self, name: str, args: tuple[Any, ...], shown: dict[str, Any]) -> Any:
        result = getattr(self.lib, name)(*args)
        if self.trace is not None:
            self.trace(name, shown, result)
        return result

    @staticmethod
    def _finish(name: str, code: int, raw: bool, readers: tuple[Callable[[], Any], ...]) -> Any:
        values = tuple(read() for read in readers)
        if raw:
            return (code, *values) if values else code
        if code != 0:
            raise AclError(name, code)
        if not values:
            return None
        return values[0] if len(values) == 1 else values

    def aclrtMallocHost(self, size: int, *, hostPtr: Any = OUT, raw: bool = False) -> Any:
        """Allocates page-locked host memory whose start is 64-byte aligned. (11-02_host_memory_management.md#aclrtMallocHost)"""
        c_hostPtr, r_hostPtr = _out(hostPtr, 'void **', _read_addr)
        c_size = size
        result = self._invoke('aclrtMallocHost', (c_hostPtr, c_size, ), {'hostPtr': hostPtr, 'size': size})
        return self._finish('aclrtMallocHost', result, raw, (r_hostPtr, ))

    def aclrtMallocHostWithCfg(self, size: int, cfg: Any, *, ptr: Any = OUT, raw: bool = False) -> Any:
        """Allocates page-locked, 64-byte aligned host memory with optional configuration attributes. (11-02_host_memory_management.md#aclrtMallocHostWithCfg)"""
        c_ptr, r_ptr = _out(ptr, 'void **', _read_addr)
        c_size = size
        c_cfg = _ptr(cfg, 'aclrtMallocConfig *')
        result = self._invoke('aclrtMallocHostWithCfg', (c_ptr, c_size, c_cfg, ), {'ptr': ptr, 'size': size, 'cfg': cfg})
        return self._finish('aclrtMallocHostWithCfg', result, raw, (r_ptr, ))

    def aclrtFreeHost(self, hostPtr: Any, *, raw: bool = False) -> Any:
        """Frees host memory from aclrtMallocHost or aclrtMallocHostWithCfg at once, without any synchronisation. (11-02_host_memory_management.md#aclrtFreeHost)"""
        c_hostPtr = _ptr(hostPtr, 'void *')
        result = self._invoke('aclrtFreeHost', (c_hostPtr, ), {'hostPtr': hostPtr})
        return self._finish('aclrtFreeHost', result, raw, ())

    def aclrtFreeHostWithDevSync(self, hostPtr: Any, *, raw: bool = False) -> Any:
        """Synchronises the current device, waits for the tasks that use the memory, then frees it. (11-02_host_memory_management.md#aclrtFreeHostWithDevSync)"""
        c_hostPtr = _ptr(hostPtr, 'void *')
        result = self._invoke('aclrtFreeHostWithDevSync', (c_hostPtr, ), {'hostPtr': hostPtr})
        return self._finish('aclrtFreeHostWithDevSync', result, raw, ())

    def aclrtHostRegister(self, ptr: Any, size: int, type: int, *, devPtr: Any = OUT, raw: bool = False) -> Any:
        """Maps host memory for device access and returns the device address of the mapping. (11-02_host_memory_management.md#aclrtHostRegister)"""
        c_ptr = _ptr(ptr, 'void *')
        c_size = size
        c_type = type
        c_devPtr, r_devPtr = _out(devPtr, 'void **', _read_addr)
        result = self._invoke('aclrtHostRegister', (c_ptr, c_size, c_type, c_devPtr, ), {'ptr': ptr, 'size': size, 'type': type, 'devPtr': devPtr})
        return self._finish('aclrtHostRegister', result, raw, (r_devPtr, ))

    def aclrtHostRegisterV2(self, ptr: Any, size: int, flag: int, *, raw: bool = False) -> Any:
        """Registers host memory with a set of ACL_HOST_REG_* flags. (11-02_host_memory_management.md#aclrtHostRegisterV2)"""
        c_ptr = _ptr(ptr, 'void *')
        c_size = size
        c_flag = flag
        result = self._invoke('aclrtHostRegisterV2', (c_ptr, c_size, c_flag, ), {'ptr': ptr, 'size': size, 'flag': flag})
        return self._finish('aclrtHostRegisterV2', result, raw, ())

    def aclrtHostGetDevicePointer(self, pHost: Any, flag: int, *, pDevice: Any = OUT, raw: bool = False) -> Any:
        """Returns the device address of host memory registered with aclrtHostRegister or aclrtHostRegisterV2. (11-02_host_memory_management.md#aclrtHostGetDevicePointer)"""
        c_pHost = _ptr(pHost, 'void *')
        c_pDevice, r_pDevice = _out(pDevice, 'void **', _read_addr)
        c_flag = flag
        result = self._invoke('aclrtHostGetDevicePointer', (c_pHost, c_pDevice, c_flag, ), {'pHost': pHost, 'pDevice': pDevice, 'flag': flag})
        return self._finish('aclrtHostGetDevicePointer', result, raw, (r_pDevice, ))

    def aclrtHostMemMapCapabilities(self, deviceId: int, hacType: int, *, capabilities: Any = OUT, raw: bool = False) -> Any:
        """Tells whether a hardware accelerator of a device can access registered host memory. (11-02_host_memory_management.md#aclrtHostMemMapCapabilities)"""
        c_deviceId = deviceId
        c_hacType = hacType
        c_capabilities, r_capabilities = _out(capabilities, 'aclrtHostMemMapCapability *', _read_int)
        result = self._invoke('aclrtHostMemMapCapabilities', (c_deviceId, c_hacType, c_capabilities, ), {'deviceId': deviceId, 'hacType': hacType, 'capabilities': capabilities})
        return self._finish('aclrtHostMemMapCapabilities', result, raw, (r_capabilities, ))

    def aclrtHostUnregister(self, ptr: Any, *, raw: bool = False) -> Any:
        """Removes a registration made by aclrtHostRegister or aclrtHostRegisterV2. (11-02_host_memory_management.md#aclrtHostUnregister)"""
        c_ptr = _ptr(ptr, 'void *')
        result = self._invoke('aclrtHostUnregister', (c_ptr, ), {'ptr': ptr})
        return self._finish('aclrtHostUnregister', result, raw, ())

    def aclInit(self, configPath: str | bytes | None, *, raw: bool = False) -> Any:
        """Initialises the runtime; configPath may be NULL. (02_initialization_and_deinitialization.md#aclInit)"""
        c_configPath = _cstr(configPath)
        result = self._invoke('aclInit', (c_configPath, ), {'configPath': configPath})
        return self._finish('aclInit', result, raw, ())

    def aclFinalize(self, *, raw: bool = False) -> Any:
        """Releases the runtime. (02_initialization_and_deinitialization.md#aclFinalize)"""
        result = self._invoke('aclFinalize', (), {})
        return self._finish('aclFinalize', result, raw, ())

    def aclrtSetDevice(self, deviceId: int, *, raw: bool = False) -> Any:
        """Makes a device current for the calling thread. (04_device_management.md#aclrtSetDevice)"""
        c_deviceId = deviceId
        result = self._invoke('aclrtSetDevice', (c_deviceId, ), {'deviceId': deviceId})
        return self._finish('aclrtSetDevice', result, raw, ())

    def aclrtResetDevice(self, deviceId: int, *, raw: bool = False) -> Any:
        """Drops one reference to a device; at zero its default context, default stream and the streams created in it are released (after their tasks finish). (04_device_management.md#aclrtResetDevice)"""
        c_deviceId = deviceId
        result = self._invoke('aclrtResetDevice', (c_deviceId, ), {'deviceId': deviceId})
        return self._finish('aclrtResetDevice', result, raw, ())

    def aclrtResetDeviceForce(self, deviceId: int, *, raw: bool = False) -> Any:
        """Releases a device's resources at once whatever its reference count; a second forced reset of the released device fails. (04_device_management.md#aclrtResetDeviceForce)"""
        c_deviceId = deviceId
        result = self._invoke('aclrtResetDeviceForce', (c_deviceId, ), {'deviceId': deviceId})
        return self._finish('aclrtResetDeviceForce', result, raw, ())

    def aclrtGetDevice(self, *, deviceId: Any = OUT, raw: bool = False) -> Any:
        """Reports the device of the calling thread's current context; fails when no device was set. (04_device_management.md#aclrtGetDevice)"""
        c_deviceId, r_deviceId = _out(deviceId, 'int32_t *', _read_int)
        result = self._invoke('aclrtGetDevice', (c_deviceId, ), {'deviceId': deviceId})
        return self._finish('aclrtGetDevice', result, raw, (r_deviceId, ))

    def aclrtGetRunMode(self, *, runMode: Any = OUT, raw: bool = False) -> Any:
        """Reports where the software stack runs - ACL_HOST (EP form) or ACL_DEVICE (RC / Control-CPU-open form). (04_device_management.md#aclrtGetRunMode)"""
        c_runMode, r_runMode = _out(runMode, 'aclrtRunMode *', _read_int)
        result = self._invoke('aclrtGetRunMode', (c_runMode, ), {'runMode': runMode})
        return self._finish('aclrtGetRunMode', result, raw, (r_runMode, ))

    def aclrtCreateContext(self, deviceId: int, *, context: Any = OUT, raw: bool = False) -> Any:
        """Creates a context on a device and makes it the calling thread's current context. (05_context_management.md#aclrtCreateContext)"""
        c_context, r_context = _out(context, 'aclrtContext *', _read_handle)
        c_deviceId = deviceId
        result = self._invoke('aclrtCreateContext', (c_context, c_deviceId, ), {'context': context, 'deviceId': deviceId})
        return self._finish('aclrtCreateContext', result, raw, (r_context, ))

    def aclrtDestroyContext(self, context: Any, *, raw: bool = False) -> Any:
        """Destroys a context created by aclrtCreateContext; a thread whose current context it was has none afterwards. (05_context_management.md#aclrtDestroyContext)"""
        c_context = _ptr(context, 'aclrtContext')
        result = self._invoke('aclrtDestroyContext', (c_context, ), {'context': context})
        return self._finish('aclrtDestroyContext', result, raw, ())

    def aclrtSetCurrentContext(self, context: Any, *, raw: bool = False) -> Any:
        """Makes a context the calling thread's current context (the last call wins). (05_context_management.md#aclrtSetCurrentContext)"""
        c_context = _ptr(context, 'aclrtContext')
        result = self._invoke('aclrtSetCurrentContext', (c_context, ), {'context': context})
        return self._finish('aclrtSetCurrentContext', result, raw, ())

    def aclrtGetCurrentContext(self, *, context: Any = OUT, raw: bool = False) -> Any:
        """Reports the calling thread's current context. (05_context_management.md#aclrtGetCurrentContext)"""
        c_context, r_context = _out(context, 'aclrtContext *', _read_handle)
        result = self._invoke('aclrtGetCurrentContext', (c_context, ), {'context': context})
        return self._finish('aclrtGetCurrentContext', result, raw, (r_context, ))

    def aclrtGetDeviceCount(self, *, count: Any = OUT, raw: bool = False) -> Any:
        """Reports the number of usable devices. (04_device_management.md#aclrtGetDeviceCount)"""
        c_count, r_count = _out(count, 'uint32_t *', _read_int)
        result = self._invoke('aclrtGetDeviceCount', (c_count, ), {'count': count})
        return self._finish('aclrtGetDeviceCount', result, raw, (r_count, ))

    def aclrtGetSocName(self) -> Any:
        """Returns the SoC name of the current product, or NULL on failure. (04_device_management.md#aclrtGetSocName)"""
        result = self._invoke('aclrtGetSocName', (), {})
        return None if result == ffi.NULL else ffi.string(result).decode("utf-8", errors="replace")

    def aclrtCreateStream(self, *, stream: Any = OUT, raw: bool = False) -> Any:
        """Creates a stream on the current device. (06_stream_management.md#aclrtCreateStream)"""
        c_stream, r_stream = _out(stream, 'aclrtStream *', _read_handle)
        result = self._invoke('aclrtCreateStream', (c_stream, ), {'stream': stream})
        return self._finish('aclrtCreateStream', result, raw, (r_stream, ))

    def aclrtDestroyStream(self, stream: Any, *, raw: bool = False) -> Any:
        """Destroys a stream. (06_stream_management.md#aclrtDestroyStream)"""
        c_stream = _ptr(stream, 'aclrtStream')
        result = self._invoke('aclrtDestroyStream', (c_stream, ), {'stream': stream})
        return self._finish('aclrtDestroyStream', result, raw, ())

    def aclrtDestroyStreamForce(self, stream: Any, *, raw: bool = False) -> Any:
        """Destroys a stream at once, without waiting for its unfinished tasks. (06_stream_management.md#aclrtDestroyStreamForce)"""
        c_stream = _ptr(stream, 'aclrtStream')
        result = self._invoke('aclrtDestroyStreamForce', (c_stream, ), {'stream': stream})
        return self._finish('aclrtDestroyStreamForce', result, raw, ())

    def aclrtSynchronizeStream(self, stream: Any, *, raw: bool = False) -> Any:
        """Waits until every task of a stream has finished. (06_stream_management.md#aclrtSynchronizeStream)"""
        c_stream = _ptr(stream, 'aclrtStream')
        result = self._invoke('aclrtSynchronizeStream', (c_stream, ), {'stream': stream})
        return self._finish('aclrtSynchronizeStream', result, raw, ())

    def aclrtSynchronizeDevice(self, *, raw: bool = False) -> Any:
        """Waits until every task of the current device has finished. (04_device_management.md#aclrtSynchronizeDevice)"""
        result = self._invoke('aclrtSynchronizeDevice', (), {})
        return self._finish('aclrtSynchronizeDevice', result, raw, ())

    def aclrtStreamQuery(self, stream: Any, *, status: Any = OUT, raw: bool = False) -> Any:
        """Reports whether a stream still has pending tasks. (06_stream_management.md#aclrtStreamQuery)"""
        c_stream = _ptr(stream, 'aclrtStream')
        c_status, r_status = _out(status, 'aclrtStreamStatus *', _read_int)
        result = self._invoke('aclrtStreamQuery', (c_stream, c_status, ), {'stream': stream, 'status': status})
        return self._finish('aclrtStreamQuery', result, raw, (r_status, ))

    def aclrtMalloc(self, size: int, policy: int, *, devPtr: Any = OUT, raw: bool = False) -> Any:
        """Allocates device memory. (11-01_device_memory_malloc_and_free.md#aclrtMalloc)"""
        c_devPtr, r_devPtr = _out(devPtr, 'void **', _read_addr)
        c_size = size
        c_policy = policy
        result = self._invoke('aclrtMalloc', (c_devPtr, c_size, c_policy, ), {'devPtr': devPtr, 'size': size, 'policy': policy})
        return self._finish('aclrtMalloc', result, raw, (r_devPtr, ))

    def aclrtFree(self, devPtr: Any, *, raw: bool = False) -> Any:
        """Frees device memory. (11-01_device_memory_malloc_and_free.md#aclrtFree)"""
        c_devPtr = _ptr(devPtr, 'void *')
        result = self._invoke('aclrtFree', (c_devPtr, ), {'devPtr': devPtr})
        return self._finish('aclrtFree', result, raw, ())

    def aclrtMemset(self, devPtr: Any, maxCount: int, value: int, count: int, *, raw: bool = False) -> Any:
        """Sets count bytes of memory to a value, synchronously. (11-03_memory_copy_and_set.md#aclrtMemset)"""
        c_devPtr = _ptr(devPtr, 'void *')
        c_maxCount = maxCount
        c_value = value
        c_count = count
        result = self._invoke('aclrtMemset', (c_devPtr, c_maxCount, c_value, c_count, ), {'devPtr': devPtr, 'maxCount': maxCount, 'value': value, 'count': count})
        return self._finish('aclrtMemset', result, raw, ())

    def aclrtMemcpy(self, dst: Any, destMax: int, src: Any, count: int, kind: int, *, raw: bool = False) -> Any:
        """Copies memory synchronously. (11-03_memory_copy_and_set.md#aclrtMemcpy)"""
        c_dst = _ptr(dst, 'void *')
        c_destMax = destMax
        c_src = _ptr(src, 'const void *')
        c_count = count
        c_kind = kind
        result = self._invoke('aclrtMemcpy', (c_dst, c_destMax, c_src, c_count, c_kind, ), {'dst': dst, 'destMax': destMax, 'src': src, 'count': count, 'kind': kind})
        return self._finish('aclrtMemcpy', result, raw, ())

    def aclrtMemcpyAsync(self, dst: Any, destMax: int, src: Any, count: int, kind: int, stream: Any, *, raw: bool = False) -> Any:
        """Queues a memory copy on a stream. (11-03_memory_copy_and_set.md#aclrtMemcpyAsync)"""
        c_dst = _ptr(dst, 'void *')
        c_destMax = destMax
        c_src = _ptr(src, 'const void *')
        c_count = count
        c_kind = kind
        c_stream = _ptr(stream, 'aclrtStream')
        result = self._invoke('aclrtMemcpyAsync', (c_dst, c_destMax, c_src, c_count, c_kind, c_stream, ), {'dst': dst, 'destMax': destMax, 'src': src, 'count': count, 'kind': kind, 'stream': stream})
        return self._finish('aclrtMemcpyAsync', result, raw, ())

    def aclrtLaunchHostFunc(self, stream: Any, fn: Any, args: Any, *, raw: bool = False) -> Any:
        """Queues a host callback on a stream; it blocks later tasks of the stream until it returns. (12_execution_control.md#aclrtLaunchHostFunc)"""
        c_stream = _ptr(stream, 'aclrtStream')
        c_fn = _ptr(fn, 'aclrtHostFunc')
        c_args = _ptr(args, 'void *')
        result = self._invoke('aclrtLaunchHostFunc', (c_stream, c_fn, c_args, ), {'stream': stream, 'fn': fn, 'args': args})
        return self._finish('aclrtLaunchHostFunc', result, raw, ())

    def aclsysGetVersionStr(self, pkgName: str | bytes | None, *, versionStr: Any = OUT, raw: bool = False) -> Any:
        """Reports the version string of an installed package (e.g. \"runtime\", \"driver\"). (24_other_APIs.md#aclsysGetVersionStr)"""
        c_pkgName = _cstr(pkgName)
        c_versionStr, r_versionStr = _out(versionStr, "char[]", _read_text, ACL_PKG_VERSION_MAX_SIZE)
        result = self._invoke('aclsysGetVersionStr', (c_pkgName, c_versionStr, ), {'pkgName': pkgName, 'versionStr': versionStr})
        return self._finish('aclsysGetVersionStr', result, raw, (r_versionStr, ))


def load(path: str | os.PathLike[str]) -> AclLibrary:
    """Open the ACL library at ``path`` (ABI mode, ``ffi.dlopen``)."""
    return AclLibrary(path)
