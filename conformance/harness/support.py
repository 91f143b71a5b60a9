"""Product support: does a call fail cleanly where the support matrix says it is absent?"""

from __future__ import annotations

from .context import AclContext
from .samples import adopt_result, call_raw, valid_arguments
from .violations import AbsentAsDocumented


def fails_cleanly(ctx: AclContext, interface: str) -> str | None:
    """Call an interface the family does not support, with valid arguments.

    Returns None when the call failed (as it must) or the library does not export the
    function at all (the cleanest failure), or a message when it succeeded. A crash or
    hang here is caught by the run's process isolation like any other.
    """
    with ctx.probing():
        args = valid_arguments(ctx, interface, tolerant=True)
    try:
        code, outputs = call_raw(ctx, interface, args)
    except AbsentAsDocumented:
        return None
    if code == 0:
        adopt_result(ctx, interface, args, outputs)
        family = ctx.product.family
        return f"{interface} succeeded on {family}, where the support matrix says it is not supported"
    return None
