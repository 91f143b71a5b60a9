"""Where the kit's files are, installed from a wheel or run from a clone.

Every file the kit reads at run time is found here, through :mod:`importlib.resources`:

- the generated package (:data:`GENERATED_PACKAGE`): bindings, catalog, cases, C header;
- the spec, the simulator's C sources and the report renderer's npm pins, shipped inside
  ``conformance/_data/`` by the wheel (``pyproject.toml`` maps ``spec/``, ``sim/`` and
  ``allure/`` there).

In a clone (an editable install) ``conformance/_data/`` does not exist and the same folders
are read where they are checked in; :func:`source_checkout` says which case holds. Outputs
never go into the installation: the default report directory is ``./reports`` of the
current directory, and the simulator built from the shipped sources goes where the user says.
"""

from __future__ import annotations

import importlib.resources
import json
import os
from pathlib import Path

from acl_hostmem_generated.catalog_types import Catalog

GENERATED_PACKAGE = "acl_hostmem_generated"
SHIPPED = ("spec", "sim", "allure")
_KIT = Path(__file__).resolve().parents[1]  # the installed or checked-out ``conformance`` package


def _package_dir(package: str) -> Path:
    return Path(str(importlib.resources.files(package)))


def generated_dir() -> Path:
    """The generated package: acl_bindings.py, catalog.json and its types, include/, cases/."""
    return _package_dir(GENERATED_PACKAGE)


def catalog_path() -> Path:
    """catalog.json: the machine-readable spec the harness and the reports read."""
    return generated_dir() / "catalog.json"


def load_catalog(path: Path | None = None) -> Catalog:
    """The catalog (the generated one unless ``path`` names another), typed by catalog_types.py.

    The generator wrote it and a test holds it to its declared shape, so it is not checked again here.
    """
    catalog: Catalog = json.loads((path or catalog_path()).read_text(encoding="utf-8"))
    return catalog


def suite_dir() -> Path:
    """The generated conformance cases (a pytest directory)."""
    return generated_dir() / "cases"


def source_checkout() -> Path | None:
    """The root of the clone the kit runs from, or None when it runs from an installed wheel."""
    root = _KIT.parent
    if (_KIT / "_data").is_dir() or not (root / "pyproject.toml").is_file() or not (root / "spec").is_dir():
        return None
    return root


def shipped_dir(name: str) -> Path:
    """One of :data:`SHIPPED`: inside the installed package, else the clone's folder of that name."""
    if name not in SHIPPED:
        raise ValueError(f"not a shipped folder: {name!r} (one of {', '.join(SHIPPED)})")
    packaged = _KIT / "_data" / name
    if packaged.is_dir():
        return packaged
    checkout = source_checkout()
    if checkout is None:
        raise FileNotFoundError(f"{packaged}: missing from the installation (reinstall the kit)")
    return checkout / name


def spec_dir() -> Path:
    """The YAML spec the generated package was made from."""
    return shipped_dir("spec")


def default_sim_lib() -> Path | None:
    """The simulator ``make sim`` builds in a clone; None when installed (build it with ``build-sim``)."""
    checkout = source_checkout()
    return checkout / "build" / "sim" / "libascendcl.so" if checkout else None


def cache_dir() -> Path:
    """Per-user cache of the kit (the report renderer's npm packages): $ACL_CONFORMANCE_CACHE or XDG."""
    explicit = os.environ.get("ACL_CONFORMANCE_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "acl-conformance"
