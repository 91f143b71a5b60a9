"""Functions a backend does not export: found once when it opens, then a first-class state.

An older CANN can lack a function of the spec (``aclrtHostRegisterV2`` came late). The
bindings open the library in ABI mode, so a missing symbol only shows when it is called.
:func:`missing_functions` asks the library's symbol table for every function of the spec
once, and :func:`stand_in_for_missing` replaces the wrapper of each missing one with a
stand-in that raises at once, saying what the absence means for the product:

- a host-memory function the family does not support (per the spec's support matrix):
  :class:`~conformance.harness.violations.AbsentAsDocumented`, the case is NOT_APPLICABLE;
- one the family supports: :class:`~conformance.harness.violations.MissingFunction`, the
  case FAILs with category ``missing_symbol``;
- a call the harness itself needs: :class:`~conformance.harness.violations.HarnessError`.

A case that never calls the function (a V1-only case, say) is not affected.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NoReturn

from acl_hostmem_generated.acl_bindings import AclLibrary
from acl_hostmem_generated.catalog_types import Catalog, FamilyEntry

from .violations import AbsentAsDocumented, HarnessError, MissingFunction


def exported(raw_lib: object, name: str) -> bool:
    """Whether the opened library (a cffi ``dlopen`` handle) exports ``name``."""
    try:
        getattr(raw_lib, name)
    except AttributeError:
        return False
    return True


def missing_functions(raw_lib: object, names: Iterable[str]) -> tuple[str, ...]:
    """The functions among ``names`` that the library does not export, in the given order."""
    return tuple(name for name in names if not exported(raw_lib, name))


def _stand_in(name: str, kind: type[BaseException], message: str) -> Callable[..., NoReturn]:
    def call(*args: object, **kwargs: object) -> NoReturn:
        raise kind(message)

    call.__name__ = name
    return call


def absence(name: str, catalog: Catalog, family: FamilyEntry) -> tuple[type[BaseException], str]:
    """What a missing function means on this family: the exception a call raises, and its message."""
    interface = catalog["interfaces"].get(name)
    if interface is None or interface["group"] != "host_memory":
        return HarnessError, f"the library does not export {name}, which the harness needs"
    where = f" ({interface['doc_ref']})" if interface["doc_ref"] else ""
    if interface["support"].get(family["id"], True):
        return MissingFunction, f"the library does not export {name}, which {family['name']} supports{where}"
    return AbsentAsDocumented, (f"NOT_APPLICABLE: {name} is not exported, and {family['name']} does not "
                                f"support it{where}")


def stand_in_for_missing(lib: AclLibrary, missing: Iterable[str], catalog: Catalog, family: FamilyEntry) -> None:
    """Replace the wrapper of each missing function on ``lib`` (an AclLibrary) with a stand-in that raises."""
    for name in missing:
        setattr(lib, name, _stand_in(name, *absence(name, catalog, family)))
