"""A pytest plugin that weakens the alignment checks into ones that cannot fail.

Used by the self-test's own tests: with it loaded, a fault that breaks alignment must
survive, and the self-test must say so and fail. The checks run in the executor, so the
weakening is done there (``acl_executor_setup``); the weakened checks still record the
grain a pass implies, so that the judge's consistency check does not catch them first.
"""

from __future__ import annotations

from typing import Any


def acl_executor_setup() -> None:
    """In the executor, before any case: replace the alignment checks with ones that accept anything."""
    from conformance.checks import alignment
    from conformance.checks.explorer import outputs

    def accept_anything(ctx: Any, **_kwargs: Any) -> None:
        ctx.observe("grain", 64)

    alignment.alloc_alignment = accept_anything
    alignment.live_alignment = accept_anything
    # The explorer judges alignment too.
    judge = outputs.CHECKS["aligned_64"]
    outputs.CHECKS["aligned_64"] = lambda *args: (None, judge(*args)[1])
