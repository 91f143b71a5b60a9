# Generated from spec 5d3dcfc70eb619e5 by codegen; do not edit. Regenerate: python -m codegen generate
"""Pairing and lifecycle cases: allocate/free and register/unregister pairs and their misuse."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.acl_rule('HM-PAIR-MALLOC-FREE')
@pytest.mark.acl_check('pairing:alloc_free_pair', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'alloc': 'malloc', 'free': 'free'}, None), id='alloc=malloc,free=free'),
        pytest.param(({'alloc': 'malloc', 'free': 'free_devsync'}, None), id='alloc=malloc,free=free_devsync'),
        pytest.param(({'alloc': 'malloc_cfg', 'free': 'free'}, None), id='alloc=malloc_cfg,free=free'),
        pytest.param(({'alloc': 'malloc_cfg', 'free': 'free_devsync'}, None), id='alloc=malloc_cfg,free=free_devsync'),
    ],
)
def test_HM_PAIR_MALLOC_FREE(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Host allocations pair with aclrtFreeHost or aclrtFreeHostWithDevSync"""
    params, expect = case
    acl.run('pairing:alloc_free_pair', expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-DOUBLE-FREE')
@pytest.mark.acl_check('pairing:double_free', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'free': 'free'}, None), id='free=free'),
        pytest.param(({'free': 'free_devsync'}, None), id='free=free_devsync'),
    ],
)
def test_HM_PAIR_DOUBLE_FREE(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Freeing host memory twice fails"""
    params, expect = case
    acl.run('pairing:double_free', expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-FREE-FOREIGN')
@pytest.mark.acl_check('pairing:free_foreign', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'free': 'free', 'pointer': 'interior'}, None), id='free=free,pointer=interior'),
        pytest.param(({'free': 'free', 'pointer': 'never_allocated'}, None), id='free=free,pointer=never_allocated'),
        pytest.param(({'free': 'free_devsync', 'pointer': 'interior'}, None), id='free=free_devsync,pointer=interior'),
        pytest.param(({'free': 'free_devsync', 'pointer': 'never_allocated'}, None), id='free=free_devsync,pointer=never_allocated'),
    ],
)
def test_HM_PAIR_FREE_FOREIGN(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Free rejects host pointers it did not hand out"""
    params, expect = case
    acl.run('pairing:free_foreign', expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-FREE-DEVICE-MEM')
@pytest.mark.acl_check('pairing:free_device_memory', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'free': 'free'}, {'code': 'ACL_ERROR_RT_PARAM_INVALID', 'value': 107000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='free=free'),
        pytest.param(({'free': 'free_devsync'}, {'code': 'ACL_ERROR_RT_PARAM_INVALID', 'value': 107000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='free=free_devsync'),
    ],
)
def test_HM_PAIR_FREE_DEVICE_MEM(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """The host free calls refuse device memory"""
    params, expect = case
    acl.run('pairing:free_device_memory', expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-REG-UNREG')
@pytest.mark.acl_check('pairing:register_unregister', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'v1'}, None), id='api=v1'),
        pytest.param(({'api': 'v2_mapped'}, None), id='api=v2_mapped'),
    ],
)
def test_HM_PAIR_REG_UNREG(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Registration pairs with aclrtHostUnregister"""
    params, expect = case
    acl.run('pairing:register_unregister', expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-DOUBLE-UNREGISTER')
@pytest.mark.acl_check('pairing:double_unregister', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'v1'}, {'code': 'ACL_ERROR_HOST_MEMORY_NOT_REGISTERED', 'value': 507911, 'provenance': 'documented', 'severity': 'mandatory', 'decides': True}), id='api=v1'),
        pytest.param(({'api': 'v2_mapped'}, {'code': 'ACL_ERROR_HOST_MEMORY_NOT_REGISTERED', 'value': 507911, 'provenance': 'documented', 'severity': 'mandatory', 'decides': True}), id='api=v2_mapped'),
    ],
)
def test_HM_PAIR_DOUBLE_UNREGISTER(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Unregistering twice reports the range as not registered"""
    params, expect = case
    acl.run('pairing:double_unregister', expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-UNREG-UNKNOWN')
@pytest.mark.acl_check('pairing:unregister_unknown', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'pointer': 'never_registered'}, {'code': 'ACL_ERROR_HOST_MEMORY_NOT_REGISTERED', 'value': 507911, 'provenance': 'documented', 'severity': 'mandatory', 'decides': True}), id='pointer=never_registered'),
    ],
)
def test_HM_PAIR_UNREG_UNKNOWN(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Unregistering memory that was never registered fails"""
    params, expect = case
    acl.run('pairing:unregister_unknown', expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-UNREG-INTERIOR')
@pytest.mark.acl_check('pairing:unregister_unknown', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'pointer': 'interior'}, {'code': 'ACL_ERROR_HOST_MEMORY_NOT_REGISTERED', 'value': 507911, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='pointer=interior'),
    ],
)
def test_HM_PAIR_UNREG_INTERIOR(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Unregistering a pointer inside a registered range fails and keeps the registration"""
    params, expect = case
    acl.run('pairing:unregister_unknown', expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-DOUBLE-REGISTER')
@pytest.mark.acl_check('pairing:double_register', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'first': 'v1', 'second': 'v2_mapped'}, {'code': 'ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED', 'value': 507910, 'provenance': 'documented', 'severity': 'mandatory', 'decides': True}), id='first=v1,second=v2_mapped'),
        pytest.param(({'first': 'v2_mapped', 'second': 'v2_mapped'}, {'code': 'ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED', 'value': 507910, 'provenance': 'documented', 'severity': 'mandatory', 'decides': True}), id='first=v2_mapped,second=v2_mapped'),
    ],
)
def test_HM_PAIR_DOUBLE_REGISTER(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtHostRegisterV2 of a range registered already fails as already registered"""
    params, expect = case
    acl.run('pairing:double_register', expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-DOUBLE-REGISTER-V1')
@pytest.mark.acl_check('pairing:double_register', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'first': 'v1', 'second': 'v1'}, None), id='first=v1,second=v1'),
        pytest.param(({'first': 'v2_mapped', 'second': 'v1'}, None), id='first=v2_mapped,second=v1'),
    ],
)
def test_HM_PAIR_DOUBLE_REGISTER_V1(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtHostRegister of a range registered already fails"""
    params, expect = case
    acl.run('pairing:double_register', expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-DOUBLE-REGISTER-V1-CODE')
@pytest.mark.acl_check('pairing:double_register_code', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'first': 'v1'}, None), id='first=v1'),
        pytest.param(({'first': 'v2_mapped'}, None), id='first=v2_mapped'),
    ],
)
def test_HM_PAIR_DOUBLE_REGISTER_V1_CODE(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """A repeated aclrtHostRegister answers already registered (docs) or the driver's internal error (driver)"""
    params, expect = case
    acl.run('pairing:double_register_code', expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-OVERLAP-REGISTER')
@pytest.mark.acl_check('pairing:overlap_register', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'overlap': 'head'}, {'code': 'ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED', 'value': 507910, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='overlap=head'),
        pytest.param(({'overlap': 'tail'}, {'code': 'ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED', 'value': 507910, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='overlap=tail'),
        pytest.param(({'overlap': 'inside'}, {'code': 'ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED', 'value': 507910, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='overlap=inside'),
        pytest.param(({'overlap': 'around'}, {'code': 'ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED', 'value': 507910, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='overlap=around'),
    ],
)
def test_HM_PAIR_OVERLAP_REGISTER(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """A V2 registration overlapping a registered range fails"""
    params, expect = case
    acl.run('pairing:overlap_register', expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-OVERLAP-REGISTER-V1')
@pytest.mark.acl_check('pairing:overlap_register_v1', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'first': 'v1', 'overlap': 'interior'}, None), id='first=v1,overlap=interior'),
        pytest.param(({'first': 'v1', 'overlap': 'tail'}, None), id='first=v1,overlap=tail'),
        pytest.param(({'first': 'v2_mapped', 'overlap': 'interior'}, None), id='first=v2_mapped,overlap=interior'),
        pytest.param(({'first': 'v2_mapped', 'overlap': 'tail'}, None), id='first=v2_mapped,overlap=tail'),
    ],
)
def test_HM_PAIR_OVERLAP_REGISTER_V1(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """A V1 registration that starts inside a registered range fails"""
    params, expect = case
    acl.run('pairing:overlap_register_v1', expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-REFUSED-NO-RECORD')
@pytest.mark.acl_check('pairing:refused_leaves_no_record', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'flag': 'iomemory'}, {'code': 'ACL_ERROR_HOST_MEMORY_NOT_REGISTERED', 'value': 507911, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='flag=iomemory'),
        pytest.param(({'flag': 'readonly'}, {'code': 'ACL_ERROR_HOST_MEMORY_NOT_REGISTERED', 'value': 507911, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='flag=readonly'),
    ],
)
def test_HM_PAIR_REFUSED_NO_RECORD(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """A registration the driver refused leaves nothing to unregister"""
    params, expect = case
    acl.run('pairing:refused_leaves_no_record', expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-GETDEVPTR-AFTER-UNREG')
@pytest.mark.acl_check('pairing:devptr_after_unregister', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'v1'}, {'code': 'ACL_ERROR_RT_PARAM_INVALID', 'value': 107000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='api=v1'),
        pytest.param(({'api': 'v2_mapped'}, {'code': 'ACL_ERROR_RT_PARAM_INVALID', 'value': 107000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='api=v2_mapped'),
    ],
)
def test_HM_PAIR_GETDEVPTR_AFTER_UNREG(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """No device pointer after unregistering"""
    params, expect = case
    acl.run('pairing:devptr_after_unregister', expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-FREE-REGISTERED')
@pytest.mark.acl_check('pairing:free_registered', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'v1'}, None), id='api=v1'),
        pytest.param(({'api': 'v2_mapped'}, None), id='api=v2_mapped'),
    ],
)
def test_HM_PAIR_FREE_REGISTERED(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Memory freed while registered leaves no stuck registration"""
    params, expect = case
    acl.run('pairing:free_registered', expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-FREE-WHILE-REGISTERED')
@pytest.mark.acl_check('pairing:free_while_registered', expect=None)
def test_HM_PAIR_FREE_WHILE_REGISTERED(acl: Any) -> None:
    """aclrtFreeHost frees memory that is still registered at once (docs) or refuses it (svm v3 driver)"""
    acl.run('pairing:free_while_registered', expect=None)


@pytest.mark.acl_rule('HM-PAIR-V2-PINNED-ON-PINNED')
@pytest.mark.acl_check('pairing:v2_pinned_on_pinned', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'flag': 'pinned'}, None), id='flag=pinned'),
        pytest.param(({'flag': 'pinned_mapped'}, None), id='flag=pinned_mapped'),
    ],
)
def test_HM_PAIR_V2_PINNED_ON_PINNED(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """V2 PINNED on memory that is already page-locked fails (docs) or succeeds (source)"""
    params, expect = case
    acl.run('pairing:v2_pinned_on_pinned', expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-V2-PINNED-NO-MAPPED')
@pytest.mark.acl_check('pairing:v2_pinned_device_pointer', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'flag': 'pinned'}, {'code': 'ACL_ERROR_RT_PARAM_INVALID', 'value': 107000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='flag=pinned'),
    ],
)
def test_HM_PAIR_V2_PINNED_NO_MAPPED(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """V2 PINNED without MAPPED gives no device pointer"""
    params, expect = case
    acl.run('pairing:v2_pinned_device_pointer', expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-V2-PINNED-MAPPED')
@pytest.mark.acl_check('pairing:v2_pinned_device_pointer', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'flag': 'pinned_mapped'}, None), id='flag=pinned_mapped'),
    ],
)
def test_HM_PAIR_V2_PINNED_MAPPED(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """V2 PINNED|MAPPED on pageable memory gives a device pointer"""
    params, expect = case
    acl.run('pairing:v2_pinned_device_pointer', expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-V2-PINNED-THEN-MAPPED')
@pytest.mark.acl_check('pairing:v2_pinned_then_mapped', expect={'code': 'ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED', 'value': 507910, 'provenance': 'documented', 'severity': 'mandatory', 'decides': True})
def test_HM_PAIR_V2_PINNED_THEN_MAPPED(acl: Any) -> None:
    """A range registered PINNED cannot be registered again as MAPPED"""
    acl.run('pairing:v2_pinned_then_mapped', expect={'code': 'ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED', 'value': 507910, 'provenance': 'documented', 'severity': 'mandatory', 'decides': True})


@pytest.mark.acl_rule('HM-PAIR-V2-PINNED-THEN-MAPPED-KEEPS')
@pytest.mark.acl_check('pairing:v2_pinned_then_mapped_keeps', expect=None)
def test_HM_PAIR_V2_PINNED_THEN_MAPPED_KEEPS(acl: Any) -> None:
    """A refused MAPPED registration of a PINNED-only range leaves it PINNED-only"""
    acl.run('pairing:v2_pinned_then_mapped_keeps', expect=None)


@pytest.mark.acl_rule('HM-PAIR-UNREG-PINNED-ONLY')
@pytest.mark.acl_check('pairing:unregister_pinned_only', expect=None)
def test_HM_PAIR_UNREG_PINNED_ONLY(acl: Any) -> None:
    """aclrtHostUnregister removes a PINNED-only registration"""
    acl.run('pairing:unregister_pinned_only', expect=None)


@pytest.mark.acl_rule('HM-PAIR-CONCURRENT-REGISTER')
@pytest.mark.acl_check('pairing:concurrent_register', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'threads': 8, 'rounds': 20}, None), id='threads=8,rounds=20'),
    ],
)
def test_HM_PAIR_CONCURRENT_REGISTER(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Of threads racing to register one range, exactly one wins"""
    params, expect = case
    acl.run('pairing:concurrent_register', expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-EXHAUSTION')
@pytest.mark.acl_check('pairing:exhaustion', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'chunk': 16777216}, None), id='chunk=16777216'),
    ],
)
def test_HM_PAIR_EXHAUSTION(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Host memory exhaustion fails cleanly and recovers after frees"""
    params, expect = case
    acl.run('pairing:exhaustion', expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-HUGE-SIZE')
@pytest.mark.acl_check('pairing:huge_alloc', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'malloc', 'size': 4611686018427387904}, None), id='api=malloc,size=4611686018427387904'),
        pytest.param(({'api': 'malloc', 'size': 18446744073709551615}, None), id='api=malloc,size=18446744073709551615'),
        pytest.param(({'api': 'malloc_cfg', 'size': 4611686018427387904}, None), id='api=malloc_cfg,size=4611686018427387904'),
        pytest.param(({'api': 'malloc_cfg', 'size': 18446744073709551615}, None), id='api=malloc_cfg,size=18446744073709551615'),
    ],
)
def test_HM_PAIR_HUGE_SIZE(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """An allocation no host can back fails"""
    params, expect = case
    acl.run('pairing:huge_alloc', expect=expect, **params)


@pytest.mark.acl_rule('HM-REG-RESERVED-TYPES')
@pytest.mark.acl_check('pairing:reserved_register_types', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'option': 'v1_readonly'}, {'code': 'ACL_ERROR_RT_FEATURE_NOT_SUPPORT', 'value': 207000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='option=v1_readonly'),
        pytest.param(({'option': 'v2_readonly'}, {'code': 'ACL_ERROR_RT_FEATURE_NOT_SUPPORT', 'value': 207000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='option=v2_readonly'),
        pytest.param(({'option': 'v2_mapped_readonly'}, {'code': 'ACL_ERROR_RT_FEATURE_NOT_SUPPORT', 'value': 207000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='option=v2_mapped_readonly'),
    ],
)
def test_HM_REG_RESERVED_TYPES(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """The reserved READONLY option is not supported yet"""
    params, expect = case
    acl.run('pairing:reserved_register_types', expect=expect, **params)


@pytest.mark.acl_rule('HM-REG-RESERVED-IOMEMORY')
@pytest.mark.acl_check('pairing:reserved_register_types', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'option': 'v1_iomemory'}, None), id='option=v1_iomemory'),
        pytest.param(({'option': 'v2_iomemory'}, None), id='option=v2_iomemory'),
        pytest.param(({'option': 'v2_mapped_iomemory'}, None), id='option=v2_mapped_iomemory'),
    ],
)
def test_HM_REG_RESERVED_IOMEMORY(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """The reserved IOMEMORY option is not supported yet"""
    params, expect = case
    acl.run('pairing:reserved_register_types', expect=expect, **params)


@pytest.mark.acl_rule('HM-REG-PAGEABLE')
@pytest.mark.acl_check('pairing:register_pageable', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'v1'}, None), id='api=v1'),
        pytest.param(({'api': 'v2_mapped'}, None), id='api=v2_mapped'),
    ],
)
def test_HM_REG_PAGEABLE(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """On kernels newer than 5.10 pageable memory can be registered"""
    params, expect = case
    acl.run('pairing:register_pageable', expect=expect, **params)


@pytest.mark.acl_rule('HM-REG-PAGEABLE-4K-ALIGNED')
@pytest.mark.acl_check('pairing:register_pageable_doc_aligned', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'v1'}, None), id='api=v1'),
        pytest.param(({'api': 'v2_mapped'}, None), id='api=v2_mapped'),
    ],
)
def test_HM_REG_PAGEABLE_4K_ALIGNED(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """On a host with pages above 4 KiB, 4 KiB-aligned pageable memory registers (docs) or must be host-page aligned (svm v2 driver)"""
    params, expect = case
    acl.run('pairing:register_pageable_doc_aligned', expect=expect, **params)


@pytest.mark.acl_rule('HM-REG-KERNEL-LEGACY')
@pytest.mark.acl_check('pairing:register_pageable_legacy', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'v1'}, None), id='api=v1'),
        pytest.param(({'api': 'v2_mapped'}, None), id='api=v2_mapped'),
    ],
)
def test_HM_REG_KERNEL_LEGACY(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """On kernels 5.10 and older pageable memory is refused (docs) or registers (svm v2 driver)"""
    params, expect = case
    acl.run('pairing:register_pageable_legacy', expect=expect, **params)


@pytest.mark.acl_rule('HM-REG-ALLOC-BASE')
@pytest.mark.acl_check('pairing:register_alloc_base', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'alloc': 'malloc', 'size': 65536, 'api': 'v1'}, None), id='alloc=malloc,size=65536,api=v1'),
        pytest.param(({'alloc': 'malloc', 'size': 65536, 'api': 'v2_mapped'}, None), id='alloc=malloc,size=65536,api=v2_mapped'),
        pytest.param(({'alloc': 'malloc', 'size': 70000, 'api': 'v1'}, None), id='alloc=malloc,size=70000,api=v1'),
        pytest.param(({'alloc': 'malloc', 'size': 70000, 'api': 'v2_mapped'}, None), id='alloc=malloc,size=70000,api=v2_mapped'),
        pytest.param(({'alloc': 'malloc', 'size': 1048676, 'api': 'v1'}, None), id='alloc=malloc,size=1048676,api=v1'),
        pytest.param(({'alloc': 'malloc', 'size': 1048676, 'api': 'v2_mapped'}, None), id='alloc=malloc,size=1048676,api=v2_mapped'),
        pytest.param(({'alloc': 'malloc_cfg', 'size': 65536, 'api': 'v1'}, None), id='alloc=malloc_cfg,size=65536,api=v1'),
        pytest.param(({'alloc': 'malloc_cfg', 'size': 65536, 'api': 'v2_mapped'}, None), id='alloc=malloc_cfg,size=65536,api=v2_mapped'),
        pytest.param(({'alloc': 'malloc_cfg', 'size': 70000, 'api': 'v1'}, None), id='alloc=malloc_cfg,size=70000,api=v1'),
        pytest.param(({'alloc': 'malloc_cfg', 'size': 70000, 'api': 'v2_mapped'}, None), id='alloc=malloc_cfg,size=70000,api=v2_mapped'),
        pytest.param(({'alloc': 'malloc_cfg', 'size': 1048676, 'api': 'v1'}, None), id='alloc=malloc_cfg,size=1048676,api=v1'),
        pytest.param(({'alloc': 'malloc_cfg', 'size': 1048676, 'api': 'v2_mapped'}, None), id='alloc=malloc_cfg,size=1048676,api=v2_mapped'),
    ],
)
def test_HM_REG_ALLOC_BASE(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """The base of a page-aligned host allocation registers with its exact size"""
    params, expect = case
    acl.run('pairing:register_alloc_base', expect=expect, **params)


@pytest.mark.acl_rule('HM-REG-PAST-END')
@pytest.mark.acl_check('pairing:register_past_end', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'v1'}, None), id='api=v1'),
        pytest.param(({'api': 'v2_mapped'}, None), id='api=v2_mapped'),
    ],
)
def test_HM_REG_PAST_END(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Registering a range that runs past the end of its memory fails"""
    params, expect = case
    acl.run('pairing:register_past_end', expect=expect, **params)


@pytest.mark.acl_rule('HM-REG-UNALIGNED')
@pytest.mark.acl_check('pairing:register_unaligned', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'v1'}, None), id='api=v1'),
        pytest.param(({'api': 'v2_mapped'}, None), id='api=v2_mapped'),
    ],
)
def test_HM_REG_UNALIGNED(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Registering pageable memory at a pointer that is not host-page aligned fails"""
    params, expect = case
    acl.run('pairing:register_unaligned', expect=expect, **params)


@pytest.mark.acl_rule('HM-REG-PROT-READ')
@pytest.mark.acl_check('pairing:register_read_only', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'v1'}, None), id='api=v1'),
        pytest.param(({'api': 'v2_mapped'}, None), id='api=v2_mapped'),
    ],
)
def test_HM_REG_PROT_READ(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Pageable memory the process may only read cannot be registered"""
    params, expect = case
    acl.run('pairing:register_read_only', expect=expect, **params)


@pytest.mark.acl_rule('HM-REG-NEIGHBOURS')
@pytest.mark.acl_check('pairing:register_neighbours', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'v1'}, None), id='api=v1'),
        pytest.param(({'api': 'v2_mapped'}, None), id='api=v2_mapped'),
    ],
)
def test_HM_REG_NEIGHBOURS(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Neighbouring aclrtMallocHost buffers register one after another"""
    params, expect = case
    acl.run('pairing:register_neighbours', expect=expect, **params)


@pytest.mark.acl_rule('HM-REG-NEIGHBOURS-LARGE-PAGE')
@pytest.mark.acl_check('pairing:register_neighbours', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'v1'}, None), id='api=v1'),
        pytest.param(({'api': 'v2_mapped'}, None), id='api=v2_mapped'),
    ],
)
def test_HM_REG_NEIGHBOURS_LARGE_PAGE(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """On a host with pages above 4 KiB, neighbouring aclrtMallocHost buffers register (docs) or the second is refused (svm v2 driver)"""
    params, expect = case
    acl.run('pairing:register_neighbours', expect=expect, **params)


@pytest.mark.acl_rule('HM-REG-SECOND-DEVICE')
@pytest.mark.acl_check('pairing:register_second_device', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'first': 'v1'}, {'code': 'ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED', 'value': 507910, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='first=v1'),
        pytest.param(({'first': 'v2_mapped'}, {'code': 'ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED', 'value': 507910, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': True}), id='first=v2_mapped'),
    ],
)
def test_HM_REG_SECOND_DEVICE(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """A range registered under one device is registered already for aclrtHostRegisterV2 under another"""
    params, expect = case
    acl.run('pairing:register_second_device', expect=expect, **params)


@pytest.mark.acl_rule('HM-FORK-NOT-INHERITED')
@pytest.mark.acl_check('pairing:fork_child_view', expect=None)
def test_HM_FORK_NOT_INHERITED(acl: Any) -> None:
    """A forked child does not inherit aclrtMallocHost memory"""
    acl.run('pairing:fork_child_view', expect=None)

