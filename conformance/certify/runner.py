"""Certification runs: run the full suite, bundle the evidence, issue a certificate.

``python -m conformance certify --acl-lib PATH [--expectations FILE]... [--baseline RUN]``
runs ``python -m conformance run`` in a subprocess with its own report directory and
writes ``reports/certification/<family>-<release judged against>-<YYYYmmddTHHMMSSZ>/``:

- ``allure-results/``, ``allure-report/index.html``, ``junit.xml``, ``summary.json`` (the run),
- ``run.log`` (the run's output), ``expectations/`` (copies of the expectations files used),
- ``manifest.json`` (what, with what, how, and the SHA-256 of every evidence file),
- ``certificate.md`` / ``certificate.html`` (verdict CERTIFIED or NOT CERTIFIED),
- ``manifest.sig`` with ``--sign KEY`` (Ed25519 over manifest.json),
- ``SHA256SUMS`` over every other file.

Exit status: 0 CERTIFIED, 1 NOT CERTIFIED, 2 when no verdict could be reached.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import datetime
import json
import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from acl_hostmem_generated.catalog_types import Catalog

from ..harness import resources
from ..harness.options import DEFAULT_DEADLINE, OptionError, seconds
from ..i18n import _, languages
from ..results.expectations import ExpectationError, load_expectations
from ..results.history import carry_history, check_history, run_dir
from ..results.signing import SIGNATURE, sign_manifest
from ..results.summary import env_family, load_catalog_file, load_json, load_own_summary
from ..results.terminal import PERCENT_STEP, format_duration, percent_of
from ..results.untrusted import UntrustedFileError, as_object
from ..results.vocabulary import EXIT_BAD_COMMAND_LINE, Verdict
from ..session.command import expectation_paths, option_arguments, watchdog_grace
from ..session.containment import refuse_tracing
from ..session.interrupt import Interrupted, interruptions_raised
from ..session.judge_flags import RUN_COMMAND_ENV
from ..session.preflight import SETUP_EXIT_CODES
from ..session.seal import SEAL_FD_ENV, SEAL_LIMIT, parse, seal_problems
from .bundle import file_digests, is_bundle, write_sums
from .certificate import render_html, render_markdown
from .kitfiles import kit_files
from .manifest import build_manifest
from .verdict import CERTIFIED, NOT_CERTIFIED, Assessment, assess
from .verify import check_integrity, verify

DEFAULT_OUT = Path("reports") / "certification"
#: How long rendering the HTML report and the summary may take after the run's watchdog.
RENDER_MARGIN_S = 300.0
PROGRESS_STEP = PERCENT_STEP  # percent of the cases between two progress lines


#: Exit statuses of the run that certify passes on as they are: the user's mistake, said in the run's words.
RUN_OWN_STATUSES = SETUP_EXIT_CODES | {EXIT_BAD_COMMAND_LINE}
INTERRUPTED = Verdict.INTERRUPTED.value


class CertifyError(RuntimeError):
    """No verdict could be reached (the run produced no summary, bad arguments); ``status`` is the run's own
    exit status when it is one the user should see (a set-up mistake or a bad command line), else None."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Certification:
    """The result of :func:`certify`: where the bundle is, what it says, and what ``verify`` finds in it."""

    bundle: Path
    assessment: Assessment
    returncode: int
    html: bool = True
    problems: list[str] = field(default_factory=list)

    @property
    def certified(self) -> bool:
        """Whether the verdict is CERTIFIED."""
        return self.assessment.verdict == CERTIFIED


def _safe(part: object) -> str:
    text = re.sub(r"[^A-Za-z0-9._-]+", "_", str(part or "unknown")).strip("._")
    return text or "unknown"


