# Generated from spec 5d3dcfc70eb619e5 by codegen; do not edit. Regenerate: python -m codegen generate
"""Capability cases: aclrtHostMemMapCapabilities over every device and HAC type."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.acl_rule('HM-CAP-QUERY-ALL')
@pytest.mark.acl_check('capability:capability_query', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'hac': 'ACL_RT_HAC_TYPE_STARS'}, None), id='hac=ACL_RT_HAC_TYPE_STARS'),
        pytest.param(({'hac': 'ACL_RT_HAC_TYPE_AICPU'}, None), id='hac=ACL_RT_HAC_TYPE_AICPU'),
        pytest.param(({'hac': 'ACL_RT_HAC_TYPE_AIC'}, None), id='hac=ACL_RT_HAC_TYPE_AIC'),
        pytest.param(({'hac': 'ACL_RT_HAC_TYPE_AIV'}, None), id='hac=ACL_RT_HAC_TYPE_AIV'),
        pytest.param(({'hac': 'ACL_RT_HAC_TYPE_PCIEDMA'}, None), id='hac=ACL_RT_HAC_TYPE_PCIEDMA'),
        pytest.param(({'hac': 'ACL_RT_HAC_TYPE_RDMA'}, None), id='hac=ACL_RT_HAC_TYPE_RDMA'),
        pytest.param(({'hac': 'ACL_RT_HAC_TYPE_SDMA'}, None), id='hac=ACL_RT_HAC_TYPE_SDMA'),
        pytest.param(({'hac': 'ACL_RT_HAC_TYPE_DVPP'}, None), id='hac=ACL_RT_HAC_TYPE_DVPP'),
        pytest.param(({'hac': 'ACL_RT_HAC_TYPE_UDMA'}, None), id='hac=ACL_RT_HAC_TYPE_UDMA'),
        pytest.param(({'hac': 'ACL_RT_HAC_TYPE_CCU'}, None), id='hac=ACL_RT_HAC_TYPE_CCU'),
    ],
)
def test_HM_CAP_QUERY_ALL(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Every device answers for every HAC type"""
    params, expect = case
    acl.run('capability:capability_query', expect=expect, **params)


@pytest.mark.acl_rule('HM-CAP-STABLE')
@pytest.mark.acl_check('capability:capability_stable', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'repeats': 16}, None), id='repeats=16'),
    ],
)
def test_HM_CAP_STABLE(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Capability answers are stable"""
    params, expect = case
    acl.run('capability:capability_stable', expect=expect, **params)


@pytest.mark.acl_rule('HM-CAP-CONSISTENT')
@pytest.mark.acl_check('capability:capability_consistent', expect=None)
def test_HM_CAP_CONSISTENT(acl: Any) -> None:
    """Capabilities agree with whether registration works, on every device"""
    acl.run('capability:capability_consistent', expect=None)

