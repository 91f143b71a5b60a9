"""The explorer's check: run an exploration, and turn a mismatch into the case's verdict.

A mismatch arrives as the shortest failing example Hypothesis found (in the time it is
given to shrink). The explorer shortens it further (:func:`~.reproducer.minimise`): first
the actions, each trial run again through the model, then the probes of the resulting
path, each trial replayed by the rendered script. The result is replayed once more with
the call trace on (so that the report's ACL call trace is the reproduction) and attached as
the path, a Python replay script and a C reproducer. The case then fails with the step,
the problem and the evidence of the prediction it broke.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from acl_hostmem_generated import state_model as model
from acl_hostmem_generated.catalog_types import ExpectEntry

from ...harness.context import AclContext
from ...harness.product import applies_reason, version_tuple
from ...harness.resources import generated_dir
from ...harness.symbols import exported
from ...harness.violations import CallTimeout, SpecViolation, WrongErrorCode
from .calls import Step
from .exploration import Exploration, Rerun
from .exploration import explore as run_exploration
from .reproducer import build_program, minimise, prunable, render, replay, usable
from .session import Failure, Mismatch
from .state import ProductFacts

PATH_LINES_SHOWN = 12
# Time the explorer gives each shortening pass; a pass cut short keeps the shortest path so far.
SHORTEN_ACTIONS_S = 2.5
SHORTEN_PROBES_S = 1.5


def _not_newer(have: tuple[int, ...], limit: tuple[int, ...]) -> bool:
    width = max(len(have), len(limit))
    return have + (0,) * (width - len(have)) <= limit + (0,) * (width - len(limit))


def product_facts(ctx: AclContext) -> ProductFacts:
    """What the state model needs to know about the product, from the harness and the catalog."""
    family = ctx.product.family
    interfaces = ctx.catalog["interfaces"]
    unsupported = frozenset(name for name, info in interfaces.items()
                            if (info.get("support") or {}).get(family, True) is False)
    disputed = frozenset(name for name, info in interfaces.items() if family in info.get("support_disputed", []))
    record = next(f for f in ctx.catalog["families"] if f["id"] == family)
    inapplicable = frozenset(
        r["id"] for r in ctx.catalog["rules"]
        if applies_reason(r, record, ctx.product.machine) is not None)
    have = version_tuple(ctx.product.kernel)
    limits = [version_tuple(at_most) for r in ctx.catalog["rules"] if (at_most := r["applies"]["kernel_at_most"])]
    legacy = bool(have) and any(_not_newer(have, limit) for limit in limits)
    syncing = frozenset(name for name, info in ctx.catalog["interfaces"].items()
                        if info.get("implicit_sync") == "device")
    missing = frozenset(name for name in model.INTERFACES if not exported(ctx.lib.lib, name))
    return ProductFacts(family, ctx.product.va_flag, legacy, ctx.product.device_count, unsupported, syncing, missing,
                        disputed, inapplicable, ctx.product.driver, ctx.product.host_page)


def explore(ctx: AclContext, *, paths: str, expect: ExpectEntry | None) -> None:
    """Random call sequences over the clauses ``paths`` allows must get the results the state model predicts."""
    result = run_exploration(ctx.lib, product_facts(ctx), ctx.device, paths=paths, budget=ctx.explore_steps,
                             seed_value=ctx.explore_seed, timeout=ctx.timeout)
    ctx.attach("exploration.json", json.dumps(result.to_json(), indent=1) + "\n")
    if result.mismatch is not None:
        raise _verdict(ctx, result, paths)


def _shorten(failure: Failure, rerun: Rerun, script_fails: Callable[[list[Step]], bool]) -> tuple[list[Step],
                                                                                                   Mismatch]:
    """The shortest path to the same mismatch: fewer actions (run again through the model), then fewer probes.

    Returns the failure's own path when running its actions again does not meet the same
    mismatch (the failure depends on history the actions do not recreate).
    """
    def same(found: Failure | None) -> bool:
        return (found is not None and found.mismatch.clause == failure.mismatch.clause
                and found.mismatch.kind == failure.mismatch.kind)

    if not same(rerun.run(failure.actions)):
        return failure.path, failure.mismatch
    actions = minimise(failure.actions, lambda trial: same(rerun.run(trial)), seconds=SHORTEN_ACTIONS_S)
    final = rerun.run(actions)
    if not same(final) or final is None:
        return failure.path, failure.mismatch
    path = final.path
    if script_fails(path):
        path = minimise(path, script_fails, prunable(path), seconds=SHORTEN_PROBES_S)
    return path, final.mismatch


def reproduces_in_new_process(script: str, ctx: AclContext) -> bool:
    """Whether a replay script, run by a new interpreter against the same library, fails at its last step."""
    steps = script.count("\n        step = ")
    with tempfile.TemporaryDirectory(prefix="acl-replay-") as folder:
        target = Path(folder) / "replay.py"
        target.write_text(script, encoding="utf-8")
        importable = os.pathsep.join(p for p in (str(generated_dir().parent), os.environ.get("PYTHONPATH")) if p)
        env = {**os.environ, "PYTHONPATH": importable, "ACL_DEVICE": str(ctx.device)}
        try:
            done = subprocess.run([sys.executable, str(target), str(ctx.lib.path)], cwd=folder, env=env,
                                  capture_output=True, text=True, timeout=3 * ctx.timeout, check=False)
        except subprocess.TimeoutExpired:
            return False
    return done.returncode == 1 and done.stdout.startswith(f"step {steps}:")


def _shortest_reproduction(ctx: AclContext, failure: Failure, paths: str, script_text: Callable[[list[Step]], str],
                           script_fails: Callable[[list[Step]], bool]) -> tuple[list[Step], Mismatch, bool]:
    """The path to report, its mismatch, and whether its replay fails in a new process.

    A backend's state outlives an example, so a shortened path may fail here only because of
    what came before it; a reproducer must fail in a fresh process, else the failure's own
    path is tried, and failing that the shortened path is reported as not reproduced.
    """
    tracing, ctx.lib.trace = ctx.lib.trace, None
    rerun = Rerun(ctx.lib, product_facts(ctx), ctx.device, paths=paths, timeout=ctx.timeout)
    try:
        path, mismatch = _shorten(failure, rerun, script_fails)
        for candidate in (path, failure.path) if path is not failure.path else (path,):
            if reproduces_in_new_process(script_text(candidate), ctx):
                return candidate, mismatch if candidate is path else failure.mismatch, True
        return path, mismatch, False
    finally:
        rerun.close()
        ctx.lib.trace = tracing


def _rests_on(ctx: AclContext, path: list[Step], cited: str | None) -> tuple[str, ...]:
    """The fixed-matrix rules a finding may be another view of: the rule its broken prediction cites,
    and every rule that judges a function the path calls. When one of them fails in the same run,
    the report shows the finding as BLOCKED by it (the fixed rule is the root cause)."""
    called = {step.function for step in path if step.kind == "call"}
    rules = {str(r["id"]) for r in ctx.catalog["rules"]
             if r.get("family") != "explorer" and called & set(r.get("interfaces") or ())}
    first = (cited,) if cited and cited not in model.EXPLORER_RULES else ()
    return first + tuple(sorted(rules - set(first)))


def _rule_of(paths: str) -> str:
    return next(rule for rule, allowed in model.EXPLORER_RULES.items() if allowed == paths)


def _verdict(ctx: AclContext, result: Exploration, paths: str) -> SpecViolation:
    failure = result.failure
    assert failure is not None
    mismatch = failure.mismatch
    rule = _rule_of(paths)
    header = f"explorer finding of {rule}: seed {result.seed}, spec {model.SPEC_HASH}"

    def program_text(path: list[Step]) -> dict[str, str]:
        return render(build_program(path, rule=rule, problem=mismatch.problem, header=header, device=ctx.device,
                                    faults=os.environ.get("ACLSIM_FAULTS", ""), catalog=ctx.catalog))

    def script_fails(path: list[Step]) -> bool:
        if not usable(path):
            return False
        found = replay(program_text(path)["replay.py"], ctx.lib, ctx.device, ctx.page)
        return found is not None and found[0] == len(path)

    if result.hung:
        # The call never returned: the backend may be wedged, and every replay would wait too.
        path, fresh = failure.path, False
    else:
        path, mismatch, fresh = _shortest_reproduction(ctx, failure, paths,
                                                       lambda p: program_text(p)["replay.py"], script_fails)
    files = program_text(path)
    if fresh:
        replay(files["replay.py"], ctx.lib, ctx.device, ctx.page)  # once more, traced, for the report's call trace
    first = max(0, len(path) - PATH_LINES_SHOWN)
    shown = "\n".join(f"  {i + 1:>2}. {step.line()}" for i, step in enumerate(path[first:], start=first))
    ctx.attach("path.txt", f"{header}\n{shown}\n  -> {mismatch.problem}\n")
    ctx.attach("replay.py", files["replay.py"])
    ctx.attach("repro.c", files["repro.c"])
    evidence = mismatch.evidence
    ctx.rests_on = _rests_on(ctx, path, evidence.rule)
    cited = evidence.rule or ("the called function's API page" if evidence.provenance == "documented" else
                              "no document")
    calls = sum(1 for step in path if step.kind == "call")
    message = (
        f"after {result.steps} steps in {result.examples} sequences (seed {result.seed}), a sequence of {calls} "
        f"calls ends in a result the state model does not predict:\n{shown}\n  -> {mismatch.problem}\n"
        f"predicted by {mismatch.clause} ({mismatch.source}) on the evidence of {cited} ({evidence.provenance}"
        f"{', code ' + str(evidence.code_provenance) if mismatch.kind == 'code' else ''}); "
        + ("replay.py and repro.c (attached) reproduce it in a new process" if fresh else
           "the call never returned, so the path is not shortened; replay.py and repro.c (attached) repeat it"
           if result.hung else
           "it did not reproduce in a new process (it depends on history before the path, or is flaky); the path "
           "is attached")
    )
    if mismatch.kind == "code":
        return WrongErrorCode(message)
    if mismatch.kind == "hang":
        return CallTimeout(message)
    return SpecViolation(message)
