"""A hostile spec edit cannot inject code: identifiers are rejected, prose is neutralised.

Prose lands in C comments, C strings, Python literals and docstrings, Markdown and JSON;
each hostile string below must come out inert in all of them: the Python modules compile
and gain no code, the C compiles, and Jinja syntax appears literally instead of running.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import tokenize
from pathlib import Path

import pytest
from specedit import ROOT, edit, find_issue, issues, line_of, yaml_quoted

from codegen.load import load_spec
from codegen.render import render_all
from codegen.writer import write_tree

# Each payload tries to leave its string or comment and run something, within what lint
# allows in prose (no docstring or comment delimiters, no invisible characters); the
# marker Q..Q shows whether Jinja evaluated it (Q49Q) or kept it literal.
PAYLOADS = {
    "rule_title": 'title"); import os; os.system("echo pwned") # Q{{ 7*7 }}Q "',
    "rule_statement": "stmt ' \" '' \"\" {% raw %} Q{{ 7*7 }}Q {% endraw %} ??/ \\",
    "enum_meaning": 'enum * / #include "/etc/passwd" ??/ \\" Q{{ 7*7 }}Q \u00e9\U0001F600',
    "interface_summary": 'summary ""; import os  # \\ Q{{ 7*7 }}Q {# c #} \\',
    "error_meaning": "err #define ACL_SUCCESS 1 `x` | <b> [a](b) Q{{ 7*7 }}Q &amp; $x$ ~~y~~",
    "fault_description": 'fault "; system("x"); " \\ Q{{ 7*7 }}Q ??= r"x" \\0 \\x41',
    "advisory": "adv ``` </td> | *x* ]] Q{{ 7*7 }}Q {{ spec.__class__ }}",
}
# (file, exact text to replace) for each payload.
TARGETS = {
    "rule_title": ("rules.yaml", "title: aclrtMallocHost returns a 64-byte aligned pointer"),
    "rule_statement": (
        "rules.yaml",
        "statement: Every successful aclrtMallocHost stores a pointer whose address is a "
        "multiple of 64, for every size.",
    ),
    "enum_meaning": ("types.yaml", "meaning: AI CPU."),
    "interface_summary": ("interfaces.yaml", "summary: Releases the runtime."),
    "error_meaning": ("types.yaml", "meaning: The call succeeded."),
    "fault_description": ("faults.yaml", "description: aclrtMemset writes only the first half of the requested count."),
    "advisory": (
        "interfaces.yaml",
        "      - Frequent allocate/free pairs are costly; allocate up front or manage a pool.",
    ),
}
# The repro of issue 10: a triple quote in a meaning once closed the raw string the
# bindings embedded the C declarations in, and `import` of the bindings ran `id`.
ISSUE_REPRO = 'x """ + str(__import__("os").system("id")) + r""" y'


def _inject(spec_dir: Path) -> None:
    for key, (name, old) in TARGETS.items():
        field, _, _ = old.strip().partition(":") if not old.strip().startswith("-") else ("", "", "")
        quoted = yaml_quoted(PAYLOADS[key])
        new = f"{field}: {quoted}" if field else f"      - {quoted}"
        edit(spec_dir, name, old, new)


@pytest.fixture()
def hostile_tree(spec_dir: Path, tmp_path: Path) -> Path:
    _inject(spec_dir)
    spec = load_spec(spec_dir)
    assert spec.rule("HM-ALIGN-MALLOC").title == PAYLOADS["rule_title"]
    out = tmp_path / "out"
    write_tree(out, render_all(spec))
    return out


def _imports_and_calls(source: str) -> tuple[set[str], set[str]]:
    tree = ast.parse(source)
    imports = {ast.dump(n) for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))}
    calls = {ast.unparse(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    return imports, calls


def test_python_modules_compile_and_gain_no_code(hostile_tree: Path) -> None:
    modules = sorted(hostile_tree.rglob("*.py"))
    assert len(modules) >= 10
    for module in modules:
        source = module.read_text(encoding="utf-8")
        compile(source, str(module), "exec")
        base = ROOT / "acl_hostmem_generated" / module.relative_to(hostile_tree)
        imports, calls = _imports_and_calls(source)
        base_imports, base_calls = _imports_and_calls(base.read_text(encoding="utf-8"))
        assert imports == base_imports, module
        assert calls == base_calls, module
        assert "os.system" not in calls


def test_injected_prose_survives_as_data(hostile_tree: Path) -> None:
    bindings = ast.parse((hostile_tree / "acl_bindings.py").read_text(encoding="utf-8"))
    strings = {n.value for n in ast.walk(bindings) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    assert any(PAYLOADS["error_meaning"] == s for s in strings)
    assert PAYLOADS["interface_summary"] + " (02_initialization_and_deinitialization.md#aclFinalize)" in strings
    cases = ast.parse((hostile_tree / "cases" / "test_alignment.py").read_text(encoding="utf-8"))
    docs = [ast.get_docstring(n) for n in ast.walk(cases) if isinstance(n, ast.FunctionDef)]
    assert PAYLOADS["rule_title"] in docs
    catalog = json.loads((hostile_tree / "catalog.json").read_text(encoding="utf-8"))
    rule = next(r for r in catalog["rules"] if r["id"] == "HM-ALIGN-MALLOC")
    assert rule["title"] == PAYLOADS["rule_title"] and rule["statement"] == PAYLOADS["rule_statement"]
    fault = next(f for f in catalog["faults"] if f["name"] == "memset_partial")
    assert fault["description"] == PAYLOADS["fault_description"]


def test_jinja_syntax_is_not_evaluated(hostile_tree: Path) -> None:
    texts = {p: p.read_text(encoding="utf-8") for p in hostile_tree.rglob("*") if p.is_file()}
    for path, text in texts.items():
        assert "Q49Q" not in text, path
        assert "Spec'>" not in text and "class 'codegen" not in text, path
    joined = "\n".join(texts.values())
    assert "Q{{ 7*7 }}Q" in joined
    assert "{% raw %}" in joined


def test_c_outputs_still_compile(hostile_tree: Path, cc: str, tmp_path: Path) -> None:
    main = tmp_path / "use_header.c"
    main.write_text(
        '#include "acl_hostmem.h"\n#include "sim/aclsim_faults.h"\nint main(void) { return ACL_SUCCESS; }\n',
        encoding="utf-8",
    )
    flags = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-Wno-unused-variable", "-fsyntax-only"]
    for source in (main, hostile_tree / "abi_check.c"):
        proc = subprocess.run(
            [cc, *flags, "-I", str(hostile_tree / "include"), "-I", str(hostile_tree), str(source)],
            capture_output=True,
            text=True,
        )
        assert proc.returncode == 0, proc.stderr
    header = (hostile_tree / "include" / "acl_hostmem.h").read_text(encoding="utf-8")
    code = re.sub(r"/\*.*?\*/", " ", header, flags=re.DOTALL)  # what the compiler sees outside comments
    assert "pwned" not in code and "passwd" not in code and "ACL_SUCCESS 1" not in code
    assert code.count("#include") == 2


def test_markdown_cells_stay_in_their_table(hostile_tree: Path) -> None:
    md = (hostile_tree / "traceability.md").read_text(encoding="utf-8")
    row = next(line for line in md.splitlines() if line.startswith("| HM-ALIGN-MALLOC "))
    assert row.replace("\\|", "").count("|") == 7
    assert "Q{{ 7\\*7 }}Q" in row


@pytest.mark.parametrize(
    ("file", "old", "new", "path"),
    [
        ("interfaces.yaml", "  - name: aclFinalize\n", '  - name: "x\\"); import os #"\n', "interfaces[10].name"),
        ("interfaces.yaml", "  - name: aclFinalize\n", '  - name: "{{ 7*7 }}"\n', "interfaces[10].name"),
        ("interfaces.yaml", "  - name: aclFinalize\n", '  - name: "aclFinalize\\n"\n', "interfaces[10].name"),
        ("types.yaml", "{name: ACL_RT_HAC_TYPE_CCU,", '{name: "CCU */ int x; /*",', "enums[2].members[9].name"),
        ("interfaces.yaml", "{name: configPath,", '{name: "p, int q",', "interfaces[9].params[0].name"),
        ("interfaces.yaml", "{name: configPath,", '{name: "p\\\\",', "interfaces[9].params[0].name"),
        ("rules.yaml", "  - id: HM-ALIGN-LIVE\n", '  - id: "HM-ALIGN-LIVE\\"); import os #"\n', "rules[2].id"),
        ("rules.yaml", "  - id: HM-ALIGN-LIVE\n", '  - id: "HM-{% raw %}"\n', "rules[2].id"),
        ("faults.yaml", "  - name: align_cfg_off8\n", '  - name: "align\\"; x"\n', "faults[1].name"),
        (
            "types.yaml",
            "{name: ACL_PKG_VERSION_MAX_SIZE, value: 128,",
            '{name: "ACL_X 1\\n#define Y", value: 128,',
            "macros[4].name",
        ),
    ],
)
def test_hostile_identifiers_are_rejected(spec_dir: Path, file: str, old: str, new: str, path: str) -> None:
    edit(spec_dir, file, old, new)
    line = line_of(spec_dir, file, new.strip().split(",")[0][:12])
    find_issue(issues(spec_dir), f"spec/{file}:{line}: {path}: ", "does not match the required form")


def test_the_issue_repro_is_rejected_by_lint(spec_dir: Path) -> None:
    edit(spec_dir, "types.yaml", "meaning: The call succeeded.", f"meaning: {yaml_quoted(ISSUE_REPRO)}")
    line = line_of(spec_dir, "types.yaml", "__import__")
    find_issue(issues(spec_dir), f"spec/types.yaml:{line}: errors[0].meaning: ", 'contains """', "docstring")


