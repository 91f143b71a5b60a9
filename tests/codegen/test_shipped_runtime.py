"""The bindings' spec-independent half is hand-written (codegen/runtime/) and shipped unchanged beside them."""

from __future__ import annotations

from pathlib import Path

from codegen.load import load_spec
from codegen.render import RUNTIME_MODULE, TEMPLATE_DIR, render_all

ROOT = Path(__file__).resolve().parents[2]


def test_the_generated_package_carries_the_hand_written_module_unchanged() -> None:
    shipped = render_all(load_spec(ROOT / "spec"))["acl_runtime.py"]
    assert shipped.startswith("# Generated from spec ") and shipped.endswith(RUNTIME_MODULE.read_text())
    assert (ROOT / "acl_hostmem_generated" / "acl_runtime.py").read_text() == shipped


def test_the_bindings_template_holds_only_what_depends_on_the_spec() -> None:
    template = (TEMPLATE_DIR / "bindings.py.j2").read_text()
    for fixed in ("class MallocConfig", "def address(", "def _cstr(", "ffi.cdef(", "def _bind("):
        assert fixed not in template, f"{fixed} is spec-independent: it belongs in codegen/runtime/acl_runtime.py"
