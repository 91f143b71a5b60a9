"""The ``run`` subcommand: one judge (pytest with the plugin), then the HTML report and a summary.

The judge runs the cases on ``-n`` executor processes of its own, so that a backend that
crashes or hangs in a C call costs one case, never the run; ``run`` itself is the watchdog
that ends the judge at the deadline. :func:`configure` declares the options that ``run`` and
``certify`` share (one name and one environment twin each).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from ..harness.options import DEFAULT_DEADLINE, OPTIONS, OptionError, env_value, option_help, seconds
from ..harness.resources import generated_dir, suite_dir
from ..i18n import N_, _
from ..results.terminal import Style
from ..results.vocabulary import EXIT_BAD_COMMAND_LINE, EXIT_NO_SUMMARY, exit_status_text, outcome_text
from .containment import become_subreaper, kill_tree, refuse_tracing
from .deadline import ENV_AT as DEADLINE_AT
from .interrupt import Interrupted, PreviousReports, end_interrupted, interruptions_raised
from .judge_flags import CONSOLE_FLAG, EXECUTORS_FLAG, RUN_COMMAND_ENV
from .preflight import SETUP_EXIT_CODES, Problem, SetupError
from .reportlock import HELD_ENV, lock_report_dir
from .seal import SEAL_FD_ENV
from .seal import emit as emit_seal
from .watchdog import JudgeStopped, make_scratch, remove_scratch, wait_watching

PLUGIN = "conformance.session.plugin"
EXIT_BAD_EXPECTATIONS = EXIT_BAD_COMMAND_LINE
EXIT_BAD_OPTION = EXIT_BAD_COMMAND_LINE
DEFAULT_HISTORY_LIMIT = 20
PYTEST_USAGE_ERROR = 4  # pytest's status for a command line it refuses

RUN_DESCRIPTION = N_("""\
Run the conformance suite against one ACL library and write the reports into
--acl-report-dir (default ./reports):

  summary.json       every rule and case with its outcome; the verdict
  junit.xml          JUnit XML for CI (test name = case ID, class = rule family)
  allure-results/    Allure results (labels, ACL call traces)
  allure-report/     the HTML report, when the Allure renderer is installed
                     (in a clone: make node; elsewhere: acl-conformance report DIR)

Set-up mistakes (library path, product ID, ACLSIM_FAULTS, failing aclInit) stop the run
before any case, with one message and their own exit status.
{outcomes}
Select cases with -k (case or rule IDs, e.g. -k HM-ALIGN-MALLOC), -m (rule family,
severity or interface, e.g. -m "sync and mandatory"), --acl-rule RULE or --lf; the verdict
of such a run is PARTIAL. Arguments this command does not know go to pytest (e.g. -x, -v).
Each option has an environment twin, shown in brackets.

