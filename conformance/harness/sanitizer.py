"""A library built with AddressSanitizer needs the ASan runtime loaded first, or every process dies opening it.

Loaded by a plain Python, such a library aborts with "ASan runtime does not come first in
initial library list", which a run would report as a crash of every case. The set-up check
(:mod:`conformance.session.preflight`), which opens the library once in a child process
before any case, asks this module why that child died and says what to do instead.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

_RUNTIME = re.compile(rb"lib(asan|hwasan)\.so(\.[0-9]+)*")
SCAN_BYTES = 64 << 20


def asan_runtime_missing(library: Path, environ: dict[str, str] | None = None) -> str | None:
    """A one-line hint when ``library`` needs an ASan runtime that LD_PRELOAD does not load, else None."""
    environ = dict(os.environ) if environ is None else environ
    try:
        with open(library, "rb") as handle:
            data = handle.read(SCAN_BYTES)
    except OSError:
        return None
    match = _RUNTIME.search(data)
    if match is None or b"__asan_init" not in data:
        return None
    runtime = match.group(0).decode()
    if match.group(1).decode() in environ.get("LD_PRELOAD", ""):
        return None
    return (f"the library is built with AddressSanitizer and needs {runtime} loaded first; run with "
            f"LD_PRELOAD=$(cc -print-file-name={runtime}) ASAN_OPTIONS=detect_leaks=0, or use a plain build")