def bundle_name(env: Mapping[str, object], catalog: Catalog, created: datetime.datetime) -> str:
    """``<product family>-<release judged against>-<UTC timestamp>``, from values the kit decided: a family and
    a release are taken only when the catalog names them, so no string of the library reaches the name."""
    families = {str(f["id"]) for f in catalog["families"]}
    releases = {str(r["name"]) for r in catalog["releases"]}
    family = str(env_family(env))
    release = env.get("release")
    name = str(release.get("name")) if isinstance(release, Mapping) else ""
    # A release name of the catalog may hold '@' (master@681ef7610): a path character some tools read as user@host.
    return (f"{family if family in families else 'unknown'}-{_safe(name) if name in releases else 'unknown'}-"
            f"{created.strftime('%Y%m%dT%H%M%SZ')}")


def run_command(args: argparse.Namespace, extra: Sequence[str], report_dir: Path) -> list[str]:
    """The ``python -m conformance run`` command line of a certification run (same options as certify's)."""
    command = [sys.executable, "-m", "conformance", "run", *option_arguments(args, skip=("acl_report_dir",)),
               "--acl-report-dir", str(report_dir), "-n", str(args.numprocesses),
               "--history-limit", str(args.history_limit)]
    if args.no_html:
        command.append("--no-html")
    return command + list(extra)


def _unique(path: Path) -> Path:
    candidate, number = path, 1
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.name}-{number}")
    return candidate


def follow(command: list[str], log: Path, env: dict[str, str], limit: float | None = None) -> tuple[int, bytes]:
    """Run ``command`` with its output into ``log``, printing a progress line with an ETA as cases finish;
    (its exit status, what the judge wrote to the seal pipe).

    The seal pipe is opened here and handed down (``ACL_SEAL_FD``); both pipes are read as
    data arrive, and nothing is waited for past ``limit`` seconds: the run is then killed.
    """
    started = time.monotonic()
    shown = -PROGRESS_STEP
    seal_r, seal_w = os.pipe()
    sealed = bytearray()
    with open(log, "w", encoding="utf-8") as out:
        try:
            proc = subprocess.Popen(command, env={**env, SEAL_FD_ENV: str(seal_w)}, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, pass_fds=(seal_w,))
        finally:
            os.close(seal_w)
        assert proc.stdout is not None
        pending = b""
        with interruptions_raised(), _stopped_on_interruption(proc), selectors.DefaultSelector() as selector:
            selector.register(proc.stdout.fileno(), selectors.EVENT_READ, "out")
            selector.register(seal_r, selectors.EVENT_READ, "seal")
            open_streams = 2
            while open_streams:
                left = None if limit is None else limit - (time.monotonic() - started)
                if left is not None and left <= 0:
                    proc.kill()
                    break
                for key, _ in selector.select(timeout=1.0 if left is None else min(1.0, left)):
                    chunk = os.read(int(key.fd), 1 << 16)
                    if not chunk:
                        selector.unregister(key.fd)
                        open_streams -= 1
                    elif key.data == "seal":
                        if len(sealed) < SEAL_LIMIT:
                            sealed += chunk
                    else:
                        pending += chunk
                        *lines, pending = pending.split(b"\n")
                        for raw in lines:
                            shown = _progress(out, raw.decode(errors="replace") + "\n", started, shown)
                if proc.poll() is not None and open_streams and not selector.select(timeout=0):
                    break  # the run ended; a descriptor some leftover holds says nothing more
            if pending:
                out.write(pending.decode(errors="replace"))
        os.close(seal_r)
        proc.stdout.close()
        return proc.wait(), bytes(sealed)


#: How long an interrupted certify waits for its run to stop (the run itself contains its processes in ~1 s).
STOP_WAIT_S = 5.0


@contextlib.contextmanager
def _stopped_on_interruption(proc: subprocess.Popen[bytes]) -> Iterator[None]:
    """Within the block, an interruption of certify interrupts its run too (a signal to certify alone does
    not reach it), and waits for it to stop before :class:`Interrupted` goes on."""
    try:
        yield
    except Interrupted:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        raise


