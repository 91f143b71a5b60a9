"""A failing path as a Python replay script and a standalone C reproducer; shortening it further.

Both are rendered from the same :class:`Program` (the path's steps, each spelled in both
languages here; the templates in ``templates/`` only lay them out). The replay script uses
the generated bindings; the C reproducer includes only the generated header and links
against any ``libascendcl.so``. Both exit 1 when the backend answers as it did in the
finding and 0 when it follows the model.

:func:`minimise` drops steps (runs of them, then single ones) from a list while it
still fails: the explorer's actions (run again through the model), then the probes of the
resulting path (replayed in this process), so that a reproducer holds only what the
failure needs.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import SupportsInt, TypeVar

import jinja2

from acl_hostmem_generated.acl_bindings import AclLibrary
from acl_hostmem_generated.catalog_types import Catalog, ParamEntry
from acl_hostmem_generated.teardown import ACQUIRES, RELEASES, RESOURCES
from codegen import escape

from ...harness.context import remember_stuck
from ...harness.ledger import HANDLES, Ledger
from .calls import PAGE, CheckRecord, Step, Sym
from .driver import RELEASE_DELAY_S, WATCH_BOUND_S

TEMPLATES = Path(__file__).parent / "templates"

_T = TypeVar("_T")


@dataclass
class Line:
    """One step, spelled for both reproducers."""

    index: int
    step: Step
    py_args: list[str] = field(default_factory=list)
    c_args: list[str] = field(default_factory=list)
    binds: list[tuple[str, str]] = field(default_factory=list)
    checks: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The step as the path shows it."""
        return self.step.line()


@dataclass
class Program:
    """A path made ready for the templates."""

    rule: str
    problem: str
    header: str
    lines: list[Line]
    variables: list[tuple[str, str]]
    gates: int
    device: int
    fault_hint: str

    @property
    def calls(self) -> int:
        """How many ACL calls the program makes."""
        return sum(1 for line in self.lines if line.step.kind == "call")

    @property
    def devices(self) -> list[int]:
        """Every device the program runs on: a registration is released under the device it was made on."""
        chosen = {self.device}
        for line in self.lines:
            if line.step.kind == "call" and line.step.function == "aclrtSetDevice":
                chosen.update(sym.value for _, sym in line.step.args if sym.kind == "const")
        return sorted(chosen)

    @property
    def teardown(self) -> list[str]:
        """The replay's teardown calls (after ``lib.``): what the steps acquired, entered into a
        :class:`~conformance.harness.ledger.Ledger` by the expression naming it, given back in the
        spec's order (per device where the spec says: under every device the steps used).

        Within a kind the script gives back in the order its steps acquired: the minimiser replays
        trial after trial in one process, and the simulator hands freed blocks out again in the
        order they were freed, so this order decides the addresses the next trial gets.
        """
        ledger = Ledger()
        for line in self.lines:
            resource = ACQUIRES.get(line.step.function) if line.step.kind == "call" else None
            if resource is None:
                continue
            if RESOURCES[resource].handle == "first_argument":
                ledger.acquire(resource, line.py_args[0])
            else:
                for _name, var in line.binds:
                    ledger.acquire(resource, f"v.get({escape.py_literal(var)})")
        calls: list[str] = []
        for step, _kind in ledger.teardown():
            for call in ledger.calls(step, self.devices, ledger.held(step.resource, newest_first=False)):
                if call.device is not None:
                    calls.append(f"aclrtSetDevice({call.device}, raw=True)")
                calls.append(f"{step.call}({call.entry.handle}, raw=True)")
        return calls


def _params(catalog: Catalog, function: str) -> list[ParamEntry]:
    return catalog["interfaces"][function]["params"]


def _py(sym: Sym) -> str:
    if sym.kind == "const":
        return hex(sym.value) if sym.value > 0xFFFF else str(sym.value)
    if sym.kind == "null":
        return "None"
    if sym.kind == "addr":
        base = f"v[{sym.var!r}]" if sym.page is None else f"page(v[{sym.var!r}], {sym.page})"
        return f"{base} + {sym.value}" if sym.value else base
    if sym.kind == "cfg":
        return "config(" + ", ".join(repr(part) for part in sym.cfg) + ")"
    if sym.kind == "gate":
        return f"gate({sym.value})"
    return f"v[{sym.var!r}]"


