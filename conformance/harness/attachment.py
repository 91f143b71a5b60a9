"""A file a case produced for the report, in a module of its own so that the judge, which reads
attachments from an executor's record, imports none of the case context's bindings."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Attachment:
    """A file a case produced for the report (a replay script, a reproducer), by name."""

    name: str
    text: str
