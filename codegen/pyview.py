"""How spec parameters become Python wrapper arguments (decisions for the bindings template).

Each parameter gets a *kind* that the bindings module knows how to convert:

- ``int``: integers and enums, passed through;
- ``addr``: data pointers (``void *``, ``const void *``); ``None`` is NULL, an ``int`` is the
  address and passes straight through (see *integer view* below);
- ``ptr``: pointer-like handles and typed pointers (streams, callbacks, configs); ``None`` is
  NULL, an ``int`` is an address, a cffi object passes as it is;
- ``cstr``: input strings (``char *``); ``None`` is NULL;
- ``out_addr``/``out_handle``/``out_int``/``out_text``: outputs the wrapper allocates and
  reads back as an address, an opaque handle, an integer or a string.

*Integer view.* Converting between Python integers and ``void *`` cdata costs more than the
call itself, so the wrappers call each function through a cast of its pointer to a type in
which every data pointer is ``uintptr_t`` (and every ``void **`` output ``uintptr_t *``).
``void *`` and ``uintptr_t`` have the same size and are passed the same way (in an integer
register or stack slot) by every C calling convention cffi supports, so the callee sees the
same bits; the declarations themselves stay in the cdef file.

*Output cells.* A wrapper does not allocate its outputs per call: each thread has one cell
per output slot (a C type and its rank among the function's outputs of that type), which is
read right after the call returns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .model import CType, Interface, Param, Spec

ADDRESS_TYPE = "uintptr_t"


@dataclass(frozen=True)
class PyParam:
    """A parameter as the Python wrapper sees it."""

    name: str
    kind: str
    c_type: str
    annotation: str
    buffer: str | None = None
    abi_type: str = ""
    cell: str | None = None

    @property
    def is_out(self) -> bool:
        """True for parameters the wrapper allocates and returns."""
        return self.kind.startswith("out_")

    @property
    def cell_zero(self) -> str:
        """The Python expression that clears this output's cell before a call."""
        return "ffi.NULL" if self.kind == "out_handle" else "0"

    @property
    def cell_type(self) -> str:
        """The C type of this output's per-thread cell (the integer view of the parameter)."""
        return self.abi_type


def _handle_types(spec: Spec) -> set[str]:
    pointer_typedefs = {t.name for t in spec.typedefs if t.ctype.pointers}
    return pointer_typedefs | {c.name for c in spec.callbacks}


def _is_data_pointer(ctype: CType) -> bool:
    """``void *`` or ``const void *``: an address the wrappers pass as an integer."""
    return ctype.base == "void" and ctype.pointers == 1


def py_param(spec: Spec, param: Param) -> PyParam:
    """Classify one parameter for the bindings template."""
    handles = _handle_types(spec)
    ctype = param.ctype
    if param.is_out:
        return _out_param(param, ctype, handles)
    if ctype.pointers == 0 and ctype.base in handles:
        return PyParam(param.name, "ptr", ctype.spelled, "CData | int | None", abi_type=ctype.spelled)
    if ctype.pointers and ctype.base == "char":
        return PyParam(param.name, "cstr", ctype.spelled, "str | bytes | None", abi_type=ctype.spelled)
    if _is_data_pointer(ctype):
        return PyParam(param.name, "addr", ctype.spelled, "CData | int | None", abi_type=ADDRESS_TYPE)
    if ctype.pointers:
        return PyParam(param.name, "ptr", ctype.spelled, "CData | int | None", abi_type=ctype.spelled)
    return PyParam(param.name, "int", ctype.spelled, "int", abi_type=ctype.spelled)


#: What an output keyword takes: OUT (the wrapper's own cell), None (NULL), or a pointer to write to.
_OUT_ANNOTATION = "CData | int | Out | None"


def _out_param(param: Param, ctype: CType, handles: set[str]) -> PyParam:
    if param.buffer is not None:
        return PyParam(param.name, "out_text", ctype.spelled, _OUT_ANNOTATION, param.buffer, abi_type=ctype.spelled)
    pointee = ctype.pointee()
    if pointee.pointers:
        return PyParam(param.name, "out_addr", ctype.spelled, _OUT_ANNOTATION, abi_type=ADDRESS_TYPE + " *")
    if pointee.base in handles:
        return PyParam(param.name, "out_handle", ctype.spelled, _OUT_ANNOTATION, abi_type=ctype.spelled)
    return PyParam(param.name, "out_int", ctype.spelled, _OUT_ANNOTATION, abi_type=ctype.spelled)


def _cell_name(c_type: str, rank: int) -> str:
    """An identifier for the per-thread cell of one C type: ``uintptr_t *`` -> ``uintptr_t_p0``."""
    return re.sub(r"\W+", "_", c_type.replace("*", "p")).strip("_") + str(rank)


