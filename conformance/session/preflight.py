"""Setup checks before any case runs: a mistake in the set-up is one message, not 176 failing cases.

:func:`preflight` checks, in order, what needs no library (the library path, ``--acl-product``,
``ACLSIM_FAULTS``), then opens the library in a child process (so that a backend that crashes
while loading cannot take the run with it): it must load, export the ACL entry points the
harness needs, initialise (``aclInit``, ``aclrtSetDevice``) and name a SoC of a known product
family. Each kind of mistake raises :class:`SetupError` with its own exit status
(:class:`Problem`, documented in docs/running.md) and a message of at most three lines that says what
to fix. No verdict is written for such a run.
"""

from __future__ import annotations

import difflib
import os
import string
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from acl_hostmem_generated.catalog_types import Catalog

from ..executor.probe import MESSAGES as PROBE_MESSAGES
from ..executor.probe import SET_ENV_HINT
from ..harness.options import Settings
from ..harness.problems import Problem
from ..harness.product import family_by_id, family_for_soc
from ..harness.release import AmbiguousReleaseError, ReleaseError, judge_release
from ..harness.resources import default_sim_lib, source_checkout
from ..harness.sanitizer import asan_runtime_missing
from ..i18n import N_, _
from .executors import Executor, ExecutorError
from .sandbox import NOT_SANDBOXED, Sandbox, find_sandbox
from .selection import unknown_rule_patterns

__all__ = ["SETUP_EXIT_CODES", "Problem", "SetupError", "preflight", "remove_stale_reports"]

PROBE_TIMEOUT_S = 120.0
STALE_REPORTS = ("summary.json", "junit.xml")
UNSANDBOXED_LINE = N_("acl-conformance: not sandboxed: bubblewrap (bwrap) is missing or cannot create namespaces here, "
                    "so the library runs with the kit's rights (install bubblewrap; certify refuses such a run "
                    "without --acl-allow-unsandboxed)")


SETUP_EXIT_CODES = frozenset(int(p) for p in Problem)


class SetupError(Exception):
    """A set-up mistake found before any case ran."""

    def __init__(self, problem: Problem, message: str) -> None:
        super().__init__(message)
        self.problem = problem
        self.message = message

    def render(self) -> str:
        """The text shown to the user: at most three lines."""
        return "\n".join(_("acl-conformance: setup error: {message}").format(message=self.message).splitlines()[:3])


def _families(catalog: Catalog) -> str:
    return ", ".join(f["id"] for f in catalog["families"])


def check_library_path(lib: Path | None, requested: str | None) -> Path:
    """The library file to open; raises LIBRARY_NOT_FOUND naming what to set or pass."""
    if lib is not None and lib.is_file():
        return lib
    home = os.environ.get("ASCEND_HOME_PATH")
    if requested == "auto":
        if not home:
            raise SetupError(Problem.LIBRARY_NOT_FOUND, _("--acl-lib auto needs ASCEND_HOME_PATH, which is not set.\n"
                             "Fix: {hint}, or pass --acl-lib /path/to/libascendcl.so.").format(hint=_(SET_ENV_HINT)))
        raise SetupError(Problem.LIBRARY_NOT_FOUND, _("ASCEND_HOME_PATH={home} has no lib64/libascendcl.so.\n"
                         "Fix: {hint} to a CANN installation, or pass --acl-lib PATH.").format(
                             home=home, hint=_(SET_ENV_HINT)))
    if requested and lib is not None and lib.is_dir():
        raise SetupError(Problem.LIBRARY_NOT_FOUND, _("--acl-lib {requested} is a directory, not a library file.\n"
                         "Fix: pass the library inside it, e.g. --acl-lib {inside}, "
                         "or --acl-lib auto after you {hint}.").format(
                             requested=requested, inside=lib / "lib64" / "libascendcl.so", hint=_(SET_ENV_HINT)))
    if requested:
        raise SetupError(Problem.LIBRARY_NOT_FOUND, _("--acl-lib {requested}: no such file.\n"
                         "Fix: pass the path of libascendcl.so, e.g. $ASCEND_HOME_PATH/lib64/libascendcl.so, "
                         "or --acl-lib auto after you {hint}.").format(requested=requested, hint=_(SET_ENV_HINT)))
    if lib is not None and lib == default_sim_lib() and source_checkout() is not None:
        raise SetupError(Problem.LIBRARY_NOT_FOUND, _("no --acl-lib given and the reference simulator {lib} is not "
                         "built.\nFix: run `make sim` to test the simulator, or pass --acl-lib PATH "
                         "(real CANN: --acl-lib auto after you {hint}).").format(lib=lib, hint=_(SET_ENV_HINT)))
    raise SetupError(Problem.LIBRARY_NOT_FOUND, _("no ACL library given (--acl-lib or ACL_LIB).\n"
                     "Fix: pass --acl-lib /path/to/libascendcl.so, or --acl-lib auto after you {hint}; "
                     "`acl-conformance build-sim` builds the reference simulator.").format(hint=_(SET_ENV_HINT)))