def _last_words(log: Path) -> str:
    """What the run said went wrong: its first ``error:`` line (a set-up mistake, a refused argument), else
    its last line."""
    try:
        lines = [line.strip() for line in log.read_text(encoding="utf-8", errors="replace").splitlines()]
    except OSError:
        return ""
    said = (line for line in lines if "error:" in line or "错误：" in line)  # the run speaks the chosen language
    return next(said, None) or next((line for line in reversed(lines) if line), "")


def _progress(out: TextIO, line: str, started: float, shown: int) -> int:
    """Log one line of the run's output; print a progress line when another tenth of the cases is done."""
    out.write(line)
    percent = percent_of(line)
    if percent is not None and percent >= shown + PROGRESS_STEP:
        shown = percent
        elapsed = time.monotonic() - started
        left = elapsed * (100 - shown) / shown if shown else None
        eta = _(", ETA {left}").format(left=format_duration(left)) if left and shown < 100 else ""
        print(_("{label}: {percent:3d}% of the cases run ({elapsed} elapsed{eta})").format(
            label="certify", percent=shown, elapsed=format_duration(elapsed), eta=eta), file=sys.stderr, flush=True)
    return shown


def _run_limit(args: argparse.Namespace) -> float:
    """How long certify waits for its run: the run's own deadline and its watchdog's grace, and a margin."""
    try:
        deadline = seconds("--acl-deadline", getattr(args, "acl_deadline", None) or os.environ.get("ACL_DEADLINE"),
                           DEFAULT_DEADLINE)
    except OptionError:
        deadline = DEFAULT_DEADLINE
    return deadline + watchdog_grace(deadline) + RENDER_MARGIN_S


def baseline_problem(baseline: Path, trusted: Ed25519PublicKey | None = None) -> str | None:
    """Why ``baseline`` may not be carried from (one line), or None.

    A baseline is an untrusted input: a bundle must pass :func:`~.verify.check_integrity`
    (SHA256SUMS, the manifest's digests and, with ``trusted``, a signature by that key) before
    anything is carried from it; with ``trusted`` it must be a bundle. Then, a bundle or a plain
    report directory alike, its history must be readable as an untrusted input (no link
    followed, no FIFO, no device, within the size caps).
    """
    base = run_dir(Path(baseline))
    if not base.is_dir():
        return _("--baseline {baseline}: not a bundle or report directory").format(baseline=baseline)
    if is_bundle(base):
        problems = check_integrity(base, trusted)
        if problems:
            more = _(" (and {count} more)").format(count=len(problems) - 1) if len(problems) > 1 else ""
            return _("--baseline {baseline} does not verify, nothing carried from it: {problem}{more}").format(
                baseline=baseline, problem=problems[0], more=more)
    elif trusted is not None:
        return _("--baseline {baseline}: not a bundle, so it carries no signature to check against --trust").format(
            baseline=baseline)
    try:
        check_history(base)
    except UntrustedFileError as exc:
        return _("--baseline {baseline}: its history is refused, nothing carried from it: {problem}").format(
            baseline=baseline, problem=exc)
    return None


