"""The ACL call trace of a case: one readable line per call, for the report."""

from __future__ import annotations

from dataclasses import dataclass

from acl_hostmem_generated import acl_bindings as acl
from acl_hostmem_generated.acl_bindings import CData, address, error_name
from acl_hostmem_generated.acl_runtime import text_of


@dataclass(frozen=True)
class TraceEntry:
    """One ACL call made by a case."""

    function: str
    args: dict[str, str]
    result: str
    thread: str
    at_ms: float

    def line(self) -> str:
        """The call as one readable line."""
        shown = ", ".join(f"{k}={v}" for k, v in self.args.items())
        return f"{self.at_ms:9.2f} ms [{self.thread}] {self.function}({shown}) -> {self.result}"


def show_value(value: object) -> str:
    """An argument as the trace shows it: NULL, &out, a number, a string or an address."""
    if value is None:
        return "NULL"
    if value is acl.OUT:
        return "&out"
    if isinstance(value, int):
        return hex(value) if value > 0xFFFF else str(value)
    if isinstance(value, (str, bytes)):
        return repr(value)
    if not isinstance(value, CData):  # address() of anything else raises TypeError
        return type(value).__name__
    try:
        return hex(address(value))
    except TypeError:
        return type(value).__name__


def show_result(function: str, result: object) -> str:
    """A return value as the trace shows it: the aclError with its name, or a string."""
    if isinstance(result, int):
        return f"{result} {error_name(result)}"
    if result is None or result == acl.ffi.NULL:
        return "NULL"
    if not isinstance(result, CData):  # ffi.string() of anything else raises TypeError
        return show_value(result)
    try:
        return repr(text_of(result))
    except TypeError:
        return show_value(result)