def _c(sym: Sym, ctype: str) -> str:
    if sym.kind == "const":
        return hex(sym.value) if sym.value > 0xFFFF else str(sym.value)
    if sym.kind == "null":
        return "NULL"
    if sym.kind == "addr":
        base = f"(uintptr_t)v_{sym.var}" if sym.page is None else f"page_of(v_{sym.var}, {sym.page})"
        offset = f" + {sym.value}" if sym.value else ""
        return f"({ctype})({base}{offset})"
    if sym.kind == "cfg":
        kind, *values = sym.cfg
        attr, value = (values + [0, 0])[:2]
        shape = {"empty": 0, "attrs_null": 2, "attrs_null_empty": 3}.get(kind, 1) if isinstance(kind, str) else 1
        return f"make_config({shape}, {attr}, {value})"
    if sym.kind == "gate":
        return "gate_fn"
    return f"v_{sym.var}"


def _value_type(ctype: str) -> str:
    """The C type of a variable an output parameter of type ``ctype`` writes (one pointer less)."""
    return ctype[: ctype.rindex("*")].rstrip()


def _checks(record: CheckRecord, out: str, known: set[str]) -> tuple[str, str, str]:
    """(message, Python condition, C condition) of one judged check on output variable ``out``.

    A disjointness check compares with the live blocks the path still makes (``known``).
    """
    of_py, of_c = f"v[{out!r}]", f"v_{out}"
    name = record.name
    if name == "aligned_64":
        return "the pointer is not 64-byte aligned", f"{of_py} % 64 == 0", f"(uintptr_t){of_c} % 64 == 0"
    if name == "disjoint":
        live = [(var, length) for var, length in record.live if var in known]
        size = record.size
        py = f"disjoint({of_py}, {size}, [{', '.join(f'(v[{v!r}], {s})' for v, s in live)}])"
        ranges = ", ".join(f"(uintptr_t)v_{v}, {s}" for v, s in live)
        c = f"disjoint((uintptr_t){of_c}, {size}, {len(live)}, (uintptr_t[]){{{ranges or '0'}}})"
        return "the new block overlaps a live one", py, c
    if name == "device_pointer_non_null":
        return "the device address is NULL", f"{of_py} != 0", f"{of_c} != NULL"
    if name == "device_pointer_is_host":
        host = record.host
        if host is None:
            raise AttributeError(f"{name} records no host address")
        return ("the device address is not the host address", f"{of_py} == {_py(host)}",
                f"{of_c} == {_c(host, 'void *')}")
    if name in ("device_pointer_recorded", "capability_recorded"):
        other = record.equals
        return ("the answer differs from the one recorded before", f"{of_py} == v[{other!r}]",
                f"{of_c} == v_{other}")
    if name == "capability_member":
        values = record.values
        return ("the answer is not a member of aclrtHostMemMapCapability", f"{of_py} in {tuple(values)!r}",
                "(" + " || ".join(f"{of_c} == {v}" for v in values) + ")")
    if name in ("status_not_ready", "status_complete"):
        wanted = record.equals
        return f"the stream status is not {wanted}", f"{of_py} == {wanted}", f"{of_c} == {wanted}"
    if name == "returned_promptly":
        return "the call waited for the blocked streams", "not obs.fired", "!obs.fired"
    gates = record.gates
    py = f"all(g in obs.opened for g in {tuple(gates)!r})"
    c = "(" + " && ".join(f"obs.opened[{g}]" for g in gates) + ")" if gates else "1"
    return "the call returned before the streams it must wait for were released", py, c


