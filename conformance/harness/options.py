"""Command-line options of the conformance plugin, each with an environment-variable twin.

Every option is declared once in :data:`OPTIONS`; :func:`add_options` registers them with
pytest and :func:`settings_from_config` resolves them (command line, then environment, then
default) into one frozen :class:`Settings` that every process reads through ``config``.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, SupportsFloat, SupportsIndex, SupportsInt

from ..i18n import N_, _
from .resources import default_sim_lib, load_catalog

if TYPE_CHECKING:  # the executor reads Settings too, and never needs pytest (100 ms a process)
    import pytest

# The simulator's emulated host budget, which HM-PAIR-EXHAUSTION allocates up to in every run: each
# byte of it is page-locked and poisoned twice, so it stays small. The largest live set of a case
# (HM-VA-IDENTITY's sampled sizes, 2 MiB-aligned) needs between 160 and 192 MiB; 256 MiB leaves room.
SIM_HOST_MEM_LIMIT = 256 * 1024 * 1024
DEFAULT_TIMEOUT = 10.0
DEFAULT_DEADLINE = 1800.0
MAX_SECONDS = 7 * 24 * 3600.0
# Actions per explorer case: enough to kill every sequence fault of the simulator while the
# whole suite stays within its former time; nightly runs pass more (make explore-nightly).
DEFAULT_EXPLORE_STEPS = 2000
DEFAULT_EXPLORE_SEED = 0
# How long the sync cases that hold blocked work watch a call that must wait: long enough to
# expose a device sync that gives up after a bounded wait of a second.
DEFAULT_SYNC_WINDOW = 1.5
HOST_ALLOC_CHOICES = ("svm", "malloc_fallback")


@dataclass(frozen=True)
class OptionSpec:
    """One option: its flag, environment twin, destination and help text (an English message ID with
    ``{placeholders}`` that :func:`option_help` fills in)."""

    flag: str
    env: str | None
    dest: str
    help: str
    metavar: str
    multiple: bool = False


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("--acl-lib", "ACL_LIB", "acl_lib", N_("the libascendcl.so to test; 'auto' means "
               "$ASCEND_HOME_PATH/lib64/libascendcl.so (source CANN's set_env.sh first). Default in a clone: "
               "the reference simulator build/sim/libascendcl.so"), "PATH"),
    OptionSpec("--acl-device", "ACL_DEVICE", "acl_device", N_("device ID to run on (default: spread the parallel "
               "workers over the devices)"), "N"),
    OptionSpec("--acl-product", "ACL_PRODUCT", "acl_product", N_("product family, instead of detecting it from "
               "the SoC name; one of: {products}"), "ID"),
    OptionSpec("--acl-timeout", "ACL_TIMEOUT", "acl_timeout", N_("seconds to wait for a call that blocks "
               "(default 10); a case is stopped after 3 x this + 5 s"), "SECONDS"),
    OptionSpec("--acl-deadline", "ACL_DEADLINE", "acl_deadline", N_("seconds the whole run may take, counted from "
               "its start (default {deadline:.0f}); cases still waiting then are ERROR (category deadline)"),
               "SECONDS"),
    OptionSpec("--acl-os-kernel", "ACL_OS_KERNEL", "acl_os_kernel", N_("OS kernel release the kernel-dependent "
               "rules are judged against (default: this machine's, uname -r)"), "RELEASE"),
    OptionSpec("--acl-expectations", "ACL_EXPECTATIONS", "acl_expectations", N_("expectations (waivers) file; "
               "repeatable (environment: paths separated by '{sep}')"), "FILE", multiple=True),
    OptionSpec("--acl-rule", "ACL_RULE", "acl_rule", N_("run only the cases of this rule ID (e.g. HM-ALIGN-MALLOC; "
               "'*' globs allowed); repeatable (environment: IDs separated by '{sep}'). "
               "The verdict of such a run is PARTIAL"), "RULE", multiple=True),
    OptionSpec("--acl-report-dir", "ACL_REPORT_DIR", "acl_report_dir", N_("where the reports go (default: "
               "./reports)"), "DIR"),
    OptionSpec("--acl-explore-steps", "ACL_EXPLORE_STEPS", "acl_explore_steps", N_("actions each explorer case "
               "makes (default {steps}; it also stops after 2 x --acl-timeout)"), "N"),
    OptionSpec("--acl-explore-seed", "ACL_EXPLORE_SEED", "acl_explore_seed", N_("seed of the run's random choices: "
               "the explorer's call sequences and the sizes drawn from every power-of-two class "
               "(default {seed}: the same every run)"), "N"),
    OptionSpec("--acl-shuffle", "ACL_SHUFFLE", "acl_shuffle", N_("shuffle the order of the cases with this seed, "
               "and draw the explorer's seed from it too, so that a library cannot learn the run's sequence in "
               "advance (the seed is recorded in the summary and the bundle; default: no shuffle)"), "SEED"),
    OptionSpec("--acl-host-page", "ACL_HOST_PAGE", "acl_host_page", N_("the host kernel's page size in bytes, which "
               "the driver aligns and rounds registrations to (default: this machine's, os.sysconf; 65536 "
               "on a 64 KiB-page arm64 server)"), "BYTES"),
    OptionSpec("--acl-host-alloc", "ACL_HOST_ALLOC", "acl_host_alloc", N_("where aclrtMallocHost memory comes "
               "from: 'svm' (the driver's SVM range, the default) or 'malloc_fallback' (an svm v2 driver that could "
               "not reserve its range, e.g. an ASan build, and logs 'Host mem goto malloc')"), "KIND"),
    OptionSpec("--acl-sync-window", "ACL_SYNC_WINDOW", "acl_sync_window", N_("seconds the sync cases that hold "
               "blocked work watch a call that must wait (default {window}); longer exposes a sync that gives up "
               "after a bounded wait, and a window under 0.3 shortens the other sync cases' watch to it too"),
               "SECONDS"),
    OptionSpec("--acl-cann-release", "ACL_CANN_RELEASE", "acl_cann_release", N_("the CANN release whose contract "
               "the run is judged against, one the spec knows (default: the library's, from aclsysGetVersionStr; "
               "python -m conformance run --help lists the releases)"), "RELEASE"),
    OptionSpec("--acl-sandbox-allow", "ACL_SANDBOX_ALLOW", "acl_sandbox_allow", N_("a host path the library may "
               "use inside its sandbox besides those an Ascend server needs (bound writable, devices included); "
               "repeatable (environment: paths separated by '{sep}')"), "PATH", multiple=True),
)


def _product_ids() -> str:
    try:
        catalog = load_catalog()
    except (OSError, ValueError):
        return _("see the spec's products.yaml")
    return ", ".join(family["id"] for family in catalog["families"])


def option_help(spec: OptionSpec) -> str:
    """The help of ``spec`` in the process's language, with its defaults and the spec's product IDs filled in."""
    text = _(spec.help)
    products = _product_ids() if "{products}" in text else ""  # the catalog is read for the one help that needs it
    return text.format(products=products, deadline=DEFAULT_DEADLINE, sep=os.pathsep, steps=DEFAULT_EXPLORE_STEPS,
                       seed=DEFAULT_EXPLORE_SEED, window=DEFAULT_SYNC_WINDOW)


@dataclass(frozen=True)
class Settings:
    """The resolved options of one run."""

    lib: Path | None
    device: int | None
    product: str | None
    timeout: float
    kernel: str
    expectations: tuple[Path, ...]
    report_dir: Path
    rules: tuple[str, ...] = ()
    deadline: float = DEFAULT_DEADLINE
    explore_steps: int = DEFAULT_EXPLORE_STEPS
    explore_seed: int = DEFAULT_EXPLORE_SEED
    host_page: int = 4096
    host_alloc: str = "svm"
    sync_window: float = DEFAULT_SYNC_WINDOW
    cann_release: str | None = None
    shuffle: int | None = None  # --acl-shuffle: the seed of the case order (and of the explorer's seed)
    sandbox_allow: tuple[str, ...] = ()  # --acl-sandbox-allow: extra host paths inside the library's sandbox

    @property
    def case_timeout(self) -> float:
        """Hard limit for one case (setup, call and teardown) before its process is killed."""
        return hard_timeout(self.timeout)


def hard_timeout(timeout: float) -> float:
    """The per-case hard timeout for a blocking-wait timeout of ``timeout`` seconds."""
    return 3 * timeout + 5


def add_options(parser: pytest.Parser) -> None:
    """Register every option of :data:`OPTIONS` in an 'acl conformance' group."""
    group = parser.getgroup("acl", _("ACL host-memory conformance"))
    for spec in OPTIONS:
        env = f" [env {spec.env}]" if spec.env else ""
        group.addoption(spec.flag, dest=spec.dest, metavar=spec.metavar, default=None,
                        action="append" if spec.multiple else "store", help=option_help(spec) + env)


OptionValue = str | list[str] | None


def env_value(spec: OptionSpec) -> OptionValue:
    """The option's environment twin, split on ``os.pathsep`` for a repeatable option; None when unset."""
    text = os.environ.get(spec.env, "") if spec.env else ""
    if not text:
        return None
    return [part for part in text.split(os.pathsep) if part] if spec.multiple else text


