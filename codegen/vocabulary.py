"""The closed vocabularies the typed catalog (``catalog_types.py`` of the generated package) spells.

The generated module describes ``catalog.json`` as read-only TypedDicts, so the kit's stages
read the catalog with checked keys and value types while the catalog itself stays one JSON
document (the wheel, the fleet and reports from elsewhere read the same file). Each literal
set below is taken from where the generator already defines it, never restated.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .evidence import KINDS, SEVERITY_CAP, SEVERITY_RANK
from .model import RULE_FAMILY_DOCS, Spec

SCHEMA_DIR = Path(__file__).parent / "schema"


def _schema_enum(kind: str, *path: str) -> tuple[str, ...]:
    """The ``enum`` at ``path`` of the spec schema ``kind`` (the dialect's own word on the set)."""
    node: Any = yaml.safe_load((SCHEMA_DIR / f"{kind}.yaml").read_text(encoding="utf-8"))
    for key in path:
        node = node[key]
    return tuple(str(v) for v in node["enum"])


def vocabulary(spec: Spec) -> dict[str, tuple[str, ...]]:
    """The catalog's closed vocabularies for ``spec``, by the name the template gives each, in defining order."""
    interface = ("properties", "interfaces", "items", "properties")
    return {
        "rule_families": tuple(RULE_FAMILY_DOCS),
        "product_families": tuple(f.id for f in spec.families),
        "severities": tuple(sorted(SEVERITY_RANK, key=SEVERITY_RANK.__getitem__, reverse=True)),
        "provenances": tuple(SEVERITY_CAP),
        "citation_kinds": KINDS,
        "stances": _schema_enum("common", "$defs", "citation", "properties", "stance"),
        "directions": _schema_enum("interfaces", *interface, "params", "items", "properties", "direction"),
        "implicit_syncs": _schema_enum("interfaces", *interface, "implicit_sync"),
    }
