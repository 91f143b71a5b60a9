"""pyproject.toml lists every Python package of the kit, so that the wheel misses none."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _toml_list(text: str, key: str) -> set[str]:
    body = re.search(rf"^{key} = \[(.*?)\]", text, re.S | re.M)
    assert body, key
    return set(re.findall(r'"([^"]+)"', body.group(1)))


def test_every_package_is_in_the_wheel():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    tops = ("codegen", "conformance", "acl_hostmem_generated")
    inits = [init for top in tops for init in (ROOT / top).rglob("__init__.py")]
    found = {".".join(init.parent.relative_to(ROOT).parts) for init in inits}
    listed = _toml_list(text, "packages")
    assert found - listed == set(), "add these packages to [tool.setuptools] packages in pyproject.toml"
    mapped = set(re.findall(r'^"([\w.]+)" = "\w+"$', text, re.M))
    assert listed - found == mapped, "every listed package is a folder or a mapped data folder"