def raw_value(config: pytest.Config, spec: OptionSpec) -> OptionValue:
    """The option's value from the command line, else its environment twin, else None."""
    value: OptionValue = config.getoption(spec.dest, default=None)
    if value not in (None, []):
        return value
    return env_value(spec)


def raw_values(config: pytest.Config) -> dict[str, OptionValue]:
    """Every option of :data:`OPTIONS` by destination, as given (command line, then environment)."""
    return {spec.dest: raw_value(config, spec) for spec in OPTIONS}


def single_value(value: OptionValue) -> str | None:
    """The value of an option that is not repeatable (only a repeatable one's is a list)."""
    if isinstance(value, list):
        raise TypeError(f"a repeatable option's values {value!r} are not one value")
    return value


def resolve_lib(value: str | None) -> Path | None:
    """The library to test: a path, ``auto`` ($ASCEND_HOME_PATH/lib64/libascendcl.so), or the default.

    The default is the clone's simulator (``build/sim``); an installed kit has none, and then
    None comes back and the preflight check says what to pass. ``auto`` without
    ASCEND_HOME_PATH also gives None (the preflight check tells the user to source set_env.sh).
    """
    if not value:
        return default_sim_lib()
    if value == "auto":
        home = os.environ.get("ASCEND_HOME_PATH")
        return Path(home) / "lib64" / "libascendcl.so" if home else None
    return Path(value).expanduser().resolve()


