# Generated from spec 5d3dcfc70eb619e5 by codegen; do not edit. Regenerate: python -m codegen generate
"""Alignment cases: every successful host allocation is 64-byte aligned."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.acl_rule('HM-ALIGN-MALLOC')
@pytest.mark.acl_check('alignment:alloc_alignment', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'malloc', 'cfg': 'null_cfg', 'size': 1}, None), id='api=malloc,cfg=null_cfg,size=1'),
        pytest.param(({'api': 'malloc', 'cfg': 'null_cfg', 'size': 63}, None), id='api=malloc,cfg=null_cfg,size=63'),
        pytest.param(({'api': 'malloc', 'cfg': 'null_cfg', 'size': 64}, None), id='api=malloc,cfg=null_cfg,size=64'),
        pytest.param(({'api': 'malloc', 'cfg': 'null_cfg', 'size': 65}, None), id='api=malloc,cfg=null_cfg,size=65'),
        pytest.param(({'api': 'malloc', 'cfg': 'null_cfg', 'size': 4095}, None), id='api=malloc,cfg=null_cfg,size=4095'),
        pytest.param(({'api': 'malloc', 'cfg': 'null_cfg', 'size': 4096}, None), id='api=malloc,cfg=null_cfg,size=4096'),
        pytest.param(({'api': 'malloc', 'cfg': 'null_cfg', 'size': 4097}, None), id='api=malloc,cfg=null_cfg,size=4097'),
        pytest.param(({'api': 'malloc', 'cfg': 'null_cfg', 'size': 1048575}, None), id='api=malloc,cfg=null_cfg,size=1048575'),
        pytest.param(({'api': 'malloc', 'cfg': 'null_cfg', 'size': 1048576}, None), id='api=malloc,cfg=null_cfg,size=1048576'),
        pytest.param(({'api': 'malloc', 'cfg': 'null_cfg', 'size': 1048577}, None), id='api=malloc,cfg=null_cfg,size=1048577'),
        pytest.param(({'api': 'malloc', 'cfg': 'null_cfg', 'size': 2097152}, None), id='api=malloc,cfg=null_cfg,size=2097152'),
        pytest.param(({'api': 'malloc', 'cfg': 'null_cfg', 'size': 67108864}, None), id='api=malloc,cfg=null_cfg,size=67108864'),
        pytest.param(({'api': 'malloc', 'cfg': 'null_cfg', 'size': 'sampled'}, None), id='api=malloc,cfg=null_cfg,size=sampled'),
    ],
)
def test_HM_ALIGN_MALLOC(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtMallocHost returns a 64-byte aligned pointer"""
    params, expect = case
    acl.run('alignment:alloc_alignment', expect=expect, **params)


