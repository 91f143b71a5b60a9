"""The explorer's path: every action of an example, in a form that can be replayed anywhere.

Arguments are kept *symbolically* (``page 1 of h3``, ``NULL``, ``the stream s0``) next to
their concrete values, so that a failing path can become a Python replay script and a C
reproducer that recompute every address in their own process.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from acl_hostmem_generated.acl_bindings import CData, MallocConfig

PAGE = 4096

#: A wrapper argument: an integer (a size, a flag, a device, an address), a cffi handle or
#: configuration pointer, or None for NULL.
Arg = int | CData | None
#: What a call answered through its one output: an integer (an address, a status, a capability),
#: a handle (a stream), or None for a call without one.
Output = int | CData | None


def integer(value: object, what: str) -> int:
    """``value`` where only an integer makes sense (an address, a flag, a device): a TypeError for anything else,
    as the arithmetic or lookup it feeds would raise."""
    if isinstance(value, int):
        return value
    raise TypeError(f"{what} is {value!r}, not an integer")


@dataclass(frozen=True)
class Sym:
    """A symbolic argument.

    ``const`` an integer; ``null`` NULL; ``out`` an output the call writes (bound to a
    variable by the call); ``addr`` an address: ``var + offset``, or with ``page`` set
    ``align_up(var, 4096) + page * 4096 + offset``; ``var`` a handle held in a variable;
    ``cfg`` an aclrtMallocConfig (``cfg`` holds its kind and attributes); ``gate`` the
    blocking host callback with gate number ``value``.
    """

    kind: str
    value: int = 0
    var: str = ""
    page: int | None = None
    cfg: tuple[str | int, ...] = ()

    def __str__(self) -> str:
        if self.kind == "const":
            return hex(self.value) if self.value > 0xFFFF else str(self.value)
        if self.kind == "null":
            return "NULL"
        if self.kind == "out":
            return "&out"
        if self.kind == "addr":
            base = self.var if self.page is None else f"page({self.var},{self.page})"
            return f"{base}+{self.offset_text}" if self.value else base
        if self.kind == "cfg":
            return "cfg(" + ",".join(str(part) for part in self.cfg) + ")"
        if self.kind == "gate":
            return f"gate{self.value}"
        return self.var

    @property
    def offset_text(self) -> str:
        """The offset as the reproducers spell it."""
        return str(self.value)


def const(value: int) -> Sym:
    """An integer argument."""
    return Sym("const", value)


NULL = Sym("null")
OUTPUT = Sym("out")


def addr(var: str, offset: int = 0, page: int | None = None) -> Sym:
    """An address relative to a variable (see :class:`Sym`)."""
    return Sym("addr", offset, var, page)


def handle(var: str) -> Sym:
    """A handle held in a variable (a stream, a device buffer)."""
    return Sym("var", var=var)


@dataclass(frozen=True)
class CheckRecord:
    """A judged property of a call's outputs, with what the reproducers need to judge it again.

    ``of`` is the output variable judged; the other operands are those the check's kind needs:
    ``size`` and the ``live`` blocks (variable, size) of a disjointness check, the ``host``
    address a device address must equal, the variable or status a result ``equals``, the
    ``values`` an answer must be one of, the ``gates`` a call must (not) have waited for.
    """

    name: str
    of: str = ""
    size: int | None = None
    live: tuple[tuple[str, int], ...] = ()
    host: Sym | None = None
    equals: str | int | None = None
    values: tuple[int, ...] = ()
    gates: tuple[int, ...] = ()


@dataclass
class Step:
    """One action of a path: an ACL call, or something the explorer does itself.

    ``kind`` is ``call`` (an ACL call on ``thread`` 0 or 1), ``map`` (make a pageable
    mapping ``var`` of ``pages`` pages), ``open`` (open gate ``gate``), ``mark`` (write the
    markers of allocation ``var``) or ``markers`` (check them).
    """

    kind: str
    function: str = ""
    thread: int = 0
    args: tuple[tuple[str, Sym], ...] = ()
    binds: tuple[tuple[str, str], ...] = ()
    expect: str = "any"
    code: int | None = None
    checks: tuple[CheckRecord, ...] = ()
    release: tuple[int, ...] = ()
    watch: tuple[int, ...] = ()
    var: str = ""
    size: int = 0
    marker: int = 0
    gate: int = 0
    probe: bool = False
    result: str = ""
    note: str = ""
    extra: dict[str, list[int]] = field(default_factory=dict)

    def line(self) -> str:
        """The step as one readable line of the path."""
        if self.kind != "call":
            what = {"map": f"map {self.var} ({self.size} bytes of pageable memory)",
                    "open": f"open gate{self.gate}",
                    "mark": f"write the markers of {self.var}",
                    "markers": f"check the markers of {self.var}"}[self.kind]
            return f"[explorer] {what}"
        args = ", ".join(f"{name}={sym}" for name, sym in self.args)
        binds = "".join(f" {out}->{var}" for out, var in self.binds)
        want = self.expect if self.code is None else f"{self.expect} {self.code}"
        thread = "" if self.thread == 0 else "[thread 2] "
        got = f" got {self.result}" if self.result else ""
        return f"{thread}{self.function}({args}){binds}  expect {want}{got}"


@dataclass
class Request:
    """One call the explorer is about to make, with what the state model's facts look at.

    ``values`` are the wrapper's arguments (an output it allocates is left out, ``None``
    is NULL), ``symbols`` their symbolic form, ``tags`` mark invalid arguments built from
    an error condition (``("offset", 64)``, ``("config", "attrs_null")``). ``pointer`` and
    ``size`` are the address and length the call acts on; ``bind`` names the variable its
    output is bound to; ``stream``, ``gate`` and ``reads`` name the stream, the blocking
    callback and the allocation a queued copy reads; ``released`` the gates opened
    while the call ran (set once it returned).
    """

    interface: str
    thread: int = 0
    values: dict[str, Arg] = field(default_factory=dict)
    symbols: dict[str, Sym] = field(default_factory=dict)
    tags: dict[str, tuple[str, str | int]] = field(default_factory=dict)
    pointer: int = 0
    size: int = 0
    bind: str = ""
    cfg_kind: str | None = None
    stream: str | None = None
    gate: int | None = None
    reads: str | None = None
    keep: MallocConfig | None = None
    released: tuple[int, ...] = ()

    @property
    def interface_origin(self) -> str:
        """Which allocation call made memory: ``malloc`` or ``malloc_cfg``."""
        return "malloc_cfg" if self.interface == "aclrtMallocHostWithCfg" else "malloc"
