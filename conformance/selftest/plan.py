"""The self-test's runs: which configurations run, and running one of them as a subprocess.

Each run is the whole generated suite against the simulator under one configuration: a
product family and kernel (faithful), one fault switch, or one legal variant on one of the
families and environments it concerns. Every run emulates two devices, so the multi-device
rules apply. Fault runs run the whole suite too, so that a fault's collateral failures
(rules it does not declare that fail on their own) are counted. The long sync window
(--acl-sync-window) is held only where it can matter: in the faithful runs and the runs
of sync faults; elsewhere every sync case watches briefly. Fault runs whose fault needs no
history give the explorer a small budget, and fault runs leave the sampled-size cases out
unless the fault breaks a rule that has them (see :func:`sampled_rules`); legal runs keep them
where the variant concerns such a rule (:func:`variant_concerns_sampled`). A fault that
crashes or hangs costs the case that caused it (its executor); a run that still leaves no
summary is repeated once.

The runtime pins aclrtHostRegisterV2 PINNED memory itself or, where the driver can, has the
driver do it (the simulator's ``ACLSIM_PIN_REGISTER``, :func:`pin_settings`). Both are legal,
so the faithful runs and the legal-variant runs on a family whose driver can take the driver's
path run once per setting; the fault runs keep the default setting unless a fault's own env
names the other.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from acl_hostmem_generated.catalog_types import Catalog, FamilyEntry, FaultEntry
from acl_hostmem_generated.state_model import EXPLORER_RULES
from codegen.evidence import release_key

from ..checks.memory import SAMPLED  # the size parameter's value; pytest's -k matches it in case IDs
from ..harness.product import Machine, family_for_soc
from ..harness.release import outside_reason
from ..harness.resources import catalog_path, default_sim_lib, suite_dir
from ..results.outcomes import FAILING_VALUES, OWN_FAILURE_VALUES
from ..results.summary_model import SummaryRecord, summary_record
from ..session.command import suite_pytest
from .worker import SuiteJudge, WorkerLost

CATALOG = catalog_path()
SUITE = suite_dir()
DEFAULT_LIB = default_sim_lib()
MODERN_KERNEL = "6.1.0"
LEGACY_KERNEL = "5.10.0"
LARGE_PAGE = "65536"
# The runs where no sync fault is on watch every sync case this long: a watch cannot make a
# faithful or legal backend fail, only a sync fault survive, and those runs keep the long window.
SHORT_SYNC_WINDOW = "0.05"
# The explorer's budget in fault runs whose fault needs no history to show (the fixed cases catch
# it; the explorer is there for its collateral), against the default's 2000.
SHORT_EXPLORE_STEPS = "300"
DEVICES = 2
FAILING = OWN_FAILURE_VALUES  # a rule's own failure (what kills a fault)
NOT_PASSING = FAILING_VALUES  # what a faithful or legal run may not show in a mandatory rule
SEQUENCE_FAMILY = "explorer"  # faults that only show after a history (spec/faults.yaml)
PIN_REGISTER = "ACLSIM_PIN_REGISTER"  # the simulator setting: who pins aclrtHostRegisterV2 PINNED memory
RUNTIME_PINS, DRIVER_PINS = "runtime", "driver"  # its values; the runtime's path is the default
# The legal name of the driver setting in spec/faults.yaml (an alias in ACLSIM_FAULTS): its
# families, since and covers say where the driver can take the path and what the path exercises.
# It has no run of its own: the runs of the driver setting are its runs.
DRIVER_PINS_VARIANT = "legal_driver_pin_register"


@dataclass
class Run:
    """One suite run against the simulator: its configuration and what came out."""

    name: str
    env: dict[str, str]
    family: str
    kernel: str
    fault: FaultEntry | None = None
    devices: int = DEVICES
    run_mode: str = "host"
    select: tuple[str, ...] = ()  # rule IDs whose cases run (empty: the whole suite)
    sampled: bool = True  # whether the sampled-size cases run (see sampled_rules)
    release: str | None = None  # the CANN release the simulator emulates (None: the newest)

    @property
    def machine(self) -> Machine:
        """The machine the run emulates, as applicability sees it."""
        return Machine(self.kernel, self.run_mode, self.devices, int(self.env.get("ACL_HOST_PAGE", "4096")),
                       self.env.get("ACL_HOST_ALLOC", "svm"), self.release)

    @property
    def legal(self) -> bool:
        """Whether the run is a legal variant (judged for false alarms, not kills)."""
        return bool(self.fault and self.fault.get("legal"))

    @property
    def pin_register(self) -> str:
        """Who pins aclrtHostRegisterV2 PINNED memory in this run: the runtime (default) or the driver."""
        return self.env.get(PIN_REGISTER) or RUNTIME_PINS
    seconds: float = 0.0
    cpu_seconds: float | None = None  # what the run cost in CPU (None: not measured, a run of its own)
    returncode: int | None = None
    summary: SummaryRecord | None = None
    log_tail: str = ""
    isolated: bool = False
    problems: list[str] = field(default_factory=list)

    def case_outcomes(self) -> dict[str, tuple[str, str, str]]:
        """case ID → (rule ID, outcome, message)."""
        return self.summary.case_outcomes() if self.summary else {}

    def selected(self, rule_id: str) -> bool:
        """Whether the run ran the cases of ``rule_id`` (pytest ``-k`` matches substrings of test names)."""
        return not self.select or any(test_name(r) in test_name(rule_id) for r in self.select)

    def rule_severity(self) -> dict[str, str]:
        """rule ID → severity, as the run's summary records it."""
        return {rid: rule.severity for rid, rule in self.summary.rules.items()} if self.summary else {}