def certify(
    args: argparse.Namespace,
    extra: Sequence[str] = (),
    *,
    out_root: Path = DEFAULT_OUT,
    catalog_path: Path | None = None,
    command: Sequence[str] = (),
    signing_key: Ed25519PrivateKey | None = None,
    baseline_trust: Ed25519PublicKey | None = None,
) -> Certification:
    """Run the suite as ``args`` say and write a certification bundle under ``out_root``.

    ``extra`` (pytest arguments) restrict the run (the bundle is then incomplete and NOT
    CERTIFIED); ``args.baseline`` is a previous bundle whose report history continues in this
    report; it must pass :func:`baseline_problem` (with ``baseline_trust``) before anything runs.
    The bundle is verified before it is announced, and signed with ``signing_key``.
    Raises :class:`CertifyError` when the run leaves no summary.json, an expectations file
    is malformed or over-broad, or the baseline does not verify (checked before the run).
    """
    catalog_path = catalog_path or resources.catalog_path()
    refuse_tracing()  # certify seals: no process of the user may ptrace it or read its memory
    try:
        load_expectations([p.resolve() for p in expectation_paths(args)])
    except ExpectationError as exc:
        raise CertifyError(str(exc)) from None
    baseline = getattr(args, "baseline", None)
    problem = baseline_problem(baseline, baseline_trust) if baseline else None
    if problem:
        raise CertifyError(problem)
    created = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    out_root = Path(out_root).resolve()
    out_root.mkdir(parents=True, exist_ok=True)
    # Private (0700) and unpredictable: no other process of the user can guess it and write into it.
    staging = Path(tempfile.mkdtemp(prefix=f".staging-{created.strftime('%Y%m%dT%H%M%SZ')}-", dir=out_root))
    try:
        try:
            copied = carry_history(baseline, staging) if baseline else []
        except UntrustedFileError as exc:
            raise CertifyError(_("--baseline {baseline}: nothing carried from it: {problem}").format(
                baseline=baseline, problem=exc)) from None
        run = run_command(args, extra, staging)
        env = {**os.environ, RUN_COMMAND_ENV: json.dumps(list(command) or run)}
        returncode, sealed = follow(run, staging / "run.log", env, _run_limit(args))
        if not (staging / "summary.json").is_file():
            # The staging directory goes with this error: say what the run said, not where its log was.
            said = _last_words(staging / "run.log")
            raise CertifyError(_("the run exited {status} without a summary.json").format(status=returncode)
                               + (f": {said}" if said else ""),
                               returncode if returncode in RUN_OWN_STATUSES else None)
        if load_json(staging / "summary.json").get("verdict") == INTERRUPTED:
            raise Interrupted(signal.SIGINT)  # the run was interrupted though certify was not: nothing to seal
        tampered = seal_problems(staging, parse(sealed))
        bundle = package_bundle(staging, out_root, args, list(command) or run, created, catalog_path, copied,
                                list(extra), signing_key)
    except (Interrupted, KeyboardInterrupt):  # a Ctrl-C before or after the run raises the latter
        shutil.rmtree(staging, ignore_errors=True)  # an interrupted run certifies nothing: no partial bundle
        raise
    except BaseException:
        if staging.exists() and not (staging / "summary.json").is_file():
            shutil.rmtree(staging, ignore_errors=True)
        raise
    assessment = assess(load_own_summary(bundle / "summary.json"), load_catalog_file(catalog_path))
    html = (bundle / "allure-report" / "index.html").is_file()
    problems = verify(bundle, catalog_path) if assessment.verdict == CERTIFIED else []
    problems = tampered + problems  # a report changed behind the judge's back is said whatever the verdict
    if problems:
        assessment = withdraw(bundle, assessment, problems, signing_key)
    return Certification(bundle, assessment, returncode, html, problems)


def withdraw(bundle: Path, assessment: Assessment, problems: list[str],
             signing_key: Ed25519PrivateKey | None = None) -> Assessment:
    """A CERTIFIED bundle that fails ``verify`` is rewritten to say NOT CERTIFIED, naming the problems.

    The outcomes would certify, but a bundle that does not verify proves nothing; it must never say
    CERTIFIED.
    """
    withdrawn = dataclasses.replace(assessment, verdict=NOT_CERTIFIED)
    summary = load_own_summary(bundle / "summary.json")
    manifest: dict[str, object] = dict(load_json(bundle / "manifest.json"))
    manifest.update(verdict=NOT_CERTIFIED, verify_problems=problems)
    langs = languages()
    (bundle / "certificate.md").write_text(render_markdown(withdrawn, summary, manifest, langs), encoding="utf-8")
    (bundle / "certificate.html").write_text(render_html(withdrawn, summary, manifest, langs), encoding="utf-8")
    seal(bundle, manifest, signing_key)
    return withdrawn


