"""Typed observations: the facts a case records next to its outcome (``spec/observations.yaml``).

A check calls ``ctx.observe(name, value)`` (or ``key=`` for a keyed observation); the value is
checked against the rule's declaration in the catalog at once, so a check that records an
undeclared name or a value of the wrong type is a harness bug (an ERROR), never a silent
gap in the report. The same checks let ``verify`` judge the observations of a bundle.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping

from acl_hostmem_generated.catalog_types import ObservationEntry

from .violations import HarnessError

TEXT_LIMIT = 200

#: One observed value: a bool, an int (or aclError code), an enum member or a short text.
Scalar = bool | int | str
#: An observation as summary.json carries it: one value, a sorted list, or a mapping by key.
Observed = Scalar | list[Scalar] | dict[str, Scalar]


def scalar_problem(declared: ObservationEntry, value: object) -> str | None:
    """Why ``value`` is not one value of the declared type, or None when it is."""
    kind = declared.get("type")
    if kind == "bool":
        ok = isinstance(value, bool)
    elif kind in ("int", "code"):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif kind == "enum":
        ok = isinstance(value, str) and value in (declared.get("values") or ())
    elif kind == "text":
        ok = isinstance(value, str) and len(value) <= TEXT_LIMIT and "\n" not in value
    else:
        return f"unknown observation type {kind!r}"
    if ok:
        return None
    expected = f"one of {', '.join(declared.get('values') or ())}" if kind == "enum" else f"a {kind}"
    return f"{value!r} is not {expected}"


def value_problem(declared: ObservationEntry, value: object) -> str | None:
    """Why a recorded value (scalar, keyed mapping or list, as declared) is malformed, or None."""
    if declared.get("key"):
        if not isinstance(value, Mapping) or not value:
            return f"{value!r} is not a mapping of {declared['key']} to values"
        items: Iterable[object] = value.values()
    elif declared.get("many"):
        if not isinstance(value, list) or not value:
            return f"{value!r} is not a list of values"
        if value != sorted(set(value), key=_order):
            return f"{value!r} is not sorted and free of repeats"
        items = value
    else:
        items = [value]
    return next((problem for item in items if (problem := scalar_problem(declared, item))), None)


def _order(value: Scalar) -> tuple[str, Scalar]:
    return (type(value).__name__, value)


class ObservationLog:
    """The observations of one case, checked against its rule's declarations as they arrive."""

    def __init__(self, declared: Iterable[ObservationEntry] = ()) -> None:
        self.declared = {str(d["name"]): d for d in declared}
        self._values: dict[str, Scalar] = {}
        self._many: dict[str, set[Scalar]] = {}
        self._keyed: dict[str, dict[str, Scalar]] = {}
        self._lock = threading.Lock()

    def record(self, name: str, value: Scalar, key: object = None) -> None:
        """Record ``value`` under ``name`` (per ``key`` for a keyed observation); raises HarnessError."""
        declared = self.declared.get(name)
        if declared is None:
            known = ", ".join(sorted(self.declared)) or "none"
            raise HarnessError(f"observation {name!r} is not declared for this rule (declared: {known})")
        problem = scalar_problem(declared, value)
        if problem:
            raise HarnessError(f"observation {name!r}: {problem}")
        if (key is None) == bool(declared.get("key")):
            raise HarnessError(f"observation {name!r} is keyed by {declared['key']}" if declared.get("key")
                               else f"observation {name!r} takes no key")
        with self._lock:
            if declared.get("many"):
                self._many.setdefault(name, set()).add(value)
                return
            slot, where = (self._keyed.setdefault(name, {}), str(key)) if key is not None else (self._values, name)
            if where in slot and slot[where] != value:
                raise HarnessError(f"observation {name!r}{f' [{key}]' if key is not None else ''} recorded twice "
                                   f"with different values: {slot[where]!r} and {value!r}")
            slot[where] = value

    def to_json(self) -> dict[str, Observed]:
        """Name -> value, lists sorted, keyed mappings sorted by key; JSON-ready."""
        with self._lock:
            # A name is declared once, so it is in one of the three.
            out: dict[str, Observed] = {}
            out.update((name, sorted(values, key=_order)) for name, values in self._many.items())
            out.update((name, dict(sorted(values.items()))) for name, values in self._keyed.items())
            out.update(self._values)
            return dict(sorted(out.items()))
