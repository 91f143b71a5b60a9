"""Check procedures, one module per rule family.

The generated cases (``acl_hostmem_generated/cases/test_<family>.py``) call these with the case
parameters from the spec and the expectation for the case. A check raises
:class:`~conformance.harness.violations.SpecViolation` (or ``WrongErrorCode``) when the backend breaks
the rule, and returns normally when it conforms.
"""
