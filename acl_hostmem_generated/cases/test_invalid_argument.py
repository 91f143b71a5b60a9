# Generated from spec 5d3dcfc70eb619e5 by codegen; do not edit. Regenerate: python -m codegen generate
"""Invalid-argument cases: each bad argument gets its documented error, with every other argument valid."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.acl_rule('HM-INVAL-MALLOC-HOST')
@pytest.mark.acl_check('invalid_argument:invalid_argument', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'interface': 'aclrtMallocHost', 'param': 'hostPtr', 'condition': 'is_null', 'value': True}, {'code': 'ACL_ERROR_INVALID_PARAM', 'value': 100000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='hostPtr=NULL'),
        pytest.param(({'interface': 'aclrtMallocHost', 'param': 'size', 'condition': 'equals', 'value': 0}, {'code': 'ACL_ERROR_INVALID_PARAM', 'value': 100000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='size=0'),
    ],
)
def test_HM_INVAL_MALLOC_HOST(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtMallocHost rejects a NULL output pointer and size 0"""
    params, expect = case
    acl.run('invalid_argument:invalid_argument', expect=expect, **params)


@pytest.mark.acl_rule('HM-INVAL-MALLOC-CFG')
@pytest.mark.acl_check('invalid_argument:invalid_argument', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'interface': 'aclrtMallocHostWithCfg', 'param': 'ptr', 'condition': 'is_null', 'value': True}, {'code': 'ACL_ERROR_INVALID_PARAM', 'value': 100000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='ptr=NULL'),
        pytest.param(({'interface': 'aclrtMallocHostWithCfg', 'param': 'size', 'condition': 'equals', 'value': 0}, {'code': 'ACL_ERROR_INVALID_PARAM', 'value': 100000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='size=0'),
        pytest.param(({'interface': 'aclrtMallocHostWithCfg', 'param': 'cfg', 'condition': 'config', 'value': 'attrs_null'}, {'code': 'ACL_ERROR_RT_PARAM_INVALID', 'value': 107000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='cfg=attrs_null'),
        pytest.param(({'interface': 'aclrtMallocHostWithCfg', 'param': 'cfg', 'condition': 'config', 'value': 'attrs_null_empty'}, {'code': 'ACL_ERROR_RT_PARAM_INVALID', 'value': 107000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='cfg=attrs_null_empty'),
        pytest.param(({'interface': 'aclrtMallocHostWithCfg', 'param': 'cfg', 'condition': 'config', 'value': 'attr_reserved'}, {'code': 'ACL_ERROR_RT_PARAM_INVALID', 'value': 107000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='cfg=attr_reserved'),
        pytest.param(({'interface': 'aclrtMallocHostWithCfg', 'param': 'cfg', 'condition': 'config', 'value': 'attr_unknown'}, {'code': 'ACL_ERROR_RT_PARAM_INVALID', 'value': 107000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='cfg=attr_unknown'),
    ],
)
def test_HM_INVAL_MALLOC_CFG(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtMallocHostWithCfg rejects bad pointers, sizes and configurations"""
    params, expect = case
    acl.run('invalid_argument:invalid_argument', expect=expect, **params)


@pytest.mark.acl_rule('HM-INVAL-CFG-OTHER-DEVICE')
@pytest.mark.acl_check('invalid_argument:invalid_argument', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'interface': 'aclrtMallocHostWithCfg', 'param': 'cfg', 'condition': 'config', 'value': 'other_device'}, {'code': 'ACL_ERROR_RT_PARAM_INVALID', 'value': 107000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': False}), id='cfg=other_device'),
    ],
)
def test_HM_INVAL_CFG_OTHER_DEVICE(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """A DEVICE_ID attribute naming another device is refused"""
    params, expect = case
    acl.run('invalid_argument:invalid_argument', expect=expect, **params)


@pytest.mark.acl_rule('HM-INVAL-FREE-HOST')
@pytest.mark.acl_check('invalid_argument:invalid_argument', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'interface': 'aclrtFreeHost', 'param': 'hostPtr', 'condition': 'is_null', 'value': True}, {'code': 'ACL_ERROR_INVALID_PARAM', 'value': 100000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='hostPtr=NULL'),
    ],
)
def test_HM_INVAL_FREE_HOST(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtFreeHost rejects NULL"""
    params, expect = case
    acl.run('invalid_argument:invalid_argument', expect=expect, **params)


@pytest.mark.acl_rule('HM-INVAL-FREE-DEVSYNC')
@pytest.mark.acl_check('invalid_argument:invalid_argument', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'interface': 'aclrtFreeHostWithDevSync', 'param': 'hostPtr', 'condition': 'is_null', 'value': True}, {'code': 'ACL_ERROR_INVALID_PARAM', 'value': 100000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='hostPtr=NULL'),
    ],
)
def test_HM_INVAL_FREE_DEVSYNC(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtFreeHostWithDevSync rejects NULL"""
    params, expect = case
    acl.run('invalid_argument:invalid_argument', expect=expect, **params)


@pytest.mark.acl_rule('HM-INVAL-REGISTER')
@pytest.mark.acl_check('invalid_argument:invalid_argument', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'interface': 'aclrtHostRegister', 'param': 'ptr', 'condition': 'is_null', 'value': True}, {'code': 'ACL_ERROR_INVALID_PARAM', 'value': 100000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='ptr=NULL'),
        pytest.param(({'interface': 'aclrtHostRegister', 'param': 'size', 'condition': 'equals', 'value': 0}, {'code': 'ACL_ERROR_INVALID_PARAM', 'value': 100000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='size=0'),
        pytest.param(({'interface': 'aclrtHostRegister', 'param': 'devPtr', 'condition': 'is_null', 'value': True}, {'code': 'ACL_ERROR_INVALID_PARAM', 'value': 100000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='devPtr=NULL'),
        pytest.param(({'interface': 'aclrtHostRegister', 'param': 'type', 'condition': 'equals', 'value': 1}, {'code': 'ACL_ERROR_RT_FEATURE_NOT_SUPPORT', 'value': 207000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='type=1'),
        pytest.param(({'interface': 'aclrtHostRegister', 'param': 'type', 'condition': 'equals', 'value': 2147483647}, {'code': 'ACL_ERROR_RT_FEATURE_NOT_SUPPORT', 'value': 207000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='type=0x7fffffff'),
    ],
)
def test_HM_INVAL_REGISTER(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtHostRegister rejects bad pointers, sizes and types"""
    params, expect = case
    acl.run('invalid_argument:invalid_argument', expect=expect, **params)


@pytest.mark.acl_rule('HM-INVAL-REGISTER-V2')
@pytest.mark.acl_check('invalid_argument:invalid_argument', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'interface': 'aclrtHostRegisterV2', 'param': 'ptr', 'condition': 'is_null', 'value': True}, {'code': 'ACL_ERROR_INVALID_PARAM', 'value': 100000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='ptr=NULL'),
        pytest.param(({'interface': 'aclrtHostRegisterV2', 'param': 'size', 'condition': 'equals', 'value': 0}, {'code': 'ACL_ERROR_INVALID_PARAM', 'value': 100000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='size=0'),
        pytest.param(({'interface': 'aclrtHostRegisterV2', 'param': 'flag', 'condition': 'equals', 'value': 0}, {'code': 'ACL_ERROR_RT_PARAM_INVALID', 'value': 107000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='flag=0'),
        pytest.param(({'interface': 'aclrtHostRegisterV2', 'param': 'flag', 'condition': 'equals', 'value': 1}, {'code': 'ACL_ERROR_RT_PARAM_INVALID', 'value': 107000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='flag=1'),
        pytest.param(({'interface': 'aclrtHostRegisterV2', 'param': 'flag', 'condition': 'equals', 'value': 536870914}, {'code': 'ACL_ERROR_RT_PARAM_INVALID', 'value': 107000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='flag=0x20000002'),
    ],
)
def test_HM_INVAL_REGISTER_V2(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtHostRegisterV2 rejects bad pointers, sizes and flags"""
    params, expect = case
    acl.run('invalid_argument:invalid_argument', expect=expect, **params)


@pytest.mark.acl_rule('HM-INVAL-GETDEVPTR')
@pytest.mark.acl_check('invalid_argument:invalid_argument', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'interface': 'aclrtHostGetDevicePointer', 'param': 'pHost', 'condition': 'is_null', 'value': True}, {'code': 'ACL_ERROR_INVALID_PARAM', 'value': 100000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='pHost=NULL'),
        pytest.param(({'interface': 'aclrtHostGetDevicePointer', 'param': 'pDevice', 'condition': 'is_null', 'value': True}, {'code': 'ACL_ERROR_INVALID_PARAM', 'value': 100000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='pDevice=NULL'),
        pytest.param(({'interface': 'aclrtHostGetDevicePointer', 'param': 'flag', 'condition': 'equals', 'value': 1}, {'code': 'ACL_ERROR_INVALID_PARAM', 'value': 100000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='flag=1'),
        pytest.param(({'interface': 'aclrtHostGetDevicePointer', 'param': 'flag', 'condition': 'equals', 'value': 2147483648}, {'code': 'ACL_ERROR_INVALID_PARAM', 'value': 100000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='flag=0x80000000'),
        pytest.param(({'interface': 'aclrtHostGetDevicePointer', 'param': 'pHost', 'condition': 'unregistered', 'value': True}, {'code': 'ACL_ERROR_RT_PARAM_INVALID', 'value': 107000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='pHost=unregistered'),
    ],
)
def test_HM_INVAL_GETDEVPTR(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtHostGetDevicePointer rejects NULL pointers, a non-zero flag and unregistered memory"""
    params, expect = case
    acl.run('invalid_argument:invalid_argument', expect=expect, **params)


@pytest.mark.acl_rule('HM-INVAL-UNREGISTER')
@pytest.mark.acl_check('invalid_argument:invalid_argument', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'interface': 'aclrtHostUnregister', 'param': 'ptr', 'condition': 'is_null', 'value': True}, {'code': 'ACL_ERROR_INVALID_PARAM', 'value': 100000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='ptr=NULL'),
    ],
)
def test_HM_INVAL_UNREGISTER(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtHostUnregister rejects NULL"""
    params, expect = case
    acl.run('invalid_argument:invalid_argument', expect=expect, **params)


@pytest.mark.acl_rule('HM-INVAL-CAPABILITIES')
@pytest.mark.acl_check('invalid_argument:invalid_argument', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'interface': 'aclrtHostMemMapCapabilities', 'param': 'capabilities', 'condition': 'is_null', 'value': True}, {'code': 'ACL_ERROR_INVALID_PARAM', 'value': 100000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='capabilities=NULL'),
        pytest.param(({'interface': 'aclrtHostMemMapCapabilities', 'param': 'deviceId', 'condition': 'equals', 'value': '@device_count'}, {'code': 'ACL_ERROR_RT_INVALID_DEVICEID', 'value': 107001, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='deviceId=device_count'),
        pytest.param(({'interface': 'aclrtHostMemMapCapabilities', 'param': 'deviceId', 'condition': 'equals', 'value': 4294967295}, {'code': 'ACL_ERROR_RT_INVALID_DEVICEID', 'value': 107001, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='deviceId=0xffffffff'),
        pytest.param(({'interface': 'aclrtHostMemMapCapabilities', 'param': 'hacType', 'condition': 'equals', 'value': 10}, {'code': 'ACL_ERROR_RT_PARAM_INVALID', 'value': 107000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='hacType=10'),
        pytest.param(({'interface': 'aclrtHostMemMapCapabilities', 'param': 'hacType', 'condition': 'equals', 'value': 2147483647}, {'code': 'ACL_ERROR_RT_PARAM_INVALID', 'value': 107000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='hacType=0x7fffffff'),
    ],
)
def test_HM_INVAL_CAPABILITIES(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtHostMemMapCapabilities rejects a NULL output, a bad device and a bad HAC type"""
    params, expect = case
    acl.run('invalid_argument:invalid_argument', expect=expect, **params)


@pytest.mark.acl_rule('HM-CTX-NO-DEVICE')
@pytest.mark.acl_check('invalid_argument:no_device', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'call': 'aclrtMallocHost'}, {'code': 'ACL_ERROR_RT_CONTEXT_NULL', 'value': 107002, 'provenance': 'documented', 'severity': 'recommended', 'decides': True}), id='call=aclrtMallocHost'),
        pytest.param(({'call': 'aclrtMallocHostWithCfg'}, {'code': 'ACL_ERROR_RT_CONTEXT_NULL', 'value': 107002, 'provenance': 'documented', 'severity': 'recommended', 'decides': True}), id='call=aclrtMallocHostWithCfg'),
        pytest.param(({'call': 'aclrtHostRegister'}, {'code': 'ACL_ERROR_RT_CONTEXT_NULL', 'value': 107002, 'provenance': 'documented', 'severity': 'recommended', 'decides': True}), id='call=aclrtHostRegister'),
        pytest.param(({'call': 'aclrtHostRegisterV2'}, {'code': 'ACL_ERROR_RT_CONTEXT_NULL', 'value': 107002, 'provenance': 'documented', 'severity': 'recommended', 'decides': True}), id='call=aclrtHostRegisterV2'),
        pytest.param(({'call': 'aclrtHostGetDevicePointer'}, {'code': 'ACL_ERROR_RT_CONTEXT_NULL', 'value': 107002, 'provenance': 'documented', 'severity': 'recommended', 'decides': True}), id='call=aclrtHostGetDevicePointer'),
        pytest.param(({'call': 'aclrtHostUnregister'}, {'code': 'ACL_ERROR_RT_CONTEXT_NULL', 'value': 107002, 'provenance': 'documented', 'severity': 'recommended', 'decides': True}), id='call=aclrtHostUnregister'),
        pytest.param(({'call': 'aclrtHostMemMapCapabilities'}, {'code': 'ACL_ERROR_RT_CONTEXT_NULL', 'value': 107002, 'provenance': 'documented', 'severity': 'recommended', 'decides': True}), id='call=aclrtHostMemMapCapabilities'),
        pytest.param(({'call': 'aclrtFreeHostWithDevSync'}, {'code': 'ACL_ERROR_RT_CONTEXT_NULL', 'value': 107002, 'provenance': 'documented', 'severity': 'recommended', 'decides': True}), id='call=aclrtFreeHostWithDevSync'),
    ],
)
def test_HM_CTX_NO_DEVICE(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Host-memory calls that need a context fail on a thread without one"""
    params, expect = case
    acl.run('invalid_argument:no_device', expect=expect, **params)


@pytest.mark.acl_rule('HM-CTX-FREE-WITHOUT-CONTEXT')
@pytest.mark.acl_check('invalid_argument:free_without_context', expect=None)
def test_HM_CTX_FREE_WITHOUT_CONTEXT(acl: Any) -> None:
    """aclrtFreeHost needs no current context"""
    acl.run('invalid_argument:free_without_context', expect=None)


@pytest.mark.acl_rule('HM-CTX-OTHER-DEVICE')
@pytest.mark.acl_check('invalid_argument:other_device_registration', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'op': 'devptr'}, None), id='op=devptr'),
        pytest.param(({'op': 'unregister'}, None), id='op=unregister'),
    ],
)
def test_HM_CTX_OTHER_DEVICE(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """A registration used under another device behaves consistently"""
    params, expect = case
    acl.run('invalid_argument:other_device_registration', expect=expect, **params)