def test_name(rule_id: str) -> str:
    """The generated test function of a rule: ``HM-PAIR-DOUBLE-FREE`` -> ``test_HM_PAIR_DOUBLE_FREE``."""
    return "test_" + rule_id.replace("-", "_")


def family_record(catalog: Catalog, family_id: str) -> FamilyEntry:
    """The catalog entry of a product family (it must exist)."""
    return next(f for f in catalog["families"] if f["id"] == family_id)


def sampled_rules(catalog: Catalog) -> set[str]:
    """The rules with a sampled-size case (a size drawn from every power-of-two class up to 64 MiB).

    Those cases move about 1 GiB of host memory between them, half of a run's CPU. A fault run
    keeps them only when its fault breaks one of these rules: what it must kill is there. For its
    collateral the rule's fixed sizes stay, and the faithful and legal runs keep every case.
    """
    return {rule["id"] for rule in catalog["rules"] if any(case["params"].get("size") == SAMPLED
                                                           for case in rule["cases"])}


def variant_concerns_sampled(catalog: Catalog, variant: FaultEntry) -> bool:
    """Whether a legal variant's run keeps the sampled-size cases: it covers a rule that has them, or
    it is of the family of one (it changes how host memory is handed out, aligned or made visible).

    A variant of another family (codes, pairing, sync, product support) leaves allocation as the
    faithful simulator does it, where every faithful run tries the sampled sizes; those rules'
    fixed sizes (up to 64 MiB) still run under it.
    """
    with_sampled = sampled_rules(catalog)
    families = {rule["family"] for rule in catalog["rules"] if rule["id"] in with_sampled}
    return variant.get("family") in families or bool(set(variant.get("covers", ())) & with_sampled)


def selection_args(run: Run) -> list[str]:
    """pytest's -k expression of a run: its selected rules, less the sampled-size cases it leaves out."""
    terms = [f"({' or '.join(test_name(r) for r in run.select)})"] if run.select else []
    if not run.sampled:
        terms.append(f"not {SAMPLED}")
    return ["-k", " and ".join(terms)] if terms else []


def _family_of_soc(catalog: Catalog, soc: str) -> str:
    family = family_for_soc(catalog, soc)
    if family is None:
        raise ValueError(f"SoC {soc!r} matches no product family")
    return str(family["id"])


def _base_env(soc: str, kernel: str) -> dict[str, str]:
    return {"ACLSIM_SOC": soc, "ACLSIM_KERNEL": kernel, "ACLSIM_DEVICE_COUNT": str(DEVICES)}


