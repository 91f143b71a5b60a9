# Generated from spec 5d3dcfc70eb619e5 by codegen; do not edit. Regenerate: python -m codegen generate
# Copied from codegen/runtime/acl_runtime.py.
"""The spec-independent half of the bindings: the cffi handle, argument conversion, outputs, configs.

Written by hand and shipped beside the generated ``acl_bindings`` (the generator copies it into
the generated package, so that the package stands alone and ``codegen check`` sees a stale
copy). Nothing here depends on the spec: what does (the constants, the error table, one wrapper
per function, the output cells) stays in the template.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any, Final, TypeAlias

from cffi import FFI

# The declarations have one home, acl_hostmem.cdef beside this module (generated from the
# spec); no prose from the spec is embedded in a source file.
CDEF = resources.files(__package__).joinpath("acl_hostmem.cdef").read_text(encoding="utf-8")

ffi = FFI()
ffi.cdef(CDEF)

#: A cdata object (a handle, a buffer, a pointer) as cffi hands it out: the class of every one,
#: which cffi gives its FFI objects (``ffi.CData``) and the stubs the FFI class.
if TYPE_CHECKING:
    CData: TypeAlias = FFI.CData
else:
    CData = ffi.CData

#: What a wrapper reports to its hook: the function, its arguments as given, what the C call returned.
TraceHook = Callable[[str, dict[str, object], object], None]


class Out(enum.Enum):
    """Marker for an output parameter the wrapper allocates itself (one member, :data:`OUT`)."""

    OUT = "OUT"

    def __repr__(self) -> str:
        return "OUT"

    __str__ = __repr__


OUT: Final = Out.OUT


def address(value: CData | int | None) -> int:
    """The integer address of a pointer (cdata or int); 0 for NULL."""
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    return int(ffi.cast("uintptr_t", value))


def pointer_arg(value: CData | int | None, ctype: str) -> CData:
    """An input pointer: None is NULL, an int is cast to ``ctype``, cdata passes as it is."""
    if value is None:
        return ffi.NULL
    if isinstance(value, int):
        return ffi.cast(ctype, value)
    return value


def address_arg(value: CData | int | None) -> int:
    """An input address for a wrapper's integer view: NULL is 0, cdata is converted, an int wraps to 64 bits."""
    if value is None:
        return 0
    if isinstance(value, int):
        return int(value) & 0xFFFFFFFFFFFFFFFF
    return int(ffi.cast("uintptr_t", value))


def cell_arg(value: CData | int | None, ctype: str) -> CData:
    """An output pointer the caller supplies instead of OUT: None is NULL, an int or cdata is cast."""
    if value is None:
        return ffi.NULL
    return ffi.cast(ctype, value)


def cstr_arg(value: str | bytes | CData | None) -> CData:
    """An input string: None is NULL, str and bytes become a fresh NUL-terminated buffer."""
    if value is None:
        return ffi.NULL
    if isinstance(value, str):
        return ffi.new("char[]", value.encode())
    if isinstance(value, bytes):
        return ffi.new("char[]", value)
    return value


class MallocConfig:
    """An aclrtMallocConfig that owns its attribute array (keep it alive across the call).

    ``attrs`` is a sequence of (aclrtMallocAttrType, value) pairs; the value lands in the
    union member ``fields`` names for its type (unknown types write the raw bytes).
    ``num_attrs`` overrides the count and ``attrs_null`` passes a NULL array, to build
    invalid configs.
    """

    def __init__(self, attrs: Sequence[tuple[int, int]], fields: Mapping[int, str], *,
                 num_attrs: int | None = None, attrs_null: bool = False) -> None:
        self.ptr = ffi.new("aclrtMallocConfig *")
        self.array = ffi.new("aclrtMallocAttribute[]", max(len(attrs), 1))
        for index, (kind, value) in enumerate(attrs):
            self.array[index].attr = kind
            member = fields.get(kind)
            if member is not None:
                setattr(self.array[index].value, member, value)
            else:
                raw = value.to_bytes(8, "little", signed=False)
                for offset, byte in enumerate(raw):
                    self.array[index].value.rsv[offset] = byte
        # cffi gives struct members no static types: the struct is reached through its pointer.
        config = self.ptr[0]
        config.attrs = ffi.NULL if attrs_null else self.array
        config.numAttrs = len(attrs) if num_attrs is None else num_attrs


def text_of(cdata: CData) -> str:
    """A NUL-terminated C string as text (undecodable bytes replaced)."""
    text = ffi.string(cdata)
    return text.decode("utf-8", errors="replace") if isinstance(text, bytes) else text


class LibraryBase:
    """An opened ACL library whose wrappers are bound on their first call.

    A wrapper is bound on its first call: the function is looked up in the library (an
    AttributeError names a function the library lacks), cast to its integer view and wrapped
    in a closure that is kept on the instance, so later calls skip the lookup. With
    :attr:`trace` set, every call is reported to the hook after it returns; setting it
    drops the bound wrappers, so that each knows the hook without looking it up per call.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self.lib = ffi.dlopen(self.path)
        self.trace = None

    @property
    def trace(self) -> TraceHook | None:
        """The hook every call is reported to (function name, arguments, result), or None."""
        return self.__dict__.get("_hook")

    @trace.setter
    def trace(self, hook: TraceHook | None) -> None:
        # The wrappers bound so far know the old hook; drop them so that calls bind again.
        for name in self.__dict__.pop("_bound", ()):
            self.__dict__.pop(name, None)
        self.__dict__["_hook"] = hook

    def _bind(self, name: str, make: Callable[[TraceHook | None, CData], Callable[..., Any]],
              view: str) -> Callable[..., Any]:
        """Look ``name`` up, wrap it through its integer view ``view`` with the current hook, and keep the wrapper."""
        wrapper = make(self.trace, ffi.cast(view, getattr(self.lib, name)))
        self.__dict__[name] = wrapper
        self.__dict__.setdefault("_bound", set()).add(name)
        return wrapper
