"""Which rule's promise a step rests on: the spec's table of calls, and the calling thread's marker.

Kept apart from :mod:`.preconditions`, which turns a failed step into BLOCKED and so needs the
bindings' error class: the judge reads what a dead executor was doing (its journal) and names
the rule from these alone, without loading cffi or the bindings.
"""

from __future__ import annotations

import threading

from acl_hostmem_generated.catalog_types import Catalog

MARK = threading.local()


def current() -> str | None:
    """The rule whose promise the calling thread's current set-up step rests on, or None."""
    return getattr(MARK, "rule", None)


def promise_of_call(catalog: Catalog, call: str | None) -> str | None:
    """The rule whose promise a call rests on (the spec's ``promise_calls`` and ``setup_promises``), or None."""
    step = (catalog.get("promise_calls") or {}).get(call or "")
    return (catalog.get("setup_promises") or {}).get(step) if step else None
