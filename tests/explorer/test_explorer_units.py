"""The explorer's parts that need no backend: the model's names are implemented, shortening, gates on time."""

from __future__ import annotations

import threading
import time

from acl_hostmem_generated import state_model as model
from conformance.checks.explorer.actions import ACTIONS, BURST_WEIGHTS, NEEDS
from conformance.checks.explorer.calls import Step, addr, const
from conformance.checks.explorer.driver import Alarm, Watchdog
from conformance.checks.explorer.facts import Facts
from conformance.checks.explorer.machine import ExplorerMachine
from conformance.checks.explorer.outputs import CHECKS
from conformance.checks.explorer.reproducer import minimise, prunable, usable
from conformance.checks.explorer.state import World


def test_every_fact_effect_and_check_of_the_state_model_is_implemented():
    assert {n for n in model.FACTS if not isinstance(getattr(Facts, n, None), property)} == set()
    assert {n for n in model.EFFECTS if not callable(getattr(World, f"effect_{n}", None))} == set()
    assert set(CHECKS) == set(model.CHECKS)
    assert {probe for _meaning, probe, _e in model.INVARIANTS.values() if probe} <= set(model.INTERFACES)


def test_every_action_has_a_weight_and_an_implementation():
    assert set(BURST_WEIGHTS) == set(ACTIONS) and set(NEEDS) <= set(ACTIONS)
    for name in ACTIONS:
        assert callable(getattr(ExplorerMachine, f"_{name}")), name


def _call(function: str, *, binds: tuple[tuple[str, str], ...] = (), uses: str = "", probe: bool = False) -> Step:
    args = (("ptr", addr(uses)),) if uses else (("size", const(64)),)
    return Step("call", function, args=args, binds=binds, probe=probe)


def test_minimise_keeps_the_last_item_and_drops_what_the_failure_does_not_need():
    items = list(range(20))
    needed = {3, 11}
    shortest = minimise(items, lambda trial: needed <= set(trial) and trial[-1] == 19)
    assert shortest == [3, 11, 19]
    assert minimise(items, lambda trial: needed <= set(trial), lambda item: item % 2 == 0) == [
        1, 3, 5, 7, 9, 11, 13, 15, 17, 19]


def test_a_path_is_usable_only_when_every_variable_is_made_first():
    alloc = _call("aclrtMallocHost", binds=(("hostPtr", "h1"),))
    use = _call("aclrtFreeHost", uses="h1")
    assert usable([alloc, use])
    assert not usable([use])
    assert not usable([Step("open", gate=3)])


def test_probes_and_unchecked_markers_are_what_a_reproducer_may_lose():
    alloc = _call("aclrtMallocHost", binds=(("hostPtr", "h1"),))
    probe = _call("aclrtHostGetDevicePointer", uses="h1", probe=True)
    mark = Step("mark", var="h1")
    path = [alloc, mark, probe, _call("aclrtFreeHost", uses="h1")]
    losable = prunable(path)
    assert [losable(step) for step in path] == [False, True, True, False]
    assert not prunable([*path, Step("markers", var="h1")])(mark)


def test_the_alarm_opens_gates_only_when_a_job_falls_due():
    opened: list[tuple[int, ...]] = []
    alarm = Alarm(opened.append)
    try:
        early = alarm.arm(10.0, (1,))
        assert alarm.disarm(early) is False
        due = alarm.arm(0.01, (2, 3))
        time.sleep(0.2)
        assert alarm.disarm(due) is True and opened == [(2, 3)]
    finally:
        alarm.stop()


def test_the_watchdog_opens_the_gates_of_an_overdue_call_only():
    opened: list[tuple[int, ...]] = []
    done = threading.Event()
    watchdog = Watchdog(lambda gates: (opened.append(gates), done.set()))
    try:
        quick = watchdog.start((1,), 5.0)
        assert watchdog.end(quick) is False
        slow = watchdog.start((4,), 0.0)
        assert done.wait(5.0)
        assert watchdog.end(slow) is True and opened == [(4,)]
    finally:
        watchdog.stop()


HOSTILE = 'x"""; import os  # */ /* \\ ??/\nend\r\u2028'


def test_reproducer_text_cannot_break_out_of_its_comments_strings_or_docstring():
    import ast

    from conformance.checks.explorer.reproducer import Line, Program, render

    lines = [Line(1, Step("map", var="m1", size=4096))]
    program = Program(rule="HM-EXPLORE-ALL", problem=HOSTILE, header=HOSTILE, lines=lines, variables=[("m1", "void *")],
                      gates=0,
                      device=0, fault_hint=f"ACLSIM_FAULTS={HOSTILE} ")
    files = render(program)
    tree = ast.parse(files["replay.py"])  # a breakout would be a syntax error or extra statements
    docstring = ast.get_docstring(tree, clean=False) or ""
    assert HOSTILE in docstring
    assert [type(node).__name__ for node in tree.body].count("Import") == sum(
        line.startswith("import ") for line in files["replay.py"].splitlines())
    c_source = files["repro.c"]
    head = c_source[:c_source.index("#include")]
    assert head.count("*/") == head.count("/*") == 2, head  # the two header comments, nothing closed early


# A Hypothesis run drawing integers in a process whose current directory holds a module of literals, as the
# kit's own modules are to an executor of a clone; prints how many constants Hypothesis took from source and
# whether it wrote its cache of them.
_DRAWS = """
import os, sys
sys.path.insert(0, os.getcwd())
import literals  # noqa: F401 - its literals are what Hypothesis would mix in
from hypothesis import given, seed, settings, strategies as st
from hypothesis.internal.conjecture import providers
from conformance.checks.explorer.exploration import without_source_constants
told = without_source_constants() if sys.argv[1] == "off" else None

@seed(0)
@settings(database=None, max_examples=300)
@given(st.integers(0, 1 << 40))
def draws(x):
    pass

draws()
print(told, len(providers._local_constants), os.path.isdir(".hypothesis/constants"))
"""


def test_the_explorers_values_never_come_from_the_kits_own_source(tmp_path):
    """The explorer's actions depend on the seed and the spec's model, not on how the kit is installed: Hypothesis
    neither parses the kit's modules for literals to draw nor writes its cache of them in the executor."""
    import os
    import subprocess
    import sys

    (tmp_path / "literals.py").write_text("".join(f"VALUE_{n} = {n * 7919 + 1000003}\n" for n in range(64)))
    (tmp_path / "draws.py").write_text(_DRAWS)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))

    def run(mode: str) -> list[str]:
        done = subprocess.run([sys.executable, "draws.py", mode], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    told, constants, cache = run("off")
    assert (constants, cache) == ("0", "False")
    if told == "True":  # this Hypothesis collects literals from source: without the explorer's word it does here
        _, constants, cache = run("on")
        assert int(constants) > 0 and cache == "True"
