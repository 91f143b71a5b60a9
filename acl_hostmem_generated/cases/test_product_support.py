# Generated from spec 5d3dcfc70eb619e5 by codegen; do not edit. Regenerate: python -m codegen generate
"""Product-support cases: each interface is available exactly where the support matrix says."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.acl_rule('HM-PROD-SUPPORT')
@pytest.mark.acl_check('product_support:product_support', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'interface': 'aclrtMallocHost'}, None), id='interface=aclrtMallocHost'),
        pytest.param(({'interface': 'aclrtMallocHostWithCfg'}, None), id='interface=aclrtMallocHostWithCfg'),
        pytest.param(({'interface': 'aclrtFreeHost'}, None), id='interface=aclrtFreeHost'),
        pytest.param(({'interface': 'aclrtFreeHostWithDevSync'}, None), id='interface=aclrtFreeHostWithDevSync'),
        pytest.param(({'interface': 'aclrtHostRegister'}, None), id='interface=aclrtHostRegister'),
        pytest.param(({'interface': 'aclrtHostRegisterV2'}, None), id='interface=aclrtHostRegisterV2'),
        pytest.param(({'interface': 'aclrtHostGetDevicePointer'}, None), id='interface=aclrtHostGetDevicePointer'),
        pytest.param(({'interface': 'aclrtHostMemMapCapabilities'}, None), id='interface=aclrtHostMemMapCapabilities'),
        pytest.param(({'interface': 'aclrtHostUnregister'}, None), id='interface=aclrtHostUnregister'),
    ],
)
def test_HM_PROD_SUPPORT(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Each interface is available exactly where the support matrix says"""
    params, expect = case
    acl.run('product_support:product_support', expect=expect, **params)


@pytest.mark.acl_rule('HM-PROD-TRAINING-REGISTER')
@pytest.mark.acl_check('product_support:registration_unsupported', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'interface': 'aclrtHostRegister'}, None), id='interface=aclrtHostRegister'),
        pytest.param(({'interface': 'aclrtHostRegisterV2'}, None), id='interface=aclrtHostRegisterV2'),
        pytest.param(({'interface': 'aclrtHostGetDevicePointer'}, None), id='interface=aclrtHostGetDevicePointer'),
        pytest.param(({'interface': 'aclrtHostUnregister'}, None), id='interface=aclrtHostUnregister'),
    ],
)
def test_HM_PROD_TRAINING_REGISTER(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """The Atlas training series refuses registration (docs) though the source enables it"""
    params, expect = case
    acl.run('product_support:registration_unsupported', expect=expect, **params)

