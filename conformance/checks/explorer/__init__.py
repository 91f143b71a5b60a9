"""The explorer: random interleavings of the nine calls, judged against the generated state model.

The check :func:`explore` runs one exploration (a Hypothesis state machine, seeded, with a
step budget) over the clauses its ``paths`` allow (``documented``: only documented
evidence of mandatory rules; ``all``: every clause). When a call's result disagrees with
the model, Hypothesis shrinks the sequence, the explorer shortens it further by replaying
it, and the case fails with the path, a Python replay script and a standalone C
reproducer attached. The exploration's figures are attached either way.

Modules: :mod:`.machine` draws the steps (the actions are in :mod:`.actions`),
:mod:`.example` judges them, :mod:`.state`, :mod:`.facts` and :mod:`.outputs` implement the
state model's effects, facts and checks, :mod:`.driver` makes the calls, :mod:`.calls`
records the path, :mod:`.session` holds what an exploration shares, :mod:`.exploration`
runs Hypothesis, :mod:`.reproducer` writes the reproducers, :mod:`.finding` turns a
mismatch into the case's verdict.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acl_hostmem_generated.catalog_types import ExpectEntry

if TYPE_CHECKING:
    from ...harness.context import AclContext

__all__ = ["explore"]


def explore(ctx: AclContext, *, paths: str, expect: ExpectEntry | None) -> None:
    """Random call sequences over the clauses ``paths`` allows must get the results the state model predicts."""
    # Imported on first use: Hypothesis and the generated model take a third of a second to
    # import, which every suite process (and every worker restarted after a crash) would
    # pay at collection, explorer case or not.
    from .finding import explore as run

    run(ctx, paths=paths, expect=expect)
