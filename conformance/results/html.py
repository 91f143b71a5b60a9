"""Render the HTML report with the Allure 3 command line, offline.

The npm package ``allure`` is pinned in ``allure/package.json`` and ``package-lock.json``;
``allure/allurerc.mjs`` configures it (report name with the verdict, epic/feature/story grouping,
categories by the ``category`` label, history for trends, one self-contained HTML file,
``allure.html``); the report's ``index.html`` is the kit's own first screen (:mod:`.landing`:
verdict, counts, root causes), which links into it. The renderer lives in a *renderer home*: the
clone's ``allure/`` folder (``make node`` installs it), or, for an installed kit, a per-user cache
folder that ``acl-conformance report`` fills with ``npm ci``. A run renders only with a renderer
already installed, so that an offline server never waits on npm. The page Allure writes loads an
analytics script from an outside host: :func:`strip_analytics` removes it, so the report opens with
no outside request.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path

from ..harness.resources import cache_dir, catalog_path, load_catalog, shipped_dir, source_checkout
from ..i18n import DEFAULT, N_, _, current
from ..i18n.spec_text import product_family_name, rule_title
from .landing import ALLURE_PAGE, allure_case_ids, landing_html
from .outcomes import CATEGORY_TITLES
from .untrusted import UntrustedFileError, as_object, present, read_json

ALLURE_CLI = Path("node_modules") / "allure" / "cli.js"
TITLE = N_("ACL host-memory conformance")
_EXTERNAL_SCRIPT = re.compile(r"<script\b[^>]*\bsrc\s*=\s*[\"']?(?:https?:)?//[^>]*>\s*</script>\s*", re.I)
_INLINE_SCRIPT = re.compile(r"<script\b[^>]*>(.*?)</script>\s*", re.I | re.S)
_ANALYTICS_MARKERS = ("gtag(", "dataLayer", "googletagmanager", "google-analytics")
_SCRIPT_SRC = re.compile(r"<script\b[^>]*\bsrc\s*=\s*[\"']?((?:https?:)?//[^\"'\s>]+)", re.I)


class ReportError(RuntimeError):
    """The HTML report could not be rendered (the run's other reports are still valid)."""


def strip_analytics(html: str) -> str:
    """Remove every script loaded from another host and inline scripts that feed analytics."""
    html = _EXTERNAL_SCRIPT.sub("", html)

    def keep(match: re.Match[str]) -> str:
        body = match.group(1)
        return "" if any(marker in body for marker in _ANALYTICS_MARKERS) else match.group(0)

    return _INLINE_SCRIPT.sub(keep, html)


def external_scripts(html: str) -> list[str]:
    """URLs of scripts the page would load from another host (empty after stripping)."""
    return _SCRIPT_SRC.findall(html)


def renderer_home() -> Path:
    """Where the Allure renderer is installed: the clone's allure/ folder, else the user cache."""
    checkout = source_checkout()
    return checkout / "allure" if checkout else cache_dir() / "allure"


def installed_cli(home: Path | None = None) -> Path | None:
    """The Allure 3 CLI when it is installed in the renderer home; else None."""
    cli = (home or renderer_home()) / ALLURE_CLI
    return cli if cli.is_file() else None


def install_renderer(home: Path | None = None, timeout: float = 600) -> Path:
    """Install the pinned renderer into the renderer home (``npm ci``) when it is missing; returns the CLI."""
    home = home or renderer_home()
    cli = installed_cli(home)
    if cli is not None:
        return cli
    npm = shutil.which("npm")
    if npm is None:
        raise ReportError(_("npm is not installed: install Node.js >= 20 and npm to render the HTML report"))
    home.mkdir(parents=True, exist_ok=True)
    pins = shipped_dir("allure")
    if pins.resolve() != home.resolve():
        for name in ("package.json", "package-lock.json"):
            shutil.copyfile(pins / name, home / name)
    proc = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=home, capture_output=True, text=True,
                          timeout=timeout, check=False)
    cli = installed_cli(home)
    if proc.returncode != 0 or cli is None:
        raise ReportError(_("npm ci failed ({status}):").format(status=proc.returncode) + f"\n{proc.stderr[-2000:]}")
    return cli


def report_name(summary: Mapping[str, object] | None) -> str:
    """The report's title: the verdict and the count of cases per outcome, read on the first screen."""
    if not summary:
        return _(TITLE)
    counts = ", ".join(f"{n} {k}" for k, n in as_object(summary.get("totals")).items() if n)
    return _("{title}: verdict {verdict} ({counts})").format(title=_(TITLE), verdict=summary.get("verdict"),
                                                             counts=counts)


def allure_language_environment() -> dict[str, str]:
    """What allurerc.mjs reads to speak this process's language: Allure's own (its ``reportLanguage``, zh
    among those Allure 3 ships) and the kit's category names, from the message catalogue."""
    names = {title: _(title) for title in CATEGORY_TITLES.values()}
    return {"ACL_ALLURE_LANGUAGE": current(), "ACL_ALLURE_CATEGORY_NAMES": json.dumps(names, ensure_ascii=False)}


def spec_names(lang: str) -> tuple[dict[str, str], dict[str, str]]:
    """Rule ID -> its title, and product family ID -> its name, in ``lang``, from the installed kit's catalog
    (the landing page's root causes and facts); empty for English, whose page shows what it always showed."""
    if lang == DEFAULT:
        return {}, {}
    try:
        catalog = load_catalog(catalog_path())
    except (OSError, ValueError):
        return {}, {}
    return ({str(rule["id"]): rule_title(rule, lang) for rule in catalog.get("rules", [])},
            {str(family["id"]): product_family_name(family, lang) for family in catalog.get("families", [])})


