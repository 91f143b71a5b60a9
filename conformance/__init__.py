"""ACL host-memory conformance kit: one sub-package per stage of a run.

The stages, in the order data flows and imports run (a module never imports a later stage):

1. :mod:`conformance.harness`: talk to one ACL library (options, backend, case context, probes).
2. :mod:`conformance.checks`: decide, per rule family, whether the backend follows a rule.
3. :mod:`conformance.results`: classify cases into outcomes and write every report.
4. :mod:`conformance.session`: the pytest plugin and ``run`` command that tie 1-3 into a run.
5. :mod:`conformance.certify` and :mod:`conformance.gate`: judge finished runs (bundles, gates).
6. :mod:`conformance.selftest`: prove the suite against the simulator's faults.

:mod:`conformance.cli` is the single command-line entry point (``python -m conformance``).
"""
