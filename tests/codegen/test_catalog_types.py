"""The generated catalog_types.py describes catalog.json exactly: every key, every value type.

The kit reads the catalog through those TypedDicts, so a writer that adds, drops or retypes a
field without the template following would let the type checker vouch for a shape the
catalog does not have. This walks the real catalog against the declared types.
"""

from __future__ import annotations

import json
import types
import typing
from pathlib import Path
from typing import Any, Literal, Union

import pytest

from acl_hostmem_generated import catalog_types

ROOT = Path(__file__).resolve().parents[2]


class _ReadOnly:
    """Stands in for typing_extensions.ReadOnly: only the type checker needs the qualifier."""

    def __class_getitem__(cls, item: Any) -> Any:
        return item


def _hints(typed: Any) -> dict[str, Any]:
    names = {"ReadOnly": _ReadOnly, **vars(catalog_types)}
    return typing.get_type_hints(typed, globalns=names, localns=names)


def problems(value: Any, declared: Any, where: str) -> list[str]:
    """Where ``value`` does not have the ``declared`` type, one line each."""
    if declared is Any:
        return []
    origin = typing.get_origin(declared)
    if origin is Literal:
        return [] if value in typing.get_args(declared) else [f"{where}: {value!r} not in {typing.get_args(declared)}"]
    if origin in (Union, types.UnionType):
        options = typing.get_args(declared)
        if any(not problems(value, option, where) for option in options):
            return []
        return [f"{where}: {value!r} is none of {options}"]
    if typing.is_typeddict(declared):
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__}, not an object"]
        hints = _hints(declared)
        found = [f"{where}: keys {sorted(set(value) ^ set(hints))} differ"] if set(value) != set(hints) else []
        shared = hints.keys() & value.keys()
        return found + [p for key in shared for p in problems(value[key], hints[key], f"{where}.{key}")]
    if origin is list:
        (item,) = typing.get_args(declared)
        if not isinstance(value, list):
            return [f"{where}: not a list"]
        return [p for i, v in enumerate(value) for p in problems(v, item, f"{where}[{i}]")]
    if origin is dict:
        key_type, item = typing.get_args(declared)
        if not isinstance(value, dict):
            return [f"{where}: not an object"]
        return [p for k, v in value.items() for p in problems(k, key_type, where) + problems(v, item, f"{where}.{k}")]
    if declared is type(None):
        return [] if value is None else [f"{where}: {value!r} is not null"]
    if declared is int and isinstance(value, bool):
        return [f"{where}: a boolean where an integer belongs"]
    return [] if isinstance(value, declared) else [f"{where}: {type(value).__name__}, not {declared.__name__}"]


def test_the_catalog_has_exactly_the_declared_shape():
    catalog = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text())
    assert problems(catalog, catalog_types.Catalog, "catalog") == []


@pytest.mark.parametrize(("change", "expected"), [
    (lambda c: c["rules"][0].update(family="no_such_family"), "catalog.rules[0].family"),
    (lambda c: c["rules"][0]["cases"][0].update(extra=1), "catalog.rules[0].cases[0]: keys ['extra'] differ"),
    (lambda c: c["families"][0].update(va_flag="yes"), "catalog.families[0].va_flag"),
    (lambda c: c["faults"][0].pop("legal"), "catalog.faults[0]: keys ['legal'] differ"),
])
def test_a_catalog_off_its_declared_shape_is_caught(change, expected):
    """The walk itself can fail: each kind of drift is named with where it is."""
    catalog = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text())
    change(catalog)
    found = problems(catalog, catalog_types.Catalog, "catalog")
    assert any(p.startswith(expected) for p in found), found
