"""Render the HTML report with the Allure 3 command line, offline.

The npm package ``allure`` is pinned in package.json/package-lock.json and installed with
``npm ci`` into node_modules when missing; ``allurerc.mjs`` configures it (report name,
epic/feature/story grouping, categories by the ``category`` label, history for trends,
one self-contained HTML file). The page Allure writes loads an analytics script from an
outside host: :func:`strip_analytics` removes it, so the report opens with no outside request.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from ..harness.options import REPO_ROOT

ALLURE_CLI = Path("node_modules") / "allure" / "cli.js"
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


def ensure_allure(root: Path = REPO_ROOT, timeout: float = 600) -> Path:
    """Path of the Allure 3 CLI, running ``npm ci`` first when node_modules lacks it."""
    cli = root / ALLURE_CLI
    if cli.is_file():
        return cli
    npm = shutil.which("npm")
    if npm is None:
        raise ReportError("npm is not installed: install Node.js >= 20 and npm to render the HTML report")
    proc = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=root, capture_output=True, text=True,
                          timeout=timeout, check=False)
    if proc.returncode != 0 or not cli.is_file():
        raise ReportError(f"npm ci failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return cli


def render(results_dir: Path, report_dir: Path, root: Path = REPO_ROOT, timeout: float = 600) -> Path:
    """Render ``results_dir`` into ``report_dir/allure-report/index.html``; returns that path."""
    node = shutil.which("node")
    if node is None:
        raise ReportError("node is not installed: install Node.js >= 20 to render the HTML report")
    cli = ensure_allure(root)
    output = (report_dir / "allure-report").resolve()
    if output.exists():
        shutil.rmtree(output)
    env = dict(os.environ, ACL_ALLURE_OUTPUT=str(output),
               ACL_ALLURE_HISTORY=str((report_dir / "history.jsonl").resolve()))
    proc = subprocess.run([node, str(cli), "generate", str(results_dir.resolve()), "--config",
                           str(root / "allurerc.mjs")], cwd=root, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)
    index = output / "index.html"
    if proc.returncode != 0 or not index.is_file():
        raise ReportError(f"allure generate failed ({proc.returncode}):\n{(proc.stdout + proc.stderr)[-2000:]}")
    index.write_text(strip_analytics(index.read_text(encoding="utf-8")), encoding="utf-8")
    return index


def find_chromium() -> str | None:
    """A headless-capable Chromium on PATH, if any."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def screenshot(index: Path, png: Path, size: tuple[int, int] = (1400, 1000), timeout: float = 120,
               wait_ms: int = 8000) -> Path:
    """Open the report in headless Chromium (no network features) and save a PNG of it."""
    chromium = find_chromium()
    if chromium is None:
        raise ReportError("chromium is not installed (apt-get install -y chromium)")
    args = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-dev-shm-usage", "--hide-scrollbars",
            f"--virtual-time-budget={wait_ms}", f"--window-size={size[0]},{size[1]}",
            f"--screenshot={png.resolve()}", index.resolve().as_uri()]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=timeout, check=False)
    if not png.is_file():
        raise ReportError(f"chromium wrote no screenshot ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return png