class OptionError(ValueError):
    """A malformed option value (not a number, not positive)."""


def _float(value: object) -> float:
    """``float(value)``, with the TypeError float() raises for what it cannot convert."""
    if isinstance(value, (str, bytes, bytearray, SupportsFloat, SupportsIndex)):
        return float(value)
    raise TypeError(f"float() argument must be a string or a real number, not '{type(value).__name__}'")


def _int(value: object) -> int:
    """``int(value)``, with the TypeError int() raises for what it cannot convert."""
    if isinstance(value, (str, bytes, SupportsInt, SupportsIndex)):
        return int(value)
    raise TypeError(f"int() argument must be a string, a bytes-like object or a real number, "
                    f"not '{type(value).__name__}'")


def _text(values: Mapping[str, object], dest: str) -> str | None:
    """A text option's value (a path, a name), None when unset."""
    value = values.get(dest)
    if value is None or isinstance(value, str):
        return value
    raise TypeError(f"option {dest}: expected text, not {value!r}")


def _texts(values: Mapping[str, object], dest: str) -> list[str]:
    """A repeatable text option's values (any iterable of text); none when unset (or empty)."""
    value = values.get(dest) or ()
    if not isinstance(value, Iterable):
        raise TypeError(f"'{type(value).__name__}' object is not iterable")
    texts: list[str] = []
    for item in value:
        if not isinstance(item, str):
            raise TypeError(f"option {dest}: expected text, not {item!r}")
        texts.append(item)
    return texts


def seconds(flag: str, value: object, default: float) -> float:
    """A duration option: a finite, positive number of seconds (at most a week); raises OptionError.

    ``nan`` would make every comparison false and ``inf`` overflows the timers, so both are refused.
    """
    if value is None:
        return default
    try:
        number = _float(value)
    except (TypeError, ValueError):
        raise OptionError(_("{flag} {value}: not a number of seconds").format(flag=flag, value=repr(value))) from None
    if not math.isfinite(number) or not 0 < number <= MAX_SECONDS:
        raise OptionError(_("{flag} {value}: must be a finite number of seconds, above 0 and at most {most:.0f}")
                          .format(flag=flag, value=repr(value), most=MAX_SECONDS))
    return number


