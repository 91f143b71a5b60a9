# Generated from spec 5d3dcfc70eb619e5 by codegen; do not edit. Regenerate: python -m codegen generate
"""Explorer cases: random interleavings of the calls, judged step by step against the generated state model."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.acl_rule('HM-EXPLORE-DOCUMENTED')
@pytest.mark.acl_check('explorer:explore', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'paths': 'documented'}, None), id='paths=documented'),
    ],
)
def test_HM_EXPLORE_DOCUMENTED(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Random call sequences behave as the documented state model predicts"""
    params, expect = case
    acl.run('explorer:explore', expect=expect, **params)


@pytest.mark.acl_rule('HM-EXPLORE-ALL')
@pytest.mark.acl_check('explorer:explore', case="case")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(({'paths': 'all'}, None), id='paths=all'),
    ],
)
def test_HM_EXPLORE_ALL(acl: Any, case: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
    """Random call sequences behave as the full state model predicts"""
    params, expect = case
    acl.run('explorer:explore', expect=expect, **params)