def build_program(path: list[Step], *, rule: str, problem: str, header: str, device: int, faults: str,
                  catalog: Catalog) -> Program:
    """Spell every step of ``path`` for both reproducers (``catalog``: the loaded catalog.json, for parameter types)."""
    lines: list[Line] = []
    variables: dict[str, str] = {}
    gates = 0
    for index, step in enumerate(path):
        line = Line(index + 1, step)
        if step.kind == "map":
            variables[step.var] = "void *"
        elif step.kind == "open":
            gates = max(gates, step.gate)
        elif step.kind == "call":
            _spell_call(catalog, line, variables, set(variables))
            gates = max([gates, *step.release, *step.watch]
                        + [sym.value for _, sym in step.args if sym.kind == "gate"])
        lines.append(line)
    hint = f"ACLSIM_FAULTS={faults} " if faults else ""
    return Program(rule, problem, header, lines, sorted(variables.items()), gates, device, hint)


def _spell_call(catalog: Catalog, line: Line, variables: dict[str, str], known: set[str]) -> None:
    step = line.step
    symbols = dict(step.args)
    bound = dict(step.binds)
    for param in _params(catalog, step.function):
        name, ctype = param["name"], param["type"]
        sym = symbols.get(name)
        if param["direction"] == "out":
            var = bound.get(name)
            if sym is not None and sym.kind == "null":
                line.py_args.append(f"{name}=None")
                line.c_args.append("NULL")
            elif var:
                variables[var] = _value_type(ctype)
                line.binds.append((name, var))
                line.c_args.append(f"&v_{var}")
            else:
                scratch = f"scratch_{name}"
                variables[scratch] = _value_type(ctype)
                line.c_args.append(f"&v_{scratch}")
            continue
        if sym is None:
            raise ValueError(f"step {line.index}: {step.function} lacks a value for {name}")
        line.py_args.append(_py(sym))
        if step.function == "aclrtLaunchHostFunc" and name == "args":
            gate = next(s.value for s in symbols.values() if s.kind == "gate")
            line.c_args.append(f"&gates[{gate}]")
        else:
            line.c_args.append(_c(sym, ctype))
    out = line.binds[0][1] if line.binds else ""
    line.checks = [_checks(record, out, known) for record in step.checks]


@functools.cache  # one per process: the environment keeps each template compiled (25 ms a template)
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), undefined=jinja2.StrictUndefined,
                             autoescape=False, keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    # Text reaches the reproducers only through the project's escapers for its destination.
    env.filters["c_string"] = escape.c_string
    env.filters["c_comment"] = escape.c_comment
    env.filters["docstring"] = escape.py_docstring
    env.filters["py_comment"] = lambda text: " ".join(str(text).split())  # a comment ends only at a line break
    env.filters["py"] = escape.py_literal
    env.filters["tuple"] = lambda items: repr(tuple(items))
    return env


def _c_list(items: tuple[int, ...]) -> str:
    """A C array literal of gate numbers, or NULL for none."""
    return "(const int[]){" + ", ".join(str(i) for i in items) + "}" if items else "NULL"


def render(program: Program) -> dict[str, str]:
    """The replay script and the C reproducer of a program, by file name."""
    env = _environment()
    context = {"p": program, "release_delay": RELEASE_DELAY_S, "watch_bound": WATCH_BOUND_S, "page": PAGE,
               "c_list": _c_list}
    return {"replay.py": env.get_template("replay.py.j2").render(context),
            "repro.c": env.get_template("repro.c.j2").render(context)}


