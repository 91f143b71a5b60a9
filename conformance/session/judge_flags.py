"""The names ``run`` and the judge agree on: the judge's own command-line flags and the environment it reads.

They live apart from the modules that use them so that ``run`` (and ``certify``), which only start
the judge, never import pytest: the CLI process is the watchdog, and every import it makes is paid
again by every run (a run's fixed cost, issue 33).
"""

from __future__ import annotations

#: The judge's option that turns the kit's console on (an option of the plugin, not of ``run``: ``run`` decides).
CONSOLE_FLAG = "--acl-console"
#: The judge's option for how many executors run cases at once (``run``'s ``-n``).
EXECUTORS_FLAG = "--acl-executors"
#: The command line the user typed (JSON), handed to the judge for the reports.
RUN_COMMAND_ENV = "ACL_RUN_COMMAND"
