"""Self-test: prove that the suite detects every simulator fault and raises no false alarm.

1. The whole generated suite runs against the faithful simulator as every product family
   (and once more on an emulated 5.10 kernel): no case may fail, and the NOT_APPLICABLE
   set must equal what the spec's support matrix and applicability predict.
2. It runs once per fault switch: each fault must make at least one case fail, and at
   least one failing case must belong to a rule the fault declares it violates.
3. A table fault → killing cases → rules, the mutation score, and the unproven rules are
   printed and written to ``<out>/selftest.json`` and ``<out>/selftest.md``.

The runs are independent subprocesses (``pytest -p conformance.plugin``) executed in
parallel; a run whose process a fault crashes or hangs is repeated under one xdist worker,
which contains the damage to the case that caused it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .product import applicability, family_for_soc

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "generated" / "catalog.json"
SUITE = ROOT / "generated" / "conformance"
DEFAULT_LIB = ROOT / "build" / "sim" / "libascendcl.so"
MODERN_KERNEL = "6.1.0"
LEGACY_KERNEL = "5.10.0"
FAILING = ("FAIL", "ERROR")


@dataclass
class Run:
    """One suite run against the simulator: its configuration and what came out."""

    name: str
    env: dict[str, str]
    family: str
    kernel: str
    fault: dict[str, Any] | None = None
    seconds: float = 0.0
    returncode: int | None = None
    summary: dict[str, Any] | None = None
    log_tail: str = ""
    isolated: bool = False
    problems: list[str] = field(default_factory=list)

    def case_outcomes(self) -> dict[str, tuple[str, str, str]]:
        """case ID → (rule ID, outcome, message)."""
        out: dict[str, tuple[str, str, str]] = {}
        for rule_id, rule in (self.summary or {}).get("rules", {}).items():
            for case_id, case in rule.get("cases", {}).items():
                out[case_id] = (rule_id, case["outcome"], case.get("message") or "")
        return out


def _family(catalog: dict[str, Any], family_id: str) -> dict[str, Any]:
    return next(f for f in catalog["families"] if f["id"] == family_id)


def _family_of_soc(catalog: dict[str, Any], soc: str) -> str:
    family = family_for_soc(catalog, soc)
    if family is None:
        raise ValueError(f"SoC {soc!r} matches no product family")
    return family["id"]


def plan_runs(catalog: dict[str, Any], families: list[str] | None, faults: list[str] | None) -> list[Run]:
    """The faithful runs (every family, plus A2 on a 5.10 kernel) and one run per fault."""
    runs: list[Run] = []
    for fam in catalog["families"]:
        if families is not None and fam["id"] not in families:
            continue
        runs.append(Run(f"faithful-{fam['id']}", {"ACLSIM_SOC": fam["sample_soc"], "ACLSIM_KERNEL": MODERN_KERNEL},
                        fam["id"], MODERN_KERNEL))
    if families is None or "atlas_a2" in families:
        a2 = _family(catalog, "atlas_a2")
        legacy_env = {"ACLSIM_SOC": a2["sample_soc"], "ACLSIM_KERNEL": LEGACY_KERNEL}
        runs.append(Run("faithful-atlas_a2-kernel5.10", legacy_env, "atlas_a2", LEGACY_KERNEL))
    for fault in catalog["faults"]:
        if faults is not None and fault["name"] not in faults:
            continue
        soc = fault.get("soc") or _family(catalog, "atlas_a2")["sample_soc"]
        env = {"ACLSIM_SOC": soc, "ACLSIM_KERNEL": MODERN_KERNEL, **fault.get("env", {}),
               "ACLSIM_FAULTS": fault["name"]}
        runs.append(Run(f"fault-{fault['name']}", env, _family_of_soc(catalog, soc), env["ACLSIM_KERNEL"], fault))
    return runs


def _attempt(run: Run, lib: Path, report_dir: Path, timeout: float, extra: list[str], workers: int) -> bool:
    """One pytest run of the suite; True when it wrote a summary."""
    env = {**os.environ, **run.env, "ACL_OS_KERNEL": run.kernel}
    if run.fault is None:
        env.pop("ACLSIM_FAULTS", None)
    # Allure output is not needed to judge a run; leaving it out saves a third of the time.
    cmd = [sys.executable, "-m", "pytest", "-p", "conformance.plugin", str(SUITE), "-q", "-p", "no:cacheprovider",
           "-p", "no:allure_pytest", "-n", str(workers), f"--acl-lib={lib}", f"--acl-timeout={timeout}",
           f"--acl-report-dir={report_dir}", *extra]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    run.returncode = proc.returncode
    run.log_tail = (proc.stdout + proc.stderr)[-3000:]
    return (report_dir / "summary.json").exists()


def execute(run: Run, lib: Path, out_dir: Path, timeout: float, extra: list[str]) -> Run:
    """Run the suite for one configuration and load its summary.

    The first attempt runs in one process, which is fastest. A fault that crashes or hangs
    the process leaves no summary; the run is then repeated under one xdist worker, which
    contains every crash and hang to the case that caused it.
    """
    report_dir = out_dir / run.name
    shutil.rmtree(report_dir, ignore_errors=True)
    start = time.perf_counter()
    if not _attempt(run, lib, report_dir, timeout, extra, workers=0):
        run.isolated = True
        _attempt(run, lib, report_dir, timeout, extra, workers=1)
    run.seconds = time.perf_counter() - start
    summary = report_dir / "summary.json"
    if summary.exists():
        run.summary = json.loads(summary.read_text())
    else:
        run.problems.append(f"{run.name}: no summary.json (exit {run.returncode}); output:\n{run.log_tail}")
    return run


def predicted_not_applicable(catalog: dict[str, Any], family_id: str, kernel: str) -> set[str]:
    """Case IDs the spec says are NOT_APPLICABLE on a family and kernel."""
    family = _family(catalog, family_id)
    out = set()
    for rule in catalog["rules"]:
        if not applicability(catalog, rule, family, kernel).applies:
            out.update(c["case_id"] for c in rule["cases"])
    return out


def judge_faithful(catalog: dict[str, Any], run: Run) -> list[str]:
    """Problems of a faithful run: any failure, or a NOT_APPLICABLE set other than predicted."""
    problems = list(run.problems)
    if run.summary is None:
        return problems
    outcomes = run.case_outcomes()
    all_cases = {c["case_id"] for r in catalog["rules"] for c in r["cases"]}
    missing = sorted(all_cases - set(outcomes))
    if missing:
        problems.append(f"{run.name}: {len(missing)} case(s) without a result, e.g. {missing[0]}")
    for case_id, (_rule, outcome, message) in sorted(outcomes.items()):
        if outcome in FAILING:
            problems.append(f"{run.name}: false alarm {case_id}: {outcome} {message[:200]}")
    actual_na = {c for c, (_r, o, _m) in outcomes.items() if o == "NOT_APPLICABLE"}
    predicted = predicted_not_applicable(catalog, run.family, run.kernel)
    for case_id in sorted(actual_na - predicted):
        problems.append(f"{run.name}: {case_id} was NOT_APPLICABLE but the spec predicts it applies")
    for case_id in sorted(predicted - actual_na):
        problems.append(f"{run.name}: {case_id} ran but the spec predicts NOT_APPLICABLE")
    return problems


def judge_fault(run: Run) -> dict[str, Any]:
    """Which cases a fault killed, and whether one of them belongs to a rule it violates."""
    assert run.fault is not None
    killers = {case: rule for case, (rule, outcome, _m) in run.case_outcomes().items() if outcome in FAILING}
    rules = sorted(set(killers.values()))
    on_target = sorted(r for r in rules if r in run.fault["violates"])
    status = "killed" if on_target else ("wrong-rule" if killers else "survived")
    if run.summary is None:
        status = "no-result"
    return {
        "fault": run.fault["name"], "family": run.fault["family"], "violates": run.fault["violates"],
        "status": status, "killing_cases": sorted(killers), "killing_rules": rules, "on_target_rules": on_target,
        "seconds": round(run.seconds, 2), "isolated_rerun": run.isolated,
    }


def unproven_rules(catalog: dict[str, Any], verdicts: list[dict[str, Any]]) -> list[str]:
    """Rules that no fault proved (a fault declaring the rule killed one of its cases)."""
    proven = {r for v in verdicts for r in v["on_target_rules"]}
    return [r["id"] for r in catalog["rules"] if r["id"] not in proven]


def report(catalog: dict[str, Any], faithful: list[Run], verdicts: list[dict[str, Any]],
           faithful_problems: list[str], seconds: float) -> dict[str, Any]:
    """The self-test result as data."""
    killed = sum(v["status"] == "killed" for v in verdicts)
    unproven = unproven_rules(catalog, verdicts)
    severity = {r["id"]: r["severity"] for r in catalog["rules"]}
    mandatory_unproven = [r for r in unproven if severity[r] == "mandatory"]
    ok = (not faithful_problems and killed == len(verdicts) and not mandatory_unproven)
    return {
        "schema": "acl-conformance-selftest/1",
        "spec_hash": catalog["spec_hash"],
        "passed": ok,
        "mutation_score": {"killed": killed, "total": len(verdicts),
                           "percent": round(100.0 * killed / len(verdicts), 1) if verdicts else 100.0},
        "faithful_runs": [{"name": r.name, "family": r.family, "kernel": r.kernel, "seconds": round(r.seconds, 2),
                           "totals": (r.summary or {}).get("totals")} for r in faithful],
        "faithful_problems": faithful_problems,
        "faults": verdicts,
        "unproven_rules": unproven,
        "unproven_mandatory_rules": mandatory_unproven,
        "seconds": round(seconds, 1),
    }


def markdown(result: dict[str, Any]) -> str:
    """The self-test result as a Markdown report."""
    score = result["mutation_score"]
    lines = [
        "# Conformance suite self-test",
        "",
        f"Spec `{result['spec_hash']}` — **{'PASSED' if result['passed'] else 'FAILED'}** — mutation score "
        f"{score['killed']}/{score['total']} ({score['percent']} %) — {result['seconds']} s",
        "",
        "## Faithful simulator",
        "",
        "| run | family | kernel | totals | seconds |",
        "| --- | --- | --- | --- | --- |",
    ]
    for run in result["faithful_runs"]:
        totals = ", ".join(f"{k} {v}" for k, v in sorted((run["totals"] or {}).items()) if v)
        lines.append(f"| {run['name']} | {run['family']} | {run['kernel']} | {totals} | {run['seconds']} |")
    lines += ["", f"False alarms and applicability mismatches: {len(result['faithful_problems'])}", ""]
    lines += [f"- {p}" for p in result["faithful_problems"]]
    lines += ["", "## Faults", "", "| fault | status | rules it breaks | killed by rules | killing cases |",
              "| --- | --- | --- | --- | --- |"]
    for v in result["faults"]:
        cases = ", ".join(f"`{c}`" for c in v["killing_cases"][:4]) + (" ..." if len(v["killing_cases"]) > 4 else "")
        lines.append(f"| {v['fault']} | {v['status']} | {', '.join(v['violates'])} | "
                     f"{', '.join(v['killing_rules'])} | {cases} |")
    lines += ["", "## Rules no fault proves", ""]
    lines += [f"- {r}" for r in result["unproven_rules"]] or ["- none"]
    return "\n".join(lines) + "\n"


def print_table(result: dict[str, Any]) -> None:
    """Print fault → killing cases → rules, the score and the unproven rules."""
    width = max((len(v["fault"]) for v in result["faults"]), default=5)
    print(f"\n{'fault':<{width}}  {'status':<10} {'cases':>5}  rules killed (declared)")
    for v in result["faults"]:
        print(f"{v['fault']:<{width}}  {v['status']:<10} {len(v['killing_cases']):>5}  "
              f"{','.join(v['killing_rules']) or '-'} ({','.join(v['violates'])})")
    score = result["mutation_score"]
    print(f"\nmutation score: {score['killed']}/{score['total']} ({score['percent']} %)")
    print(f"faithful runs: {len(result['faithful_runs'])}, problems: {len(result['faithful_problems'])}")
    for problem in result["faithful_problems"][:50]:
        print(f"  {problem}")
    print(f"unproven rules: {', '.join(result['unproven_rules']) or 'none'}")
    print(f"self-test {'PASSED' if result['passed'] else 'FAILED'} in {result['seconds']} s")
    # One check per fault, one per faithful run, and one for "every mandatory rule is proven".
    checks = len(result["faults"]) + len(result["faithful_runs"]) + 1
    failed = (len(result["faults"]) - score["killed"]) + len({p.split(":")[0] for p in result["faithful_problems"]})
    failed += 1 if result["unproven_mandatory_rules"] else 0
    print(f"selftest: {checks - failed} passed, {failed} failed")


def run_selftest(lib: Path, out_dir: Path, jobs: int, timeout: float, families: list[str] | None = None,
                 faults: list[str] | None = None, extra: list[str] | None = None) -> dict[str, Any]:
    """Run every planned configuration and judge the results."""
    catalog = json.loads(CATALOG.read_text())
    runs = plan_runs(catalog, families, faults)
    out_dir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    done = 0

    def one(run: Run) -> Run:
        nonlocal done
        execute(run, lib, out_dir, timeout, extra or [])
        done += 1
        print(f"[{done}/{len(runs)}] {run.name}: {(run.summary or {}).get('totals', 'no result')} "
              f"({run.seconds:.1f} s)", flush=True)
        return run

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        finished = list(pool.map(one, runs))
    faithful = [r for r in finished if r.fault is None]
    problems = [p for r in faithful for p in judge_faithful(catalog, r)]
    verdicts = [judge_fault(r) for r in finished if r.fault is not None]
    result = report(catalog, faithful, verdicts, problems, time.perf_counter() - start)
    (out_dir / "selftest.json").write_text(json.dumps(result, indent=1) + "\n")
    (out_dir / "selftest.md").write_text(markdown(result))
    return result


def build_parser() -> argparse.ArgumentParser:
    """Arguments of ``python -m conformance selftest``."""
    parser = argparse.ArgumentParser(
        prog="python -m conformance selftest",
        description="Run the suite against the faithful simulator (every family) and once per fault switch; "
        "fail when a fault survives, is caught only by the wrong rule, or the faithful runs raise an alarm.",
    )
    parser.add_argument("--acl-lib", type=Path, default=DEFAULT_LIB, help="simulator library (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=ROOT / "reports" / "selftest", help="output directory")
    parser.add_argument("-j", "--jobs", type=int, default=max(2, os.cpu_count() or 2), help="parallel runs")
    parser.add_argument("--acl-timeout", type=float, default=5.0, help="per-wait timeout inside each run (s)")
    parser.add_argument("--family", action="append", help="limit faithful runs to these family IDs")
    parser.add_argument("--fault", action="append", help="limit fault runs to these fault names")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point; exit 0 when the self-test passes, 1 otherwise."""
    args = build_parser().parse_args(argv)
    if not args.acl_lib.exists():
        print(f"selftest: {args.acl_lib} not found; build it with `make sim`", file=sys.stderr)
        return 2
    result = run_selftest(args.acl_lib, args.out, args.jobs, args.acl_timeout, args.family, args.fault)
    print_table(result)
    print(f"results: {args.out / 'selftest.json'}, {args.out / 'selftest.md'}")
    return 0 if result["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
