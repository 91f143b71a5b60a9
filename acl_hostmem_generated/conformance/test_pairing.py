# Generated from spec 124e27884054d455 by codegen; do not edit. Regenerate: python -m codegen generate
"""Pairing and lifecycle cases: allocate/free and register/unregister pairs and their misuse."""

from __future__ import annotations

from typing import Any

import pytest

from conformance.checks import pairing as checks


@pytest.mark.acl_rule('HM-PAIR-MALLOC-FREE')
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
    checks.alloc_free_pair(acl, expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-DOUBLE-FREE')
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'free': 'free'}, {'code': None, 'value': None, 'provenance': 'unspecified', 'strict': False}), id='free=free'),
        pytest.param(({'free': 'free_devsync'}, {'code': None, 'value': None, 'provenance': 'unspecified', 'strict': False}), id='free=free_devsync'),
    ],
)
def test_HM_PAIR_DOUBLE_FREE(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Freeing host memory twice fails"""
    params, expect = case
    checks.double_free(acl, expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-FREE-FOREIGN')
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'free': 'free', 'pointer': 'interior'}, {'code': None, 'value': None, 'provenance': 'unspecified', 'strict': False}), id='free=free,pointer=interior'),
        pytest.param(({'free': 'free', 'pointer': 'never_allocated'}, {'code': None, 'value': None, 'provenance': 'unspecified', 'strict': False}), id='free=free,pointer=never_allocated'),
        pytest.param(({'free': 'free', 'pointer': 'device_memory'}, {'code': None, 'value': None, 'provenance': 'unspecified', 'strict': False}), id='free=free,pointer=device_memory'),
        pytest.param(({'free': 'free_devsync', 'pointer': 'interior'}, {'code': None, 'value': None, 'provenance': 'unspecified', 'strict': False}), id='free=free_devsync,pointer=interior'),
        pytest.param(({'free': 'free_devsync', 'pointer': 'never_allocated'}, {'code': None, 'value': None, 'provenance': 'unspecified', 'strict': False}), id='free=free_devsync,pointer=never_allocated'),
        pytest.param(({'free': 'free_devsync', 'pointer': 'device_memory'}, {'code': None, 'value': None, 'provenance': 'unspecified', 'strict': False}), id='free=free_devsync,pointer=device_memory'),
    ],
)
def test_HM_PAIR_FREE_FOREIGN(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Free rejects pointers it did not hand out"""
    params, expect = case
    checks.free_foreign(acl, expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-REG-UNREG')
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
    checks.register_unregister(acl, expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-DOUBLE-UNREGISTER')
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'v1'}, {'code': 'ACL_ERROR_HOST_MEMORY_NOT_REGISTERED', 'value': 507911, 'provenance': 'runtime-source', 'strict': True}), id='api=v1'),
        pytest.param(({'api': 'v2_mapped'}, {'code': 'ACL_ERROR_HOST_MEMORY_NOT_REGISTERED', 'value': 507911, 'provenance': 'runtime-source', 'strict': True}), id='api=v2_mapped'),
    ],
)
def test_HM_PAIR_DOUBLE_UNREGISTER(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Unregistering twice reports the range as not registered"""
    params, expect = case
    checks.double_unregister(acl, expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-UNREG-UNKNOWN')
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'pointer': 'never_registered'}, {'code': 'ACL_ERROR_HOST_MEMORY_NOT_REGISTERED', 'value': 507911, 'provenance': 'runtime-source', 'strict': True}), id='pointer=never_registered'),
        pytest.param(({'pointer': 'interior'}, {'code': 'ACL_ERROR_HOST_MEMORY_NOT_REGISTERED', 'value': 507911, 'provenance': 'runtime-source', 'strict': True}), id='pointer=interior'),
    ],
)
def test_HM_PAIR_UNREG_UNKNOWN(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Unregistering memory that was never registered, or an interior pointer, fails"""
    params, expect = case
    checks.unregister_unknown(acl, expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-DOUBLE-REGISTER')
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'first': 'v1', 'second': 'v1'}, {'code': 'ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED', 'value': 507910, 'provenance': 'runtime-source', 'strict': True}), id='first=v1,second=v1'),
        pytest.param(({'first': 'v1', 'second': 'v2_mapped'}, {'code': 'ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED', 'value': 507910, 'provenance': 'runtime-source', 'strict': True}), id='first=v1,second=v2_mapped'),
        pytest.param(({'first': 'v2_mapped', 'second': 'v1'}, {'code': 'ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED', 'value': 507910, 'provenance': 'runtime-source', 'strict': True}), id='first=v2_mapped,second=v1'),
        pytest.param(({'first': 'v2_mapped', 'second': 'v2_mapped'}, {'code': 'ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED', 'value': 507910, 'provenance': 'runtime-source', 'strict': True}), id='first=v2_mapped,second=v2_mapped'),
    ],
)
def test_HM_PAIR_DOUBLE_REGISTER(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Registering the same range twice fails as already registered"""
    params, expect = case
    checks.double_register(acl, expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-OVERLAP-REGISTER')
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'overlap': 'head'}, {'code': None, 'value': None, 'provenance': 'unspecified', 'strict': False}), id='overlap=head'),
        pytest.param(({'overlap': 'tail'}, {'code': None, 'value': None, 'provenance': 'unspecified', 'strict': False}), id='overlap=tail'),
        pytest.param(({'overlap': 'inside'}, {'code': None, 'value': None, 'provenance': 'unspecified', 'strict': False}), id='overlap=inside'),
        pytest.param(({'overlap': 'around'}, {'code': None, 'value': None, 'provenance': 'unspecified', 'strict': False}), id='overlap=around'),
    ],
)
def test_HM_PAIR_OVERLAP_REGISTER(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Registering a range that overlaps a registered one fails"""
    params, expect = case
    checks.overlap_register(acl, expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-GETDEVPTR-AFTER-UNREG')
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'v1'}, {'code': None, 'value': None, 'provenance': 'unspecified', 'strict': False}), id='api=v1'),
        pytest.param(({'api': 'v2_mapped'}, {'code': None, 'value': None, 'provenance': 'unspecified', 'strict': False}), id='api=v2_mapped'),
    ],
)
def test_HM_PAIR_GETDEVPTR_AFTER_UNREG(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """No device pointer after unregistering"""
    params, expect = case
    checks.devptr_after_unregister(acl, expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-V2-PINNED-ON-PINNED')
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'flag': 'pinned'}, {'code': None, 'value': None, 'provenance': 'documented', 'strict': False}), id='flag=pinned'),
        pytest.param(({'flag': 'pinned_mapped'}, {'code': None, 'value': None, 'provenance': 'documented', 'strict': False}), id='flag=pinned_mapped'),
    ],
)
def test_HM_PAIR_V2_PINNED_ON_PINNED(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """V2 PINNED is refused for memory that is already page-locked"""
    params, expect = case
    checks.v2_pinned_on_pinned(acl, expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-V2-PINNED-NO-MAPPED')
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'flag': 'pinned'}, {'code': None, 'value': None, 'provenance': 'unspecified', 'strict': False}), id='flag=pinned'),
        pytest.param(({'flag': 'pinned_mapped'}, {'code': None, 'value': None, 'provenance': 'unspecified', 'strict': False}), id='flag=pinned_mapped'),
    ],
)
def test_HM_PAIR_V2_PINNED_NO_MAPPED(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """V2 PINNED without MAPPED gives no device pointer"""
    params, expect = case
    checks.v2_pinned_no_mapped(acl, expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-CONCURRENT-REGISTER')
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'threads': 8, 'rounds': 20}, {'code': 'ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED', 'value': 507910, 'provenance': 'runtime-source', 'strict': True}), id='threads=8,rounds=20'),
    ],
)
def test_HM_PAIR_CONCURRENT_REGISTER(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Of threads racing to register one range, exactly one wins"""
    params, expect = case
    checks.concurrent_register(acl, expect=expect, **params)


@pytest.mark.acl_rule('HM-PAIR-EXHAUSTION')
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'chunk': 16777216}, {'code': None, 'value': None, 'provenance': 'unspecified', 'strict': False}), id='chunk=16777216'),
    ],
)
def test_HM_PAIR_EXHAUSTION(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Host memory exhaustion fails cleanly and recovers after frees"""
    params, expect = case
    checks.exhaustion(acl, expect=expect, **params)


@pytest.mark.acl_rule('HM-REG-RESERVED-TYPES')
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'v1', 'option': 'iomemory'}, {'code': None, 'value': None, 'provenance': 'documented', 'strict': False}), id='api=v1,option=iomemory'),
        pytest.param(({'api': 'v1', 'option': 'readonly'}, {'code': None, 'value': None, 'provenance': 'documented', 'strict': False}), id='api=v1,option=readonly'),
        pytest.param(({'api': 'v2', 'option': 'iomemory'}, {'code': None, 'value': None, 'provenance': 'documented', 'strict': False}), id='api=v2,option=iomemory'),
        pytest.param(({'api': 'v2', 'option': 'readonly'}, {'code': None, 'value': None, 'provenance': 'documented', 'strict': False}), id='api=v2,option=readonly'),
    ],
)
def test_HM_REG_RESERVED_TYPES(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Reserved registration types are not supported yet"""
    params, expect = case
    checks.reserved_register_types(acl, expect=expect, **params)


@pytest.mark.acl_rule('HM-REG-PAGEABLE')
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
    checks.register_pageable(acl, expect=expect, **params)


@pytest.mark.acl_rule('HM-REG-KERNEL-LEGACY')
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'v1'}, {'code': 'ACL_ERROR_RT_DRV_INTERNAL_ERROR', 'value': 507899, 'provenance': 'field-report', 'strict': True}), id='api=v1'),
        pytest.param(({'api': 'v2_mapped'}, {'code': 'ACL_ERROR_RT_DRV_INTERNAL_ERROR', 'value': 507899, 'provenance': 'field-report', 'strict': True}), id='api=v2_mapped'),
    ],
)
def test_HM_REG_KERNEL_LEGACY(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """On kernels 5.10 and older only aclrtMallocHost memory can be registered"""
    params, expect = case
    checks.register_pageable_legacy(acl, expect=expect, **params)

