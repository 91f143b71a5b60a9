"""YAML loading that remembers where every mapping key and list item came from.

The schema and cross-reference checks report ``file:line: field.path``; plain PyYAML
forgets positions, so mappings and sequences are built as :class:`LocDict` and
:class:`LocList`, which carry the line of each key or item. Duplicate keys, which
plain YAML silently overwrites, are reported as errors.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

import yaml

from .errors import SpecIssue, Where, shown


class LocDict(dict[str, Any]):
    """A dict that knows its own line and the line of each key (1-based)."""

    line: int
    key_lines: dict[str, int]


class LocList(list[Any]):
    """A list that knows its own line and the line of each item (1-based)."""

    line: int
    item_lines: list[int]


# libyaml's parser is an order of magnitude faster; positions are the same.
_BaseLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_BaseLoader):  # type: ignore[misc]  # PyYAML's stubs type the C loader as Any
    """Safe loader building LocDict/LocList and collecting duplicate-key issues."""

    def __init__(self, stream: str, file: str) -> None:
        super().__init__(stream)
        self.file = file
        self.issues: list[SpecIssue] = []


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> LocDict:
    loader.flatten_mapping(node)
    result = LocDict()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        if not isinstance(key, str):
            loader.issues.append(SpecIssue(Where(loader.file, line, ""), f"mapping key {shown(key)} is not a string"))
            key = str(key)
        if key in result:
            loader.issues.append(SpecIssue(Where(loader.file, line, format_path([key])), f"duplicate key {shown(key)}"))
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = line
    return result


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> LocList:
    result = LocList(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)
# Dates stay text, so that callers validate them and report a bad one with its line instead
# of the parser raising a bare ValueError (e.g. for 2026-13-01).
_Loader.add_constructor("tag:yaml.org,2002:timestamp", yaml.constructor.SafeConstructor.construct_yaml_str)


def _shown(character: int | bytes | str) -> str:
    code = character if isinstance(character, int) else ord(character[:1] or "\0")
    return f"character U+{code:04X}"


# Limits of one YAML file. The spec's largest file holds about 2,000 values in 31 KB, at
# most 10 levels deep; the limits leave room to grow many times over and stop hostile
# input (a billion-laughs file, a FIFO, /dev/zero, a 16 MB rules file) before it costs
# time or memory.
MAX_FILE_BYTES = 1 << 20
MAX_VALUES = 50_000
MAX_DEPTH = 32


def read_regular_file(path: Path, display_name: str, limit: int = MAX_FILE_BYTES) -> tuple[bytes | None, str]:
    """The bytes of a regular file of at most ``limit`` bytes, or (None, why not).

    The file is opened without blocking and checked after opening, so a FIFO, a device
    such as /dev/zero or a directory is refused instead of hanging or filling memory.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        return None, f"cannot open: {exc.strerror or exc}"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None, f"not a regular file ({_file_kind(info.st_mode)})"
        if info.st_size > limit:
            return None, f"{info.st_size} bytes is over the limit of {limit} bytes per file"
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:
        return None, f"more than the limit of {limit} bytes per file"
    return b"".join(chunks), ""


def _file_kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a plain file"


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def measure(root: yaml.Node) -> tuple[int, int]:
    """(values, depth) of a composed document with every alias expanded, computed without expanding.

    An alias shares its anchor's node, so a few bytes can stand for billions of values; the
    walk visits each node once and adds sizes up. Raises ValueError for a recursive alias.
    """
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    open_nodes = {id(root)}
    stack = [(root, iter(_children(root)))]
    while stack:
        node, pending = stack[-1]
        child = next(pending, None)
        if child is None:
            stack.pop()
            open_nodes.discard(id(node))
            kids = _children(node)
            size[id(node)] = 1 + sum(size[id(k)] for k in kids)
            depth[id(node)] = 1 + max((depth[id(k)] for k in kids), default=0)
        elif id(child) in open_nodes:
            raise ValueError("an alias refers to a collection that contains it (recursive alias)")
        elif id(child) not in size:
            open_nodes.add(id(child))
            stack.append((child, iter(_children(child))))
    return size[id(root)], depth[id(root)]


def _limit_issue(root: yaml.Node, display_name: str) -> SpecIssue | None:
    where = Where(display_name, root.start_mark.line + 1, "")
    try:
        values, depth = measure(root)
    except ValueError as exc:
        return SpecIssue(where, str(exc))
    if values > MAX_VALUES:
        return SpecIssue(where, f"the document holds {values} values, aliases expanded; the limit is "
                                f"{MAX_VALUES} per file (alias expansion and size)")
    if depth > MAX_DEPTH:
        return SpecIssue(where, f"nesting depth {depth} is over the limit of {MAX_DEPTH}")
    return None


def load_yaml(path: Path, display_name: str) -> tuple[Any, list[SpecIssue]]:
    """Parse one YAML file; returns the located data and any issues (limits, syntax, duplicates).

    The file must be a regular file within :data:`MAX_FILE_BYTES`, and the document within
    :data:`MAX_VALUES` values (aliases expanded) and :data:`MAX_DEPTH` levels.
    """
    raw, problem = read_regular_file(path, display_name)
    if raw is None:
        return None, [SpecIssue(Where(display_name, 1, ""), problem)]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return None, [SpecIssue(Where(display_name, line, ""), f"not valid UTF-8: byte {raw[exc.start]:#04x}")]
    loader: _Loader | None = None
    try:
        loader = _Loader(text, display_name)
        root = loader.get_single_node()
        if root is None:
            return None, []
        limit = _limit_issue(root, display_name)
        if limit is not None:
            return None, [limit]
        data = loader.construct_document(root)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        return None, [SpecIssue(Where(display_name, line, ""), f"YAML syntax error: {exc.problem or exc}")]
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow (e.g. a control character)
        line = text[: exc.position].count("\n") + 1
        message = f"YAML syntax error: {_shown(exc.character)}: {exc.reason}"
        return None, [SpecIssue(Where(display_name, line, ""), message)]
    finally:
        if loader is not None:
            loader.dispose()
    return data, loader.issues


def locate(data: Any, path: list[str | int]) -> int:
    """The line of the deepest node on ``path`` that carries a position."""
    line = getattr(data, "line", 1)
    node = data
    for step in path:
        if isinstance(node, LocDict) and isinstance(step, str) and step in node:
            line = node.key_lines.get(step, line)
            node = node[step]
        elif isinstance(node, LocList) and isinstance(step, int) and 0 <= step < len(node):
            line = node.item_lines[step]
            node = node[step]
        else:
            break
    return line


_PLAIN_KEY = re.compile(r"^[A-Za-z0-9_@:-]{1,64}\Z")


def format_path(path: list[str | int]) -> str:
    """Render a field path as ``rules[3].matrix.size``; a key that is not a plain name shows as ``['k\\n']``."""
    out = ""
    for step in path:
        if isinstance(step, int):
            out += f"[{step}]"
        elif _PLAIN_KEY.match(step):
            out += f".{step}" if out else step
        else:
            out += f"[{shown(step)}]"
    return out
