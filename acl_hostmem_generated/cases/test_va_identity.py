# Generated from spec 5d3dcfc70eb619e5 by codegen; do not edit. Regenerate: python -m codegen generate
"""VA identity cases: device addresses of registered memory, with and without the VA flag."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.acl_rule('HM-VA-IDENTITY')
@pytest.mark.acl_check('va_identity:va_identity', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'size': 4096}, None), id='size=4096'),
        pytest.param(({'size': 2097152}, None), id='size=2097152'),
        pytest.param(({'size': 'sampled'}, None), id='size=sampled'),
    ],
)
def test_HM_VA_IDENTITY(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """With the VA flag, the device address equals the host address"""
    params, expect = case
    acl.run('va_identity:va_identity', expect=expect, **params)


@pytest.mark.acl_rule('HM-VA-UNSUPPORTED')
@pytest.mark.acl_check('va_identity:va_unsupported', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'size': 4096}, {'code': 'ACL_ERROR_RT_FEATURE_NOT_SUPPORT', 'value': 207000, 'provenance': 'runtime-source', 'severity': 'recommended', 'decides': False}), id='size=4096'),
    ],
)
def test_HM_VA_UNSUPPORTED(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """The VA flag is refused on products without VA identity"""
    params, expect = case
    acl.run('va_identity:va_unsupported', expect=expect, **params)


@pytest.mark.acl_rule('HM-VA-DEVPTR-CONSISTENT')
@pytest.mark.acl_check('va_identity:devptr_consistent', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'v1', 'pages': 1}, None), id='api=v1,pages=1'),
        pytest.param(({'api': 'v1', 'pages': 3}, None), id='api=v1,pages=3'),
        pytest.param(({'api': 'v2_mapped', 'pages': 1}, None), id='api=v2_mapped,pages=1'),
        pytest.param(({'api': 'v2_mapped', 'pages': 3}, None), id='api=v2_mapped,pages=3'),
    ],
)
def test_HM_VA_DEVPTR_CONSISTENT(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """aclrtHostGetDevicePointer answers the address the registration produced"""
    params, expect = case
    acl.run('va_identity:devptr_consistent', expect=expect, **params)


@pytest.mark.acl_rule('HM-VA-DEVPTR-INTERIOR')
@pytest.mark.acl_check('va_identity:devptr_interior', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'api': 'v1'}, None), id='api=v1'),
        pytest.param(({'api': 'v2_mapped'}, None), id='api=v2_mapped'),
    ],
)
def test_HM_VA_DEVPTR_INTERIOR(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """A pointer inside a registered range never resolves to a wrong device address"""
    params, expect = case
    acl.run('va_identity:devptr_interior', expect=expect, **params)

