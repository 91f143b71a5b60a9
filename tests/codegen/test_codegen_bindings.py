"""The generated cffi bindings, driven against a small C library built from the generated header.

The library implements only a few of the declared functions; cffi's ABI mode opens it
anyway and fails only when a missing function is called.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from specedit import ROOT

import acl_hostmem_generated.acl_bindings as acl_bindings

FAKE_ACL = r"""
#include "acl_hostmem.h"
#include <stdio.h>
#include <string.h>

static _Alignas(4096) unsigned char arena[8192];

aclError aclrtMallocHost(void **hostPtr, size_t size)
{
    if (hostPtr == NULL || size == 0 || size > sizeof(arena)) {
        return ACL_ERROR_INVALID_PARAM;
    }
    *hostPtr = arena;
    return ACL_SUCCESS;
}

/* Reports what it received, as text, in the memory it hands out. */
aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg)
{
    char *out = (char *)arena;
    size_t room = sizeof(arena);
    if (ptr == NULL || size == 0) {
        return ACL_ERROR_INVALID_PARAM;
    }
    *ptr = arena;
    if (cfg == NULL) {
        snprintf(out, room, "cfg=NULL");
        return ACL_SUCCESS;
    }
    int used = snprintf(out, room, "n=%zu%s", cfg->numAttrs, cfg->attrs == NULL ? " attrs=NULL" : "");
    for (size_t i = 0; cfg->attrs != NULL && i < cfg->numAttrs; i++) {
        const aclrtMallocAttribute *a = &cfg->attrs[i];
        used += snprintf(out + used, room - used, ";%d:", (int)a->attr);
        for (int b = 0; b < 8; b++) {
            used += snprintf(out + used, room - used, "%02x", a->value.rsv[b]);
        }
        if (a->attr == ACL_RT_MEM_ATTR_MODULE_ID) {
            used += snprintf(out + used, room - used, ",moduleId=%u", (unsigned)a->value.moduleId);
        } else if (a->attr == ACL_RT_MEM_ATTR_DEVICE_ID) {
            used += snprintf(out + used, room - used, ",deviceId=%u", a->value.deviceId);
        } else if (a->attr == ACL_RT_MEM_ATTR_VA_FLAG) {
            used += snprintf(out + used, room - used, ",vaFlag=%u", a->value.vaFlag);
        }
    }
    return ACL_SUCCESS;
}

aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag)
{
    if (flag != 0 || pDevice == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    if (pHost != arena) {
        return ACL_ERROR_HOST_MEMORY_NOT_REGISTERED;
    }
    *pDevice = (char *)pHost + 0x100000;
    return ACL_SUCCESS;
}

aclError aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType, aclrtHostMemMapCapability *capabilities)
{
    if (capabilities == NULL || deviceId != 0) {
        return ACL_ERROR_RT_INVALID_DEVICEID;
    }
    *capabilities = hacType == ACL_RT_HAC_TYPE_AIC ? ACL_RT_HOST_MEM_MAP_SUPPORTED : ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
    return ACL_SUCCESS;
}

