"""Stage 4, the session: the pytest plugin and the ``run`` command that make one conformance run.

The plugin wires the harness (stage 1) to the generated cases, which call the checks
(stage 2), and hands every case to the results stage (3) for classification and reports;
one process, the judge, schedules the case programs onto its executors
(``scheduler.py``) and its reporter gathers the results.
"""
