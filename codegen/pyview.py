"""How spec parameters become Python wrapper arguments (decisions for the bindings template).

Each parameter gets a *kind* that the bindings module knows how to convert:

- ``int``: integers and enums, passed through;
- ``ptr``: data pointers and pointer-like handles; ``None`` is NULL, an ``int`` is an address;
- ``cstr``: input strings (``char *``); ``None`` is NULL;
- ``out_addr``/``out_handle``/``out_int``/``out_text``: outputs the wrapper allocates and
  reads back as an address, an opaque handle, an integer or a string.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import CType, Interface, Param, Spec


@dataclass(frozen=True)
class PyParam:
    """A parameter as the Python wrapper sees it."""

    name: str
    kind: str
    c_type: str
    annotation: str
    buffer: str | None = None

    @property
    def is_out(self) -> bool:
        """True for parameters the wrapper allocates and returns."""
        return self.kind.startswith("out_")


def _handle_types(spec: Spec) -> set[str]:
    pointer_typedefs = {t.name for t in spec.typedefs if t.ctype.pointers}
    return pointer_typedefs | {c.name for c in spec.callbacks}


def py_param(spec: Spec, param: Param) -> PyParam:
    """Classify one parameter for the bindings template."""
    handles = _handle_types(spec)
    ctype = param.ctype
    if param.is_out:
        return _out_param(param, ctype, handles)
    if ctype.pointers == 0 and ctype.base in handles:
        return PyParam(param.name, "ptr", ctype.spelled, "Any")
    if ctype.pointers and ctype.base == "char":
        return PyParam(param.name, "cstr", ctype.spelled, "str | bytes | None")
    if ctype.pointers:
        return PyParam(param.name, "ptr", ctype.spelled, "Any")
    return PyParam(param.name, "int", ctype.spelled, "int")


def _out_param(param: Param, ctype: CType, handles: set[str]) -> PyParam:
    if param.buffer is not None:
        return PyParam(param.name, "out_text", ctype.spelled, "Any", param.buffer)
    pointee = ctype.pointee()
    if pointee.pointers:
        return PyParam(param.name, "out_addr", ctype.spelled, "Any")
    if pointee.base in handles:
        return PyParam(param.name, "out_handle", ctype.spelled, "Any")
    return PyParam(param.name, "out_int", ctype.spelled, "Any")


def py_params(spec: Spec, interface: Interface) -> list[PyParam]:
    """All parameters of an interface, classified, in C order."""
    return [py_param(spec, p) for p in interface.params]