{exit_codes}""")


def run_description() -> str:
    """``run --help``'s description in the process's language, the outcomes and exit statuses filled in."""
    return _(RUN_DESCRIPTION).format(outcomes=outcome_text(), exit_codes=exit_status_text())


def _env_default(name: str, default: str) -> str:
    return os.environ.get(name) or default


def configure(parser: argparse.ArgumentParser) -> None:
    """Declare the options ``run`` and ``certify`` share: every --acl-* option, workers, HTML, history."""
    for spec in OPTIONS:
        parser.add_argument(spec.flag, dest=spec.dest, metavar=spec.metavar, help=option_help(spec)
                            + (f" [{spec.env}]" if spec.env else ""),
                            action="append" if spec.multiple else "store")
    parser.add_argument("-n", "--numprocesses", default=_env_default("ACL_JOBS", "auto"), metavar="N",
                        help=_("executor processes that run cases at once: a number or 'auto' (default: auto; "
                               "at least 1)") + " [ACL_JOBS]")
    parser.add_argument("--no-html", action="store_true", default=bool(os.environ.get("ACL_NO_HTML")),
                        help=_("do not render the HTML report") + " [ACL_NO_HTML]")
    parser.add_argument("--history-limit", type=int, metavar="RUNS",
                        default=int(_env_default("ACL_HISTORY_LIMIT", str(DEFAULT_HISTORY_LIMIT))),
                        help=_("runs kept in the report's trend history, history.jsonl (default: %(default)s)")
                        + " [ACL_HISTORY_LIMIT]")
    parser.add_argument("--keep-partial", action="store_true", default=bool(os.environ.get("ACL_KEEP_PARTIAL")),
                        help=_("when the run is interrupted, keep its partial summary.json (verdict INTERRUPTED, "
                               "the cases that did not run marked not_run) in place of the previous reports")
                        + " [ACL_KEEP_PARTIAL]")
    parser.add_argument("--screenshot", metavar="PNG",
                        help=_("also save a headless-Chromium screenshot of the report"))


def _absolute(value: str | None) -> str | None:
    if value is None or value == "auto":
        return value
    return str(Path(value).expanduser().resolve())


def option_arguments(args: argparse.Namespace, skip: Sequence[str] = ()) -> list[str]:
    """The --acl-* options of ``args`` as command-line arguments (paths made absolute)."""
    command: list[str] = []
    for spec in OPTIONS:
        value = getattr(args, spec.dest, None)
        if spec.dest in skip or value is None:
            continue
        for item in value if spec.multiple else [value]:
            if spec.dest in ("acl_lib", "acl_expectations"):
                item = _absolute(item)
            command += [spec.flag, str(item)]
    return command


#: pytest plugins a judge never uses: the judge runs no Hypothesis test (the explorer runs in the
#: executor), its cases log nothing and warn nothing, it bounds every wait on an executor itself,
#: and it schedules its executors itself (xdist's controller and workers would be a second process
#: layer with a second crash path). Hypothesis's plugin alone imports all of Hypothesis, 0.15 s of
#: every judge process; xdist's imports execnet; the logging and warnings plugins wrap every phase
#: of every case; pytest-timeout, where it is installed, would look up every case's settings. The
#: unraisable-exception and thread-exception plugins wrap every phase too and end every session with five
#: full garbage collections, for exceptions that only the library's code could raise, and it never runs here.
JUDGE_WITHOUT = ["-p", "no:hypothesispytest", "-p", "no:logging", "-p", "no:warnings", "-p", "no:timeout",
                 "-p", "no:xdist", "-p", "no:unraisableexception", "-p", "no:threadexception"]


def suite_pytest(report_dir: Path, workers: int | str, options: Sequence[str], extra: Sequence[str] = (), *,
                 allure: bool = True, cache: bool = True) -> list[str]:
    """The one pytest command line of a suite run, for ``run`` and the self-test's runs alike: the plugin,
    the generated suite as rootdir (no user configuration applies), reports under ``report_dir``,
    ``options`` (--acl-* arguments) and ``extra`` (pytest's own, and what to collect; the whole suite
    unless ``extra`` names a file or node). ``allure=False`` leaves Allure out, a third of a run's time;
    ``cache=False`` leaves pytest's cache out (``--lf`` needs it; a self-test run does not)."""
    command = [sys.executable, "-m", "pytest", "-p", PLUGIN, "--rootdir", str(generated_dir()),
               "-o", "addopts=", "-o", "testpaths="]
    command += ["-o", f"cache_dir={report_dir / '.pytest_cache'}"] if cache else ["-p", "no:cacheprovider"]
    command += [EXECUTORS_FLAG, str(workers)]
    command += ["--alluredir", str(report_dir / "allure-results")] if allure else ["-p", "no:allure_pytest"]
    command += JUDGE_WITHOUT
    command += ["-o", "junit_family=xunit2", "-o", "junit_suite_name=acl-conformance",
                "--acl-report-dir", str(report_dir), *options, "-q", "-rfE", *extra]
    if not any(not arg.startswith("-") and Path(arg.split("::")[0]).exists() for arg in extra):
        command.append(str(suite_dir()))
    return command


def verbose(extra: Sequence[str]) -> bool:
    """Whether pytest's own arguments ask for detail (-v, -vv, --verbose): then pytest reports as it
    would, and ``run`` shows the command line it runs."""
    return any(arg == "--verbose" or (arg.startswith("-v") and set(arg[1:]) == {"v"}) for arg in extra)


def pytest_command(args: argparse.Namespace, extra: Sequence[str], report_dir: Path) -> list[str]:
    """The pytest command line that ``run`` executes (at least one executor); without -v, with the
    kit's console (progress, one line per case that did not pass) instead of pytest's report."""
    workers = str(args.numprocesses)
    if workers in ("0", ""):
        workers = "1"
    options = option_arguments(args, skip=("acl_report_dir",))
    return suite_pytest(report_dir, workers, options if verbose(extra) else [*options, CONSOLE_FLAG], extra)


