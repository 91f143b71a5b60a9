"""Product support: each interface is available exactly where the support matrix says."""

from __future__ import annotations

from typing import Any

from ..harness.context import AclContext
from ..harness.samples import adopt_result, call_raw, valid_arguments
from ..harness.support import fails_cleanly
from ..harness.violations import SpecViolation
from .verdicts import succeeded


def product_support(ctx: AclContext, *, interface: str, expect: dict[str, Any] | None) -> None:
    """A supported interface accepts a valid call; an unsupported one fails it cleanly.

    Where the docs' "unsupported" is disputed by the runtime source, either answer is
    conforming here (the advisory rule HM-PROD-TRAINING-REGISTER reports which side the
    backend takes); the call only has to return.
    """
    entry = ctx.catalog["interfaces"][interface]
    if ctx.product.family in entry.get("support_disputed", []):
        args = valid_arguments(ctx, interface, tolerant=True)
        code, outputs = call_raw(ctx, interface, args)
        if code == 0:
            adopt_result(ctx, interface, args, outputs)
        return
    supported = entry["support"].get(ctx.product.family, True)
    if not supported:
        problem = fails_cleanly(ctx, interface)
        if problem:
            raise SpecViolation(problem)
        return
    args = valid_arguments(ctx, interface)
    code, outputs = call_raw(ctx, interface, args)
    succeeded(code, f"{interface} with valid arguments on {ctx.product.family} (documented as supported)")
    adopt_result(ctx, interface, args, outputs)


def registration_unsupported(ctx: AclContext, *, interface: str, expect: dict[str, Any] | None) -> None:
    """The docs' side of a disputed support entry: the interface fails cleanly on this family."""
    problem = fails_cleanly(ctx, interface)
    if problem:
        raise SpecViolation(problem)
