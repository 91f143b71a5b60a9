"""The package layout shows the architecture: one sub-package per stage, imports only backwards.

``conformance/`` holds only ``__init__``, ``__main__`` and ``cli`` at its top level; every
other module sits in a stage package whose ``__init__`` docstring names its job. A module
may import its own stage and earlier stages, never a later stage or a sibling of its rank.
The checker reads the source with :mod:`ast`, so imports inside functions count too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "conformance"

#: Stage -> rank; a module may import a stage of lower rank or its own stage, nothing else.
STAGES: dict[str, int] = {
    "i18n": -1,  # the message catalogue: every stage speaks through it, it imports none
    "harness": 0,
    "checks": 1,
    "results": 2,
    "executor": 3,
    "session": 4,
    "certify": 5,
    "gate": 5,
    "fleet": 6,
    "selftest": 6,
}
TOP_LEVEL = {"__init__.py", "__main__.py", "cli.py"}


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported_modules(path: Path, root: Path) -> list[tuple[int, list[str]]]:
    """(line, absolute module names it may import) of every import statement, relative ones resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    name = _module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.append((node.lineno, [alias.name for alias in node.names]))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # ``from . import x`` / ``from .. import results`` name modules too.
            found.append((node.lineno, [target] + [f"{target}.{alias.name}" for alias in node.names]))
    return found


def _stage(module: str) -> str | None:
    parts = module.split(".")
    if len(parts) < 2 or parts[0] != PACKAGE:
        return None
    return parts[1] if parts[1] in STAGES else None


def layering_problems(root: Path) -> list[str]:
    """Every violation of the layout under ``root/conformance``, one line each."""
    base = root / PACKAGE
    problems = []
    for path in sorted(base.glob("*.py")):
        if path.name not in TOP_LEVEL:
            problems.append(f"{path.relative_to(root)}: module at the top level of {PACKAGE}/ (put it in a stage)")
    for folder in sorted(p for p in base.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))):
        if not any(folder.glob("*.py")):
            continue
        if folder.name not in STAGES:
            problems.append(f"{folder.relative_to(root)}/: a package that is not a known stage")
            continue
        init = folder / "__init__.py"
        if not init.is_file() or not ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))):
            problems.append(f"{init.relative_to(root)}: the stage's docstring naming its job is missing")
    for path in sorted(base.rglob("*.py")):
        own = _stage(_module_name(path, root))
        if own is None:
            continue
        for line, targets in _imported_modules(path, root):
            for target in targets:
                other = _stage(target)
                if other is not None and other != own and STAGES[other] >= STAGES[own]:
                    problems.append(f"{path.relative_to(root)}:{line}: stage {own!r} imports {target} "
                                    f"from stage {other!r}, which does not come before it")
                    break
    return problems


def test_the_kit_follows_the_flow():
    assert layering_problems(ROOT) == []


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        target = tmp_path / PACKAGE / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return tmp_path


GOOD = {
    "__init__.py": '"""kit"""\n',
    "cli.py": "from .gate import command\n",
    **{f"{stage}/__init__.py": f'"""Stage {stage}."""\n' for stage in STAGES},
    "harness/context.py": "import os\n",
    "results/summary.py": "from ..harness import context\nfrom . import outcomes\n",
    "results/outcomes.py": "",
}


def test_a_synthetic_kit_that_follows_the_flow_passes(tmp_path):
    assert layering_problems(_tree(tmp_path, GOOD)) == []


@pytest.mark.parametrize("module, source", [
    ("harness/context.py", "from ..results.summary import build_summary\n"),
    ("harness/context.py", "def late():\n    from conformance.session import plugin\n"),
    ("results/summary.py", "import conformance.certify.verdict\n"),
    ("certify/bundle.py", "from ..gate import compare\n"),
    ("checks/pairing.py", "from .. import results\n"),
], ids=["relative", "inside-a-function", "absolute", "sibling-stage", "package-import"])
def test_a_backwards_import_is_reported(tmp_path, module, source):
    problems = layering_problems(_tree(tmp_path, {**GOOD, module: source}))
    assert len(problems) == 1 and module in problems[0] and "does not come before it" in problems[0], problems


def test_a_loose_top_level_module_and_a_missing_docstring_are_reported(tmp_path):
    problems = layering_problems(_tree(tmp_path, {**GOOD, "plugin.py": "", "gate/__init__.py": ""}))
    assert any("plugin.py: module at the top level" in p for p in problems)
    assert any("gate/__init__.py: the stage's docstring" in p for p in problems)


#: Packages below the kit: they may not import it (the kit builds on them, never the other way).
BELOW_THE_KIT = ("acl_hostmem_generated", "codegen")


def imports_of_the_kit(root: Path, package: str) -> list[str]:
    """Every import of ``conformance`` in the package ``root/package``, one line each."""
    found = []
    for path in sorted((root / package).rglob("*.py")):
        for line, targets in _imported_modules(path, root):
            if any(t == PACKAGE or t.startswith(PACKAGE + ".") for t in targets):
                found.append(f"{path.relative_to(root)}:{line}: imports the kit ({PACKAGE})")
    return found


@pytest.mark.parametrize("package", BELOW_THE_KIT)
def test_the_generated_package_and_the_generator_do_not_import_the_kit(package):
    """The generated cases name their check procedures instead of importing them; the generator reads none."""
    assert imports_of_the_kit(ROOT, package) == []


def test_an_import_of_the_kit_below_it_is_reported(tmp_path):
    (tmp_path / "codegen").mkdir()
    (tmp_path / "codegen" / "render.py").write_text("from conformance.checks import pairing\n", encoding="utf-8")
    assert imports_of_the_kit(tmp_path, "codegen") == ["codegen/render.py:1: imports the kit (conformance)"]
