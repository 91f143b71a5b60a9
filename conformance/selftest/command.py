"""Self-test: prove that the suite detects every simulator fault and raises no false alarm.

1. The whole generated suite runs against the faithful simulator as every product family
   (and once more on an emulated 5.10 kernel): no case may fail, and the NOT_APPLICABLE
   set must equal what the spec's support matrix and applicability predict.
2. It runs once per fault switch: each fault must make at least one case fail, and at
   least one failing case must belong to a rule the fault declares it violates (the
   mutation score).
3. It runs once per legal variant and product family the variant concerns: behaviour the
   evidence leaves open must never make a mandatory rule fail (the false-alarm score).
   Where the family's driver can pin aclrtHostRegisterV2 PINNED memory itself, the faithful
   and legal runs are made once more on that path (``ACLSIM_PIN_REGISTER=driver``), where a
   rule below mandatory may deviate and a mandatory one may not.
4. A table fault → killing cases → rules, the two scores, and the unproven rules are
   printed and written to ``<out>/selftest.json`` and ``<out>/selftest.md``.

The runs execute in parallel, ``--jobs`` at once, each in one of ``--jobs`` long-lived judge
processes (:mod:`.worker`) that run many suites one after another, every run with executors,
environment and report directory of its own; each run's judge contains a fault that crashes or
hangs to the case that caused it, and a run that leaves no summary is repeated once in a judge
process of its own.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..i18n import _, helptext
from ..results.terminal import Progress, Style
from .plan import CATALOG, DEFAULT_LIB, DRIVER_PINS, RUNTIME_PINS, Run, execute, plan_runs, release_lib
from .report import markdown, print_table
from .scoring import SelftestJSON, report, score_faithful, score_fault, score_legal
from .worker import SuiteJudge


def run_selftest(lib: Path, out_dir: Path, jobs: int, timeout: float, families: list[str] | None = None,
                 faults: list[str] | None = None, extra: list[str] | None = None,
                 variants: list[str] | None = None, faithful: bool = True,
                 all_releases: bool = False, pins: list[str] | None = None, executors: int = 1) -> SelftestJSON:
    """Run every planned configuration and judge the results.

    ``families`` limits the faithful and legal-variant runs, ``faults`` the fault runs,
    ``variants`` the legal variants and ``pins`` their pin-register settings (None: all);
    ``faithful=False`` leaves the faithful runs out.
    """
    catalog = json.loads(CATALOG.read_text())
    runs = plan_runs(catalog, families, faults, variants, faithful, all_releases, pins)
    cost = previous_seconds(out_dir / "selftest.json")
    out_dir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    progress = Progress(len(runs), stream=sys.stdout)

    # One long-lived judge process per parallel run: each runs many suites, one after another.
    judges: queue.SimpleQueue[SuiteJudge] = queue.SimpleQueue()
    for _slot in range(jobs):
        judges.put(SuiteJudge())

    def one(run: Run) -> Run:
        judge = judges.get()
        try:
            execute(run, lib, out_dir, timeout, extra or [], judge, executors)
        finally:
            judges.put(judge)
        totals = run.summary.totals if run.summary else {}
        shown = ", ".join(f"{n} {k.lower()}" for k, n in totals.items() if n) or _("no result")
        progress.step(_("{run}: {totals} in {seconds:.1f} s").format(run=run.name, totals=shown, seconds=run.seconds))
        return run

    # Longest first (by the last self-test's times, unknown runs first), so that the runs still
    # going at the end are short ones; the results keep the plan's order.
    started = sorted(runs, key=lambda run: -cost.get(run.name, float("inf")))
    try:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            done = {id(run): run for run in pool.map(one, started)}
    finally:
        while not judges.empty():
            judges.get().close()
    finished = [done[id(run)] for run in runs]
    clean = [r for r in finished if r.fault is None]
    problems = [p for r in clean for p in score_faithful(catalog, r)]
    verdicts = [score_fault(r) for r in finished if r.fault is not None and not r.legal]
    legal = [score_legal(r) for r in finished if r.legal]
    result = report(catalog, clean, verdicts, problems, time.perf_counter() - start, legal,
                    every_fault=faults is None and variants is None)
    (out_dir / "selftest.json").write_text(json.dumps(result, indent=1) + "\n")
    (out_dir / "selftest.md").write_text(markdown(result))
    return result


def previous_seconds(path: Path) -> dict[str, float]:
    """Run name → seconds, from the self-test last written at ``path`` (empty when there is none).

    Only the order in which the runs start comes from it, as CTest orders tests by its cost data:
    a missing, stale or malformed file costs the order, never a result.
    """
    try:
        document = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    seconds: dict[str, float] = {}
    sections = (("faithful_runs", "name"), ("faults", "run"), ("legal_variants", "run"))
    for section, key in sections:
        entries = document.get(section) if isinstance(document, dict) else None
        for entry in entries if isinstance(entries, list) else []:
            if isinstance(entry, dict) and isinstance(entry.get(key), str) \
                    and isinstance(entry.get("seconds"), (int, float)):
                seconds[entry[key]] = float(entry["seconds"])
    return seconds


def build_parser() -> argparse.ArgumentParser:
    """Arguments of ``python -m conformance selftest``."""
    parser = helptext.ArgumentParser(
        prog="python -m conformance selftest",
        description=_("Run the suite against the faithful simulator (every family), once per fault switch and "
                      "once per legal variant and family; fail when a fault survives or is caught only by the wrong "
                      "rule (mutation score), or when a faithful run or a legal variant makes a mandatory rule fail "
                      "(false-alarm score)."),
    )
    parser.add_argument("--acl-lib", type=Path, default=DEFAULT_LIB,
                        help=_("the reference simulator (default in a clone: %(default)s; an installed kit: "
                               "build it with `acl-conformance build-sim`)"))
    parser.add_argument("--out", type=Path, default=Path("reports") / "selftest",
                        help=_("output directory (default: %(default)s)"))
    # Three runs more than cores: a run waits on its subprocesses' start, its sync cases' watches and
    # its hangs' limits. On 2 cores, 12 fault and 2 legal runs on A2 (alternately, twice each) took
    # 70-80 s with 3 at once, 62-69 s with 4 and 63 s with 5 (86 % of both cores busy).
    parser.add_argument("-j", "--jobs", type=int, default=(os.cpu_count() or 2) + 3,
                        help=_("parallel runs (default: three more than the CPU count)"))
    parser.add_argument("--executors", type=int, default=1, help=_("executors of each run (default: %(default)s)"))
    parser.add_argument("--acl-timeout", type=float, default=5.0, help=_("per-wait timeout inside each run (s)"))
    parser.add_argument("--family", action="append", help=_("limit faithful runs to these family IDs"))
    parser.add_argument("--fault", action="append", help=_("limit fault runs to these fault names"))
    parser.add_argument("--variant", action="append", help=_("limit legal-variant runs to these variant names"))
    parser.add_argument("--pin-register", action="append", choices=(RUNTIME_PINS, DRIVER_PINS),
                        help=_("limit the faithful and legal-variant runs to this pin-register setting "
                               "(ACLSIM_PIN_REGISTER; default: each, the driver's where the family's driver can take "
                               "it)"))
    parser.add_argument("--all-releases", action="store_true",
                        help=_("run every fault on every older release whose contract holds a rule it breaks (by "
                               "default: only where that rule's contract differs from the newest release's)"))
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point; exit 0 when the self-test passes, 1 otherwise."""
    args = build_parser().parse_args(argv)
    if args.acl_lib is None or not args.acl_lib.exists():
        print(_("selftest: the simulator {lib} is not built; build it with `make sim` in a clone or "
                "`acl-conformance build-sim`, then pass --acl-lib").format(lib=args.acl_lib), file=sys.stderr)
        return 2
    catalog = json.loads(CATALOG.read_text())
    older = [release_lib(args.acl_lib, str(r["name"])) for r in catalog.get("releases", [])[:-1]]
    missing = [str(path) for path in older if not path.exists()]
    if missing:
        print(_("selftest: the simulator as each older release is not built ({missing}); build it with "
                "`make sim` in a clone or `acl-conformance build-sim`").format(missing=", ".join(missing)),
              file=sys.stderr)
        return 2
    result = run_selftest(args.acl_lib, args.out, args.jobs, args.acl_timeout, args.family, args.fault,
                          variants=args.variant, all_releases=args.all_releases, pins=args.pin_register,
                          executors=args.executors)
    print_table(result, Style.for_stream(sys.stdout))
    print(_("results: {json}, {markdown}").format(json=args.out / "selftest.json", markdown=args.out / "selftest.md"))
    return 0 if result["passed"] else 1

