"""Load ``spec/*.yaml``: parse with locations, validate, and build the frozen model."""

from __future__ import annotations

import hashlib
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from .bilingual import BilingualChecks
from .errors import SpecError, SpecIssue, Where
from .evidence import Citation, Release, Sources, code_decides, code_level, derive_provenance, weakest
from .evidence_lint import EvidencePolicy
from .hardening import hardening_issues
from .model import (
    Applicability,
    Callback,
    Condition,
    CType,
    Doc,
    Enum,
    EnumMember,
    ErrorCode,
    ErrorExpectation,
    Expectation,
    Family,
    Fault,
    FaultPoint,
    GlossaryTerm,
    Interface,
    Macro,
    Param,
    Resource,
    Rule,
    Since,
    Spec,
    Struct,
    StructMember,
    TeardownStep,
    Typedef,
)
from .observations import observation_issues, rule_observations
from .release_checks import ReleaseChecks
from .state_model import build_state_model
from .validate import CrossReferences, Document, schema_issues
from .yamlload import load_yaml

# Each spec file and the schema that validates it. All are required.
SPEC_FILES: dict[str, str] = {
    "types.yaml": "types",
    "products.yaml": "products",
    "interfaces.yaml": "interfaces",
    "rules.yaml": "rules",
    "faults.yaml": "faults",
    "observations.yaml": "observations",
    "state_model.yaml": "state_model",
    "glossary.yaml": "glossary",
}


def _display(path: Path) -> str:
    """The path as the user would type it: relative below the working directory, else absolute."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path.resolve())
    return str(path.resolve()) if rel.startswith("..") else rel


def _outside(path: Path, spec_dir: Path) -> str:
    """Why ``path`` must not be read as part of ``spec_dir`` (a link leading out of it), or ""."""
    target = path.resolve()
    if target.is_relative_to(spec_dir.resolve()):
        return ""
    return f"is a symbolic link to {_display(target)}, outside the spec directory; spec files must live in it"


def spec_hash(spec_dir: Path) -> str:
    """SHA-256 over the spec files' names and bytes, in a fixed order (hex, 16 chars)."""
    digest = hashlib.sha256()
    for name in sorted(SPEC_FILES):
        path = spec_dir / name
        if path.exists():
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def read_documents(spec_dir: Path) -> dict[str, Document]:
    """Parse and schema-check every spec file; raises SpecError listing all problems."""
    issues: list[SpecIssue] = []
    docs: dict[str, Document] = {}
    if not spec_dir.is_dir():
        raise SpecError([SpecIssue(Where(_display(spec_dir), 1, ""), "spec directory not found")])
    for extra in sorted(spec_dir.glob("*.y*ml")):
        if extra.name not in SPEC_FILES:
            issues.append(SpecIssue(Where(_display(extra), 1, ""),
                                    f"unexpected spec file (expected: {', '.join(sorted(SPEC_FILES))})"))
    for name, kind in SPEC_FILES.items():
        path = spec_dir / name
        display = _display(path)
        if not path.exists():
            issues.append(SpecIssue(Where(display, 1, ""), "required spec file is missing"))
            continue
        outside = _outside(path, spec_dir)
        if outside:
            issues.append(SpecIssue(Where(display, 1, ""), outside))
            continue
        data, parse_issues = load_yaml(path, display)
        issues += parse_issues
        if data is None:
            if not parse_issues:
                issues.append(SpecIssue(Where(display, 1, ""), "file is empty"))
            continue
        doc = Document(display, kind, data)
        issues += schema_issues(doc)
        docs[kind] = doc
    if issues:
        raise SpecError(issues)
    return docs