def check_product(product: str | None, catalog: Catalog) -> None:
    """``--acl-product`` must name a family of the spec."""
    if product and family_by_id(catalog, product) is None:
        raise SetupError(Problem.UNKNOWN_PRODUCT, _("--acl-product {product} is not a product family of the spec.\n"
                         "Valid IDs: {families}.").format(product=product, families=_families(catalog)))


def check_sim_faults(value: str | None, catalog: Catalog) -> None:
    """Every name in ``ACLSIM_FAULTS`` must be a fault of the spec (a typo would test the faithful simulator)."""
    known = [f["name"] for f in catalog.get("faults", [])]
    for name in [part for part in (value or "").replace(" ", ",").split(",") if part]:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = _(" (did you mean {name}?)").format(name=close[0]) if close else ""
            raise SetupError(Problem.UNKNOWN_SIM_FAULT, _("ACLSIM_FAULTS names an unknown fault {name}{hint}.\n"
                             "Fix: correct or unset ACLSIM_FAULTS; `acl-conformance sim-faults` lists the faults.")
                             .format(name=repr(name), hint=hint))


def remove_stale_reports(report_dir: Path) -> None:
    """Delete an earlier run's verdict files, so that no old verdict is read as this run's."""
    for name in STALE_REPORTS:
        (report_dir / name).unlink(missing_ok=True)


def probe_library(lib: Path, device: int | None, timeout: float = PROBE_TIMEOUT_S,
                  sandbox: Sandbox | None = None) -> dict[str, object]:
    """Open ``lib`` in a child process (:mod:`conformance.executor.probe`, started as an executor is):
    symbols, aclInit, device, SoC; raises SetupError on a problem.

    The answer arrives as the child's start-up record, tagged with this run's nonce, so what the
    library prints cannot stand in for it; what it printed on stderr is quoted when aclInit fails.
    """
    with tempfile.TemporaryDirectory() as run_dir:
        child = Executor({"probe": {"lib": str(lib), "device": device}}, "probe", Path(run_dir), start_limit=timeout,
                         entry="conformance.executor.probe", sandbox=sandbox,
                         forked=False)  # one start per run: a fork server would only add its own
        try:
            child.ensure()
        except ExecutorError as exc:
            if exc.lost == "timeout":
                raise SetupError(Problem.INIT_FAILED, _("opening {lib} (aclInit, aclrtSetDevice) did not finish "
                                 "within {timeout:.0f} s.\nFix: check the driver and device (npu-smi info).").format(
                                     lib=lib, timeout=timeout)) from exc
            detail = (exc.stderr.strip().splitlines() or [str(exc)])[-1][:200]
            fix = asan_runtime_missing(lib) or _("check the driver and device (npu-smi info) and that the library "
                                                 "matches them.")
            raise SetupError(Problem.INIT_FAILED, _("opening {lib} killed the process that loaded it ({detail}).\n"
                             "Fix: {fix}").format(lib=lib, detail=detail, fix=fix)) from exc
        finally:
            child.close()
    answer = child.facts
    problem = answer.get("problem")
    if problem is not None:
        said = [line for line in child.start_stderr.splitlines() if line.strip()]
        message = probe_message(answer)
        if said and problem == Problem.INIT_FAILED.name:
            first, _newline, rest = message.partition("\n")
            message = _("{first}\nThe library said: {said}\n{rest}").format(first=first, said=said[-1][:200], rest=rest)
        known = problem in Problem.__members__
        raise SetupError(Problem[str(problem)] if known else Problem.INIT_FAILED, message)
    return answer