class _RegistrationWatch:
    """``lib`` as a replay script sees it, keeping a ledger of the registrations it made and removed: the
    script cleans up quietly, so one that no device would remove must be remembered by the harness."""

    def __init__(self, lib: AclLibrary) -> None:
        self._lib = lib
        self.ledger = Ledger()

    @property
    def made(self) -> dict[int, int]:
        """Base -> size of what the script acquired of a kind that can outlive it, and did not give back."""
        return {e.handle: 1 if e.size is None else e.size for kind in _WATCHED
                for e in reversed(self.ledger.held(kind)) if isinstance(e.handle, int)}

    def __getattr__(self, name: str) -> Callable[..., object]:
        fn: Callable[..., object] = getattr(self._lib, name)
        if ACQUIRES.get(name, RELEASES.get(name)) not in _WATCHED:
            return fn

        def watched(*args: object, **kwargs: object) -> object:
            result = fn(*args, **kwargs)
            code = result[0] if isinstance(result, tuple) else result
            ptr = args[0] if args else kwargs.get("ptr")
            if code == 0 and isinstance(ptr, int):
                size: int | None = None
                if name in ACQUIRES:
                    asked = args[1] if len(args) > 1 else kwargs.get("size", 1)
                    if not isinstance(asked, SupportsInt):
                        raise TypeError("int() argument must be a string, a bytes-like object or a real number, "
                                        f"not '{type(asked).__name__}'")
                    size = int(asked)
                self.ledger.note(name, ptr, ok=True, size=size)
            return result

        return watched


#: The kinds a replay must account for after the script: those a refused release leaves held for good.
_WATCHED = frozenset(name for name, kind in HANDLES.items() if kind.leaks_if_refused)


def replay(script: str, lib: AclLibrary, device: int, host_page: int = PAGE) -> tuple[int, str] | None:
    """Run a rendered replay script's ``replay`` against ``lib`` in this process; (step, problem) or None.

    A registration the script made and could not remove is remembered as stuck (see
    :func:`conformance.harness.context.remember_stuck`), so that it does not count against later cases.
    """
    scope: dict[str, object] = {"__name__": "explorer_replay"}
    exec(compile(script, "replay.py", "exec"), scope)  # noqa: S102 - our own rendering of the path
    watch = _RegistrationWatch(lib)
    try:
        run = scope["replay"]
        if not callable(run):
            raise TypeError(f"'{type(run).__name__}' object is not callable")
        outcome: tuple[int, str] | None = run(watch, device)
        return outcome
    finally:
        for base, size in watch.made.items():
            remember_stuck(base, size, host_page)


def usable(path: list[Step]) -> bool:
    """Whether every variable and gate a step uses is made by an earlier step."""
    known: set[str] = set()
    gates: set[int] = set()
    for step in path:
        if step.kind in ("mark", "markers") and step.var not in known:
            return False
        if step.kind == "open" and step.gate not in gates:
            return False
        if step.kind == "map":
            known.add(step.var)
        for _, sym in step.args:
            if sym.kind in ("addr", "var") and sym.var not in known:
                return False
        for record in step.checks:
            other = record.equals
            host = record.host
            if (isinstance(other, str) and other not in known) or (host is not None and host.var not in known):
                return False
            if sym.kind == "gate":
                gates.add(sym.value)
        if any(g not in gates for g in (*step.release, *step.watch)):
            return False
        known.update(var for _, var in step.binds)
    return True


def minimise(items: list[_T], still_fails: Callable[[list[_T]], bool],
             removable: Callable[[_T], bool] = lambda item: True, seconds: float = float("inf")) -> list[_T]:
    """Delta debugging: drop ever smaller runs of removable items while the list still fails.

    The last item (the one that fails) always stays; given the time, the result has no
    single removable item whose removal keeps it failing. After ``seconds`` the shortest
    list found so far is returned.
    """
    *prefix, last = items
    parts = 2
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        candidates = [i for i, item in enumerate(prefix) if removable(item)]
        if not candidates:
            break
        size = -(-len(candidates) // parts)
        for start in range(0, len(candidates), size):
            dropped = set(candidates[start:start + size])
            trial = [item for i, item in enumerate(prefix) if i not in dropped]
            if still_fails([*trial, last]):
                prefix = trial
                parts = max(parts - 1, 2)
                break
        else:
            if size == 1:
                break
            parts = min(parts * 2, len(candidates))
    return [*prefix, last]


def prunable(path: list[Step]) -> Callable[[Step], bool]:
    """Steps a reproducer can lose without changing what the others mean: probes, and unchecked markers."""
    checked = {step.var for step in path if step.kind == "markers"}
    return lambda step: (step.kind == "call" and step.probe) or (step.kind == "mark" and step.var not in checked)
