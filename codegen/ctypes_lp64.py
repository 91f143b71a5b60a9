"""What the spec's C types mean on LP64: value ranges of integers, sizes and alignments.

Lint uses these to refuse numbers a C parameter cannot hold (cffi would raise at run time)
and struct layouts the ABI check would refute at compile time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .model import CType

POINTER = (8, 8)
ENUM = (4, 4)
INT32 = (-(2**31), 2**31 - 1)

#: (size, alignment) of the built-in scalar types; ``void`` has none.
SCALARS: dict[str, tuple[int, int]] = {
    "char": (1, 1),
    "int": (4, 4),
    "int32_t": (4, 4),
    "uint8_t": (1, 1),
    "uint16_t": (2, 2),
    "uint32_t": (4, 4),
    "uint64_t": (8, 8),
    "size_t": (8, 8),
    "uintptr_t": (8, 8),
}
_SIGNED = frozenset({"char", "int", "int32_t"})


@dataclass(frozen=True)
class TypeTable:
    """The named types of ``types.yaml``: typedefs, callbacks, enums and structs (raw spec data)."""

    typedefs: Mapping[str, str]
    callbacks: frozenset[str]
    enums: frozenset[str]
    structs: Mapping[str, Mapping[str, Any]]

    @classmethod
    def from_types(cls, types: Mapping[str, Any]) -> TypeTable:
        """Build the table from the data of ``types.yaml``."""
        return cls(
            typedefs={t["name"]: t["type"] for t in types["typedefs"]},
            callbacks=frozenset(c["name"] for c in types["callbacks"]),
            enums=frozenset(e["name"] for e in types["enums"]),
            structs={s["name"]: s for s in types["structs"]},
        )

    def resolve(self, text: str) -> CType:
        """The type with typedefs followed to a base that is built in, an enum, a struct or a callback."""
        ctype = CType.parse(text)
        seen: set[str] = set()
        while ctype.base in self.typedefs and ctype.base not in seen:
            seen.add(ctype.base)
            inner = CType.parse(self.typedefs[ctype.base])
            ctype = CType(inner.base, inner.pointers + ctype.pointers, ctype.const or inner.const)
        return ctype

    def int_range(self, text: str) -> tuple[int, int] | None:
        """The values a parameter of this type can take from Python, or None when it is not a number."""
        ctype = self.resolve(text)
        if ctype.pointers or ctype.base in self.callbacks:
            return (0, 2**64 - 1)  # an address
        if ctype.base in self.enums:
            return INT32
        if ctype.base in SCALARS:
            bits = SCALARS[ctype.base][0] * 8
            return (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if ctype.base in _SIGNED else (0, 2**bits - 1)
        return None

    def is_pointer(self, text: str) -> bool:
        """Whether the type is a pointer or a pointer-like handle."""
        ctype = self.resolve(text)
        return bool(ctype.pointers) or ctype.base in self.callbacks

    def size_align(self, text: str, computing: frozenset[str] = frozenset()) -> tuple[int, int] | None:
        """LP64 (size, alignment) of a type; None for ``void`` or a struct that contains itself."""
        ctype = self.resolve(text)
        if ctype.pointers or ctype.base in self.callbacks:
            return POINTER
        if ctype.base in self.enums:
            return ENUM
        if ctype.base in SCALARS:
            return SCALARS[ctype.base]
        struct = self.structs.get(ctype.base)
        if struct is None or ctype.base in computing:
            return None
        layout = self.layout(struct, computing | {ctype.base})
        return (layout.size, layout.align) if layout else None

    def layout(self, struct: Mapping[str, Any], computing: frozenset[str] = frozenset()) -> Layout | None:
        """The LP64 layout a C compiler gives ``struct`` (a struct or union of ``types.yaml``)."""
        offsets: list[int] = []
        end = 0
        align = 1
        for member in struct["members"]:
            facts = self.size_align(member["type"], computing | {struct["name"]})
            if facts is None:
                return None
            size, member_align = facts
            size *= member.get("array") or 1
            offset = 0 if struct["kind"] == "union" else -(-end // member_align) * member_align
            offsets.append(offset)
            end = max(end, offset + size) if struct["kind"] == "union" else offset + size
            align = max(align, member_align)
        return Layout(tuple(offsets), -(-end // align) * align, align)


@dataclass(frozen=True)
class Layout:
    """Member offsets, total size and alignment of a struct or union."""

    offsets: tuple[int, ...]
    size: int
    align: int
