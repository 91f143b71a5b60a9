"""Product support: each interface is available exactly where the support matrix says."""

from __future__ import annotations

from acl_hostmem_generated import acl_bindings as acl
from acl_hostmem_generated.catalog_types import ExpectEntry

from ..harness.context import AclContext
from ..harness.release import supported_in
from ..harness.samples import adopt_result, call_raw, valid_arguments
from ..harness.support import fails_cleanly
from ..harness.violations import SpecViolation
from .assertions import succeeded


def product_support(ctx: AclContext, *, interface: str, expect: ExpectEntry | None) -> None:
    """A supported interface is not refused as unsupported; an unsupported one fails cleanly.

    A supported interface's valid call must succeed; when it fails with another code than
    "not supported", the deviation is the promise of the rule that covers the call working
    (the spec's setup_promises), which BLOCKS this case. Where the docs' "unsupported" is
    disputed by the runtime source, either answer is conforming here (the advisory rule
    HM-PROD-TRAINING-REGISTER reports which side the backend takes); the call only has to
    return.
    """
    entry = ctx.catalog["interfaces"][interface]
    if ctx.product.family in entry.get("support_disputed", []):
        with ctx.probing():
            args = valid_arguments(ctx, interface, tolerant=True)
        code, outputs = call_raw(ctx, interface, args)
        if code == 0:
            adopt_result(ctx, interface, args, outputs)
        return
    # In the release the run is judged against: a family may be supported only from a later one on.
    supported = supported_in(ctx.catalog, interface, ctx.product.family, ctx.product.release)
    if not supported:
        problem = fails_cleanly(ctx, interface)
        if problem:
            raise SpecViolation(problem)
        return
    args = valid_arguments(ctx, interface)
    code, outputs = call_raw(ctx, interface, args)
    if code == 0:
        adopt_result(ctx, interface, args, outputs)
        return
    what = f"{interface} with valid arguments on {ctx.product.family} (documented as supported)"
    if code == acl.ACL_ERROR_RT_FEATURE_NOT_SUPPORT:
        succeeded(code, what)  # "not supported" where the matrix says supported: this rule's own deviation
    # Every other failure of a valid call is the promise of the rule that covers the call working.
    promise = ctx.promise_of_call(interface)
    with ctx.relying_on(promise or ctx.rule_id, what):
        succeeded(code, what)


def registration_unsupported(ctx: AclContext, *, interface: str, expect: ExpectEntry | None) -> None:
    """The docs' side of a disputed support entry: the interface fails cleanly on this family."""
    problem = fails_cleanly(ctx, interface)
    if problem:
        raise SpecViolation(problem)
