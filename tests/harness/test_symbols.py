"""Missing functions as a state of the backend: detection, and what a call of one means per family."""

from __future__ import annotations

import json

import pytest
from kit_runs import ROOT

from conformance.harness.symbols import missing_functions, stand_in_for_missing
from conformance.harness.violations import AbsentAsDocumented, HarnessError, MissingFunction
from conformance.results.outcomes import Category, Outcome, PhaseResult, classify

CATALOG = json.loads((ROOT / "acl_hostmem_generated" / "catalog.json").read_text())
FAMILIES = {f["id"]: f for f in CATALOG["families"]}


class RawLib:
    """A cffi dlopen handle that exports only some names."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def __getattr__(self, name: str) -> object:
        if name in self.names:
            return lambda *args: 0
        raise AttributeError(f"function/symbol '{name}' not found in library")


class Library:
    """Stands for an AclLibrary: one wrapper method per function."""

    def aclrtHostRegisterV2(self, *args: object) -> int:  # noqa: N802 - the C name
        return 0


def test_missing_functions_come_from_the_symbol_table_in_spec_order():
    names = list(CATALOG["interfaces"])
    raw = RawLib(set(names) - {"aclrtHostRegisterV2", "aclrtMemset"})
    assert missing_functions(raw, names) == tuple(n for n in names if n in ("aclrtHostRegisterV2", "aclrtMemset"))


@pytest.mark.parametrize(
    ("family", "name", "error", "outcome"),
    [
        ("atlas_a2", "aclrtHostRegisterV2", MissingFunction, Outcome.FAIL),
        ("atlas_inference", "aclrtHostRegisterV2", AbsentAsDocumented, Outcome.NOT_APPLICABLE),
        ("atlas_a2", "aclrtMemset", HarnessError, Outcome.ERROR),
    ],
)
def test_a_call_of_a_missing_function_raises_what_its_absence_means(family, name, error, outcome):
    lib = Library()
    stand_in_for_missing(lib, [name], CATALOG, FAMILIES[family])
    with pytest.raises(error) as info:
        getattr(lib, name)(1, 2, raw=True)
    skipped = isinstance(info.value, pytest.skip.Exception)
    phase = PhaseResult("call", "skipped" if skipped else "failed", type(info.value).__name__,
                        str(info.value.msg if skipped else info.value))
    result = classify([phase], f"HM-X[{name}]", "HM-X")
    assert result.outcome is outcome
    if outcome is Outcome.FAIL:
        assert result.category is Category.MISSING_SYMBOL and "which Atlas A2" in result.message
