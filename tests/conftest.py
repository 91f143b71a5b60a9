"""Fixtures every stage's tests may use; its folder on sys.path lets them share tests/bundle_helpers.py.

Synthetic summaries are built from acl_hostmem_generated/catalog.json (every case PASS
unless told otherwise), for the logic of verdicts, bundles, comparison and drift.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from bundle_helpers import build_summary

from conformance import i18n
from conformance.certify.bundle import DEFAULT_CATALOG

# The tests that compare the kit's texts compare its English ones, whatever the developer's locale
# (LANG=zh_CN.UTF-8 would otherwise make every run speak Chinese); tests/i18n chooses languages itself.
os.environ["ACL_LANG"] = "en"


@pytest.fixture(autouse=True)
def no_language_chosen(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test starts and ends with no language chosen: a test that chose one (``cli.main(["--lang", ...])``
    exports it, as the CLI does) leaves none behind."""
    monkeypatch.setenv(i18n.ENV, "en")
    i18n.reset()
    yield
    i18n.reset()


@pytest.fixture(scope="session")
def catalog() -> dict[str, Any]:
    return json.loads(DEFAULT_CATALOG.read_text(encoding="utf-8"))


@pytest.fixture
def make_summary(catalog: dict[str, Any]) -> Any:
    def make(outcomes: dict[str, Any] | None = None, **env: Any) -> dict[str, Any]:
        return copy.deepcopy(build_summary(catalog, outcomes, **env))

    return make