def load_spec(spec_dir: Path, checks_dir: Path | None = None) -> Spec:
    """Load, validate and model the spec in ``spec_dir``; raises SpecError when invalid. With
    ``checks_dir``, every rule's ``check:`` must name a procedure defined there that takes its matrix."""
    docs = read_documents(spec_dir)
    issues = (CrossReferences(docs).run() + observation_issues(docs) + EvidencePolicy(docs).run()
              + ReleaseChecks(docs).run() + BilingualChecks(docs).run())
    if issues:
        raise SpecError(issues)
    issues = hardening_issues(docs, checks_dir)  # these rules rely on the names resolving
    if issues:
        raise SpecError(issues)
    spec = _build(docs, spec_hash(spec_dir))
    issues = spec.state_model.policy_issues() if spec.state_model else []
    if issues:
        raise SpecError(issues)
    return spec


def _doc(raw: dict[str, Any] | None) -> Doc | None:
    return Doc(raw["page"], raw["anchor"]) if raw else None


def _build(docs: dict[str, Document], digest: str) -> Spec:
    types = docs["types"].data
    rules_doc = docs["rules"]
    matrices = {k: tuple(v) for k, v in rules_doc.data["matrices"].items()}
    # Matrix references may also name every member of an enum or the nine interfaces.
    refs: dict[str, tuple[Any, ...]] = dict(matrices)
    refs.update({f"enum:{e['name']}": tuple(m["name"] for m in e["members"]) for e in types["enums"]})
    refs["host_memory_interfaces"] = tuple(
        i["name"] for i in docs["interfaces"].data["interfaces"] if i["group"] == "host_memory"
    )
    observed = rule_observations(docs["observations"])
    rules = tuple(
        replace(_rule(rules_doc, i, raw, refs), observations=observed.get(raw["id"], ()))
        for i, raw in enumerate(rules_doc.data["rules"])
    )
    state_model = build_state_model(docs["state_model"], {r.id: r for r in rules})
    return Spec(
        spec_hash=digest,
        files=tuple(d.name for d in docs.values()),
        abi=types["abi"],
        errors=tuple(ErrorCode(e["name"], e["value"], e["class"], e["form"], e["meaning"]) for e in types["errors"]),
        typedefs=tuple(Typedef(t["name"], CType.parse(t["type"])) for t in types["typedefs"]),
        callbacks=tuple(
            Callback(
                c["name"], CType.parse(c["returns"]), tuple((p["name"], CType.parse(p["type"])) for p in c["params"])
            )
            for c in types["callbacks"]
        ),
        macros=tuple(Macro(m["name"], m["value"], m["suffix"], m["meaning"]) for m in types["macros"]),
        enums=tuple(
            Enum(
                e["name"],
                tuple(EnumMember(m["name"], m["value"], m["meaning"], m.get("reserved", False)) for m in e["members"]),
                e.get("tag"),
                _doc(e.get("doc")),
            )
            for e in types["enums"]
        ),
        structs=tuple(
            Struct(
                s["name"], s["kind"], s["size"], s["align"],
                tuple(
                    StructMember(
                        m["name"], CType.parse(m["type"]), m["offset"], m["meaning"],
                        m.get("array"), m.get("selected_by"),
                    )
                    for m in s["members"]
                ),
                _doc(s.get("doc")),
            )
            for s in types["structs"]
        ),
        interfaces=tuple(
            _interface(docs["interfaces"], i, raw) for i, raw in enumerate(docs["interfaces"].data["interfaces"])
        ),
        families=tuple(
            Family(f["id"], f["name"], f["doc_tag"], tuple(f["soc_patterns"]), f["sample_soc"], f["va_flag"],
                   f["device_run_mode"], f.get("confirmed", True), f["driver"], f["name_zh"])
            for f in docs["products"].data["families"]
        ),
        rules=rules + state_model.rules,
        faults=tuple(
            Fault(f["name"], f["family"], tuple(f.get("violates", [])), f["description"], f.get("soc"),
                  tuple(sorted(f.get("env", {}).items())), f.get("legal", False), tuple(f.get("covers", [])),
                  tuple(f.get("families", [])), tuple(tuple(sorted(e.items())) for e in f.get("environments", [])),
                  f.get("since"), tuple(f.get("points", [])))
            for f in docs["faults"].data["faults"]
        ),
        fault_points=tuple(
            FaultPoint(p["name"], p["kind"], tuple(p["sites"]), p["description"])
            for p in docs["faults"].data.get("points", [])
        ),
        matrices=tuple(matrices.items()),
        matrix_interfaces=tuple(sorted(rules_doc.data.get("matrix_interfaces", {}).items())),
        sources=_sources(rules_doc.data["sources"]),
        retired=tuple((r["id"], r["reason"]) for r in rules_doc.data.get("retired", [])),
        state_model=state_model,
        setup_promises=tuple(sorted((step, p["rule"]) for step, p in rules_doc.data["setup_promises"].items())),
        promise_calls=tuple(sorted((call, step) for step, p in rules_doc.data["setup_promises"].items()
                                   for call in p.get("calls", []))),
        promise_codes=tuple(sorted((code, step) for step, p in rules_doc.data["setup_promises"].items()
                                   for code in p.get("codes", []))),
        resources=tuple(Resource(name, tuple(r["acquired_by"]), r["handle"], tuple(r["released_by"]),
                                 r.get("per_device", False))
                        for name, r in docs["interfaces"].data["resources"].items()),
        teardown=_teardown(docs["interfaces"].data["teardown"]),
        glossary=tuple(GlossaryTerm(g["id"], g["en"], g["zh"], tuple(g.get("en_variants", [])),
                                    tuple(g.get("zh_variants", [])), g.get("source"), g.get("note", ""))
                       for g in docs["glossary"].data["terms"]),
    )


