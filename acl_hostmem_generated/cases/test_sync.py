# Generated from spec 5d3dcfc70eb619e5 by codegen; do not edit. Regenerate: python -m codegen generate
"""Synchronisation cases: which calls wait for the device and which return at once."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.acl_rule('HM-SYNC-MALLOC-NO-IMPLICIT')
@pytest.mark.acl_check('sync:alloc_no_sync', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'malloc', 'blocked': 'first'}, None), id='api=malloc,blocked=first'),
        pytest.param(({'api': 'malloc', 'blocked': 'middle'}, None), id='api=malloc,blocked=middle'),
        pytest.param(({'api': 'malloc', 'blocked': 'last'}, None), id='api=malloc,blocked=last'),
    ],
)
def test_HM_SYNC_MALLOC_NO_IMPLICIT(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtMallocHost does not wait for the device"""
    params, expect = case
    acl.run('sync:alloc_no_sync', expect=expect, **params)


@pytest.mark.acl_rule('HM-SYNC-MALLOC-CFG-NO-IMPLICIT')
@pytest.mark.acl_check('sync:alloc_no_sync', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'malloc_cfg', 'blocked': 'first'}, None), id='api=malloc_cfg,blocked=first'),
        pytest.param(({'api': 'malloc_cfg', 'blocked': 'middle'}, None), id='api=malloc_cfg,blocked=middle'),
        pytest.param(({'api': 'malloc_cfg', 'blocked': 'last'}, None), id='api=malloc_cfg,blocked=last'),
    ],
)
def test_HM_SYNC_MALLOC_CFG_NO_IMPLICIT(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtMallocHostWithCfg does not wait for the device"""
    params, expect = case
    acl.run('sync:alloc_no_sync', expect=expect, **params)


@pytest.mark.acl_rule('HM-SYNC-FREE-NO-IMPLICIT')
@pytest.mark.acl_check('sync:free_no_sync', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'size': 4096, 'blocked': 'first'}, None), id='size=4096,blocked=first'),
        pytest.param(({'size': 4096, 'blocked': 'middle'}, None), id='size=4096,blocked=middle'),
        pytest.param(({'size': 4096, 'blocked': 'last'}, None), id='size=4096,blocked=last'),
    ],
)
def test_HM_SYNC_FREE_NO_IMPLICIT(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtFreeHost does not wait for the device"""
    params, expect = case
    acl.run('sync:free_no_sync', expect=expect, **params)


@pytest.mark.acl_rule('HM-SYNC-DEVSYNC-WAITS')
@pytest.mark.acl_check('sync:devsync_waits', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'size': 4096, 'hold': 'observe'}, None), id='size=4096,hold=observe'),
        pytest.param(({'size': 1048576, 'hold': 'observe'}, None), id='size=1048576,hold=observe'),
        pytest.param(({'size': 4096, 'hold': 'window'}, None), id='size=4096,hold=window'),
    ],
)
def test_HM_SYNC_DEVSYNC_WAITS(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtFreeHostWithDevSync waits for queued tasks that use the memory"""
    params, expect = case
    acl.run('sync:devsync_waits', expect=expect, **params)


@pytest.mark.acl_rule('HM-SYNC-DEVSYNC-ALL-STREAMS')
@pytest.mark.acl_check('sync:devsync_all_streams', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'blocked': 'first', 'hold': 'observe'}, None), id='blocked=first,hold=observe'),
        pytest.param(({'blocked': 'middle', 'hold': 'observe'}, None), id='blocked=middle,hold=observe'),
        pytest.param(({'blocked': 'last', 'hold': 'observe'}, None), id='blocked=last,hold=observe'),
        pytest.param(({'blocked': 'several', 'hold': 'observe'}, None), id='blocked=several,hold=observe'),
        pytest.param(({'blocked': 'several', 'hold': 'window'}, None), id='blocked=several,hold=window'),
    ],
)
def test_HM_SYNC_DEVSYNC_ALL_STREAMS(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtFreeHostWithDevSync synchronises every stream of the device"""
    params, expect = case
    acl.run('sync:devsync_all_streams', expect=expect, **params)


@pytest.mark.acl_rule('HM-SYNC-DEVSYNC-CURRENT-DEVICE')
@pytest.mark.acl_check('sync:devsync_current_device', expect=None)
def test_HM_SYNC_DEVSYNC_CURRENT_DEVICE(acl: Any) -> None:
    """aclrtFreeHostWithDevSync waits only for the current device"""
    acl.run('sync:devsync_current_device', expect=None)