def expectation_paths(args: argparse.Namespace) -> list[Path]:
    """The expectations files of a run (command line, else ACL_EXPECTATIONS)."""
    spec = next(s for s in OPTIONS if s.dest == "acl_expectations")
    return [Path(p) for p in (args.acl_expectations or env_value(spec) or [])]


def check_expectations(args: argparse.Namespace) -> int | None:
    """Exit status 2 with the file:line message when an expectations file is malformed, else None."""
    paths = expectation_paths(args)
    if not paths:
        return None
    from ..results.expectations import ExpectationError, load_expectations

    try:
        load_expectations(paths)
    except ExpectationError as exc:
        print(_("error: {problem}").format(problem=exc), file=sys.stderr)
        return EXIT_BAD_EXPECTATIONS
    return None


def report_dir_of(args: argparse.Namespace) -> Path:
    """The run's report directory (--acl-report-dir, ACL_REPORT_DIR, ./reports)."""
    return Path(args.acl_report_dir or os.environ.get("ACL_REPORT_DIR") or "reports").resolve()


def render_html(args: argparse.Namespace, report_dir: Path, summary: dict[str, object]) -> str | None:
    """Render the HTML report when the renderer is installed; returns its path, or None with one line said."""
    from ..results.html import ReportError, render_installed, screenshot

    try:
        index = render_installed(report_dir / "allure-results", report_dir, summary, history_limit=args.history_limit)
    except (ReportError, OSError, subprocess.SubprocessError) as exc:
        print(_("HTML report not rendered ({problem}); render it later with: acl-conformance report {dir}").format(
              problem=exc, dir=report_dir), file=sys.stderr)
        return None
    if args.screenshot:
        try:
            screenshot(index, Path(args.screenshot))
        except (ReportError, OSError, subprocess.SubprocessError) as exc:
            print(_("warning: no screenshot: {problem}").format(problem=exc), file=sys.stderr)
    return str(index)


def invoked_command() -> list[str]:
    """The command line the user typed (``python -m conformance ...`` or the console script)."""
    head = [sys.executable, "-m", "conformance"] if Path(sys.argv[0]).name == "__main__.py" else [sys.argv[0]]
    return head + sys.argv[1:]


#: How long past its deadline ``run`` waits for pytest before it kills it and everything below it: the
#: time the reporting process needs to write the reports (the deadline's own reserve is kept for
#: stopping the cases), a quarter of the deadline, at least 3 s and at most 10 s.
WATCHDOG_GRACE_S = 10.0


def watchdog_grace(deadline: float) -> float:
    """The grace ``run`` gives a run of ``deadline`` seconds past it."""
    return min(WATCHDOG_GRACE_S, max(3.0, deadline / 4))


#: How long an interrupted run's pytest may take to write its partial summary before its group is killed;
#: longer when the user asked for that summary (--keep-partial).
INTERRUPT_GRACE_S = 1.0
KEEP_PARTIAL_GRACE_S = 5.0


def supervise(command: list[str], env: dict[str, str], limit: float, interrupt_grace: float = INTERRUPT_GRACE_S) -> int:
    """Run ``command`` in its own process group, for at most ``limit`` seconds; its exit status.

    The watchdog of a run: ``run`` never loads the library, so a stopped or wedged judge
    (a daemon of the library may SIGSTOP it) cannot stop it from ending the run at the
    deadline. As a subreaper it also outlives and kills whatever the run left behind: the
    executors of a killed judge, the library's helpers. An interrupting signal (Ctrl-C to
    the group or to ``run`` alone, SIGTERM, SIGHUP) is passed on to the group as SIGINT, which
    gets ``interrupt_grace`` seconds to write its partial summary before everything is killed;
    :class:`~.interrupt.Interrupted` is then raised again, the processes contained.
    """
    become_subreaper()
    refuse_tracing()
    fd = os.environ.get(SEAL_FD_ENV, "")
    keep = (int(fd),) if fd.isdigit() else ()
    scratch = make_scratch()  # every temporary file of the judge lives here, removed however the judge ends
    with interruptions_raised():
        proc = subprocess.Popen(command, env=dict(env, TMPDIR=str(scratch)), start_new_session=True,
                                pass_fds=keep)
        try:
            try:
                return wait_watching(proc, limit)
            except JudgeStopped as exc:
                # A judge stopped from outside (a daemon of the library may SIGSTOP it) judged nothing:
                # the run ends as an interruption by SIGSTOP, its processes contained.
                print(exc.line(), file=sys.stderr, flush=True)
                _signal_group(proc.pid, signal.SIGKILL)
                proc.wait()
                raise Interrupted(signal.SIGSTOP) from None
            except Interrupted:
                _signal_group(proc.pid, signal.SIGINT)
                try:
                    proc.wait(timeout=interrupt_grace)
                except subprocess.TimeoutExpired:
                    pass
                raise
        except subprocess.TimeoutExpired:
            print(_("error: the run did not end within {limit:.0f} s of its start (its deadline and a grace); "
                    "it was killed").format(limit=limit), file=sys.stderr, flush=True)
            _signal_group(proc.pid, signal.SIGKILL)
            return proc.wait()
        finally:
            if proc.returncode is None:
                _signal_group(proc.pid, signal.SIGKILL)
                proc.wait()
            kill_tree(None)
            remove_scratch(scratch)