def _short_window(env: dict[str, str]) -> dict[str, str]:
    return {**env, "ACL_SYNC_WINDOW": SHORT_SYNC_WINDOW}


def pin_settings(catalog: Catalog, family_id: str, release: str | None = None) -> tuple[str, ...]:
    """The pin-register settings a faithful or legal run on a family (and release; None: the newest)
    takes: the runtime's path everywhere, and the driver's where the family's driver can take it
    (:data:`DRIVER_PINS_VARIANT`'s ``families``, Atlas A2/A3 and Ascend 950 today) from the first
    release whose runtime has it (its ``since``)."""
    variant = next((f for f in catalog["faults"] if f["name"] == DRIVER_PINS_VARIANT), None)
    if variant is None or family_id not in (variant.get("families") or ()):
        return (RUNTIME_PINS,)
    since = variant.get("since")
    if release is not None and since and release_key(release) < release_key(str(since)):
        return (RUNTIME_PINS,)
    return RUNTIME_PINS, DRIVER_PINS


def on_pin_settings(catalog: Catalog, run: Run, settings: list[str] | None = None) -> list[Run]:
    """``run`` once per pin-register setting of its family and release (:func:`pin_settings`) that
    ``settings`` keeps (None: every one); the driver's twin is named ``...-aclsim_pin_register=driver``."""
    out = []
    for setting in pin_settings(catalog, run.family, run.release):
        if settings is not None and setting not in settings:
            continue
        if setting == RUNTIME_PINS:
            out.append(run)
        else:
            out.append(replace(run, name=f"{run.name}-{PIN_REGISTER.lower()}={setting}",
                               env={**run.env, PIN_REGISTER: setting}, problems=[]))
    return out


def plan_runs(catalog: Catalog, families: list[str] | None, faults: list[str] | None,
              variants: list[str] | None = None, faithful: bool = True, all_releases: bool = False,
              pins: list[str] | None = None) -> list[Run]:
    """The faithful runs (every family, plus A2 on a 5.10 kernel, plus each older release), one run
    per fault on the newest release and on older ones (:func:`release_fault_runs`), and one run per
    legal variant and family it concerns; the faithful and legal runs once per pin-register setting
    (:func:`pin_settings`; ``pins`` limits the settings). ``families`` limits the faithful and legal runs."""
    runs: list[Run] = []
    chosen = [f for f in catalog["families"] if families is None or f["id"] in families]
    if faithful:
        clean: list[Run] = []
        for fam in chosen:
            clean.append(Run(f"faithful-{fam['id']}", _base_env(fam["sample_soc"], MODERN_KERNEL), fam["id"],
                             MODERN_KERNEL))
        if families is None or "atlas_a2" in families:
            a2 = family_record(catalog, "atlas_a2")
            clean.append(Run("faithful-atlas_a2-kernel5.10", _base_env(a2["sample_soc"], LEGACY_KERNEL), "atlas_a2",
                             LEGACY_KERNEL))
            large = {**_base_env(a2["sample_soc"], MODERN_KERNEL), "ACLSIM_HOST_PAGE": LARGE_PAGE,
                     "ACL_HOST_PAGE": LARGE_PAGE}
            clean.append(Run("faithful-atlas_a2-page64k", large, "atlas_a2", MODERN_KERNEL))
        clean += release_runs(catalog, families)
        runs += [twin for run in clean for twin in on_pin_settings(catalog, run, pins)]
    with_sampled = sampled_rules(catalog)
    for fault in catalog["faults"]:
        if fault.get("legal") or (faults is not None and fault["name"] not in faults):
            continue
        soc = fault.get("soc") or family_record(catalog, "atlas_a2")["sample_soc"]
        env = {**_base_env(soc, MODERN_KERNEL), **fault.get("env", {}), "ACLSIM_FAULTS": fault["name"]}
        if fault["family"] != "sync":
            env = _short_window(env)
        if fault["family"] != SEQUENCE_FAMILY and not set(fault.get("violates", ())) & set(EXPLORER_RULES):
            env.setdefault("ACL_EXPLORE_STEPS", SHORT_EXPLORE_STEPS)
        family_id = _family_of_soc(catalog, soc)
        runs.append(Run(f"fault-{fault['name']}", env, family_id, env["ACLSIM_KERNEL"], fault,
                        sampled=bool(set(fault.get("violates", ())) & with_sampled)))
        runs += release_fault_runs(catalog, fault, env, family_id, every_release=all_releases)
    runs += legal_runs(catalog, chosen, variants, pins)
    return runs


