"""Helpers imported by the child processes that the simulator tests start.

The library reads its environment once, so every scenario runs in a fresh
interpreter: the test writes a short script, ``conftest.run_sim`` starts it
with the right ``ACLSIM_*`` variables, and the script does
``from simrun import *`` to get the bindings and a few helpers.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import cffi

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from acl_hostmem_generated import acl_bindings as acl  # noqa: E402  (the repository root is not on the path)
from conformance.harness.simstats import stats_declaration  # noqa: E402

GENERATED_CDEF = ROOT / "acl_hostmem_generated" / "acl_hostmem.cdef"

ACLSIM_CDEF = stats_declaration().replace("int aclsimGetStats", "aclError aclsimGetStats") + """
const char *aclsimActiveFaults(void);
const char *aclsimFamilyName(void);
const char *aclsimDriverName(void);
int aclsimFaultCount(void);
const char *aclsimFaultName(int index);
"""

# Error codes and flags under short names, with the spec's values.
SUCCESS = acl.ACL_SUCCESS
INVALID_PARAM = acl.ACL_ERROR_INVALID_PARAM
UNINITIALIZE = acl.ACL_ERROR_UNINITIALIZE
REPEAT_INITIALIZE = acl.ACL_ERROR_REPEAT_INITIALIZE
REPEAT_FINALIZE = acl.ACL_ERROR_REPEAT_FINALIZE
RT_PARAM_INVALID = acl.ACL_ERROR_RT_PARAM_INVALID
RT_INVALID_DEVICEID = acl.ACL_ERROR_RT_INVALID_DEVICEID
RT_CONTEXT_NULL = acl.ACL_ERROR_RT_CONTEXT_NULL
RT_STREAM_CONTEXT = acl.ACL_ERROR_RT_STREAM_CONTEXT
RT_FEATURE_NOT_SUPPORT = acl.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
RT_MEMORY_ALLOCATION = acl.ACL_ERROR_RT_MEMORY_ALLOCATION
RT_DRV_INTERNAL_ERROR = acl.ACL_ERROR_RT_DRV_INTERNAL_ERROR
RT_INVALID_HANDLE = acl.ACL_ERROR_RT_INVALID_HANDLE
ALREADY_REGISTERED = acl.ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED
NOT_REGISTERED = acl.ACL_ERROR_HOST_MEMORY_NOT_REGISTERED
REG_MAPPED = acl.ACL_HOST_REG_MAPPED
REG_IOMEMORY = acl.ACL_HOST_REG_IOMEMORY
REG_READONLY = acl.ACL_HOST_REG_READONLY
REG_PINNED = acl.ACL_HOST_REG_PINNED
PAGE = 4096
VA_WINDOW_BASE = 0x1000000000000


def load() -> tuple[cffi.FFI, Any]:
    """Build the cffi ABI-mode bindings and open the library named by ACLSIM_LIB."""
    ffi = cffi.FFI()
    ffi.cdef(GENERATED_CDEF.read_text())
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


def page_up(ptr: Any, page: int = PAGE) -> Any:
    """The first address at or after ptr that is a multiple of page, as a void *."""
    return ffi.cast("void *", (addr(ptr) + page - 1) // page * page)


def driver_name() -> str:
    """The driver generation of the initialised library: "v2", "v3" or "docs"."""
    return ffi.string(lib.aclsimDriverName()).decode()


def _libc_mmap(size: int, prot: int, address: int = 0, fixed: bool = False) -> int:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    map_private_anonymous, map_fixed_noreplace = 0x22, 0x100000
    flags = map_private_anonymous | (map_fixed_noreplace if fixed else 0)
    got = libc.mmap(address or None, size, prot, flags, -1, 0)
    if got is None or got == ctypes.c_void_p(-1).value or (fixed and got != address):
        raise SystemExit(f"cannot map {size} bytes (errno {ctypes.get_errno()})")
    return got


def readonly_pageable(size: int) -> Any:
    """Pageable memory the process may only read (a PROT_READ anonymous mapping)."""
    return ffi.cast("void *", _libc_mmap(size, 0x1))


def pageable_aligned(size: int, align: int) -> Any:
    """Pageable read-write memory whose start is a multiple of align (a larger mapping, cut)."""
    base = _libc_mmap(size + align, 0x3)
    return ffi.cast("void *", (base + align - 1) // align * align)


def pageable_at(address: int, size: int) -> Any:
    """Pageable memory mapped at exactly ``address`` (which must be unmapped), or a test error."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    prot_rw, map_private_anonymous, map_fixed_noreplace = 0x3, 0x22, 0x100000
    got = libc.mmap(address, size, prot_rw, map_private_anonymous | map_fixed_noreplace, -1, 0)
    if got != address:
        raise SystemExit(f"cannot map {size} bytes at {address:#x} (errno {ctypes.get_errno()})")
    return ffi.cast("void *", address)


def fill(ptr: Any, size: int, pattern: bytes) -> None:
    """Write a repeating pattern over [ptr, ptr+size)."""
    data = (pattern * (size // len(pattern) + 1))[:size]
    ffi.memmove(ptr, data, size)


def read(ptr: Any, size: int) -> bytes:
    """Copy [ptr, ptr+size) out."""
    return bytes(ffi.buffer(ffi.cast("char *", ptr), size))


_KEEP: list[Any] = []

__all__ = [name for name in dir() if not name.startswith("__")]
