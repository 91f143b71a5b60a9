"""Benchmarks: code generation, the suite's wall time (serial vs parallel), a fleet merge, the
generated wrappers' cost per call against raw cffi calls, the explorer's calls per second, and what the
judge/executor split costs (a case's round trip; the suite before and after it, side by side), a run's
fixed cost against bare pytest, and the whole self-test once; each speed goal (:data:`GOALS`) is printed
with its verdict.

Speed claims in docs/measurements.md come from here. Each figure is the median of several repetitions
(the per-call costs the fastest of many, interleaved), and comparisons are made within one
invocation, because absolute times on shared machines drift between runs; ratios measured
side by side are what to compare. ``--only`` picks one part.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import split  # bench/split.py, beside this file
import startup  # bench/startup.py
from timing import timed as _timed  # bench/timing.py

ROOT = Path(__file__).resolve().parent.parent


def bench_generate(repeats: int) -> dict[str, float]:
    """In-process generation (load + validate + render) and the full CLI, in seconds."""
    sys.path.insert(0, str(ROOT))
    from codegen.load import load_spec
    from codegen.render import render_all

    inproc = []
    for _ in range(repeats):
        start = time.perf_counter()
        render_all(load_spec(ROOT / "spec"))
        inproc.append(time.perf_counter() - start)
    with tempfile.TemporaryDirectory() as out:
        cli = [_timed([sys.executable, "-m", "codegen", "generate", "--out", out]) for _ in range(repeats)]
    return {"generate_in_process_s": statistics.median(inproc), "generate_cli_s": statistics.median(cli)}


def bench_suite(repeats: int, lib: str) -> dict[str, float]:
    """Wall time of the whole suite against ``lib``: one xdist worker vs ``-n auto``."""
    from conformance.results.terminal import Progress

    results: dict[str, list[float]] = {"serial": [], "parallel": []}
    progress = Progress(2 * repeats)
    with tempfile.TemporaryDirectory() as out:
        for _ in range(repeats):
            for label, workers in (("serial", "1"), ("parallel", "auto")):
                cmd = [sys.executable, "-m", "conformance", "run", "--no-html", "-n", workers,
                       "--acl-lib", lib, "--acl-report-dir", f"{out}/{label}"]
                results[label].append(_timed(cmd))
                progress.step(f"suite run, {label}: {results[label][-1]:.1f} s")
    serial, parallel = statistics.median(results["serial"]), statistics.median(results["parallel"])
    return {"suite_serial_s": serial, "suite_parallel_s": parallel, "parallel_speedup": serial / parallel}


#: The last commit whose judge loaded the library itself (issue 19 split them after it).
SPLIT_BEFORE = "ec35ab5"
MERGE_RUNS = 500
MERGE_LIMIT_S = 2.0


def bench_merge(repeats: int, count: int = MERGE_RUNS) -> dict[str, float]:
    """Merge ``count`` synthetic bundles (checksums verified, summaries parsed) into a matrix, in seconds.

    ``merge_in_process_s`` is the merge itself (read, verify, fold, write JSON/Markdown/HTML);
    ``merge_cli_s`` adds the interpreter start of ``python -m conformance merge``.
    """
    sys.path.insert(0, str(ROOT))
    from fleet_synthetic import make_fleet  # beside this script

    from conformance.fleet.command import main as merge_main

    with tempfile.TemporaryDirectory() as tmp:
        runs = Path(tmp) / "runs"
        make_fleet(runs, count)
        inproc = []
        for _ in range(repeats):
            start = time.perf_counter()
            status = merge_main([str(runs), "--out", f"{tmp}/matrix"])
            inproc.append(time.perf_counter() - start)
            assert status == 0, "the synthetic fleet did not merge cleanly"
        cli = [_timed([sys.executable, "-m", "conformance", "merge", str(runs), "--out", f"{tmp}/m"])
               for _ in range(repeats)]
    return {"merge_runs": count, "merge_in_process_s": statistics.median(inproc), "merge_cli_s": statistics.median(cli)}


def bench_calls(lib: str, explore_steps: int, repeats: int) -> dict[str, Any]:
    """Wrapper/raw cost per call, and the explorer's rate (the median of ``repeats`` explorations by
    calls per CPU second), measured in this one process."""
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import calls

    costs = calls.wrapper_costs(Path(lib))
    ratios = [c["wrapper_over_raw"] for c in costs.values()]
    figures: dict[str, Any] = {"wrapper_calls": costs,
                               "wrapper_over_raw_max": max(ratios),
                               "wrapper_over_raw_geomean": round(calls.geometric_mean(ratios), 2),
                               "wrapper_over_bare_geomean": round(calls.geometric_mean(
                                   [c["wrapper_over_bare"] for c in costs.values()]), 2)}
    rates = sorted((calls.explorer_rate(Path(lib), explore_steps) for _ in range(max(1, repeats))),
                   key=lambda r: r["explorer_calls_per_cpu_s"])
    figures.update(rates[len(rates) // 2])
    figures["explorer_calls_per_cpu_s_range"] = f"{rates[0]['explorer_calls_per_cpu_s']}-" \
                                                f"{rates[-1]['explorer_calls_per_cpu_s']}"
    return figures


def bench_selftest() -> dict[str, Any]:
    """The whole self-test once (``make selftest``): its wall and CPU seconds, as selftest.json records them."""
    with tempfile.TemporaryDirectory() as tmp:
        wall = _timed([sys.executable, "-m", "conformance", "selftest", "--out", tmp])
        result = json.loads((Path(tmp) / "selftest.json").read_text(encoding="utf-8"))
    runs = len(result["faithful_runs"]) + len(result["faults"]) + len(result["legal_variants"])
    return {"selftest_s": wall, "selftest_cpu_s": float(result["cpu_seconds"]), "selftest_runs": runs}


#: The speed goals (issues 21 and 33): figure -> its upper limit. Each is printed with its verdict.
GOALS: dict[str, float] = {"fixed_cost_ratio": 1.5, "suite_over_noop_ratio": 1.5, "selftest_s": 120.0}


def goal_lines(figures: dict[str, Any]) -> list[str]:
    """One line per goal whose figure was measured: the figure, the limit, within or OVER."""
    return [f"goal {key}: {figures[key]:.2f} {'within' if figures[key] <= limit else 'OVER'} {limit:g}"
            for key, limit in GOALS.items() if isinstance(figures.get(key), (int, float))]


def _show(figures: dict[str, Any]) -> None:
    for key, value in figures.items():
        if key == "wrapper_calls":
            print(f"{'wrapper vs raw cffi':>24}: ns per call (raw / bare / wrapper), wrapper/raw, wrapper/bare")
            for name, row in value.items():
                print(f"{'':>26}{row['raw_ns']:8.1f} {row['bare_ns']:8.1f} {row['wrapper_ns']:8.1f}  "
                      f"{row['wrapper_over_raw']:5.2f} {row['wrapper_over_bare']:5.2f}  {name}")
        else:
            print(f"{key:>24}: {value:.3f}" if isinstance(value, float) else f"{key:>24}: {value}")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks, print them and write reports/bench.json."""
    parser = argparse.ArgumentParser(prog="python bench/bench.py", description=__doc__)
    parser.add_argument("--repeats", type=int, default=3, help="repetitions per figure (median is kept)")
    parser.add_argument("--acl-lib", default=str(ROOT / "build" / "sim" / "libascendcl.so"))
    parser.add_argument("--explore-steps", type=int, default=5000, help="actions of the explorer run (default 5000)")
    parser.add_argument("--only", choices=("generate", "suite", "merge", "calls", "split", "startup", "selftest"),
                        help="run one benchmark only")
    parser.add_argument("--startup-before", metavar="COMMIT",
                        help="also measure the startup figures of this commit's tree, in the same rounds")
    parser.add_argument("--before", default=SPLIT_BEFORE, help="the commit whose suite the split is compared with "
                        f"(default {SPLIT_BEFORE}, the last one that ran the library inside the judge)")
    args = parser.parse_args(argv)
    benches = {"generate": lambda: bench_generate(args.repeats * 2),
               "suite": lambda: bench_suite(args.repeats, args.acl_lib),
               "merge": lambda: bench_merge(args.repeats),
               "calls": lambda: bench_calls(args.acl_lib, args.explore_steps, args.repeats),
               "startup": lambda: {**startup.fixed_cost(Path(args.acl_lib), args.repeats, args.startup_before),
                                   **split.executor_start(Path(args.acl_lib))},
               "split": lambda: {**split.case_round_trip(Path(args.acl_lib)),
                                 **split.suite_before_after(Path(args.acl_lib), args.before, args.repeats)},
               "selftest": bench_selftest}
    figures: dict[str, Any] = {}
    for name, bench in benches.items():
        if args.only in (None, name):
            figures.update(bench())
    catalog = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text(encoding="utf-8"))
    figures["cases"] = sum(len(r["cases"]) for r in catalog["rules"])
    figures["cpus"] = os.cpu_count() or 1
    _show(figures)
    out = ROOT / "reports" / "bench.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(figures, indent=1) + "\n")
    if "merge_in_process_s" in figures:
        verdict = "within" if figures["merge_in_process_s"] <= MERGE_LIMIT_S else "OVER"
        print(f"merging {MERGE_RUNS} runs took {figures['merge_in_process_s']:.2f} s: {verdict} the "
              f"{MERGE_LIMIT_S:.0f} s goal")
    for line in goal_lines(figures):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
