"""The check procedures rules name, read from ``<checks>/<family>.py`` without importing it.

A generated case runs the procedure ``<family>:<check>`` with ``expect=...`` and its matrix
values as keyword arguments. Lint checks that the function exists in the family's module and
takes exactly those; reading the source with :mod:`ast` answers that without running anything.
The directory is the caller's to name (``--checks``; ``make lint`` passes the kit's
``conformance/checks``): the generator does not know where the kit keeps its procedures.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path


@dataclass(frozen=True)
class CheckSignature:
    """One public top-level function of a check module."""

    name: str
    positional: tuple[str, ...]
    keyword_only: frozenset[str]
    has_var_keyword: bool
    line: int


@cache
def check_functions(family: str, checks_dir: Path) -> dict[str, CheckSignature] | None:
    """Public functions defined in ``<checks_dir>/<family>.py``, or None when the module is absent."""
    path = checks_dir / f"{family}.py"
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (OSError, SyntaxError, ValueError):
        return None
    found = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            args = node.args
            found[node.name] = CheckSignature(
                node.name,
                tuple(a.arg for a in [*args.posonlyargs, *args.args]),
                frozenset(a.arg for a in args.kwonlyargs),
                args.kwarg is not None,
                node.lineno,
            )
    return found


def signature_problem(signature: CheckSignature, wanted: set[str]) -> str | None:
    """Why ``signature`` cannot take a context plus exactly the keyword arguments ``wanted``, or None."""
    if len(signature.positional) != 1 or signature.has_var_keyword:
        return f"{signature.name} must take the context positionally and everything else by keyword only"
    missing = sorted(wanted - signature.keyword_only)
    extra = sorted(signature.keyword_only - wanted)
    if not missing and not extra:
        return None
    parts = []
    if missing:
        parts.append(f"does not accept {', '.join(missing)}")
    if extra:
        parts.append(f"also requires {', '.join(extra)}, which the cases do not pass")
    return f"{signature.name} " + " and ".join(parts)


def _parameters(node: ast.FunctionDef) -> set[str]:
    args = node.args
    return {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}


def _observed_in(node: ast.FunctionDef) -> tuple[set[str], set[str]]:
    """Names a function body records whatever its arguments (``<ctx>.observe("name", ...)`` with a literal
    name, outside any ``if`` that tests a parameter: a branch the matrix decides may never run for a rule),
    and the names of the module's functions it calls."""
    params = _parameters(node)
    observed: set[str] = set()
    calls: set[str] = set()
    todo: list[ast.AST] = list(node.body)
    while todo:
        sub = todo.pop()
        if isinstance(sub, ast.If) and any(isinstance(n, ast.Name) and n.id in params for n in ast.walk(sub.test)):
            continue
        if isinstance(sub, ast.Call):
            func = sub.func
            first = sub.args[0] if sub.args else None
            if isinstance(func, ast.Attribute) and func.attr == "observe" and isinstance(first, ast.Constant) \
                    and isinstance(first.value, str):
                observed.add(first.value)
            elif isinstance(func, ast.Name):
                calls.add(func.id)
        todo.extend(ast.iter_child_nodes(sub))
    return observed, calls


@cache
def observed_names(family: str, checks_dir: Path) -> dict[str, frozenset[str]]:
    """For each public function of ``<checks_dir>/<family>.py``, the observation names it records, itself or
    through the functions of its own module it calls (a helper of another module is not followed)."""
    path = checks_dir / f"{family}.py"
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (OSError, SyntaxError, ValueError):
        return {}
    direct = {node.name: _observed_in(node) for node in tree.body if isinstance(node, ast.FunctionDef)}
    found = {}
    for name in direct:
        if name.startswith("_"):
            continue
        seen, todo, names = {name}, [name], set()
        while todo:
            observed, calls = direct[todo.pop()]
            names |= observed
            for callee in calls & direct.keys() - seen:
                seen.add(callee)
                todo.append(callee)
        found[name] = frozenset(names)
    return found