def probe_message(answer: Mapping[str, object]) -> str:
    """The probe's problem in this process's language: its message named in the probe's table, its fields
    filled with the values it sent (text only: the library's words fill a field, never format one); the
    English message it sent when the name or the fields are not the table's."""
    key, values = answer.get("message_id"), answer.get("values")
    template = PROBE_MESSAGES.get(key) if isinstance(key, str) else None
    if template is not None and isinstance(values, dict) and all(isinstance(v, str) for v in values.values()):
        fields = {name for _text, name, _spec, _conv in string.Formatter().parse(template) if name} - {"hint"}
        if set(values) == fields:
            return _(template).format(hint=_(SET_ENV_HINT), **values)
    return str(answer.get("message", ""))


def check_family(facts: Mapping[str, object], product: str | None, catalog: Catalog) -> None:
    """Without ``--acl-product``, the SoC the library names must belong to a family of the spec."""
    if product is None and family_for_soc(catalog, str(facts.get("soc") or "")) is None:
        raise SetupError(Problem.UNKNOWN_PRODUCT, _("SoC {soc} matches no product family of the "
                         "spec.\nFix: pass --acl-product ID (valid IDs: {families}).").format(
                             soc=repr(facts.get("soc")), families=_families(catalog)))


def check_rules(patterns: Sequence[str], catalog: Catalog) -> None:
    """Every ``--acl-rule`` must match a rule of the spec (a typo would silently run nothing)."""
    unknown = unknown_rule_patterns(patterns, catalog)
    if unknown:
        close = difflib.get_close_matches(unknown[0], [r["id"] for r in catalog["rules"]], n=1)
        hint = _(" (did you mean {name}?)").format(name=close[0]) if close else ""
        raise SetupError(Problem.UNKNOWN_RULE, _("--acl-rule {pattern} matches no rule of the spec{hint}.\n"
                         "Fix: use a rule ID as printed in the reports (acl_hostmem_generated/traceability.md "
                         "lists them).").format(pattern=unknown[0], hint=hint))


def preflight(settings: Settings, requested_lib: str | None, catalog: Catalog) -> dict[str, object]:
    """Every set-up check; returns the facts learned from the library (soc, cann_version, device_count)."""
    check_rules(settings.rules, catalog)
    check_product(settings.product, catalog)
    check_sim_faults(os.environ.get("ACLSIM_FAULTS"), catalog)
    lib = check_library_path(settings.lib, requested_lib)
    sandbox = find_sandbox(settings.sandbox_allow)
    if sandbox is None:
        print(_(UNSANDBOXED_LINE), file=sys.stderr, flush=True)
    facts = probe_library(lib, settings.device, sandbox=sandbox)
    check_family(facts, settings.product, catalog)
    check_release(facts, settings.cann_release, catalog)
    return dict(facts, sandbox=sandbox.describe() if sandbox else NOT_SANDBOXED)


def check_release(facts: Mapping[str, object], override: str | None, catalog: Catalog) -> None:
    """The run can be judged against a release the spec knows (its own exit status when not)."""
    try:
        judge_release(catalog, _text(facts.get("cann_version")), override, _text(facts.get("acl_api")))
    except AmbiguousReleaseError as exc:
        raise SetupError(Problem.AMBIGUOUS_RELEASE, _("{problem}.\nFix: name the release the library belongs to with "
                         "--acl-cann-release (its version.info, or the CANN package it came from).").format(
                             problem=exc)) from exc
    except ReleaseError as exc:
        raise SetupError(Problem.UNKNOWN_RELEASE, _("{problem}.\nFix: certify a library of a release the spec knows, "
                         "or name the release with --acl-cann-release.").format(problem=exc)) from exc


def _text(value: object) -> str | None:
    return None if value is None else str(value)