def trim_history(path: Path, limit: int) -> None:
    """Keep the last ``limit`` runs (lines) of an Allure 3 history.jsonl."""
    if limit < 1 or not path.is_file():
        return
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if len(lines) > limit:
        path.write_text("".join(line + "\n" for line in lines[-limit:]), encoding="utf-8")


def render(results_dir: Path, report_dir: Path, summary: Mapping[str, object] | None = None, *,
           cli: Path | None = None, history_limit: int = 20, timeout: float = 600) -> Path:
    """Render ``results_dir`` into ``report_dir/allure-report/``; returns its ``index.html``, the kit's first
    screen (:mod:`.landing`), which links into Allure's page, ``allure.html`` beside it.

    ``cli`` defaults to the installed renderer, installing it first when it is missing.
    """
    node = shutil.which("node")
    if node is None:
        raise ReportError(_("node is not installed: install Node.js >= 20 to render the HTML report"))
    cli = cli or install_renderer()
    output = (report_dir / "allure-report").resolve()
    if output.exists():
        shutil.rmtree(output)
    history = (report_dir / "history.jsonl").resolve()
    env = dict(os.environ, ACL_ALLURE_OUTPUT=str(output), ACL_ALLURE_HISTORY=str(history),
               ACL_ALLURE_NAME=report_name(summary), **allure_language_environment())
    home = cli.parents[2]
    config = home / "allurerc.mjs"  # beside node_modules, where its `import "allure"` resolves
    shipped = shipped_dir("allure") / "allurerc.mjs"
    if shipped.resolve() != config.resolve():
        shutil.copyfile(shipped, config)
    proc = subprocess.run([node, str(cli), "generate", str(results_dir.resolve()), "--config", str(config)],
                          cwd=home, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    index = output / "index.html"
    if proc.returncode != 0 or not index.is_file():
        raise ReportError(_("allure generate failed ({status}):").format(status=proc.returncode)
                          + f"\n{(proc.stdout + proc.stderr)[-2000:]}")
    (output / ALLURE_PAGE).write_text(strip_analytics(index.read_text(encoding="utf-8")), encoding="utf-8")
    index.write_text(landing_html(summary, _allure_ids(output), *spec_names(current())), encoding="utf-8")
    trim_history(history, history_limit)
    return index


def _allure_ids(output: Path) -> dict[str, str]:
    """Case ID -> its result's id on Allure's page (empty when Allure wrote no test-results.json)."""
    results = output / "test-results.json"
    try:
        return allure_case_ids(read_json(results, root=output)) if present(results) else {}
    except UntrustedFileError:
        return {}


def render_installed(results_dir: Path, report_dir: Path, summary: Mapping[str, object] | None = None, *,
                     history_limit: int = 20) -> Path:
    """:func:`render` with the renderer that is already installed; ReportError when there is none."""
    if shutil.which("node") is None:
        raise ReportError(_("Node.js is not installed"))
    cli = installed_cli()
    if cli is None:
        raise ReportError(_("the Allure renderer is not installed in {dir}").format(dir=renderer_home()))
    return render(results_dir, report_dir, summary, cli=cli, history_limit=history_limit)


def find_chromium() -> str | None:
    """A headless-capable Chromium on PATH, if any."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


#: Headless Chromium with no network of its own: every host name fails to resolve and any
#: request that still tries goes to a closed local port.
OFFLINE_CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                          "--disable-background-networking", "--disable-component-update", "--disable-sync",
                          "--disable-dev-shm-usage", "--host-resolver-rules=MAP * ~NOTFOUND",
                          "--proxy-server=127.0.0.1:9")


def _chromium(extra: list[str], target: str, timeout: float) -> subprocess.CompletedProcess[str]:
    chromium = find_chromium()
    if chromium is None:
        raise ReportError(_("chromium is not installed (apt-get install -y chromium)"))
    with tempfile.TemporaryDirectory(prefix="acl-chromium-") as profile:
        args = [chromium, *OFFLINE_CHROMIUM_FLAGS, f"--user-data-dir={profile}", *extra, target]
        return subprocess.run(args, capture_output=True, text=True, timeout=timeout, check=False)


def dump_dom(index: Path, fragment: str = "", timeout: float = 120, wait_ms: int = 10000) -> str:
    """The DOM of the report page (``#fragment`` opens a test result) after its scripts ran, offline."""
    target = index.resolve().as_uri() + (f"#{fragment}" if fragment else "")
    proc = _chromium([f"--virtual-time-budget={wait_ms}", "--dump-dom"], target, timeout)
    if proc.returncode != 0 or "<html" not in proc.stdout:
        raise ReportError(_("chromium could not render {target} ({status}):").format(
            target=target, status=proc.returncode) + f"\n{proc.stderr[-2000:]}")
    return proc.stdout


def screenshot(index: Path, png: Path, size: tuple[int, int] = (1400, 1000), timeout: float = 120,
               wait_ms: int = 8000) -> Path:
    """Open the report in headless Chromium (offline) and save a PNG of it."""
    extra = ["--hide-scrollbars", f"--virtual-time-budget={wait_ms}", f"--window-size={size[0]},{size[1]}",
             f"--screenshot={png.resolve()}"]
    proc = _chromium(extra, index.resolve().as_uri(), timeout)
    if not png.is_file():
        raise ReportError(_("chromium wrote no screenshot ({status}):").format(status=proc.returncode)
                          + f"\n{proc.stderr[-2000:]}")
    return png
