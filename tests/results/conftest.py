"""Fixtures of the results tests that start the kit (shared with the other stages in tests/kit_runs.py)."""

from kit_runs import fake_suite, sim_built  # noqa: F401  (fixtures, re-exported for pytest)
