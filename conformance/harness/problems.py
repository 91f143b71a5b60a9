"""The kinds of set-up mistake, named once for the judge that reports them and the probe that finds them.

The probe (:mod:`conformance.executor.probe`) runs in the library's process and names what it found
by these names; the judge (:mod:`conformance.session.preflight`) turns each into its message and
exit status.
"""

from __future__ import annotations

import enum


class Problem(enum.IntEnum):
    """Kinds of set-up mistake; the value is the exit status of ``run``, ``certify`` and pytest."""

    LIBRARY_NOT_FOUND = 10
    NOT_AN_ACL_LIBRARY = 11
    MISSING_SYMBOLS = 12
    INIT_FAILED = 13
    UNKNOWN_PRODUCT = 14
    UNKNOWN_SIM_FAULT = 15
    UNKNOWN_RULE = 16
    UNKNOWN_RELEASE = 17
    REPORT_DIR_IN_USE = 18
    NOT_SANDBOXED = 19  # certify only: no sandbox for the library, and --acl-allow-unsandboxed not given