def release_lib(lib: Path, release: str) -> Path:
    """The simulator build that exports what CANN ``release`` exports, beside the newest one ``lib``:
    ``build/sim/libascendcl.so`` -> ``build/sim-9.0.0/libascendcl.so`` (``make sim`` and
    ``acl-conformance build-sim`` build one per older release)."""
    return lib.parent.with_name(f"{lib.parent.name}-{release}") / lib.name


def release_runs(catalog: Catalog, families: list[str] | None) -> list[Run]:
    """The faithful simulator as every older release the spec knows, on the families that show what
    changed (Atlas A2, and the Ascend 950 and an inference card where they are chosen)."""
    names = [str(r["name"]) for r in catalog.get("releases") or []]
    runs = []
    for release in names[:-1]:
        for family_id in ("atlas_a2", "ascend_950", "atlas_inference"):
            if families is not None and family_id not in families:
                continue
            fam = family_record(catalog, family_id)
            env = {**_base_env(fam["sample_soc"], MODERN_KERNEL), "ACLSIM_CANN_VERSION": f"{release}-aclsim"}
            runs.append(Run(f"faithful-{family_id}-cann{release}", env, family_id, MODERN_KERNEL, release=release))
    return runs


def release_fault_runs(catalog: Catalog, fault: FaultEntry, env: dict[str, str],
                       family_id: str, every_release: bool = False) -> list[Run]:
    """The fault on the older releases whose contract holds one of the rules it breaks, there: a
    fault stays killed on every release it matters to. Only those rules run (their collateral is
    the newest release's run's to show), on that release's simulator build.

    By default only where the contract of those rules differs from the newest (some of their cases
    lie outside it): that is where the kit judges a release otherwise, and it keeps ``make test``
    inside its budget. ``every_release`` (``selftest --all-releases``, ``make selftest-releases``)
    runs the fault on every such release, which also proves the simulator's older answers."""
    family = family_record(catalog, family_id)
    by_id = {r["id"]: r for r in catalog["rules"]}
    runs = []
    for release in [str(r["name"]) for r in catalog.get("releases") or []][:-1]:
        if fault.get("since") and release_key(release) < release_key(str(fault["since"])):
            continue
        inside = tuple(rule_id for rule_id in fault.get("violates", ()) if rule_id in by_id and any(
            outside_reason(by_id[rule_id], release, case, catalog, family["id"]) is None
            for case in by_id[rule_id]["cases"]))
        if inside:
            runs.append(Run(f"fault-{fault['name']}-cann{release}", {**env, "ACLSIM_CANN_VERSION": f"{release}-aclsim"},
                            family_id, env["ACLSIM_KERNEL"], fault, select=inside, release=release))
    if every_release:
        return runs
    return [run for run in runs if any(
        outside_reason(by_id[rule_id], run.release, case, catalog, family["id"]) is not None
        for rule_id in run.select for case in by_id[rule_id]["cases"])]


