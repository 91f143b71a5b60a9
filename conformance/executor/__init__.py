"""Executor: the only process that loads the library under test.

It receives case programs from the judge (``conformance.session``), runs each check against
the library and streams back raw records: the calls with their arguments and answers, the
observations, the exception a check raised and the teardown's findings. It decides nothing:
the judge classifies every case from these records, writes every report and seals the
bundle. An executor is started with a neutral argv and an environment that names neither the
kit, nor pytest, nor the case (see :mod:`conformance.session.executors`). The preflight's
probe (:mod:`.probe`) is started the same way, opens the library once before any case and
answers in its start-up record.
"""
