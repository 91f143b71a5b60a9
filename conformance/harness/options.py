"""Command-line options of the conformance plugin, each with an environment-variable twin.

Every option is declared once in :data:`OPTIONS`; :func:`add_options` registers them with
pytest and :func:`settings_from_config` resolves them (command line, then environment, then
default) into one frozen :class:`Settings` that every process reads through ``config``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_LIB = REPO_ROOT / "build" / "sim" / "libascendcl.so"
SIM_HOST_MEM_LIMIT = 512 * 1024 * 1024


@dataclass(frozen=True)
class OptionSpec:
    """One option: its flag, environment twin, destination and help text."""

    flag: str
    env: str | None
    dest: str
    help: str
    metavar: str
    multiple: bool = False


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("--acl-lib", "ACL_LIB", "acl_lib", "ACL library to test; 'auto' = $ASCEND_HOME_PATH/lib64/"
               "libascendcl.so (default: build/sim/libascendcl.so, the reference simulator)", "PATH"),
    OptionSpec("--acl-device", "ACL_DEVICE", "acl_device", "device id to run on (default: 0, or with xdist "
               "worker index mod device count)", "N"),
    OptionSpec("--acl-product", "ACL_PRODUCT", "acl_product", "product family id, overriding detection from "
               "aclrtGetSocName", "FAMILY_ID"),
    OptionSpec("--acl-timeout", "ACL_TIMEOUT", "acl_timeout", "seconds per blocking wait (default 10); a case "
               "is killed after 3x this + 5 s", "SECONDS"),
    OptionSpec("--acl-os-kernel", "ACL_OS_KERNEL", "acl_os_kernel", "OS kernel release the rules are judged "
               "against (default: os.uname().release)", "RELEASE"),
    OptionSpec("--acl-expectations", "ACL_EXPECTATIONS", "acl_expectations", "expectations (waivers) file; may "
               f"repeat (environment: paths separated by '{os.pathsep}')", "FILE", multiple=True),
    OptionSpec("--acl-report-dir", "ACL_REPORT_DIR", "acl_report_dir", "where summary.json and allure-results "
               "go (default: reports/)", "DIR"),
)


@dataclass(frozen=True)
class Settings:
    """The resolved options of one run."""

    lib: Path
    device: int | None
    product: str | None
    timeout: float
    kernel: str
    expectations: tuple[Path, ...]
    report_dir: Path

    @property
    def case_timeout(self) -> float:
        """Hard limit for one case (setup, call and teardown) before its process is killed."""
        return hard_timeout(self.timeout)


def hard_timeout(timeout: float) -> float:
    """The per-case hard timeout for a blocking-wait timeout of ``timeout`` seconds."""
    return 3 * timeout + 5


def add_options(parser: pytest.Parser) -> None:
    """Register every option of :data:`OPTIONS` in an 'acl conformance' group."""
    group = parser.getgroup("acl", "ACL host-memory conformance")
    for spec in OPTIONS:
        env = f" [env {spec.env}]" if spec.env else ""
        group.addoption(spec.flag, dest=spec.dest, metavar=spec.metavar, default=None,
                        action="append" if spec.multiple else "store", help=spec.help + env)


def raw_value(config: pytest.Config, spec: OptionSpec) -> Any:
    """The option's value from the command line, else its environment twin, else None."""
    value = config.getoption(spec.dest, default=None)
    if value not in (None, []):
        return value
    text = os.environ.get(spec.env, "") if spec.env else ""
    if not text:
        return None
    return [part for part in text.split(os.pathsep) if part] if spec.multiple else text


def resolve_lib(value: str | None, root: Path = REPO_ROOT) -> Path:
    """The library path: default simulator, ``auto`` (ASCEND_HOME_PATH) or a path relative to the repo."""
    if not value:
        return DEFAULT_LIB
    if value == "auto":
        home = os.environ.get("ASCEND_HOME_PATH")
        if not home:
            raise pytest.UsageError("--acl-lib auto needs ASCEND_HOME_PATH (source the CANN set_env.sh first)")
        return Path(home) / "lib64" / "libascendcl.so"
    path = Path(value).expanduser()
    if not path.is_absolute() and not path.exists() and (root / path).exists():
        path = root / path
    return path.resolve()


def settings_from_config(config: pytest.Config) -> Settings:
    """Resolve all options once; raises ``pytest.UsageError`` for malformed values."""
    values = {spec.dest: raw_value(config, spec) for spec in OPTIONS}
    try:
        device = int(values["acl_device"]) if values["acl_device"] is not None else None
        timeout = float(values["acl_timeout"]) if values["acl_timeout"] is not None else 10.0
    except ValueError as exc:
        raise pytest.UsageError(f"--acl-device / --acl-timeout: {exc}") from exc
    if timeout <= 0:
        raise pytest.UsageError("--acl-timeout must be positive")
    report_dir = Path(values["acl_report_dir"] or "reports")
    return Settings(
        lib=resolve_lib(values["acl_lib"]),
        device=device,
        product=values["acl_product"],
        timeout=timeout,
        kernel=values["acl_os_kernel"] or os.uname().release,
        expectations=tuple(Path(p) for p in values["acl_expectations"] or ()),
        report_dir=report_dir.resolve(),
    )