def legal_runs(catalog: Catalog, families: list[FamilyEntry], variants: list[str] | None,
               pins: list[str] | None = None) -> list[Run]:
    """One run per legal variant, product family it concerns (of ``families``), environment and
    pin-register setting (of ``pins``; :func:`on_pin_settings`). The driver setting's own legal
    name (:data:`DRIVER_PINS_VARIANT`) plans none: its runs are every run on that setting."""
    runs = []
    wanted = {f["id"] for f in families}
    for variant in catalog["faults"]:
        if not variant.get("legal") or (variants is not None and variant["name"] not in variants):
            continue
        if variant["name"] == DRIVER_PINS_VARIANT:
            continue
        sampled = variant_concerns_sampled(catalog, variant)  # once a variant: the same on every family
        for fam in catalog["families"]:
            if fam["id"] not in wanted or (variant.get("families") and fam["id"] not in variant["families"]):
                continue
            for extra in variant.get("environments") or [{}]:
                env = _short_window({**_base_env(fam["sample_soc"], MODERN_KERNEL), **variant.get("env", {}), **extra,
                                     "ACLSIM_FAULTS": variant["name"]})
                run_mode = env.get("ACLSIM_RUN_MODE", "host")
                suffix = "".join(f"-{k.lower()}={v}" for k, v in sorted(extra.items()) if k.startswith("ACLSIM_"))
                run = Run(f"legal-{variant['name']}-{fam['id']}{suffix}", env, fam["id"], env["ACLSIM_KERNEL"],
                          variant, run_mode=run_mode, sampled=sampled)
                runs += on_pin_settings(catalog, run, pins)
    return runs


def _attempt(run: Run, lib: Path, report_dir: Path, timeout: float, extra: list[str], executors: int,
             judge: SuiteJudge | None = None) -> bool:
    """One pytest run of the suite, in ``judge`` (a long-lived judge process) or in a process of its
    own; True when it wrote a summary."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACLSIM_")}
    env.update(run.env, ACL_OS_KERNEL=run.kernel)
    # A fault's own env may shorten the wait (a fault that blocks forever is proven by any timeout).
    options = [f"--acl-lib={lib}", f"--acl-timeout={run.env.get('ACL_TIMEOUT', timeout)}"]
    # Allure output is not needed to judge a run.
    # No traceback: the verdicts come from the cases' records, as in `run`'s console; pytest's long
    # representation of a failure parses the generated module's source (2.5 s to 0.8 s of a judge's CPU
    # on a fault that fails 30 cases, measured).
    cmd = suite_pytest(report_dir, executors, options, [*selection_args(run), "--tb=no", *extra], allure=False,
                       cache=False)
    if judge is None:
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
        run.returncode = proc.returncode
        run.log_tail = (proc.stdout + proc.stderr)[-3000:]
        return (report_dir / "summary.json").exists()
    handle, name = tempfile.mkstemp(prefix=f"acl-selftest-{run.name}-", suffix=".log")
    os.close(handle)
    log = Path(name)
    try:
        run.returncode, run.cpu_seconds = judge.run(cmd, env, log)
    except WorkerLost as exc:
        run.returncode = None
        run.log_tail = str(exc)
        return False
    finally:
        text = log.read_text(errors="replace") if log.exists() else ""
        log.unlink(missing_ok=True)
    run.log_tail = text[-3000:]
    return (report_dir / "summary.json").exists()


def execute(run: Run, lib: Path, out_dir: Path, timeout: float, extra: list[str],
            judge: SuiteJudge | None = None, executors: int = 1) -> Run:
    """Run the suite for one configuration and load its summary.

    With ``judge`` the run is one more session of that long-lived judge process (fresh executors of
    its own, its own environment and report directory); without, a judge process of its own. Every
    crash and hang of the library is contained to its case by the judge's executor; a run that
    nevertheless leaves no summary (its judge died) is repeated once, in a process of its own.
    """
    report_dir = out_dir / run.name
    shutil.rmtree(report_dir, ignore_errors=True)
    start = time.perf_counter()
    lib = release_lib(lib, run.release) if run.release else lib
    if not _attempt(run, lib, report_dir, timeout, extra, executors, judge=judge):
        run.isolated = True
        _attempt(run, lib, report_dir, timeout, extra, executors)
    run.seconds = time.perf_counter() - start
    summary = report_dir / "summary.json"
    if summary.exists():
        try:
            run.summary = summary_record(json.loads(summary.read_text()))
        except ValueError as exc:  # bad JSON, or a SummaryError
            run.problems.append(f"{run.name}: summary.json is not a summary: {exc}")
    else:
        run.problems.append(f"{run.name}: no summary.json (exit {run.returncode}); output:\n{run.log_tail}")
    return run
