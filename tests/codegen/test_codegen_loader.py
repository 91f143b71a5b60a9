"""The YAML loader: positions of keys and items, duplicate keys, syntax errors."""

from __future__ import annotations

from pathlib import Path

from specedit import edit, find_issue, issues, line_of

from codegen.yamlload import LocDict, LocList, format_path, load_yaml, locate


def _load(tmp_path: Path, text: str) -> tuple[object, list[str]]:
    path = tmp_path / "doc.yaml"
    path.write_text(text, encoding="utf-8")
    data, found = load_yaml(path, "doc.yaml")
    return data, [str(i) for i in found]


def test_mappings_and_lists_remember_their_lines(tmp_path: Path) -> None:
    data, found = _load(tmp_path, "# comment\ntop:\n  a: 1\n  b:\n    - x\n    - {c: 2}\nother: [1, 2]\n")
    assert found == []
    assert isinstance(data, LocDict) and data.line == 2
    assert data.key_lines == {"top": 2, "other": 7}
    top = data["top"]
    assert isinstance(top, LocDict) and top.key_lines == {"a": 3, "b": 4}
    items = top["b"]
    assert isinstance(items, LocList) and items.line == 5 and items.item_lines == [5, 6]
    assert isinstance(items[1], LocDict) and items[1].key_lines == {"c": 6}
    assert isinstance(data["other"], LocList) and data["other"].item_lines == [7, 7]


def test_locate_finds_the_deepest_known_node(tmp_path: Path) -> None:
    data, _ = _load(tmp_path, "rules:\n  - id: A\n    matrix:\n      size: [1, 2]\n  - id: B\n")
    assert locate(data, ["rules", 1, "id"]) == 5
    assert locate(data, ["rules", 0, "matrix", "size"]) == 4
    assert locate(data, ["rules", 0, "missing", "deeper"]) == 2  # stops at the last node that exists
    assert locate(data, ["rules", 7]) == 1
    assert format_path(["rules", 0, "matrix", "size"]) == "rules[0].matrix.size"
    assert format_path([]) == ""


def test_duplicate_keys_are_reported_with_their_line(tmp_path: Path) -> None:
    _, found = _load(tmp_path, "a: 1\nb:\n  c: 1\n  c: 2\n")
    assert found == ["doc.yaml:4: c: duplicate key 'c'"]


def test_non_string_keys_are_reported(tmp_path: Path) -> None:
    _, found = _load(tmp_path, "a: 1\n7: x\n")
    assert found == ["doc.yaml:2: mapping key 7 is not a string"]


def test_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    data, found = _load(tmp_path, "a: 1\nb: [1, 2\nc: 3\n")
    assert data is None
    assert len(found) == 1 and found[0].startswith("doc.yaml:") and "YAML syntax error" in found[0]
    line = int(found[0].split(":")[1])
    assert 2 <= line <= 4


def test_duplicate_key_in_the_spec(spec_dir: Path) -> None:
    edit(
        spec_dir,
        "interfaces.yaml",
        "    group: host_memory\n    summary: Allocates page-locked host memory whose",
        "    group: host_memory\n    group: harness\n    summary: Allocates page-locked host memory whose",
    )
    line = line_of(spec_dir, "interfaces.yaml", "group: harness", 1)
    find_issue(issues(spec_dir), f"spec/interfaces.yaml:{line}: group: duplicate key 'group'")


def test_syntax_error_in_the_spec(spec_dir: Path) -> None:
    edit(
        spec_dir, "rules.yaml", "  sizes_rw: [1, 64, 4097, 65536, 1048577]", "  sizes_rw: [1, 64, 4097, 65536, 1048577"
    )
    line = line_of(spec_dir, "rules.yaml", "sizes_rw:")
    found = issues(spec_dir)
    assert len(found) == 1, found
    assert found[0].startswith("spec/rules.yaml:") and "YAML syntax error" in found[0]
    assert line <= int(found[0].split(":")[1]) <= line + 2


def test_control_characters_are_a_spec_error_not_a_crash(spec_dir: Path) -> None:
    edit(spec_dir, "types.yaml", "meaning: The call succeeded.", "meaning: The call \x07succeeded.")
    line = line_of(spec_dir, "types.yaml", "ACL_SUCCESS")
    find_issue(issues(spec_dir), f"spec/types.yaml:{line}:", "YAML")


def test_invalid_utf8_is_a_spec_error_not_a_crash(spec_dir: Path) -> None:
    path = spec_dir / "faults.yaml"
    path.write_bytes(path.read_bytes() + b"# caf\xe9\n")
    find_issue(issues(spec_dir), "spec/faults.yaml:", "UTF-8")


def test_empty_and_missing_files(spec_dir: Path) -> None:
    (spec_dir / "faults.yaml").write_text("# nothing\n", encoding="utf-8")
    (spec_dir / "products.yaml").unlink()
    (spec_dir / "extra.yaml").write_text("a: 1\n", encoding="utf-8")
    found = issues(spec_dir)
    find_issue(found, "spec/faults.yaml:1: file is empty")
    find_issue(found, "spec/products.yaml:1: required spec file is missing")
    find_issue(found, "spec/extra.yaml:1: unexpected spec file")
