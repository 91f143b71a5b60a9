"""Stage 1, the harness: everything that talks to one ACL library.

Options and their environment twins, opening and finalizing the backend, product-family
detection and applicability, the per-case context that releases what a case allocated,
the call trace, blocking probes, valid sample arguments, and the verdict exception types
that checks raise. Nothing here decides an outcome or writes a report.
"""