def py_params(spec: Spec, interface: Interface) -> list[PyParam]:
    """All parameters of an interface, classified, in C order; outputs get their cell."""
    params = [py_param(spec, p) for p in interface.params]
    taken: dict[str, int] = {}
    out = []
    for p in params:
        if p.is_out and p.kind != "out_text":
            rank = taken.get(p.cell_type, 0)
            taken[p.cell_type] = rank + 1
            p = PyParam(p.name, p.kind, p.c_type, p.annotation, p.buffer, p.abi_type, _cell_name(p.cell_type, rank))
        out.append(p)
    return out


def abi_signature(spec: Spec, interface: Interface) -> str:
    """The integer-view function pointer type the wrapper calls through: ``aclError(*)(uintptr_t *, size_t)``."""
    args = ", ".join(p.abi_type for p in py_params(spec, interface)) or "void"
    return f"{interface.returns.spelled}(*)({args})"


def output_cells(spec: Spec) -> list[tuple[str, str]]:
    """Every (cell name, C type) a thread needs, over all interfaces, sorted by name."""
    cells = {p.cell: p.cell_type for i in spec.interfaces for p in py_params(spec, i) if p.cell}
    return sorted(cells.items())


#: What an output reads as when the wrapper made its cell: integers for values and addresses,
#: text for a buffer, cdata for opaque handles.
_VALUE_TYPES = {"out_int": "int", "out_addr": "int", "out_text": "str", "out_handle": "CData"}


@dataclass(frozen=True)
class PyWrapper:
    """Everything the bindings template spells for one interface's wrapper."""

    interface: Interface
    params: tuple[PyParam, ...]
    abi_view: str

    @property
    def outs(self) -> tuple[PyParam, ...]:
        """The output parameters, in C order."""
        return tuple(p for p in self.params if p.is_out)

    def signature(self, first: str = "") -> str:
        """The wrapper's parameter list: inputs positional, outputs and ``raw`` keyword-only."""
        parts = [first] if first else []
        parts += [f"{p.name}: {p.annotation}" for p in self.params if not p.is_out]
        if self.interface.returns_error:
            parts.append("*")
            parts += [f"{p.name}: {p.annotation} = OUT" for p in self.outs]
            parts.append("raw: bool = False")
        return ", ".join(parts)

    @property
    def forward(self) -> str:
        """The arguments a first call hands on to the bound wrapper."""
        parts = [p.name for p in self.params if not p.is_out]
        if self.interface.returns_error:
            parts += [f"{p.name}={p.name}" for p in self.outs] + ["raw=raw"]
        return ", ".join(parts)

    @property
    def uses_cells(self) -> bool:
        """Whether the wrapper takes an output cell of the calling thread."""
        return any(p.cell for p in self.params)

    @property
    def call_args(self) -> str:
        """The C call's arguments: integers as given, everything else converted."""
        return ", ".join(p.name if p.kind == "int" else f"c_{p.name}" for p in self.params)

    @property
    def raw_return(self) -> str:
        """What ``raw=True`` returns: the code, then the outputs."""
        return ", ".join(["_rc"] + [f"_out_{p.name}" for p in self.outs])

    @property
    def plain_type(self) -> str:
        """The annotation of what a successful call with default outputs returns."""
        if not self.interface.returns_error:
            return "str | None"
        types = [_VALUE_TYPES[p.kind] for p in self.outs]
        if not types:
            return "None"
        return types[0] if len(types) == 1 else f"tuple[{', '.join(types)}]"

    @property
    def raw_type(self) -> str:
        """The annotation of what ``raw=True`` with default outputs returns: the code, then the outputs."""
        types = ["int"] + [_VALUE_TYPES[p.kind] for p in self.outs]
        return types[0] if len(types) == 1 else f"tuple[{', '.join(types)}]"

    def inputs_signature(self, first: str = "") -> str:
        """The parameter list without the output cells: what a typed call with default outputs spells."""
        parts = [first] if first else []
        return ", ".join(parts + [f"{p.name}: {p.annotation}" for p in self.params if not p.is_out])

    @property
    def plain_return(self) -> str:
        """What a successful call returns: None, its one output, or a tuple of outputs."""
        names = [f"_out_{p.name}" for p in self.outs]
        if not names:
            return "None"
        return names[0] if len(names) == 1 else ", ".join(names)


def py_wrapper(spec: Spec, interface: Interface) -> PyWrapper:
    """The wrapper view of one interface."""
    return PyWrapper(interface, tuple(py_params(spec, interface)), abi_signature(spec, interface))
