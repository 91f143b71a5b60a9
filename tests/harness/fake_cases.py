"""Fake generated cases for the harness tests.

The tests copy this file into a temporary directory as ``test_fake.py`` and run it with
``-p conformance.session.plugin``, so that the plugin is exercised without the real checks.
FAKE_MODE selects a forced outcome for HM-INVAL-FREE-HOST.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from conformance.harness.violations import HarnessError, SpecViolation, WrongErrorCode


@pytest.mark.acl_rule("HM-ALIGN-MALLOC")
@pytest.mark.parametrize("case", [
    pytest.param(({"size": size}, None), id=f"api=malloc,cfg=null_cfg,size={size}") for size in (1, 64, 4097)
])
def test_HM_ALIGN_MALLOC(acl: Any, case: Any) -> None:
    params, _ = case
    ptr = acl.host_alloc(params["size"])
    if ptr % 64:
        raise SpecViolation(f"{ptr:#x} is not 64-byte aligned")


@pytest.mark.acl_rule("HM-PAIR-REG-UNREG")
@pytest.mark.parametrize("case", [pytest.param(({"api": "v1"}, None), id="api=v1")])
def test_HM_PAIR_REG_UNREG(acl: Any, case: Any) -> None:
    ptr = acl.pinned_pages(1)
    acl.register(ptr, 4096)
    acl.lib.aclrtHostUnregister(ptr)
    acl.forget_registration(ptr)


@pytest.mark.acl_rule("HM-SYNC-FREE-NO-IMPLICIT")
@pytest.mark.parametrize("case", [pytest.param(({"size": 4096}, None), id="size=4096")])
def test_HM_SYNC_FREE_NO_IMPLICIT(acl: Any, case: Any) -> None:
    ptr = acl.host_alloc(4096)
    blocker = acl.block(acl.stream())
    blocker.entered.wait(acl.timeout)
    # Called directly, not through a bounded helper: with the hang_in_free fault this never
    # returns, and only the plugin's hard per-case timeout can end the case.
    acl.lib.aclrtFreeHost(ptr)
    acl.forget_host(ptr)
    blocker.open()


@pytest.mark.acl_rule("HM-INVAL-FREE-HOST")
@pytest.mark.parametrize("case", [pytest.param(({"hostPtr": None}, None), id="hostPtr=NULL")])
def test_HM_INVAL_FREE_HOST(acl: Any, case: Any) -> None:
    code = acl.lib.aclrtFreeHost(None, raw=True)
    mode = os.environ.get("FAKE_MODE", "")
    acl.observe("colour" if mode == "observe_undeclared" else "code", code)
    if mode == "violation":
        raise SpecViolation("forced violation", code=code)
    if mode == "wrong_code":
        raise WrongErrorCode("forced wrong code", code=code)
    if mode == "harness":
        raise HarnessError("forced harness error")
    if mode == "other":
        raise KeyError("forced other error")
    if mode == "skip":
        pytest.skip("some other reason")
    if code == 0:
        raise SpecViolation("aclrtFreeHost(NULL) succeeded", code=code)
