"""Read files of an untrusted input (a bundle, a report directory, a baseline) without being led astray.

Every run, bundle or baseline that a command reads may have been made by someone else, so a
file in it may be anything: a symbolic link to a private key or to ``/dev/zero``, a FIFO that
blocks the first ``open``, a device, a file of many gigabytes, JSON nested deeper than Python's
recursion limit or holding an integer too long to convert. The readers here refuse each of
these with one :class:`UntrustedFileError` whose message names the file and what is wrong,
instead of following, hanging, exhausting memory or raising a traceback.

Within an input directory (``root``), every component of a path is opened relative to its
parent with ``O_NOFOLLOW``, so a symbolic link is never followed, wherever it sits in the path,
and a file is opened only after ``lstat`` shows it is a regular file (opening a FIFO would block,
opening some devices has side effects). Without ``root`` the path itself was named by the
user, who may name it through a link; the file it names must still be a regular file.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeAlias, TypeVar

#: A parsed JSON value, as :func:`json.loads` returns it: what a reader of an untrusted file gets,
#: to be narrowed field by field (``isinstance``) before it is used.
JSONValue: TypeAlias = "dict[str, JSONValue] | list[JSONValue] | str | int | float | bool | None"
#: A parsed JSON object.
JSONObject: TypeAlias = "dict[str, JSONValue]"
_N = TypeVar("_N", int, float)

#: The largest JSON document or text file read into memory. A summary.json of the whole suite is a
#: few MiB and an Allure result far less; 64 MiB leaves room for any honest file while bounding the
#: memory a hostile one can take (a parsed JSON document takes several times its size).
MAX_READ_BYTES = 64 << 20
#: The largest file hashed (streamed, not held in memory). The biggest honest files of a bundle, the
#: single-file HTML report and run.log, stay far below; the cap bounds the time a sparse file of
#: terabytes could take.
MAX_HASHED_BYTES = 1 << 30
#: The most bytes one tree copy (the Allure 2 history folder of a baseline) may take; a handful of
#: small trend files in an honest report.
MAX_TREE_BYTES = 256 << 20
#: The deepest nesting of arrays and objects accepted. The kit's own documents nest about ten levels
#: (summary -> rules -> rule -> cases -> case -> observations -> value), Allure's nested steps a few
#: more; Python's parser gives up with a RecursionError (a traceback, unless caught) near a thousand.
MAX_JSON_DEPTH = 128
#: The longest number literal accepted, in characters. No count, size or duration the kit writes has
#: more than 20 digits; Python refuses to convert integers of more than 4300 digits with a ValueError,
#: and converting long ones costs quadratic time.
MAX_NUMBER_CHARS = 100

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISLNK, "a symbolic link (not followed)"),
)
_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"[]{}")
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
# O_NONBLOCK: should a FIFO appear between the lstat and the open, the open returns at once.
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


class UntrustedFileError(ValueError):
    """A file of an untrusted input that is refused; ``str()`` is ``PATH: what is wrong`` (one line)."""

    def __init__(self, path: Path | str, reason: str) -> None:
        # One line whatever the input holds: a file name may carry a newline or an escape sequence.
        self.path = "".join(char if char.isprintable() else ascii(char)[1:-1] for char in str(path))
        self.reason = " ".join(reason.split())
        super().__init__(f"{self.path}: {self.reason}")


class _NumberTooLong(Exception):
    """Raised from inside the JSON parser's number hooks (not a ValueError, so nothing swallows it)."""

    def __init__(self, text: str) -> None:
        super().__init__(f"a number of {len(text)} characters (more than {MAX_NUMBER_CHARS})")


def kind(mode: int) -> str:
    """What a file of ``mode`` is, in words (``a regular file`` when it is one)."""
    return next((name for test, name in _KINDS if test(mode)), "a regular file" if stat.S_ISREG(mode) else
                "not a regular file")


def _refusal(mode: int, wanted: str = "a regular file") -> str:
    """Why a file of ``mode`` is refused where ``wanted`` is expected: ``is a FIFO, not a regular file``."""
    if stat.S_ISLNK(mode):
        return "is a symbolic link (not followed)"
    return f"is {kind(mode)}, not {wanted}"


def _relative_parts(path: Path, root: Path) -> tuple[str, ...]:
    """The components of ``path`` below ``root``, compared lexically (no link resolved); refuses escapes."""
    absolute, base = os.path.abspath(path), os.path.abspath(root)
    if absolute == base or os.path.commonpath([absolute, base]) != base:
        raise UntrustedFileError(path, f"not a file inside {root}")
    return Path(os.path.relpath(absolute, base)).parts


