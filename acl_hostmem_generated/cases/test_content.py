# Generated from spec 5d3dcfc70eb619e5 by codegen; do not edit. Regenerate: python -m codegen generate
"""Content cases: full-range access, aclrtMemset initialisation, content untouched by registration and by freeing neighbours."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.acl_rule('HM-CONTENT-RW-FULL')
@pytest.mark.acl_check('content:full_range_rw', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'malloc', 'size': 1}, None), id='api=malloc,size=1'),
        pytest.param(({'api': 'malloc', 'size': 64}, None), id='api=malloc,size=64'),
        pytest.param(({'api': 'malloc', 'size': 4097}, None), id='api=malloc,size=4097'),
        pytest.param(({'api': 'malloc', 'size': 65536}, None), id='api=malloc,size=65536'),
        pytest.param(({'api': 'malloc', 'size': 1048577}, None), id='api=malloc,size=1048577'),
        pytest.param(({'api': 'malloc', 'size': 'sampled'}, None), id='api=malloc,size=sampled'),
        pytest.param(({'api': 'malloc_cfg', 'size': 1}, None), id='api=malloc_cfg,size=1'),
        pytest.param(({'api': 'malloc_cfg', 'size': 64}, None), id='api=malloc_cfg,size=64'),
        pytest.param(({'api': 'malloc_cfg', 'size': 4097}, None), id='api=malloc_cfg,size=4097'),
        pytest.param(({'api': 'malloc_cfg', 'size': 65536}, None), id='api=malloc_cfg,size=65536'),
        pytest.param(({'api': 'malloc_cfg', 'size': 1048577}, None), id='api=malloc_cfg,size=1048577'),
        pytest.param(({'api': 'malloc_cfg', 'size': 'sampled'}, None), id='api=malloc_cfg,size=sampled'),
    ],
)
def test_HM_CONTENT_RW_FULL(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """The whole allocated range is writable and reads back what was written"""
    params, expect = case
    acl.run('content:full_range_rw', expect=expect, **params)


@pytest.mark.acl_rule('HM-CONTENT-MEMSET')
@pytest.mark.acl_check('content:memset_init', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'size': 64, 'value': 0}, None), id='size=64,value=0'),
        pytest.param(({'size': 64, 'value': 90}, None), id='size=64,value=90'),
        pytest.param(({'size': 4097, 'value': 0}, None), id='size=4097,value=0'),
        pytest.param(({'size': 4097, 'value': 90}, None), id='size=4097,value=90'),
        pytest.param(({'size': 1048576, 'value': 0}, None), id='size=1048576,value=0'),
        pytest.param(({'size': 1048576, 'value': 90}, None), id='size=1048576,value=90'),
    ],
)
def test_HM_CONTENT_MEMSET(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Content is unspecified until aclrtMemset initialises the whole range"""
    params, expect = case
    acl.run('content:memset_init', expect=expect, **params)


@pytest.mark.acl_rule('HM-CONTENT-REGISTER-PRESERVES')
@pytest.mark.acl_check('content:register_preserves', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'v1', 'pages': 1}, None), id='api=v1,pages=1'),
        pytest.param(({'api': 'v1', 'pages': 4}, None), id='api=v1,pages=4'),
        pytest.param(({'api': 'v2_mapped', 'pages': 1}, None), id='api=v2_mapped,pages=1'),
        pytest.param(({'api': 'v2_mapped', 'pages': 4}, None), id='api=v2_mapped,pages=4'),
    ],
)
def test_HM_CONTENT_REGISTER_PRESERVES(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Register, get-device-pointer and unregister leave host content unchanged"""
    params, expect = case
    acl.run('content:register_preserves', expect=expect, **params)


@pytest.mark.acl_rule('HM-CONTENT-FREE-ISOLATION')
@pytest.mark.acl_check('content:free_isolation', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'free': 'free', 'size': 64}, None), id='free=free,size=64'),
        pytest.param(({'free': 'free', 'size': 4096}, None), id='free=free,size=4096'),
        pytest.param(({'free': 'free_devsync', 'size': 64}, None), id='free=free_devsync,size=64'),
        pytest.param(({'free': 'free_devsync', 'size': 4096}, None), id='free=free_devsync,size=4096'),
    ],
)
def test_HM_CONTENT_FREE_ISOLATION(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Freeing one allocation never touches another"""
    params, expect = case
    acl.run('content:free_isolation', expect=expect, **params)

