"""Render the spec model into the files of the generated package (:data:`OUTPUT_PACKAGE`).

Templates only lay text out; every spec string that reaches generated code passes through
the escaper of its destination (:mod:`codegen.escape`: Python literal or docstring, C string
or comment, Markdown cell, code span or link), or is an identifier the schema validated.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jinja2

from .cases import Case, all_cases
from .escape import c_comment, c_string, md, md_code, md_url, py_docstring, py_literal
from .evidence import SNAPSHOT_KEY, Release
from .model import RULE_FAMILY_DOCS, Spec
from .pyview import output_cells, py_wrapper
from .state_model import EXPLORER_FAMILY
from .vocabulary import vocabulary

TEMPLATE_DIR = Path(__file__).parent / "templates"
#: The bindings' spec-independent half, written by hand and shipped beside the generated module.
RUNTIME_MODULE = Path(__file__).parent / "runtime" / "acl_runtime.py"
#: The Python package the generated files form (its directory name; the kit imports it by this name).
OUTPUT_PACKAGE = "acl_hostmem_generated"
REGENERATE = "python -m codegen generate"


def shipped_module(banner: str, source: Path) -> str:
    """A hand-written module as the generated package carries it: the banner, then the file unchanged
    (edit ``codegen/runtime/``, not the copy; ``codegen check`` finds a copy that differs)."""
    return f"# {banner}\n# Copied from codegen/runtime/{source.name}.\n" + source.read_text(encoding="utf-8")


def banner_line(spec: Spec) -> str:
    """The one-line provenance every generated file starts with."""
    return f"Generated from spec {spec.spec_hash} by codegen; do not edit. Regenerate: {REGENERATE}"


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATE_DIR)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(c_comment=c_comment, py=py_literal, py_doc=py_docstring, c_string=c_string, md=md,
                       md_code=md_code, md_url=md_url)
    return env


def expect_literal(spec: Spec, case: Case) -> dict[str, Any] | None:
    """The code expectation handed to a check: the code, its provenance and the level it is judged at."""
    if case.expect is None:
        return None
    code = case.expect.code
    return {
        "code": code,
        "value": spec.error(code).value,
        "provenance": case.expect.provenance,
        "severity": case.expect.level,
        "decides": case.expect.decides,
    }


def evidence_literal(spec: Spec, citations: Any) -> list[dict[str, Any]]:
    """Citations as catalog data: kind, reference, link at the pinned commit, paraphrase, stance."""
    return [{"kind": c.kind, "ref": c.ref, "url": c.url(spec.sources), "says": c.says, "stance": c.stance}
            for c in citations]


def _sample(sample: tuple[str, Any] | None) -> dict[str, Any] | None:
    if sample is None:
        return None
    kind, value = sample
    return {kind: dict(value) if isinstance(value, tuple) else value}


def catalog(spec: Spec, cases: dict[str, list[Case]]) -> dict[str, Any]:
    """The machine-readable view of the spec that the harness and reports read."""
    return {
        "_generated": banner_line(spec),
        "spec_hash": spec.spec_hash,
        "families": [
            {"id": f.id, "name": f.name, "name_zh": f.name_zh, "soc_patterns": list(f.soc_patterns),
             "sample_soc": f.sample_soc, "va_flag": f.va_flag, "device_run_mode": f.device_run_mode,
             "confirmed": f.confirmed, "driver": f.driver}
            for f in spec.families
        ],
        "interfaces": {
            i.name: {"group": i.group, "summary": i.summary, "doc_url": i.doc.url, "doc_ref": i.doc.ref,
                     "support": dict(i.support), "support_disputed": list(i.support_disputed),
                     "since": i.since.release if i.since else None,
                     "exported_since": i.exported_since,
                     "support_since": {family: claim.release for family, claim in i.support_since},
                     "implicit_sync": i.implicit_sync,
                     "params": [{"name": p.name, "type": p.ctype.spelled, "direction": p.direction,
                                 "nullable": p.nullable, "sample": _sample(p.sample)} for p in i.params]}
            for i in spec.interfaces
        },
        "errors": {e.name: e.value for e in spec.errors},
        "sources": {"runtime_repo": "hicann/runtime", "runtime_commit": spec.sources.runtime_commit,
                    "docs_snapshot": spec.sources.docs_snapshot, "driver_repo": "hicann/driver",
                    "driver_commit": spec.sources.driver_commit},
        "releases": [{"name": r.name, "tag": r.tag, "branch": r.branch, "commit": r.commit, "docs": r.docs,
                      "date": r.date, "acl_api": r.acl_api, "note": r.note} for r in spec.releases],
        "matrix_interfaces": dict(spec.matrix_interfaces),
        "setup_promises": dict(spec.setup_promises),
        "promise_calls": dict(spec.promise_calls),
        "promise_codes": _promise_codes(spec),
        "rules": [
            {
                "id": r.id, "title": r.title, "statement": r.statement, "title_zh": r.title_zh,
                "statement_zh": r.statement_zh, "zh_source": r.zh_source, "family": r.family, "check": r.check,
                "severity": r.severity, "interfaces": list(r.interfaces), "provenance": r.provenance,
                "evidence": evidence_literal(spec, r.citations),
                "doc_url": r.doc.url, "doc_ref": r.doc.ref,
                "applies": r.applies.to_json(),
                "needs": list(r.needs),
                # What the rule's cases may call beyond its interfaces: the explorer calls every
                # interface the state model predicts, so a product a release does not document is
                # outside that release's contract for it.
                "calls": list(spec.state_model.interfaces) if r.family == EXPLORER_FAMILY and spec.state_model else [],
                "since": spec.earliest([spec.case_since(r, c.kwargs) for c in cases[r.id]]),
                "until": r.until.release if r.until else None,
                "observations": [o.to_json() for o in r.observations],
                "cases": [
                    {"case_id": c.case_id, "param_id": c.param_id, "params": c.kwargs,
                     "expect": expect_literal(spec, c), "since": spec.case_since(r, c.kwargs)}
                    for c in cases[r.id]
                ],
            }
            for r in spec.rules
        ],
        "faults": [
            {"name": f.name, "family": f.family, "violates": list(f.violates), "description": f.description,
             "soc": f.soc, "env": dict(f.env), "legal": f.legal, "covers": list(f.covers),
             "families": list(f.families), "environments": [dict(e) for e in f.environments], "since": f.since}
            for f in spec.faults
        ],
        # The kit's vocabulary in both languages: the Chinese words a person reads next to the English
        # tokens of machine output (outcomes, verdicts, severities), and the official pages' terms.
        "glossary": [g.to_json() for g in spec.glossary],
    }


def render_all(spec: Spec) -> dict[str, str]:
    """Every generated file, keyed by path relative to the generated package."""
    env = _environment()
    cases = all_cases(spec)
    ctx: dict[str, Any] = {
        "spec": spec,
        "banner": banner_line(spec),
        "cases": cases,
        "wrappers": {i.name: py_wrapper(spec, i) for i in spec.interfaces},
        "output_cells": output_cells(spec),
        "expect_of": lambda case: expect_literal(spec, case),
        "package": OUTPUT_PACKAGE,
        "evidence_of": lambda citations: evidence_literal(spec, citations),
        "model": spec.state_model,
        "code_value": lambda name: spec.error(name).value if name else None,
        "release_c_name": release_c_name,
        "release_c_key": release_c_key,
        "snapshot_key": SNAPSHOT_KEY[0],
        "vocabulary": vocabulary(spec),
    }
    files: dict[str, str] = {
        "__init__.py": env.get_template("package_init.py.j2").render(ctx),
        "acl_hostmem.cdef": env.get_template("cdef.j2").render(ctx),
        "include/acl_hostmem.h": env.get_template("header.h.j2").render(ctx),
        "include/acl/acl.h": env.get_template("acl_shim.h.j2").render(ctx),
        "abi_check.c": env.get_template("abi_check.c.j2").render(ctx),
        "acl_bindings.py": env.get_template("bindings.py.j2").render(ctx),
        "acl_runtime.py": shipped_module(ctx["banner"], RUNTIME_MODULE),
        "traceability.md": env.get_template("traceability.md.j2").render(ctx),
        "sim/aclsim_faults.h": env.get_template("aclsim_faults.h.j2").render(ctx),
        "sim/aclsim_releases.h": env.get_template("aclsim_releases.h.j2").render(ctx),
        "state_model.py": env.get_template("state_model.py.j2").render(ctx),
        "catalog.json": json.dumps(catalog(spec, cases), indent=1, sort_keys=False) + "\n",
        "catalog_types.py": env.get_template("catalog_types.py.j2").render(ctx),
        "teardown.py": env.get_template("teardown.py.j2").render(ctx),
        "cases/__init__.py": env.get_template("package_init.py.j2").render(ctx),
    }
    for family in spec.rule_families:
        rules = [r for r in spec.rules if r.family == family]
        files[f"cases/test_{family}.py"] = env.get_template("cases/module.py.j2").render(
            ctx, family=family, doc=RULE_FAMILY_DOCS[family], rules=rules)
    exports = env.get_template("release_exports.map.j2")
    for release in spec.releases[:-1]:  # the newest release's build is the plain simulator
        files[f"sim/exports-{release.name}.map"] = exports.render(ctx, release=release,
                                                                  hidden=release_hidden(spec, release))
    return files


def _promise_codes(spec: Spec) -> dict[str, str]:
    """aclError value (as a JSON key) -> the set-up step whose promise a needed call answering it breaks."""
    values = {e.name: e.value for e in spec.errors}
    return {str(values[name]): step for name, step in spec.promise_codes}


def release_c_name(name: str) -> str:
    """The C enumerator of a release: ``9.1.0`` -> ``ACLSIM_REL_9_1_0``, ``9.2.0-beta.2`` ->
    ``ACLSIM_REL_9_2_0_BETA_2``, ``master@681ef7610`` -> ``ACLSIM_REL_MASTER_681EF7610``."""
    return "ACLSIM_REL_" + re.sub(r"[^0-9A-Za-z]", "_", name).upper()


def release_c_key(release: Release) -> str:
    """The ordering key of a release as a C initializer of five numbers (a snapshot's is one large number
    and zeros): ``9.2.0-beta.2`` -> ``{9, 2, 0, 1, 2}``."""
    parts = list(release.key) + [0] * (5 - len(release.key))
    return "{" + ", ".join(str(n) for n in parts) + "}"


def release_hidden(spec: Spec, release: Release) -> list[str]:
    """The nine interfaces ``release`` does not declare yet (its simulator build does not export them)."""
    order = {r.name: r.key for r in spec.releases}
    return [i.name for i in spec.host_memory_interfaces
            if i.exported_since in order and order[i.exported_since] > release.key]