def _os_reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _open_regular(path: Path, root: Path | None) -> int:
    """A read-only descriptor of the regular file ``path``; see the module docstring for the rules."""
    if root is None:
        try:
            mode = os.stat(path).st_mode
        except OSError as exc:
            raise UntrustedFileError(path, _os_reason(exc)) from None
        if not stat.S_ISREG(mode):
            raise UntrustedFileError(path, _refusal(mode))
        try:
            return os.open(path, _OPEN_FLAGS | _NONBLOCK)
        except OSError as exc:
            raise UntrustedFileError(path, _os_reason(exc)) from None
    parts = _relative_parts(path, root)
    try:
        folder = os.open(root, _OPEN_FLAGS | _DIRECTORY)
    except OSError as exc:
        raise UntrustedFileError(root, _os_reason(exc)) from None
    try:
        for depth, part in enumerate(parts):
            last = depth == len(parts) - 1
            try:
                mode = os.stat(part, dir_fd=folder, follow_symlinks=False).st_mode
            except OSError as exc:
                raise UntrustedFileError(path, "missing" if exc.errno == errno.ENOENT else _os_reason(exc)) from None
            if not last and not stat.S_ISDIR(mode):
                raise UntrustedFileError(path, f"{'/'.join(parts[: depth + 1])} {_refusal(mode, 'a folder')}")
            if last and not stat.S_ISREG(mode):
                raise UntrustedFileError(path, _refusal(mode))
            flags = _OPEN_FLAGS | _NOFOLLOW | (_NONBLOCK if last else _DIRECTORY)
            try:
                opened = os.open(part, flags, dir_fd=folder)
            except OSError as exc:  # replaced between the lstat and the open
                raise UntrustedFileError(path, _os_reason(exc)) from None
            os.close(folder)
            folder = opened
        result, folder = folder, -1
        return result
    finally:
        if folder >= 0:
            os.close(folder)


def _checked(path: Path, fd: int, limit: int) -> os.stat_result:
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):  # swapped after the lstat: refuse what was opened
        raise UntrustedFileError(path, _refusal(info.st_mode))
    if info.st_size > limit:
        raise UntrustedFileError(path, f"is {info.st_size} bytes, more than the {limit} accepted")
    return info


def read_bytes(path: Path, *, root: Path | None = None, limit: int = MAX_READ_BYTES) -> bytes:
    """The bytes of the regular file ``path`` (inside ``root`` when given), at most ``limit`` of them.

    Raises :class:`UntrustedFileError` for a link, a FIFO, a device, a missing or unreadable file,
    or one larger than ``limit``.
    """
    fd = _open_regular(Path(path), Path(root) if root is not None else None)
    try:
        _checked(Path(path), fd, limit)
        chunks, size = [], 0
        while True:  # read to the cap, not to the size stat gave: the file may grow meanwhile
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise UntrustedFileError(path, f"grew beyond the {limit} bytes accepted while read")
    except OSError as exc:
        raise UntrustedFileError(path, _os_reason(exc)) from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def read_text(path: Path, *, root: Path | None = None, limit: int = MAX_READ_BYTES, errors: str = "strict") -> str:
    """The UTF-8 text of ``path`` as :func:`read_bytes` reads it (``errors`` as for ``bytes.decode``)."""
    data = read_bytes(path, root=root, limit=limit)
    try:
        return data.decode("utf-8", errors)
    except UnicodeDecodeError as exc:
        raise UntrustedFileError(path, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def sha256(path: Path, *, root: Path | None = None, limit: int = MAX_HASHED_BYTES) -> str:
    """Hex SHA-256 of the regular file ``path`` (inside ``root`` when given), streamed; refused as by
    :func:`read_bytes`, with the larger ``limit`` of a file that is hashed, never held."""
    fd = _open_regular(Path(path), Path(root) if root is not None else None)
    digest = hashlib.sha256()
    try:
        _checked(Path(path), fd, limit)
        size = 0
        while chunk := os.read(fd, 1 << 20):
            size += len(chunk)
            if size > limit:
                raise UntrustedFileError(path, f"grew beyond the {limit} bytes accepted while hashed")
            digest.update(chunk)
    except OSError as exc:
        raise UntrustedFileError(path, _os_reason(exc)) from None
    finally:
        os.close(fd)
    return digest.hexdigest()


def json_depth(text: str, stop: int = MAX_JSON_DEPTH) -> int:
    """The deepest nesting of arrays and objects in JSON ``text``, counted without recursion.

    Strings are skipped (a bracket inside one is no nesting); counting stops once past ``stop``.
    """
    # Without its escaped backslashes and quotes, every '"' opens or closes a string, so that the
    # even pieces between quotes are what lies outside strings (all done by C loops, not a regex).
    plain = text.replace("\\\\", "").replace('\\"', "")
    skeleton = "".join(plain.split('"')[::2]).encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKETS)
    depth = deepest = 0
    for byte in skeleton:
        if byte in b"[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > stop:
                    break
        else:
            depth -= 1
    return deepest


def _number(convert: Callable[[str], _N]) -> Callable[[str], _N]:
    def parse(text: str) -> _N:
        if len(text) > MAX_NUMBER_CHARS:
            raise _NumberTooLong(text)
        return convert(text)

    return parse


