"""The kinds of set-up mistake, named once for the judge that reports them and the probe that finds them.

The probe (:mod:`conformance.executor.probe`) runs in the library's process and names what it found
by these names; the judge (:mod:`conformance.session.preflight`) turns each into its message and
exit status.
"""

from __future__ import annotations

import enum

from ..i18n import N_


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
    REPORT_DIR_UNWRITABLE = 19
    AMBIGUOUS_RELEASE = 20
    NOT_SANDBOXED = 21  # certify only: no sandbox for the library, and --acl-allow-unsandboxed not given

    @property
    def summary(self) -> str:
        """What the mistake is, in a few words, in English (the exit-status tables of ``--help`` and
        docs/running.md; ``--help`` translates it)."""
        return _SUMMARIES[self]


_SUMMARIES = {
    Problem.LIBRARY_NOT_FOUND: N_("the ACL library was not found, or --acl-lib names no file (--acl-lib, "
                                  "ASCEND_HOME_PATH)"),
    Problem.NOT_AN_ACL_LIBRARY: N_("the library is not an ACL runtime library"),
    Problem.MISSING_SYMBOLS: N_("the library lacks ACL entry points the harness needs"),
    Problem.INIT_FAILED: N_("aclInit or aclrtSetDevice failed"),
    Problem.UNKNOWN_PRODUCT: N_("unknown --acl-product, or a SoC of no known product family"),
    Problem.UNKNOWN_SIM_FAULT: N_("ACLSIM_FAULTS names an unknown simulator fault"),
    Problem.UNKNOWN_RULE: N_("--acl-rule matches no rule of the spec"),
    Problem.UNKNOWN_RELEASE: N_("--acl-cann-release names no release the spec knows"),
    Problem.REPORT_DIR_IN_USE: N_("another run holds the report directory"),
    Problem.REPORT_DIR_UNWRITABLE: N_("the report directory cannot be created or written"),
    Problem.AMBIGUOUS_RELEASE: N_("the library's ACL API version matches several releases; choose one with "
                                  "--acl-cann-release"),
    Problem.NOT_SANDBOXED: N_("certify only: the library cannot be sandboxed here (install bubblewrap, or pass "
                              "--acl-allow-unsandboxed)"),
}