aclError aclrtCreateStream(aclrtStream *stream)
{
    *stream = (aclrtStream)(uintptr_t)0xabc0;
    return ACL_SUCCESS;
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status)
{
    *status = stream == NULL ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

const char *aclrtGetSocName(void)
{
    return "Ascend910B3";
}

aclError aclsysGetVersionStr(char *pkgName, char *versionStr)
{
    if (pkgName == NULL || versionStr == NULL) {
        return ACL_ERROR_INVALID_PARAM;
    }
    snprintf(versionStr, ACL_PKG_VERSION_MAX_SIZE, "%s 8.5.0", pkgName);
    return ACL_SUCCESS;
}
"""


@pytest.fixture(scope="module")
def fake_lib(tmp_path_factory: pytest.TempPathFactory, cc: str) -> Path:
    work = tmp_path_factory.mktemp("fakeacl")
    source = work / "fake_acl.c"
    source.write_text(FAKE_ACL, encoding="utf-8")
    lib = work / "libfakeacl.so"
    proc = subprocess.run(
        [
            cc,
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-shared",
            "-fPIC",
            "-I",
            str(ROOT / "acl_hostmem_generated" / "include"),
            str(source),
            "-o",
            str(lib),
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    return lib


@pytest.fixture()
def acl(fake_lib: Path) -> acl_bindings.AclLibrary:
    return acl_bindings.load(fake_lib)


def _text_at(address: int) -> str:
    return acl_bindings.ffi.string(acl_bindings.ffi.cast("char *", address)).decode()


def test_module_constants() -> None:
    assert acl_bindings.ACL_HOST_REG_PINNED == 0x10000000
    assert acl_bindings.ACL_HOST_REG_MAPPED == 2
    assert acl_bindings.ACL_ERROR_HOST_MEMORY_NOT_REGISTERED == 507911
    assert acl_bindings.ACL_ERROR_INVALID_PARAM == 100000
    assert acl_bindings.ACL_RT_MEM_ATTR_VA_FLAG == 3
    assert acl_bindings.ACL_PKG_VERSION_MAX_SIZE == 128
    assert acl_bindings.ENUMS["aclrtHacType"]["ACL_RT_HAC_TYPE_CCU"] == 9
    assert acl_bindings.ERRORS["ACL_ERROR_BAD_ALLOC"] == (200000, "resource", "Memory could not be allocated.")
    assert acl_bindings.error_name(507910) == "ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED"
    assert acl_bindings.error_name(42) == "UNKNOWN(42)"
    assert len(acl_bindings.SPEC_HASH) == 16


def test_out_parameter_is_returned(acl: acl_bindings.AclLibrary) -> None:
    ptr = acl.aclrtMallocHost(4096)
    assert isinstance(ptr, int) and ptr % 4096 == 0
    assert acl.aclrtMallocHost(64, raw=True) == (0, ptr)
    assert acl.aclrtHostGetDevicePointer(ptr, 0) == ptr + 0x100000


def test_raw_returns_the_code(acl: acl_bindings.AclLibrary) -> None:
    ptr = acl.aclrtMallocHost(64)
    code, dev = acl.aclrtHostGetDevicePointer(ptr, 1, raw=True)
    assert code == 100000 and dev == 0
    code, _ = acl.aclrtHostGetDevicePointer(ptr + 64, 0, raw=True)
    assert code == acl_bindings.ACL_ERROR_HOST_MEMORY_NOT_REGISTERED


def test_failure_raises_acl_error(acl: acl_bindings.AclLibrary) -> None:
    ptr = acl.aclrtMallocHost(64)
    with pytest.raises(acl_bindings.AclError) as info:
        acl.aclrtHostGetDevicePointer(ptr, 1)
    err = info.value
    assert (err.function, err.code, err.name) == ("aclrtHostGetDevicePointer", 100000, "ACL_ERROR_INVALID_PARAM")
    assert err.meaning == "An argument failed validation."
    assert "aclrtHostGetDevicePointer failed: 100000 ACL_ERROR_INVALID_PARAM" in str(err)


def test_none_passes_null_for_an_out_parameter(acl: acl_bindings.AclLibrary) -> None:
    assert acl.aclrtMallocHost(64, hostPtr=None, raw=True) == (100000, None)
    ptr = acl.aclrtMallocHost(64)
    assert acl.aclrtHostGetDevicePointer(ptr, 0, pDevice=None, raw=True) == (100000, None)


def test_none_passes_null_for_an_input_pointer(acl: acl_bindings.AclLibrary) -> None:
    assert acl.aclsysGetVersionStr(None, raw=True)[0] == 100000
    assert acl.aclrtMallocHostWithCfg(64, None) == acl.aclrtMallocHost(64)


def test_strings_in_and_out(acl: acl_bindings.AclLibrary) -> None:
    assert acl.aclrtGetSocName() == "Ascend910B3"
    assert acl.aclsysGetVersionStr("runtime") == "runtime 8.5.0"
    assert acl.aclsysGetVersionStr(b"driver") == "driver 8.5.0"


def test_enum_out_parameter_and_handles(acl: acl_bindings.AclLibrary) -> None:
    assert (
        acl.aclrtHostMemMapCapabilities(0, acl_bindings.ACL_RT_HAC_TYPE_AIC)
        == acl_bindings.ACL_RT_HOST_MEM_MAP_SUPPORTED
    )
    assert acl.aclrtHostMemMapCapabilities(0, acl_bindings.ACL_RT_HAC_TYPE_SDMA) == 0
    assert acl.aclrtHostMemMapCapabilities(5, 0, raw=True)[0] == acl_bindings.ACL_ERROR_RT_INVALID_DEVICEID
    stream = acl.aclrtCreateStream()
    assert acl_bindings.address(stream) == 0xABC0
    assert acl.aclrtStreamQuery(stream) == acl_bindings.ACL_STREAM_STATUS_NOT_READY
    assert acl.aclrtStreamQuery(None) == acl_bindings.ACL_STREAM_STATUS_COMPLETE


def test_malloc_config_fills_the_member_the_type_selects(acl: acl_bindings.AclLibrary) -> None:
    cfg = acl_bindings.malloc_config(
        (acl_bindings.ACL_RT_MEM_ATTR_MODULE_ID, 33),
        (acl_bindings.ACL_RT_MEM_ATTR_DEVICE_ID, 7),
        (acl_bindings.ACL_RT_MEM_ATTR_VA_FLAG, 1),
        (9, 0x0102030405060708),
    )
    ptr = acl.aclrtMallocHostWithCfg(64, cfg.ptr)
    assert _text_at(ptr) == (
        "n=4;1:2100000000000000,moduleId=33;2:0700000000000000,deviceId=7"
        ";3:0100000000000000,vaFlag=1;9:0807060504030201"
    )


def test_malloc_config_builds_invalid_configs(acl: acl_bindings.AclLibrary) -> None:
    assert _text_at(acl.aclrtMallocHostWithCfg(64, acl_bindings.malloc_config().ptr)) == "n=0"
    cfg = acl_bindings.malloc_config((acl_bindings.ACL_RT_MEM_ATTR_VA_FLAG, 1), attrs_null=True)
    assert _text_at(acl.aclrtMallocHostWithCfg(64, cfg.ptr)) == "n=1 attrs=NULL"
    cfg = acl_bindings.malloc_config((acl_bindings.ACL_RT_MEM_ATTR_VA_FLAG, 1), num_attrs=0)
    assert _text_at(acl.aclrtMallocHostWithCfg(64, cfg.ptr)) == "n=0"
    assert _text_at(acl.aclrtMallocHostWithCfg(64, None)) == "cfg=NULL"


def test_trace_hook_sees_every_call(acl: acl_bindings.AclLibrary) -> None:
    seen: list[tuple[str, dict[str, Any], Any]] = []
    acl.trace = lambda name, args, result: seen.append((name, args, result))
    ptr = acl.aclrtMallocHost(128)
    acl.aclrtHostGetDevicePointer(ptr, 3, raw=True)
    acl.aclrtGetSocName()
    assert [s[0] for s in seen] == ["aclrtMallocHost", "aclrtHostGetDevicePointer", "aclrtGetSocName"]
    assert seen[0][1]["size"] == 128 and seen[0][2] == 0
    assert seen[1][1]["pHost"] == ptr and seen[1][1]["flag"] == 3 and seen[1][2] == 100000


def test_missing_symbol_fails_only_when_called(acl: acl_bindings.AclLibrary) -> None:
    assert acl.aclrtGetSocName() == "Ascend910B3"
    with pytest.raises(AttributeError, match="aclInit"):
        acl.aclInit(None)


def test_wrappers_cover_every_interface_with_outputs_keyword_only() -> None:
    import inspect

    from codegen.load import load_spec

    spec = load_spec(ROOT / "spec")
    for interface in spec.interfaces:
        method = getattr(acl_bindings.AclLibrary, interface.name)
        params = inspect.signature(method).parameters
        for p in interface.in_params:
            assert params[p.name].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        for p in interface.out_params:
            assert params[p.name].kind is inspect.Parameter.KEYWORD_ONLY
        assert ("raw" in params) == interface.returns_error
