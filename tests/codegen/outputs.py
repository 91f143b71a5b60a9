"""What generated output must be, checked the same way by the property test and the hostile corpus.

- :func:`generate_in_process`: ``python -m codegen generate`` in this process (exit code, stderr);
- :func:`skeletons`: each generated module's syntax tree with string values blanked, i.e. what it runs;
- :func:`import_bindings`: import a generated tree's bindings under a fresh package name;
- :func:`compiles`: the ABI check builds with ``-Werror`` and passes, and the fault table compiles.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import importlib.util
import io
import itertools
import subprocess
import sys
from pathlib import Path

from specedit import CHECKS

from codegen.cli import main as codegen_main


def generate_in_process(spec: Path, out: Path) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = codegen_main(["generate", "--spec", str(spec), "--out", str(out), "--checks", str(CHECKS)])
    return code, err.getvalue()


def _skeleton(source: str) -> str:
    """The syntax tree with every string value blanked: what the module would run."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            node.value = ""
    return ast.dump(tree)


def skeletons(out: Path) -> dict[str, str]:
    return {p.relative_to(out).as_posix(): _skeleton(p.read_text(encoding="utf-8")) for p in sorted(out.rglob("*.py"))}


_imports = itertools.count()


def import_bindings(out: Path) -> None:
    name = f"hostile_generated_{next(_imports)}"
    spec = importlib.util.spec_from_file_location(name, out / "__init__.py", submodule_search_locations=[str(out)])
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules[name] = package
    try:
        spec.loader.exec_module(package)
        bindings = importlib.import_module(f"{name}.acl_bindings")
        assert bindings.ffi.typeof("aclrtMallocConfig").kind == "struct"
    finally:
        for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            del sys.modules[module]


def compiles(cc: str, out: Path) -> None:
    exe = out.parent / "abi_check"
    flags = ["-std=c11", "-Wall", "-Wextra", "-Werror"]
    built = subprocess.run([cc, *flags, "-I", str(out / "include"), str(out / "abi_check.c"), "-o", str(exe)],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    assert subprocess.run([str(exe)], capture_output=True, text=True).returncode == 0
    faults = out.parent / "faults.c"
    faults.write_text('#include "acl_hostmem.h"\n#include "sim/aclsim_faults.h"\n'
                      "int main(void) { return aclsimFaultNames[0] == 0; }\n", encoding="utf-8")
    checked = subprocess.run([cc, *flags, "-fsyntax-only", "-I", str(out / "include"), "-I", str(out), str(faults)],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
