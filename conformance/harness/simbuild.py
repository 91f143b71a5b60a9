"""Build the reference simulator from the C sources shipped with the kit (``acl-conformance build-sim``).

The wheel carries ``sim/`` (sources and Makefile) and the generated header; this runs that
Makefile with the header of the installed spec and the output folder the user chose, so an
installed kit can test itself without a clone. It needs ``make`` and a C compiler.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from ..i18n import _
from .resources import generated_dir, shipped_dir

LIBRARY = "libascendcl.so"


class SimBuildError(RuntimeError):
    """The simulator could not be built (no make or compiler, or the build failed)."""


def release_dirs(out_dir: Path) -> list[Path]:
    """The folders of the older-release builds beside ``out_dir`` (``acl-sim`` -> ``acl-sim-9.0.0``), one per
    release whose export map the generated package carries."""
    maps = sorted((generated_dir() / "sim").glob("exports-*.map"))
    out = out_dir.resolve()
    return [out.with_name(f"{out.name}-{m.stem.removeprefix('exports-')}") for m in maps]


def build_command(out_dir: Path, make: str = "make") -> list[str]:
    """The make command that builds ``out_dir/libascendcl.so`` from the shipped sources, and beside it the
    simulator as each older release the spec knows (what the self-test runs them as)."""
    sources = shipped_dir("sim")
    generated = generated_dir()
    out = out_dir.resolve()
    return [make, "-C", str(sources), f"ROOT={sources.parent}", f"OUT={out}", f"RELEASE_PREFIX={out}-",
            f"ACL_INCLUDE={generated / 'include'}", f"FAULTS_INCLUDE={generated / 'sim'}", str(out / LIBRARY),
            *(str(d / LIBRARY) for d in release_dirs(out))]


def build_simulator(out_dir: Path) -> Path:
    """Build the simulator into ``out_dir``; returns the library's path."""
    make = shutil.which("make")
    if make is None:
        raise SimBuildError(_("`make` is not installed (install make and a C compiler, e.g. gcc)"))
    out_dir.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(build_command(out_dir, make), capture_output=True, text=True, check=False)
    library = out_dir.resolve() / LIBRARY
    if proc.returncode != 0 or not library.is_file():
        raise SimBuildError(_("the simulator build failed ({status}):").format(status=proc.returncode)
                            + f"\n{(proc.stdout + proc.stderr)[-2000:]}")
    return library
