"""Which expectation entries did nothing in a run: a typo or a stale entry must not pass silently."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from acl_hostmem_generated.catalog_types import Catalog

from .matching import glob_match
from .outcomes import CaseResult

if TYPE_CHECKING:  # only the type checker reads these: expectations (and PyYAML) load when a run names a file
    from .expectations import Expectation, WaiverJSON

    class UnusedJSON(WaiverJSON):
        """An entry that did nothing (summary.json's ``expectations.unused``) and why."""

        why: str


def unused_expectations(entries: Iterable[Expectation], catalog: Catalog, results: Iterable[CaseResult],
                        facts: Mapping[str, object], today: datetime.date) -> list[UnusedJSON]:
    """Unexpired entries that waived nothing, each with why: it names nothing in the spec, or it matched no case.

    ``entries`` are :class:`~conformance.results.expectations.Expectation` objects.
    """
    spec_cases = [(c["case_id"], rule["id"]) for rule in catalog["rules"] for c in rule.get("cases", [])]
    ran = [(r.case_id, r.rule_id) for r in results]
    family, soc, cann = (str(facts.get(k) or "") for k in ("product_family", "soc", "cann_version"))
    unused: list[UnusedJSON] = []
    for entry in entries:
        if entry.is_expired(today):
            continue  # listed as expired already
        if not any(_names(entry, cid, rid) for cid, rid in spec_cases):
            why = "names no rule or case of the spec (never applicable)"
        elif not any(entry.applies(cid, rid, family, soc, cann) for cid, rid in ran):
            why = f"matched no case of this run ({family or 'unknown family'}, {soc or 'unknown SoC'}, CANN {cann})"
        else:
            continue
        unused.append({**entry.to_json(), "why": why})
    return unused


def _names(entry: Expectation, case_id: str, rule_id: str) -> bool:
    """Whether the entry's rule or case pattern names this case, whatever product it is limited to."""
    if entry.case is not None:
        return glob_match(entry.case, case_id)
    return entry.rule is not None and glob_match(entry.rule, rule_id)