def whole(flag: str, value: object, default: int, minimum: int) -> int:
    """A whole-number option (``default`` when unset) of at least ``minimum``; raises OptionError."""
    if value is None:
        return default
    try:
        number = _int(value)
    except (TypeError, ValueError):
        raise OptionError(_("{flag} {value}: not a whole number").format(flag=flag, value=repr(value))) from None
    if number < minimum:
        raise OptionError(_("{flag} {value}: must be at least {minimum}").format(
            flag=flag, value=repr(value), minimum=minimum))
    return number


def host_page_size(flag: str, value: object) -> int:
    """The host page size: a power of two from 4096 to 1 MiB (default: this machine's); raises OptionError."""
    number = whole(flag, value, os.sysconf("SC_PAGE_SIZE"), 4096)
    if number & (number - 1) or number > 1 << 20:
        raise OptionError(_("{flag} {value}: must be a power of two from 4096 to 1048576").format(
            flag=flag, value=repr(value)))
    return number


def choice(flag: str, value: object, choices: tuple[str, ...]) -> str:
    """One of ``choices`` (the first when unset); raises OptionError."""
    if value is None:
        return choices[0]
    if value not in choices:
        raise OptionError(_("{flag} {value}: must be one of {choices}").format(
            flag=flag, value=repr(value), choices=", ".join(choices)))
    return str(value)


def settings_from_values(values: Mapping[str, object]) -> Settings:
    """Resolve raw option values (by destination) into :class:`Settings`; raises OptionError."""
    try:
        device = _int(values["acl_device"]) if values.get("acl_device") is not None else None
    except ValueError as exc:
        raise OptionError(f"--acl-device: {exc}") from exc
    timeout = seconds("--acl-timeout", values.get("acl_timeout"), DEFAULT_TIMEOUT)
    deadline = seconds("--acl-deadline", values.get("acl_deadline"), DEFAULT_DEADLINE)
    report_dir = Path(_text(values, "acl_report_dir") or "reports")
    return Settings(
        lib=resolve_lib(_text(values, "acl_lib")),
        device=device,
        product=_text(values, "acl_product"),
        timeout=timeout,
        kernel=_text(values, "acl_os_kernel") or os.uname().release,
        expectations=tuple(Path(p) for p in _texts(values, "acl_expectations")),
        report_dir=report_dir.resolve(),
        rules=tuple(_texts(values, "acl_rule")),
        deadline=deadline,
        explore_steps=whole("--acl-explore-steps", values.get("acl_explore_steps"), DEFAULT_EXPLORE_STEPS, 1),
        explore_seed=_explore_seed(values),
        host_page=host_page_size("--acl-host-page", values.get("acl_host_page")),
        host_alloc=choice("--acl-host-alloc", values.get("acl_host_alloc"), HOST_ALLOC_CHOICES),
        sync_window=seconds("--acl-sync-window", values.get("acl_sync_window"), DEFAULT_SYNC_WINDOW),
        cann_release=_text(values, "acl_cann_release") or None,
        shuffle=whole("--acl-shuffle", values.get("acl_shuffle"), 0, 0) if values.get("acl_shuffle") else None,
        sandbox_allow=tuple(str(Path(p).resolve()) for p in _texts(values, "acl_sandbox_allow")),
    )


def _explore_seed(values: Mapping[str, object]) -> int:
    """--acl-explore-seed, or, under --acl-shuffle without one, a seed drawn from the shuffle's."""
    if values.get("acl_shuffle") and not values.get("acl_explore_seed"):
        return random.Random(whole("--acl-shuffle", values["acl_shuffle"], 0, 0)).randrange(1 << 31)
    return whole("--acl-explore-seed", values.get("acl_explore_seed"), DEFAULT_EXPLORE_SEED, 0)


def settings_from_config(config: pytest.Config) -> Settings:
    """Resolve all options once; raises ``pytest.UsageError`` for malformed values."""
    try:
        return settings_from_values(raw_values(config))
    except OptionError as exc:
        import pytest

        raise pytest.UsageError(str(exc)) from exc
