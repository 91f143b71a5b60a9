"""Fake generated cases for the harness tests.

The tests copy this file into a temporary directory as ``test_fake.py`` and run it with
``-p conformance.session.plugin``, so that the plugin is exercised without the real checks.
As in the generated cases, each test hands a check procedure to the executor
(``acl.run``); the procedures below run there, next to the library. FAKE_MODE selects a
forced outcome for HM-INVAL-FREE-HOST.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from conformance.harness.violations import HarnessError, SpecViolation, WrongErrorCode


def aligned(ctx: Any, *, size: int) -> None:
    ptr = ctx.host_alloc(size)
    ctx.observe("grain", min(4096, ptr & -ptr))
    if ptr % 64:
        raise SpecViolation(f"{ptr:#x} is not 64-byte aligned")


def register_unregister(ctx: Any) -> None:
    ptr = ctx.pinned_pages(1)
    ctx.register(ptr, 4096)
    ctx.lib.aclrtHostUnregister(ptr)
    ctx.forget_registration(ptr)


def free_while_blocked(ctx: Any) -> None:
    ptr = ctx.host_alloc(4096)
    blocker = ctx.block(ctx.stream())
    blocker.entered.wait(ctx.timeout)
    # Called directly, not through a bounded helper: with the hang_in_free fault this never
    # returns, and only the case's limit can end the case.
    ctx.lib.aclrtFreeHost(ptr)
    ctx.observe("returned", "before_gate")
    ctx.forget_host(ptr)
    blocker.open()


def free_null(ctx: Any) -> None:
    code = ctx.lib.aclrtFreeHost(None, raw=True)
    mode = os.environ.get("FAKE_MODE", "")
    ctx.observe("colour" if mode == "observe_undeclared" else "code", code)
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


@pytest.mark.acl_rule("HM-ALIGN-MALLOC")
@pytest.mark.parametrize("case", [
    pytest.param(({"size": size}, None), id=f"api=malloc,cfg=null_cfg,size={size}") for size in (1, 64, 4097)
])
def test_HM_ALIGN_MALLOC(acl: Any, case: Any) -> None:
    params, _ = case
    acl.run(aligned, size=params["size"])


@pytest.mark.acl_rule("HM-PAIR-REG-UNREG")
@pytest.mark.parametrize("case", [pytest.param(({"api": "v1"}, None), id="api=v1")])
def test_HM_PAIR_REG_UNREG(acl: Any, case: Any) -> None:
    acl.run(register_unregister)


@pytest.mark.acl_rule("HM-SYNC-FREE-NO-IMPLICIT")
@pytest.mark.parametrize("case", [pytest.param(({"size": 4096}, None), id="size=4096")])
def test_HM_SYNC_FREE_NO_IMPLICIT(acl: Any, case: Any) -> None:
    acl.run(free_while_blocked)


@pytest.mark.acl_rule("HM-INVAL-FREE-HOST")
@pytest.mark.parametrize("case", [pytest.param(({"hostPtr": None}, None), id="hostPtr=NULL")])
def test_HM_INVAL_FREE_HOST(acl: Any, case: Any) -> None:
    acl.run(free_null)