def loads_json(data: str | bytes, name: Path | str, *,
               object_pairs_hook: Callable[[list[tuple[str, JSONValue]]], JSONValue] | None = None) -> JSONValue:
    """Parse JSON from an untrusted file called ``name``, with the depth and number caps of this module.

    Raises :class:`UntrustedFileError` (naming ``name``) for text that is not UTF-8, not JSON,
    nested deeper than :data:`MAX_JSON_DEPTH`, or holding a number longer than :data:`MAX_NUMBER_CHARS`.
    """
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise UntrustedFileError(name, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    # A text with fewer brackets than the cap cannot nest deeper: most small files skip the scan.
    if data.count("[") + data.count("{") > MAX_JSON_DEPTH and json_depth(data) > MAX_JSON_DEPTH:
        raise UntrustedFileError(name, f"JSON nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        value: JSONValue = json.loads(data, parse_int=_number(int), parse_float=_number(float),
                                      object_pairs_hook=object_pairs_hook)
        return value
    except _NumberTooLong as exc:
        raise UntrustedFileError(name, f"JSON holding {exc}") from None
    except json.JSONDecodeError as exc:
        raise UntrustedFileError(name, f"not valid JSON: {exc}") from None
    except (RecursionError, ValueError) as exc:  # the pre-scan should have caught these; never a traceback
        raise UntrustedFileError(name, f"not usable JSON: {type(exc).__name__}: {str(exc)[:200]}") from None


def read_json(path: Path, *, root: Path | None = None, limit: int = MAX_READ_BYTES,
              object_pairs_hook: Callable[[list[tuple[str, JSONValue]]], JSONValue] | None = None) -> JSONValue:
    """The JSON document in ``path``, read as :func:`read_bytes` and parsed as :func:`loads_json`."""
    return loads_json(read_bytes(path, root=root, limit=limit), path, object_pairs_hook=object_pairs_hook)


def read_json_object(path: Path, *, root: Path | None = None) -> JSONObject:
    """The JSON object in ``path`` (as :func:`read_json`); refuses any other JSON value."""
    data = read_json(path, root=root)
    if not isinstance(data, dict):
        raise UntrustedFileError(path, "not a JSON object")
    return data


def as_object(value: object) -> Mapping[str, object]:
    """``value`` when it is a JSON object, else an empty one: how a reader takes an optional object member
    (``data.get(key) or {}``) of a document whose shape it checked."""
    return value if isinstance(value, Mapping) else {}


def as_list(value: object) -> list[object]:
    """``value`` when it is a JSON array, else an empty one (``data.get(key) or []``)."""
    return value if isinstance(value, list) else []


def present(path: Path) -> bool:
    """Whether anything at all is at ``path`` (a dangling link too), so that it is read and refused, not
    skipped as absent."""
    return os.path.lexists(path)


def copy_file(source: Path, target: Path, *, root: Path | None = None, limit: int = MAX_READ_BYTES) -> None:
    """Copy the regular file ``source`` (inside ``root`` when given) to ``target``, refused as by
    :func:`read_bytes`."""
    data = read_bytes(source, root=root, limit=limit)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)


def tree_files(source: Path, *, root: Path | None = None) -> dict[str, int]:
    """Every file below the folder ``source``, relative POSIX path -> size; refuses any link, FIFO,
    device or socket in it (and ``source`` itself, or a folder above it inside ``root``, that is a link)."""
    source = Path(source)
    if root is not None:
        parts = _relative_parts(source, root)
        for depth in range(1, len(parts) + 1):
            where = Path(root, *parts[:depth])
            if not present(where):
                raise UntrustedFileError(source, f"{'/'.join(parts[:depth])} is missing")
            mode = os.lstat(where).st_mode
            if not stat.S_ISDIR(mode):
                raise UntrustedFileError(source, f"{'/'.join(parts[:depth])} {_refusal(mode, 'a folder')}")
    found = {}
    for folder, subfolders, files in os.walk(source):  # os.walk lists linked folders but never enters them
        for name in subfolders + files:
            path = Path(folder, name)
            info = os.lstat(path)
            if not (stat.S_ISDIR(info.st_mode) or stat.S_ISREG(info.st_mode)):
                raise UntrustedFileError(path, _refusal(info.st_mode))
            if stat.S_ISREG(info.st_mode):
                found[path.relative_to(source).as_posix()] = info.st_size
    return dict(sorted(found.items()))


def copy_tree(source: Path, target: Path, *, root: Path | None = None, limit: int = MAX_TREE_BYTES) -> list[str]:
    """Copy the folder ``source`` (inside ``root`` when given) into ``target``; returns the files copied.

    Everything is checked before anything is copied: a link, FIFO, device or socket anywhere in
    it, or more than ``limit`` bytes in all, refuses the whole copy.
    """
    sizes = tree_files(source, root=root)
    if sum(sizes.values()) > limit:
        raise UntrustedFileError(source, f"holds {sum(sizes.values())} bytes, more than the {limit} accepted")
    for rel in sizes:
        copy_file(Path(source, rel), target / rel, root=root if root is not None else source)
    return list(sizes)
