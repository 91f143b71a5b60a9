"""Property: hostile text in any string field of the spec is rejected by lint or survives generation exactly.

Every string of the spec is a candidate: the prose fields (found by asking the schema where
its ``prose`` keyword applies) and every other string value and mapping key. Hypothesis
puts hostile text (quotes of every kind, backslashes, comment and template delimiters,
line breaks, NUL, bidi controls, characters outside the BMP) into a few of them and runs
``python -m codegen generate`` in process. Then:

- a rejected spec exits 2, reports each problem as one ``spec/<file>:<line>: <field>: <message>``
  line at one of the edited fields, and writes nothing;
- an accepted one generates Python whose syntax tree, string values aside, is the one the
  real spec gives (nothing was added to run), imports, and C that compiles and passes its
  own ABI check; and each accepted prose text reads back exactly from every generated file
  where that field lands (found once, by generating with a unique marker in every field).
"""

from __future__ import annotations

import copy
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from decode import payloads
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from outputs import compiles, generate_in_process, import_bindings, skeletons
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from specedit import ROOT

from codegen.load import SPEC_FILES
from codegen.validate import SCHEMA_DIR
from codegen.yamlload import format_path

Leaf = tuple[str, tuple[Any, ...], bool]  # (spec file, path to the value or the mapping, is a key)
ISSUE_LINE = re.compile(r"^error: (?:\S*/)?spec/(?P<file>[a-z_]+\.yaml):\d+: (?P<path>\S.*?): \S.*$")
SAFE_STRUCTURED = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@:.,/*?-")
# Text prose may hold but generated files must still escape, and text lint refuses.
ACCEPTED_FRAGMENTS = ['"', "'", '""', "\\", "{{ 7*7 }}", "{%", "{#", "\U0001F600", "\U00010348", "é", "|", "`",
                      "<b>", "&amp;", "??/", "$x$", "~~", "\\x41", "#", "r'", ' " ', "* /", "word", " ", "Q", "_",
                      "[a](b)"]
REFUSED_FRAGMENTS = ['"""', "\'\'\'", "*/", "/*", "\n", "\x00", "\u202e", "\u2066", "\u200b", "\u00a0"]
VISIBLE = st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"))
ACCEPTABLE = st.lists(st.one_of(st.sampled_from(ACCEPTED_FRAGMENTS), st.text(VISIBLE, min_size=1, max_size=3)),
                      min_size=1, max_size=10).map("".join)
ANY = st.lists(st.one_of(st.sampled_from(ACCEPTED_FRAGMENTS + REFUSED_FRAGMENTS), st.text(min_size=1, max_size=3)),
               min_size=1, max_size=10).map("".join)
HOSTILE = st.one_of(ACCEPTABLE, ACCEPTABLE, ANY).filter(lambda t: 0 < len(t) <= 600)
# Slow examples (a generate, a C build and an import each); no shrinking, which would take minutes:
# a failure prints the example as drawn.
SLOW = settings(
    max_examples=10, deadline=None, derandomize=True, database=None, phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large],
)


# --------------------------------------------------------------------------- the spec as data


def _raw_docs() -> dict[str, Any]:
    return {name: yaml.safe_load((ROOT / "spec" / name).read_text(encoding="utf-8")) for name in SPEC_FILES}


def _prose_paths(name: str, data: Any) -> set[tuple[Any, ...]]:
    """Paths where the schema applies ``prose``: a probe keyword that fails everywhere it is used."""
    load = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    common = yaml.load((SCHEMA_DIR / "common.yaml").read_text(encoding="utf-8"), Loader=load)  # noqa: S506
    schema = yaml.load((SCHEMA_DIR / f"{SPEC_FILES[name]}.yaml").read_text(encoding="utf-8"), Loader=load)  # noqa: S506
    common_resource = Resource.from_contents(common, default_specification=DRAFT202012)
    registry = Registry().with_resources([("common", common_resource)])

    def probe(validator: Any, enabled: Any, instance: Any, schema: Any) -> Any:
        if enabled:
            yield ValidationError("prose")

    probe_validator = validators.extend(Draft202012Validator, {"prose": probe})(schema, registry=registry)
    return {tuple(e.absolute_path) for e in probe_validator.iter_errors(data) if e.validator == "prose"}


def _leaves(name: str, data: Any, path: tuple[Any, ...] = ()) -> list[Leaf]:
    found: list[Leaf] = []
    if isinstance(data, str):
        found.append((name, path, False))
    elif isinstance(data, list):
        for index, item in enumerate(data):
            found += _leaves(name, item, path + (index,))
    elif isinstance(data, dict):
        for key, item in data.items():
            found.append((name, path + (key,), True))
            found += _leaves(name, item, path + (key,))
    return found


def _set(data: Any, path: tuple[Any, ...], is_key: bool, text: str) -> None:
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    if is_key:
        items = list(parent.items())
        parent.clear()
        parent.update((text if k == path[-1] else k, v) for k, v in items)
    else:
        parent[path[-1]] = text


def _write_spec(target: Path, docs: dict[str, Any], edits: dict[Leaf, str]) -> Path:
    """A spec directory: the real files, with the edited ones dumped as YAML (non-ASCII escaped)."""
    spec = target / "spec"
    spec.mkdir(parents=True)
    edited = {leaf[0] for leaf in edits}
    for name in SPEC_FILES:
        if name not in edited:
            shutil.copyfile(ROOT / "spec" / name, spec / name)
            continue
        data = copy.deepcopy(docs[name])
        # Keys last, and deepest first, so an edit never moves the path of another.
        for (file, path, is_key), text in sorted(edits.items(), key=lambda e: (e[0][2], -len(e[0][1]))):
            if file == name:
                _set(data, path, is_key, text)
        (spec / name).write_text(yaml.safe_dump(data, allow_unicode=False, width=1 << 30, sort_keys=False),
                                 encoding="utf-8")
    return spec


class Baseline:
    """What the real spec generates, and where each prose field lands."""

    def __init__(self, root: Path) -> None:
        self.docs = _raw_docs()
        self.prose = [(name, path, False) for name in SPEC_FILES for path in sorted(
            _prose_paths(name, self.docs[name]), key=str)]
        prose_set = set(self.prose)
        self.structured = [leaf for name in SPEC_FILES for leaf in _leaves(name, self.docs[name])
                           if leaf not in prose_set]
        # A YAML alias (``*name``) makes several paths one value: editing one edits them all, and
        # lint rightly reports each of them. Leaf -> every (file, field path) that shares its value.
        shared: dict[tuple[str, int, Any, bool], list[Leaf]] = {}
        for leaf in [*self.prose, *self.structured]:
            shared.setdefault(self.identity(leaf), []).append(leaf)
        self.same_value = {leaf: {(other[0], format_path(list(other[1]))) for other in group}
                           for group in shared.values() for leaf in group}
        out = root / "baseline" / "out"
        code, err = generate_in_process(ROOT / "spec", out)
        assert code == 0, err
        self.skeletons = skeletons(out)
        # A Chinese field's marker holds Chinese (lint refuses one without). A family's Chinese name and the
        # glossary's product-series term it must equal are not marked: lint holds the one to the other.
        series = {f["name_zh"] for f in self.docs["products.yaml"]["families"]}
        markers = {leaf: f"Zq{index}qZ" + ("中" if chinese_field(leaf) else "") for index, leaf in enumerate(self.prose)
                   if self.value(leaf) not in series}
        marked = root / "marked"
        code, err = generate_in_process(_write_spec(marked, self.docs, markers), marked / "out")
        assert code == 0, err
        texts = {p.relative_to(marked / "out").as_posix(): p.read_text(encoding="utf-8")
                 for p in (marked / "out").rglob("*") if p.is_file()}
        # Where each field lands: files and how often (a marker is never a prefix of another: qZ ends it).
        self.landing = {leaf: {f: t.count(m) for f, t in texts.items() if m in t} for leaf, m in markers.items()}
        self.by_file: dict[str, list[Leaf]] = {}
        for leaf, where in self.landing.items():
            for rel in where:
                self.by_file.setdefault(rel, []).append(leaf)


    def value(self, leaf: Leaf) -> Any:
        """The text at a leaf (the key itself for a key leaf)."""
        name, path, is_key = leaf
        node = self.docs[name]
        for step in path if not is_key else path[:-1]:
            node = node[step]
        return path[-1] if is_key else node

    def identity(self, leaf: Leaf) -> tuple[str, int, Any, bool]:
        """The value a leaf is, whichever alias leads to it: its file, container object, key or index."""
        name, path, is_key = leaf
        parent = self.docs[name]
        for step in path[:-1]:
            parent = parent[step]
        return name, id(parent), path[-1], is_key


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Baseline:
    return Baseline(tmp_path_factory.mktemp("baseline"))


def test_the_schema_marks_the_prose_fields(baseline: Baseline) -> None:
    fields = {(name, format_path([s for s in path if isinstance(s, str)])) for name, path, _ in baseline.prose}
    for expected in [("types.yaml", "errors.meaning"), ("rules.yaml", "rules.title"), ("rules.yaml", "rules.statement"),
                     ("interfaces.yaml", "interfaces.summary"), ("faults.yaml", "faults.description"),
                     ("products.yaml", "families.name"), ("interfaces.yaml", "interfaces.advisories")]:
        assert expected in fields
    assert len(baseline.prose) > 200 and len(baseline.structured) > 1000
    landed = {f for where in baseline.landing.values() for f in where}
    assert {"acl_bindings.py", "acl_hostmem.cdef", "include/acl_hostmem.h", "catalog.json", "traceability.md",
            "sim/aclsim_faults.h", "cases/test_alignment.py"} <= landed


def chinese_field(leaf: Leaf) -> bool:
    """Whether a prose leaf is a Chinese text (title_zh, reason_zh, a glossary term's zh or zh_variants)."""
    keys = [step for step in leaf[1] if isinstance(step, str)]
    glossary_word = leaf[0] == "glossary.yaml" and keys[-1:] in (["zh"], ["zh_variants"])
    return bool(keys) and (keys[-1].endswith("_zh") or glossary_word)


def twin_paths(edits: dict[Leaf, str]) -> dict[tuple[str, str], Leaf]:
    """(file, path) of the Chinese twin of each edited English rule text: a glossary term the new English uses is
    reported at the Chinese text that must follow it."""
    twins = {}
    for leaf in edits:
        name, path, is_key = leaf
        if not is_key and path and path[-1] in ("title", "statement", "reason"):
            twins[(name, format_path([*path[:-1], f"{path[-1]}_zh"]))] = leaf
    return twins


def _issues(err: str) -> list[re.Match[str]]:
    lines = err.splitlines()
    assert lines and re.fullmatch(r"\d+ problem\(s\) in the spec; nothing was written\.", lines[-1]), err
    assert "Traceback" not in err
    matches = [ISSUE_LINE.match(line) for line in lines[:-1]]
    assert all(matches), err
    return [m for m in matches if m]


def _unrejected(baseline: Baseline, edits: dict[Leaf, str], err: str) -> dict[Leaf, str]:
    """The edits the spec issues in ``err`` do not reject; every issue must name an edited field."""
    paths = {where: leaf for leaf in edits for where in baseline.same_value.get(leaf, set())}
    paths.update({(leaf[0], format_path(list(leaf[1]))): leaf for leaf in edits})
    paths.update({where: leaf for where, leaf in twin_paths(edits).items() if where not in paths})
    # A glossary term's new word is reported at every Chinese text that no longer uses it.
    glossary_edits = {leaf for leaf in edits if leaf[0] == "glossary.yaml"}
    rejected = set()
    for issue in _issues(err):
        if (issue["file"], issue["path"]) not in paths and glossary_edits and issue["path"].endswith("_zh"):
            rejected |= glossary_edits
            continue
        assert (issue["file"], issue["path"]) in paths, f"issue at a field that was not edited: {issue[0]}"
        rejected.add(paths[issue["file"], issue["path"]])
    return {leaf: text for leaf, text in edits.items() if leaf not in rejected}


@SLOW
@given(st.data())
def test_hostile_prose_is_rejected_or_round_trips(baseline: Baseline, cc: str, tmp_path_factory: Any,
                                                  data: st.DataObject) -> None:
    # One field landing in each generated file, and a few anywhere.
    leaves = {data.draw(st.sampled_from(group)) for group in baseline.by_file.values()}
    leaves |= set(data.draw(st.lists(st.sampled_from(baseline.prose), max_size=3)))
    one_per_value = {baseline.identity(leaf): leaf for leaf in sorted(leaves, reverse=True)}  # aliases: one text
    edits = {leaf: data.draw(HOSTILE) for leaf in sorted(one_per_value.values())}
    root = tmp_path_factory.mktemp("prose")
    # The schema refuses prose first; lint then holds the Chinese fields to the glossary, so a Chinese text
    # the schema accepted may be refused in a second round, once the schema's refusals are left out.
    for attempt in ("first", "second", "third"):
        code, err = generate_in_process(_write_spec(root / attempt, baseline.docs, edits), root / attempt / "out")
        out = root / attempt / "out"
        if code == 0:
            break
        assert attempt != "third", err
        assert code == 2 and not out.exists()
        edits = _unrejected(baseline, edits, err)
    assert skeletons(out) == baseline.skeletons
    import_bindings(out)
    compiles(cc, out)
    for leaf, text in edits.items():
        for rel, count in baseline.landing.get(leaf, {}).items():
            found = sum(p.count(text) for p in payloads(out / rel))
            assert found >= count, f"{leaf} does not read back from {rel}: {text!r}"


@SLOW
@given(st.data())
def test_hostile_text_in_structured_fields_is_rejected(baseline: Baseline, cc: str, tmp_path_factory: Any,
                                                       data: st.DataObject) -> None:
    leaves = data.draw(st.lists(st.sampled_from(baseline.structured), min_size=1, max_size=3, unique=True))
    text = data.draw(HOSTILE.filter(lambda t: any(ch not in SAFE_STRUCTURED for ch in t)))
    root = tmp_path_factory.mktemp("structured")
    edits = {leaf: f"{text}{index}" for index, leaf in enumerate(leaves)}  # distinct keys stay distinct
    code, err = generate_in_process(_write_spec(root, baseline.docs, edits), root / "out")
    if code == 0:  # only a name nothing refers to (a support-set anchor) may hold any text
        assert all(leaf[1][0] == "support_sets" for leaf in edits), f"accepted: {edits}"
        import_bindings(root / "out")
        compiles(cc, root / "out")
        return
    assert code == 2 and not (root / "out").exists()
    files = {issue["file"] for issue in _issues(err)}
    assert files <= {leaf[0] for leaf in edits}