def _signal_group(pgid: int, signum: int) -> None:
    try:
        os.killpg(pgid, signum)
    except ProcessLookupError:
        pass


def run_suite(args: argparse.Namespace, extra: list[str]) -> int:
    """``run``: the judge, then HTML, then the printed summary; returns the exit status."""
    bad = check_expectations(args)
    if bad is not None:
        return bad
    try:
        deadline = seconds("--acl-deadline", args.acl_deadline or os.environ.get("ACL_DEADLINE"), DEFAULT_DEADLINE)
    except OptionError as exc:
        print(_("error: {problem}").format(problem=exc), file=sys.stderr)
        return EXIT_BAD_OPTION
    report_dir = report_dir_of(args)
    try:
        lock = lock_report_dir(report_dir)  # before anything of another run's can be cleared
    except SetupError as exc:
        print(exc.render(), file=sys.stderr)
        return int(exc.problem)
    try:
        return _run_locked(args, extra, report_dir, deadline)
    finally:
        lock.release()


def _run_locked(args: argparse.Namespace, extra: list[str], report_dir: Path, deadline: float) -> int:
    """The run itself, with the report directory's lock held."""
    previous = PreviousReports(report_dir)
    try:
        previous.set_aside()
    except OSError as exc:
        print(SetupError(Problem.REPORT_DIR_UNWRITABLE, _("the previous reports of {dir} cannot be moved "
                         "aside ({problem}).\nFix: make the directory writable, or pass another --acl-report-dir."
                         ).format(dir=report_dir, problem=exc)).render(), file=sys.stderr)
        return int(Problem.REPORT_DIR_UNWRITABLE)
    command = pytest_command(args, extra, report_dir)
    style = Style.for_stream(sys.stdout)
    if verbose(extra):
        print(style.dim("+ " + " ".join(command)), flush=True)
    env = {**os.environ, RUN_COMMAND_ENV: os.environ.get(RUN_COMMAND_ENV) or json.dumps(invoked_command()),
           DEADLINE_AT: str(time.time() + deadline),  # the run's deadline counts from here
           HELD_ENV: str(report_dir)}
    try:
        status = supervise(command, env, deadline + watchdog_grace(deadline),
                           KEEP_PARTIAL_GRACE_S if args.keep_partial else INTERRUPT_GRACE_S)
    except Interrupted as stop:
        return end_interrupted(report_dir, stop.signum, previous, keep_partial=args.keep_partial)
    previous.discard()  # this run ended: its reports (or its set-up error) stand
    summary_path = report_dir / "summary.json"
    if status in SETUP_EXIT_CODES:
        return status  # the plugin has said what happened
    if not summary_path.is_file():
        if status == PYTEST_USAGE_ERROR:  # pytest has said which argument it refused, in its usage text
            print(_("error: an argument was refused (above); `acl-conformance run --help` lists the options, and "
                    "arguments it does not list go to pytest"), file=sys.stderr)
            return EXIT_BAD_COMMAND_LINE
        how = _("was killed by signal {signal}").format(signal=-status) if status < 0 else \
            _("exited {status}").format(status=status)
        print(_("error: pytest {how} and wrote no {summary}").format(how=how, summary=summary_path), file=sys.stderr)
        # A signal is no exit status of ours (it would read as 256 minus the signal): no summary is 3.
        return status if status > 0 else EXIT_NO_SUMMARY
    from ..results.summary import exit_status, format_summary

    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    location = None if args.no_html else render_html(args, report_dir, summary)
    if location:
        emit_seal(report_dir, "allure-report", "history.jsonl")  # what rendering wrote after the judge
    print(format_summary(summary, location or str(summary_path), style))
    return exit_status(summary)
