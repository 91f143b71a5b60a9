"""Each test of the languages starts and ends with no language chosen (the process default, English here)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance import i18n


@pytest.fixture(autouse=True)
def no_language_chosen(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(i18n.ENV, "en")  # the CLI exports its choice; the test's copy of the environment undoes it
    i18n.reset()
    yield
    i18n.reset()
