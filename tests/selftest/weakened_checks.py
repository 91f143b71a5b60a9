"""A pytest plugin that weakens the alignment checks into ones that cannot fail.

Used by the self-test's own tests: with it loaded, a fault that breaks alignment must
survive, and the self-test must say so and fail.
"""

from __future__ import annotations

from typing import Any


def pytest_configure(config: Any) -> None:
    """Replace the alignment checks with no-ops before any case runs."""
    from conformance.checks import alignment
    from conformance.checks.explorer import outputs

    def accept_anything(*_args: Any, **_kwargs: Any) -> None:
        return None

    alignment.alloc_alignment = accept_anything
    alignment.live_alignment = accept_anything
    # The explorer judges alignment too.
    judge = outputs.CHECKS["aligned_64"]
    outputs.CHECKS["aligned_64"] = lambda *args: (None, judge(*args)[1])