def _teardown(raw: list[dict[str, str]]) -> tuple[TeardownStep, ...]:
    """The steps in order; a resource's last step is the one that gives it back."""
    last = {step["resource"]: i for i, step in enumerate(raw)}
    return tuple(TeardownStep(s["resource"], s["call"], last[s["resource"]] == i) for i, s in enumerate(raw))


def _sources(raw: dict[str, Any]) -> Sources:
    releases = tuple(Release(r["name"], r["commit"], r["docs"], r.get("tag", ""), r.get("date", ""),
                             r.get("driver", ""), r.get("note", ""), r.get("acl_api", ""), r.get("branch", ""),
                             r.get("driver_tag", ""))
                     for r in raw.get("releases", []))
    return Sources(raw["runtime"]["commit"], raw["docs"]["snapshot"], raw.get("driver", {}).get("commit", ""),
                   releases)


def _since(raw: dict[str, Any] | None) -> Since | None:
    return Since(raw["release"], _citations(raw["evidence"])) if raw else None


def _interface(doc: Document, index: int, raw: dict[str, Any]) -> Interface:
    params = []
    for p in raw["params"]:
        sample = p.get("sample")
        params.append(
            Param(
                p["name"], CType.parse(p["type"]), p["direction"], p["nullable"],
                tuple(_freeze(c) for c in p.get("constraints", [])),
                next(iter(_freeze(sample))) if sample else None,
                p.get("buffer"),
            )
        )
    return Interface(
        name=raw["name"],
        group=raw["group"],
        summary=raw["summary"],
        returns=CType.parse(raw["returns"]),
        doc=Doc(raw["doc"]["page"], raw["doc"]["anchor"]),
        params=tuple(params),
        support=tuple(sorted(raw.get("support", {}).items())),
        pairs_with=tuple(raw.get("pairs_with", [])),
        implicit_sync=raw.get("implicit_sync", "none"),
        advisories=tuple(raw.get("advisories", [])),
        support_disputed=tuple(raw.get("support_disputed", [])),
        where=doc.where(["interfaces", index]),
        since=_since(raw.get("since")),
        declared_since=_since(raw.get("declared_since")),
        support_since=tuple(sorted((family, Since(s["release"], _citations(s["evidence"])))
                                   for family, s in raw.get("support_since", {}).items())),
    )


def _freeze(value: Any) -> Any:
    """Plain, hashable copies of nested spec data (dicts become sorted item tuples)."""
    if isinstance(value, dict):
        return tuple((k, _freeze(v)) for k, v in value.items())
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


