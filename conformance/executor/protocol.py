"""The frames between judge and executor: length-prefixed JSON, tagged with the judge's nonce.

Each frame is a 4-byte big-endian length and that many bytes of a JSON object. The judge
picks the run's nonce and the sequence number of every case; each record an executor sends
carries both, and the judge drops (and counts as a protocol error) any record that does
not carry the nonce and the sequence number it expects next.
"""

from __future__ import annotations

import json
import os
import struct
from collections.abc import Mapping
from typing import TypeAlias

#: A frame larger than this is a protocol error (a case's trace and attachments stay far below it).
MAX_FRAME = 32 * 1024 * 1024
HEADER = struct.Struct(">I")
#: The executor's descriptors when none are given: case programs arrive on COMMAND_FD, records leave on
#: RECORD_FD. The judge gives each executor two numbers drawn at random (:data:`FD_RANGE`), so that no
#: descriptor sits at a number a library could key on.
COMMAND_FD, RECORD_FD = 3, 4
FD_RANGE = range(10, 256)
#: The file an executor's interpreter runs: a plain script in its own directory, removed as it starts.
SCRIPT_NAME = "main.py"


def startup_script(kit: str, entry: str, command_fd: int, record_fd: int) -> str:
    """The executor's script: it deletes itself, puts the kit on ``sys.path`` and serves on the two descriptors,
    so that its command line is ``python main.py`` and nothing on disk names the kit once the library loads."""
    return (f"import os, sys\nos.unlink(__file__)\nsys.path.insert(0, {kit!r})\n"
            f"from {entry} import serve\nserve({int(command_fd)}, {int(record_fd)})\n")


#: The module of the fork server (:mod:`.forkserver`), which executors of one slot start from.
FORK_SERVER = "conformance.executor.forkserver"


def fork_server_script(kit: str, entry: str, control_fd: int) -> str:
    """The fork server's script: like :func:`startup_script`, but it serves fork requests on ``control_fd``
    and each executor it forks serves ``entry``."""
    return (f"import os, sys\nos.unlink(__file__)\nsys.path.insert(0, {kit!r})\n"
            f"from {FORK_SERVER} import serve_forks\nserve_forks({int(control_fd)}, {entry!r})\n")


#: A case program names the kit's check procedures by module (``conformance.checks.FAMILY:function``);
#: a judge's own (its tests' fakes) by file.
CHECK_PACKAGE = "conformance.checks"

#: A JSON value as json.loads makes it.
JSONValue: TypeAlias = "str | int | float | bool | None | list[JSONValue] | dict[str, JSONValue]"
#: One frame: a JSON object.
Frame: TypeAlias = "dict[str, JSONValue]"


class ProtocolError(Exception):
    """A frame that is not what the protocol allows (too large, not JSON, wrong nonce or sequence)."""


def encode(message: Mapping[str, object]) -> bytes:
    """One frame holding ``message``."""
    body = json.dumps(message, separators=(",", ":"), default=str).encode()
    if len(body) > MAX_FRAME:
        raise ProtocolError(f"a frame of {len(body)} bytes is larger than {MAX_FRAME}")
    return HEADER.pack(len(body)) + body


def write_frame(fd: int, message: Mapping[str, object]) -> None:
    """Write one frame to ``fd`` completely (blocking)."""
    view = memoryview(encode(message))
    while view:
        written = os.write(fd, view)
        view = view[written:]


def read_exact(fd: int, size: int) -> bytes | None:
    """``size`` bytes from a blocking ``fd``; None at end of file."""
    chunks, left = [], size
    while left:
        chunk = os.read(fd, left)
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int) -> Frame | None:
    """The next frame from a blocking ``fd`` (the executor's side); None at end of file."""
    header = read_exact(fd, HEADER.size)
    if header is None:
        return None
    (size,) = HEADER.unpack(header)
    if size > MAX_FRAME:
        raise ProtocolError(f"a frame of {size} bytes is larger than {MAX_FRAME}")
    body = read_exact(fd, size)
    if body is None:
        return None
    return decode(body)


def decode(body: bytes) -> Frame:
    """The JSON object of one frame's body."""
    try:
        message = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"a frame that is not JSON: {exc}") from None
    if not isinstance(message, dict):
        raise ProtocolError("a frame that is not a JSON object")
    return message


class FrameBuffer:
    """The judge's side: bytes as they arrive from a non-blocking pipe, cut into frames."""

    def __init__(self) -> None:
        self.data = bytearray()

    def feed(self, chunk: bytes) -> None:
        """Add what a read returned."""
        self.data += chunk

    def next_frame(self) -> Frame | None:
        """The next complete frame, or None while it is incomplete."""
        if len(self.data) < HEADER.size:
            return None
        (size,) = HEADER.unpack_from(self.data)
        if size > MAX_FRAME:
            raise ProtocolError(f"a frame of {size} bytes is larger than {MAX_FRAME}")
        if len(self.data) < HEADER.size + size:
            return None
        body = bytes(self.data[HEADER.size:HEADER.size + size])
        del self.data[:HEADER.size + size]
        return decode(body)


# ---- a frame's fields, as the judge sends them (what int(), float() or a wrong type would raise otherwise) ----
def as_int(value: JSONValue) -> int:
    """``int(value)`` of a field."""
    if isinstance(value, (str, int, float)):
        return int(value)
    raise TypeError(f"int() argument must be a string, a bytes-like object or a real number, "
                    f"not '{type(value).__name__}'")


def as_float(value: JSONValue) -> float:
    """``float(value)`` of a field."""
    if isinstance(value, (str, int, float)):
        return float(value)
    raise TypeError(f"float() argument must be a string or a real number, not '{type(value).__name__}'")


def as_text(value: JSONValue) -> str:
    """A field that is text (a path, a name)."""
    if isinstance(value, str):
        return value
    raise TypeError(f"expected text, not {value!r}")


def as_text_or_none(value: JSONValue) -> str | None:
    """A field that is text or null."""
    return None if value is None else as_text(value)


def as_int_or_none(value: JSONValue) -> int | None:
    """A field that is an integer or null."""
    if value is None or isinstance(value, int):
        return value
    raise TypeError(f"expected an integer or null, not {value!r}")


def as_list(value: JSONValue) -> list[JSONValue]:
    """A field that is a list (null: empty)."""
    if value is None:
        return []
    if isinstance(value, list):
        return value
    raise TypeError(f"expected a list, not {value!r}")


def as_object(value: JSONValue) -> Mapping[str, JSONValue]:
    """A field that is a JSON object (null: empty)."""
    if value is None:
        return {}
    if isinstance(value, dict):
        return value
    raise TypeError(f"expected an object, not {value!r}")
