"""``verify``: what the run printed and the files it kept agree with the outcomes in summary.json.

``run.log`` holds the run's console: one line per case that did not pass, its outcome first
(:mod:`conformance.results.caseline`), or, from a run told ``-v`` (and from older bundles),
pytest's short summary: one ``FAILED`` or ``ERROR`` line per such case. A case it lists must
have that outcome in the summary, and a case pytest listed as failed must not be PASS or
NOT_APPLICABLE there (a summary rewritten after the run shows up here). Every folder under
``artifacts/`` must belong to a case of the summary.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from acl_hostmem_generated.catalog_types import Catalog

from ..results.caseline import parse_case_line
from ..results.files import ARTIFACTS_DIR, artifact_folder_name
from ..results.identity import case_id_from_nodeid
from ..results.untrusted import UntrustedFileError, as_object, read_text

#: Outcomes a case that pytest reported as failed can never have.
NOT_AFTER_A_FAILURE = frozenset({"PASS", "NOT_APPLICABLE"})


def _outcomes(summary: Mapping[str, object]) -> dict[str, str]:
    found = {}
    for rule in as_object(summary.get("rules")).values():
        if isinstance(rule, Mapping):
            for case_id, case in as_object(rule.get("cases")).items():
                if isinstance(case, Mapping):
                    found[str(case_id)] = str(case.get("outcome"))
    return found


def check_run_log(bundle: Path, summary: Mapping[str, object], catalog: Catalog) -> list[str]:
    """One line per disagreement between run.log / artifacts/ and the summary's outcomes."""
    problems: list[str] = []
    outcomes = _outcomes(summary)
    rule_ids = [str(r["id"]) for r in catalog.get("rules", [])]
    log = bundle / "run.log"
    if log.is_file():
        try:
            text = read_text(log, root=bundle, errors="replace")
        except UntrustedFileError as exc:
            return [f"run.log: {exc}"]
        for line in text.splitlines():
            printed = parse_case_line(line)
            if printed and printed[1] in outcomes and printed[0] != outcomes[printed[1]]:
                problems.append(f"run.log: the run printed {printed[1]} as {printed[0]}, but summary.json says "
                                f"{outcomes[printed[1]]}")
                continue
            word, _, rest = line.partition(" ")
            if word not in ("FAILED", "ERROR") or "::" not in rest:
                continue
            ids = case_id_from_nodeid(rest.split(" - ", 1)[0].strip(), rule_ids)
            if ids and outcomes.get(ids[0]) in NOT_AFTER_A_FAILURE:
                problems.append(f"run.log: pytest reported {ids[0]} as {word}, but summary.json says "
                                f"{outcomes[ids[0]]}")
    folder = bundle / ARTIFACTS_DIR
    if folder.is_dir() and not folder.is_symlink():
        known = {artifact_folder_name(case_id) for case_id in outcomes}
        for entry in sorted(folder.iterdir()):
            if entry.name not in known:
                problems.append(f"{ARTIFACTS_DIR}/{entry.name}: belongs to no case of summary.json")
    return problems
