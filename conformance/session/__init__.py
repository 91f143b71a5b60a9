"""Stage 4, the session: the pytest plugin and the ``run`` command that make one conformance run.

The plugin wires the harness (stage 1) to the generated cases, which call the checks
(stage 2), and hands every case to the results stage (3) for classification and reports;
the reporter gathers results in the serial process or xdist controller.
"""