@pytest.mark.parametrize("delimiter", ['"""', "\'\'\'", "/*", "*/"])
def test_docstring_and_comment_delimiters_are_rejected_in_prose(spec_dir: Path, delimiter: str) -> None:
    edit(spec_dir, "types.yaml", "meaning: AI CPU.", f"meaning: {yaml_quoted('AI ' + delimiter + ' CPU')}")
    line = line_of(spec_dir, "types.yaml", "ACL_RT_HAC_TYPE_AICPU")
    find_issue(issues(spec_dir), f"spec/types.yaml:{line}: enums[2].members[", f"contains {delimiter} at offset 3")


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("two\nlines", "U+000A"), ("tab\there", "U+0009"), ("nul\x00", "U+0000"), ("bell\x07", "U+0007"),
        ("trailing newline\n", "U+000A"), ("cr\rlf", "U+000D"), ("next\x85line", "U+0085"),
        ("bidi \u202e override", "U+202E RIGHT-TO-LEFT OVERRIDE"), ("isolate \u2066x\u2069", "U+2066"),
        ("zero\u200bwidth", "U+200B ZERO WIDTH SPACE"), ("bom\ufeff", "U+FEFF"), ("line\u2028sep", "U+2028"),
        ("no\u00a0break", "U+00A0 NO-BREAK SPACE"), ("private \ue000", "U+E000"),
    ],
)
def test_invisible_characters_are_rejected_in_prose(spec_dir: Path, text: str, what: str) -> None:
    title = "title: aclrtMallocHost returns a 64-byte aligned pointer"
    edit(spec_dir, "rules.yaml", title, f"title: {yaml_quoted(text)}")
    line = line_of(spec_dir, "rules.yaml", "id: HM-ALIGN-MALLOC") + 1
    find_issue(issues(spec_dir), f"spec/rules.yaml:{line}: rules[0].title: character {what}", "prose may not contain")


def test_generated_python_has_no_raw_strings() -> None:
    # A raw string cannot hold every text (a trailing backslash, its own quotes), so prose never goes into one.
    for module in sorted((ROOT / "acl_hostmem_generated").rglob("*.py")):
        with module.open("rb") as handle:
            for token in tokenize.tokenize(handle.readline):
                if token.type == tokenize.STRING:
                    prefix = token.string[: len(token.string) - len(token.string.lstrip("rRbBuUfF"))]
                    assert "r" not in prefix.lower(), f"{module}:{token.start[0]}: raw string {token.string[:40]}"
