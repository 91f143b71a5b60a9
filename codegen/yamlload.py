"""YAML loading that remembers where every mapping key and list item came from.

The schema and cross-reference checks report ``file:line: field.path``; plain PyYAML
forgets positions, so mappings and sequences are built as :class:`LocDict` and
:class:`LocList`, which carry the line of each key or item. Duplicate keys, which
plain YAML silently overwrites, are reported as errors.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import SpecIssue, Where


class LocDict(dict):
    """A dict that knows its own line and the line of each key (1-based)."""

    line: int
    key_lines: dict[str, int]


class LocList(list):
    """A list that knows its own line and the line of each item (1-based)."""

    line: int
    item_lines: list[int]


# libyaml's parser is an order of magnitude faster; positions are the same.
_BaseLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_BaseLoader):
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
            loader.issues.append(SpecIssue(Where(loader.file, line, ""), f"mapping key {key!r} is not a string"))
            key = str(key)
        if key in result:
            loader.issues.append(SpecIssue(Where(loader.file, line, key), f"duplicate key {key!r}"))
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


def load_yaml(path: Path, display_name: str) -> tuple[Any, list[SpecIssue]]:
    """Parse one YAML file; returns the located data and any issues (syntax, duplicates)."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return None, [SpecIssue(Where(display_name, line, ""), f"not valid UTF-8: byte {raw[exc.start]:#04x}")]
    loader: _Loader | None = None
    try:
        loader = _Loader(text, display_name)
        data = loader.get_single_data()
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


def format_path(path: list[str | int]) -> str:
    """Render a field path as ``rules[3].matrix.size``."""
    out = ""
    for step in path:
        if isinstance(step, int):
            out += f"[{step}]"
        else:
            out += f".{step}" if out else step
    return out