def seal(bundle: Path, manifest: dict[str, object], signing_key: Ed25519PrivateKey | None) -> None:
    """Write manifest.json with the SHA-256 of every other file, sign it when a key is given, then SHA256SUMS."""
    manifest["files"] = file_digests(bundle, frozenset({"manifest.json", SIGNATURE}))
    (bundle / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    (bundle / SIGNATURE).unlink(missing_ok=True)
    if signing_key is not None:
        sign_manifest(bundle, signing_key)
    write_sums(bundle)


def _bundle_expectations(paths: list[Path], staging: Path) -> list[tuple[str, Path]]:
    """Copy each expectations file into ``staging/expectations/``; returns (bundle path, source) pairs."""
    copied = []
    for number, source in enumerate(paths, 1):
        rel = f"expectations/{number}-{_safe(source.name)}"
        (staging / "expectations").mkdir(exist_ok=True)
        shutil.copyfile(source, staging / rel)
        copied.append((rel, source))
    return copied


def _inside(root: Path, path: Path) -> str:
    """``path`` relative to ``root`` when it lies inside it, else as given."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


def package_bundle(
    staging: Path,
    out_root: Path,
    acl_lib: Path | argparse.Namespace,
    command: list[str],
    created: datetime.datetime,
    catalog_path: Path,
    history: list[str],
    pytest_args: list[str],
    signing_key: Ed25519PrivateKey | None = None,
) -> Path:
    """Turn a run's report directory ``staging`` into a bundle under ``out_root``; returns its path.

    Copies the expectations files the run used into ``expectations/``, writes
    certificate.md/.html, manifest.json (with the SHA-256 of every other file), manifest.sig
    when ``signing_key`` is given, and SHA256SUMS into ``staging``, then renames it to
    ``<family>-<release judged against>-<timestamp>`` (suffixed -2, -3, ... if taken). Nothing in the
    bundle names the staging folder: the run's own paths are rewritten to the bundle's.
    """
    summary = load_own_summary(staging / "summary.json")
    catalog = load_catalog_file(catalog_path)
    assessment = assess(summary, catalog)
    used = [Path(p) for p in (summary.get("expectations") or {}).get("files") or []]
    env = summary.get("environment") or {}
    final = _unique(out_root / bundle_name(env, catalog, created))
    library = Path(str(env.get("library"))) if isinstance(acl_lib, argparse.Namespace) else acl_lib
    restricted = pytest_args + [f"--acl-rule={r}" for r in getattr(acl_lib, "acl_rule", None) or []]
    html = (staging / "allure-report" / "index.html").is_file()
    manifest = build_manifest(
        summary=summary,
        library=library,
        command=[part.replace(str(staging), str(final)) for part in command],
        expectations=_bundle_expectations([p.resolve() for p in used], staging),
        created=created,
        verdict=assessment.verdict,
        extra={
            "restricted_by": restricted,
            # The carried files as the bundle holds them, not as the staging folder did.
            "history_carried": [_inside(staging, Path(p)) for p in history],
            "complete": assessment.completeness_checked and not assessment.missing_rules,
            "html_report": {"rendered": html, "render_later": None if html else "acl-conformance report BUNDLE"},
            "backend_env": dict(as_object(env.get("backend_env"))),
            "kit_files": kit_files(),  # the kit that judged, as found after the run (verify compares its own)
        },
    )
    shutil.rmtree(staging / ".pytest_cache", ignore_errors=True)  # the run's --lf memory is no evidence
    log = staging / "run.log"
    if log.is_file():
        log.write_text(log.read_text(encoding="utf-8", errors="replace").replace(str(staging), str(final)),
                       encoding="utf-8")
    langs = languages()  # certify --lang zh,en: one certificate carrying both, sealed with the rest
    (staging / "certificate.md").write_text(render_markdown(assessment, summary, manifest, langs), encoding="utf-8")
    (staging / "certificate.html").write_text(render_html(assessment, summary, manifest, langs), encoding="utf-8")
    seal(staging, manifest, signing_key)
    staging.rename(final)
    mask = os.umask(0o022)
    os.umask(mask)
    final.chmod(0o777 & ~mask)  # sealed: as readable as any other folder the user makes
    return final
