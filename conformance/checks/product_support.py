"""Product support: each interface is available exactly where the support matrix says."""

from __future__ import annotations

from typing import Any

from ..harness.context import AclContext
from ..harness.samples import adopt_result, call_raw, valid_arguments
from ..harness.support import fails_cleanly
from ..harness.violations import SpecViolation
from .verdicts import succeeded


def product_support(ctx: AclContext, *, interface: str, expect: dict[str, Any] | None) -> None:
    """A supported interface accepts a valid call; an unsupported one fails it cleanly."""
    supported = ctx.catalog["interfaces"][interface]["support"].get(ctx.product.family, True)
    if not supported:
        problem = fails_cleanly(ctx, interface)
        if problem:
            raise SpecViolation(problem)
        return
    args = valid_arguments(ctx, interface)
    code, outputs = call_raw(ctx, interface, args)
    succeeded(code, f"{interface} with valid arguments on {ctx.product.family} (documented as supported)")
    adopt_result(ctx, interface, args, outputs)