@pytest.mark.acl_rule('HM-ALIGN-MALLOC-CFG')
@pytest.mark.acl_check('alignment:alloc_alignment', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'null_cfg', 'size': 1}, None), id='api=malloc_cfg,cfg=null_cfg,size=1'),
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'null_cfg', 'size': 65}, None), id='api=malloc_cfg,cfg=null_cfg,size=65'),
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'null_cfg', 'size': 4097}, None), id='api=malloc_cfg,cfg=null_cfg,size=4097'),
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'null_cfg', 'size': 1048577}, None), id='api=malloc_cfg,cfg=null_cfg,size=1048577'),
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'null_cfg', 'size': 'sampled'}, None), id='api=malloc_cfg,cfg=null_cfg,size=sampled'),
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'empty', 'size': 1}, None), id='api=malloc_cfg,cfg=empty,size=1'),
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'empty', 'size': 65}, None), id='api=malloc_cfg,cfg=empty,size=65'),
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'empty', 'size': 4097}, None), id='api=malloc_cfg,cfg=empty,size=4097'),
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'empty', 'size': 1048577}, None), id='api=malloc_cfg,cfg=empty,size=1048577'),
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'empty', 'size': 'sampled'}, None), id='api=malloc_cfg,cfg=empty,size=sampled'),
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'module_id', 'size': 1}, None), id='api=malloc_cfg,cfg=module_id,size=1'),
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'module_id', 'size': 65}, None), id='api=malloc_cfg,cfg=module_id,size=65'),
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'module_id', 'size': 4097}, None), id='api=malloc_cfg,cfg=module_id,size=4097'),
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'module_id', 'size': 1048577}, None), id='api=malloc_cfg,cfg=module_id,size=1048577'),
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'module_id', 'size': 'sampled'}, None), id='api=malloc_cfg,cfg=module_id,size=sampled'),
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'va_flag_0', 'size': 1}, None), id='api=malloc_cfg,cfg=va_flag_0,size=1'),
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'va_flag_0', 'size': 65}, None), id='api=malloc_cfg,cfg=va_flag_0,size=65'),
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'va_flag_0', 'size': 4097}, None), id='api=malloc_cfg,cfg=va_flag_0,size=4097'),
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'va_flag_0', 'size': 1048577}, None), id='api=malloc_cfg,cfg=va_flag_0,size=1048577'),
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'va_flag_0', 'size': 'sampled'}, None), id='api=malloc_cfg,cfg=va_flag_0,size=sampled'),
    ],
)
def test_HM_ALIGN_MALLOC_CFG(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtMallocHostWithCfg returns a 64-byte aligned pointer for every configuration"""
    params, expect = case
    acl.run('alignment:alloc_alignment', expect=expect, **params)


@pytest.mark.acl_rule('HM-ALIGN-LIVE')
@pytest.mark.acl_check('alignment:live_alignment', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'malloc', 'size': 1, 'count': 256}, None), id='api=malloc,size=1,count=256'),
        pytest.param(({'api': 'malloc', 'size': 100, 'count': 256}, None), id='api=malloc,size=100,count=256'),
        pytest.param(({'api': 'malloc', 'size': 4097, 'count': 256}, None), id='api=malloc,size=4097,count=256'),
        pytest.param(({'api': 'malloc_cfg', 'size': 1, 'count': 256}, None), id='api=malloc_cfg,size=1,count=256'),
        pytest.param(({'api': 'malloc_cfg', 'size': 100, 'count': 256}, None), id='api=malloc_cfg,size=100,count=256'),
        pytest.param(({'api': 'malloc_cfg', 'size': 4097, 'count': 256}, None), id='api=malloc_cfg,size=4097,count=256'),
    ],
)
def test_HM_ALIGN_LIVE(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Many live allocations never share a byte"""
    params, expect = case
    acl.run('alignment:live_alignment', expect=expect, **params)


@pytest.mark.acl_rule('HM-FORM-RUN-MODE')
@pytest.mark.acl_check('alignment:run_mode_host', expect=None)
def test_HM_FORM_RUN_MODE(acl: Any) -> None:
    """Where the docs rule out the device run mode, aclrtGetRunMode answers ACL_HOST"""
    acl.run('alignment:run_mode_host', expect=None)


@pytest.mark.acl_rule('HM-CFG-DEVICE-ID-MATCHING')
@pytest.mark.acl_check('alignment:config_accepted', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'device_id', 'size': 4097}, None), id='api=malloc_cfg,cfg=device_id,size=4097'),
    ],
)
def test_HM_CFG_DEVICE_ID_MATCHING(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """A DEVICE_ID attribute naming the current device is accepted (docs) or refused (source)"""
    params, expect = case
    acl.run('alignment:config_accepted', expect=expect, **params)


@pytest.mark.acl_rule('HM-CFG-MULTI-ATTR')
@pytest.mark.acl_check('alignment:config_accepted', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'module_and_va0', 'size': 65}, None), id='api=malloc_cfg,cfg=module_and_va0,size=65'),
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'module_and_va0', 'size': 4097}, None), id='api=malloc_cfg,cfg=module_and_va0,size=4097'),
    ],
)
def test_HM_CFG_MULTI_ATTR(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """A configuration may carry several attributes"""
    params, expect = case
    acl.run('alignment:config_accepted', expect=expect, **params)


@pytest.mark.acl_rule('HM-CFG-DUPLICATE-ATTR')
@pytest.mark.acl_check('alignment:config_accepted', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'malloc_cfg', 'cfg': 'module_id_twice', 'size': 4097}, None), id='api=malloc_cfg,cfg=module_id_twice,size=4097'),
    ],
)
def test_HM_CFG_DUPLICATE_ATTR(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """A repeated attribute is accepted, the last value winning"""
    params, expect = case
    acl.run('alignment:config_accepted', expect=expect, **params)


@pytest.mark.acl_rule('HM-ALIGN-MALLOC-FALLBACK')
@pytest.mark.acl_check('alignment:alloc_alignment', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'malloc', 'cfg': 'null_cfg', 'size': 1}, None), id='api=malloc,cfg=null_cfg,size=1'),
        pytest.param(({'api': 'malloc', 'cfg': 'null_cfg', 'size': 24}, None), id='api=malloc,cfg=null_cfg,size=24'),
        pytest.param(({'api': 'malloc', 'cfg': 'null_cfg', 'size': 100}, None), id='api=malloc,cfg=null_cfg,size=100'),
        pytest.param(({'api': 'malloc', 'cfg': 'null_cfg', 'size': 4097}, None), id='api=malloc,cfg=null_cfg,size=4097'),
    ],
)
def test_HM_ALIGN_MALLOC_FALLBACK(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """On the driver's malloc fallback, aclrtMallocHost memory is still 64-byte aligned (docs) or malloc-aligned (driver)"""
    params, expect = case
    acl.run('alignment:alloc_alignment', expect=expect, **params)

