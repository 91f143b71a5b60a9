"""Checks that the simulator's fault points are where spec/faults.yaml says they are.

A fault point (``points:`` in spec/faults.yaml) is a named place in the simulator's flow where
faults act. Its ``kind`` says how:

- ``point``: the faithful model calls ``FAULT_POINT(NAME, &site)`` in the site function, and the
  handler ``sim_point_<name>`` in ``sim/faults/*.c`` switches the faults;
- ``hook``: an answer rewrite in the site function of ``sim/hooks.c``, around the model's call;
- ``setting``: a legal variant that is the alias of a configuration setting; its site, a loader of
  the configuration in ``sim/init.c``, reads it once at aclInit.

No fault is switched inline in the faithful model: every switch outside ``sim/hooks.c`` and the
configuration is a ``FAULT_POINT`` whose handler lives in ``sim/faults/``.

The checks read the C sources with a small scanner (comments blanked as the header parser does,
function bodies found by brace matching): the simulator's sources are written in one plain style, which this
relies on and the checks enforce by failing loudly when a declared function is not found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .cheader import blank_comments
from .model import FaultPoint, Spec

_FAULT_REF = re.compile(r"\bACLSIM_FAULT_([A-Z0-9_]+)\b")
_POINT_CALL = re.compile(r"\bFAULT_POINT\s*\(\s*([A-Z0-9_]+)\s*,")
_DEFINITION = re.compile(r"^[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\(", re.MULTILINE)
_SETTINGS_FILE = "sim/init.c"  # where a `setting` point's site, a configuration loader, lives
_KEYWORDS = frozenset({"if", "for", "while", "switch", "return", "sizeof", "do", "else"})


def _matching(text: str, start: int, opening: str, closing: str) -> int:
    """The index just past the bracket that closes the one at ``start``, or -1."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == opening:
            depth += 1
        elif text[i] == closing:
            depth -= 1
            if depth == 0:
                return i + 1
    return -1


def c_functions(text: str) -> dict[str, str]:
    """The bodies of the functions defined in a C file (blanked of comments), by name."""
    code, _ = blank_comments(text)
    bodies: dict[str, str] = {}
    for match in _DEFINITION.finditer(code):
        name = match.group(1)
        if name in _KEYWORDS:
            continue
        params_end = _matching(code, match.end() - 1, "(", ")")
        if params_end < 0:
            continue
        rest = code[params_end:].lstrip()
        if not rest.startswith("{"):
            continue
        open_at = len(code) - len(rest)
        close_at = _matching(code, open_at, "{", "}")
        if close_at > 0:
            bodies.setdefault(name, code[open_at:close_at])
    return bodies


def faults_referenced(body: str) -> set[str]:
    """The fault names (lower case) whose ACLSIM_FAULT_ enumerators a body uses."""
    return {m.lower() for m in _FAULT_REF.findall(body) if m != "COUNT"}


@dataclass(frozen=True)
class SimSources:
    """The function bodies of every C file of the simulator, by path relative to the repository."""

    functions: dict[str, dict[str, str]]

    @classmethod
    def read(cls, sim_dir: Path) -> SimSources:
        """Scans ``sim_dir`` and its ``faults/`` folder."""
        root = sim_dir.parent
        files = sorted([*sim_dir.glob("*.c"), *sim_dir.glob("faults/*.c")])
        return cls({f.relative_to(root).as_posix(): c_functions(f.read_text(encoding="utf-8")) for f in files})

    def handler(self, point: FaultPoint) -> tuple[str, str] | None:
        """The file and body of a FAULT_POINT point's handler in sim/faults/, if defined."""
        for path, funcs in self.functions.items():
            if "/faults/" in path and point.handler in funcs:
                return path, funcs[point.handler]
        return None


def check_fault_points(spec: Spec, sim_dir: Path) -> list[str]:
    """Problems with the declared fault points in the simulator's sources (empty: none).

    Every point is found at its site; a FAULT_POINT point is called there and handled in
    sim/faults/; the faults each point's code switches are exactly those that declare it; every
    FAULT_POINT call names a declared point at its site; and no fault is switched outside a point.
    """
    sources = SimSources.read(sim_dir)
    declared: dict[str, set[str]] = {p.name: set() for p in spec.fault_points}
    for fault in spec.faults:
        for name in fault.points:
            declared.setdefault(name, set()).add(fault.name)
    problems: list[str] = []
    acting: set[tuple[str, str]] = set()  # (file, function) where faults may be switched
    by_enum = {p.enum_suffix: p for p in spec.fault_points if p.kind == "point"}
    for point in spec.fault_points:
        where = f"fault point {point.name}"
        bodies: list[str] = []
        for site in point.sites:
            path, _, func = site.partition(":")
            body = sources.functions.get(path, {}).get(func)
            if body is None:
                problems.append(f"{where}: site {site}: {path} defines no function {func}"
                                if path in sources.functions else f"{where}: site {site}: no such simulator file")
                continue
            if point.kind == "hook" and path != "sim/hooks.c":
                problems.append(f"{where}: site {site}: a hook point is a call's wrapper in sim/hooks.c")
            if point.kind == "setting" and path != _SETTINGS_FILE:
                problems.append(f"{where}: site {site}: a setting is read into the configuration in {_SETTINGS_FILE}; "
                                f"a fault that acts in the model needs a point of kind point")
            if point.kind == "point" and point.enum_suffix not in _POINT_CALL.findall(body):
                problems.append(f"{where}: site {site}: {func} does not call FAULT_POINT({point.enum_suffix}, ...)")
            if point.kind != "point":
                acting.add((path, func))
                bodies.append(body)
        if point.kind == "point":
            found = sources.handler(point)
            if found is None:
                problems.append(f"{where}: no handler {point.handler} in sim/faults/")
                continue
            acting.add((found[0], point.handler))
            bodies = [found[1]]
        if not bodies:
            continue
        switched = set().union(*(faults_referenced(b) for b in bodies))
        for name in sorted(switched - declared[point.name]):
            problems.append(f"{where}: switches fault {name}, which does not declare the point (add it to the "
                            f"fault's points: in spec/faults.yaml)")
        for name in sorted(declared[point.name] - switched):
            problems.append(f"{where}: fault {name} declares the point, but its code there never switches it")
    for path, funcs in sorted(sources.functions.items()):
        for func, body in sorted(funcs.items()):
            for enum in _POINT_CALL.findall(body):
                called = by_enum.get(enum)
                if called is None:
                    problems.append(f"{path}:{func}: FAULT_POINT({enum}, ...) names no declared fault point")
                elif f"{path}:{func}" not in called.sites:
                    problems.append(f"{path}:{func}: FAULT_POINT({enum}, ...) outside the point's declared sites "
                                    f"({', '.join(called.sites)})")
            if (path, func) not in acting:
                for name in sorted(faults_referenced(body)):
                    problems.append(f"{path}:{func}: switches fault {name} outside any declared fault point")
    return problems
