# Generated from spec 124e27884054d455 by codegen; do not edit. Regenerate: python -m codegen generate
"""Synchronisation cases: which calls wait for the device and which return at once."""

from __future__ import annotations

from typing import Any

import pytest

from conformance.checks import sync as checks


@pytest.mark.acl_rule('HM-SYNC-MALLOC-NO-IMPLICIT')
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'malloc'}, None), id='api=malloc'),
        pytest.param(({'api': 'malloc_cfg'}, None), id='api=malloc_cfg'),
    ],
)
def test_HM_SYNC_MALLOC_NO_IMPLICIT(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Allocation does not wait for the device"""
    params, expect = case
    checks.alloc_no_sync(acl, expect=expect, **params)


@pytest.mark.acl_rule('HM-SYNC-FREE-NO-IMPLICIT')
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'size': 4096}, None), id='size=4096'),
    ],
)
def test_HM_SYNC_FREE_NO_IMPLICIT(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtFreeHost does not wait for the device"""
    params, expect = case
    checks.free_no_sync(acl, expect=expect, **params)


@pytest.mark.acl_rule('HM-SYNC-DEVSYNC-WAITS')
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'size': 4096}, None), id='size=4096'),
        pytest.param(({'size': 1048576}, None), id='size=1048576'),
    ],
)
def test_HM_SYNC_DEVSYNC_WAITS(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtFreeHostWithDevSync waits for queued tasks that use the memory"""
    params, expect = case
    checks.devsync_waits(acl, expect=expect, **params)


@pytest.mark.acl_rule('HM-SYNC-DEVSYNC-ALL-STREAMS')
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'streams': 2}, None), id='streams=2'),
        pytest.param(({'streams': 3}, None), id='streams=3'),
    ],
)
def test_HM_SYNC_DEVSYNC_ALL_STREAMS(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtFreeHostWithDevSync synchronises every stream of the device"""
    params, expect = case
    checks.devsync_all_streams(acl, expect=expect, **params)