Matrix = tuple[tuple[str, tuple[Any, ...]], ...]


def _resolve_matrix(raw: dict[str, Any], matrices: dict[str, tuple[Any, ...]]) -> Matrix:
    out = []
    for key, value in raw.items():
        items = [value] if isinstance(value, str) else list(value)
        values: list[Any] = []
        for item in items:
            if isinstance(item, str) and item.startswith("@"):
                values.extend(matrices[item[1:]])
            else:
                values.append(item)
        out.append((key, tuple(values)))
    return tuple(out)


def _citations(raw: list[dict[str, str]] | None) -> tuple[Citation, ...]:
    return tuple(Citation.parse(c) for c in raw or [])


def _expectation(raw: dict[str, Any] | None, severity: str) -> Expectation | None:
    """The expected code with its provenance and the level it is judged at (None: any failure)."""
    if raw is None:
        return None
    evidence = _citations(raw["evidence"])
    provenance = derive_provenance(evidence)
    return Expectation(raw["name"], provenance, code_level(severity, provenance), code_decides(severity, provenance),
                       evidence, raw.get("strict", False))


def _rule(doc: Document, index: int, raw: dict[str, Any], matrices: dict[str, tuple[Any, ...]]) -> Rule:
    applies_raw = raw.get("applies", {})
    kernel = applies_raw.get("kernel", {})
    host_page = applies_raw.get("host_page", {})
    severity = raw["severity"]
    errors = []
    for err in raw.get("errors", []):
        when = dict(err["when"])
        param = when.pop("param")
        kind, value = next(iter(when.items()))
        evidence = _citations(err["evidence"])
        errors.append(ErrorExpectation(Condition(param, kind, value), evidence, derive_provenance(evidence),
                                       _expectation(err.get("code"), severity), _since(err.get("since"))))
    evidence = _citations(raw.get("evidence"))
    # A rule with its own citations takes their provenance; an invalid-argument rule without
    # them is as strong as its weakest condition.
    provenance = derive_provenance(evidence) if evidence else weakest(e.provenance for e in errors)
    return Rule(
        id=raw["id"],
        title=raw["title"],
        statement=raw["statement"],
        title_zh=raw["title_zh"],
        statement_zh=raw["statement_zh"],
        zh_source=raw.get("zh_source"),
        family=raw["family"],
        check=raw["check"],
        severity=severity,
        doc=Doc(raw["doc"]["page"], raw["doc"]["anchor"]),
        provenance=provenance,
        evidence=evidence,
        interfaces=tuple(raw.get("interfaces", [])),
        applies=Applicability(
            reason=applies_raw.get("reason", ""),
            reason_zh=applies_raw.get("reason_zh", ""),
            families=tuple(applies_raw.get("families", [])),
            run_mode=applies_raw.get("run_mode"),
            min_devices=applies_raw.get("min_devices"),
            va_flag=applies_raw.get("va_flag"),
            kernel_at_most=kernel.get("at_most"),
            kernel_above=kernel.get("above"),
            drivers=tuple(applies_raw.get("driver", [])),
            host_page_at_most=host_page.get("at_most"),
            host_page_above=host_page.get("above"),
            host_alloc=applies_raw.get("host_alloc"),
        ),
        needs=tuple(raw.get("needs", [])),
        also=tuple(tuple((key, extra[key]) for key in raw.get("matrix", {})) for extra in raw.get("also", [])),
        matrix=_resolve_matrix(raw.get("matrix", {}), matrices),
        expect=_expectation(raw.get("code"), severity),
        errors=tuple(errors),
        where=doc.where(["rules", index]),
        since=_since(raw.get("since")),
        until=_since(raw.get("until")),
        matrix_since=tuple((key, str(value), Since(claim["release"], _citations(claim["evidence"])))
                           for key, values in raw.get("matrix_since", {}).items() for value, claim in values.items()),
    )
