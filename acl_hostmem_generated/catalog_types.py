# Generated from spec 5d3dcfc70eb619e5 by codegen; do not edit. Regenerate: python -m codegen generate
"""The shape of catalog.json, generated from the spec's vocabularies and the catalog's writer.

Read-only TypedDicts rather than classes: the catalog stays one JSON document that the kit,
the wheel and reports from elsewhere all read, and a stage that reads it gets checked keys
and value types without a copy. The literal types are the closed sets the spec dialect
allows; a value outside them is a stale catalog, which ``codegen check`` reports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypedDict, final

if TYPE_CHECKING:  # only the type checker reads ReadOnly: the annotations stay strings at run time
    from typing_extensions import ReadOnly

#: The rule families (one generated case module each).
RuleFamily = Literal['alignment', 'capability', 'content', 'explorer', 'invalid_argument', 'pairing', 'product_support', 'sync', 'va_identity']
#: The product families of the support matrix.
ProductFamily = Literal['ascend_950', 'atlas_a3', 'atlas_a2', 'atlas_200i_500_a2', 'atlas_inference', 'atlas_training', 'ipv350']
#: Severities, strongest first.
Severity = Literal['mandatory', 'recommended', 'advisory', 'informational']
#: Where a rule's or a code's evidence comes from.
Provenance = Literal['documented', 'runtime-source', 'driver-source', 'conflict', 'unspecified']
CitationKind = Literal['doc', 'src', 'drv']
Stance = Literal['supports', 'contradicts', 'silent']
Direction = Literal['in', 'out']
ImplicitSync = Literal['none', 'device']
#: A case's matrix cell: parameter name -> value.
CaseParams = dict[str, bool | int | str]


class FamilyEntry(TypedDict):
    """A product family."""

    id: ReadOnly[ProductFamily]
    name: ReadOnly[str]
    name_zh: ReadOnly[str]
    soc_patterns: ReadOnly[list[str]]
    sample_soc: ReadOnly[str]
    va_flag: ReadOnly[bool]
    device_run_mode: ReadOnly[bool]
    confirmed: ReadOnly[bool]
    driver: ReadOnly[str]


class HostAllocSample(TypedDict):
    """The ``host_alloc`` sample's value: a block of aclrtMallocHost memory of this size."""

    size: ReadOnly[int]


# How a valid value of a parameter is made: one object of exactly one kind (the schema's ``sample``),
# with the value its kind takes.
@final  # final: a key decides which kind a sample is (the type checker narrows with `in`)
class ValueSample(TypedDict):
    value: ReadOnly[int]


@final
class OutSample(TypedDict):
    out: ReadOnly[Literal[True]]


@final
class NullPointerSample(TypedDict):
    null_pointer: ReadOnly[Literal[True]]


@final
class HostAllocationSample(TypedDict):
    host_alloc: ReadOnly[HostAllocSample]


@final
class PinnedPageSample(TypedDict):
    pinned_page: ReadOnly[Literal[True]]


@final
class RegisteredPageSample(TypedDict):
    registered_page: ReadOnly[Literal[True]]


@final
class CurrentDeviceSample(TypedDict):
    current_device: ReadOnly[Literal[True]]


@final
class EnumMemberSample(TypedDict):
    enum_member: ReadOnly[str]


Sample = (ValueSample | OutSample | NullPointerSample | HostAllocationSample | PinnedPageSample
          | RegisteredPageSample | CurrentDeviceSample | EnumMemberSample)


class ParamEntry(TypedDict):
    """One parameter of an interface."""

    name: ReadOnly[str]
    type: ReadOnly[str]
    direction: ReadOnly[Direction]
    nullable: ReadOnly[bool]
    sample: ReadOnly[Sample | None]


class InterfaceEntry(TypedDict):
    """One function of the spec."""

    group: ReadOnly[str]
    summary: ReadOnly[str]
    doc_url: ReadOnly[str]
    doc_ref: ReadOnly[str]
    support: ReadOnly[dict[str, bool]]
    support_disputed: ReadOnly[list[str]]
    since: ReadOnly[str | None]
    exported_since: ReadOnly[str | None]
    support_since: ReadOnly[dict[str, str]]
    implicit_sync: ReadOnly[ImplicitSync]
    params: ReadOnly[list[ParamEntry]]


class SourcesEntry(TypedDict):
    """The pinned sources the evidence cites."""

    runtime_repo: ReadOnly[str]
    runtime_commit: ReadOnly[str]
    docs_snapshot: ReadOnly[str]
    driver_repo: ReadOnly[str]
    driver_commit: ReadOnly[str]


class ReleaseEntry(TypedDict):
    """A CANN release with a contract of its own, oldest first."""

    name: ReadOnly[str]
    tag: ReadOnly[str]
    branch: ReadOnly[str]
    commit: ReadOnly[str]
    docs: ReadOnly[str]
    date: ReadOnly[str]
    acl_api: ReadOnly[str]
    note: ReadOnly[str]


class CitationEntry(TypedDict):
    """One citation of a rule's evidence."""

    kind: ReadOnly[CitationKind]
    ref: ReadOnly[str]
    url: ReadOnly[str]
    says: ReadOnly[str]
    stance: ReadOnly[Stance]


class ApplicabilityEntry(TypedDict):
    """Where a rule applies; None and empty lists mean no restriction."""

    reason: ReadOnly[str]
    reason_zh: ReadOnly[str]
    families: ReadOnly[list[str]]
    run_mode: ReadOnly[str | None]
    min_devices: ReadOnly[int | None]
    va_flag: ReadOnly[bool | None]
    kernel_at_most: ReadOnly[str | None]
    kernel_above: ReadOnly[str | None]
    drivers: ReadOnly[list[str]]
    host_page_at_most: ReadOnly[int | None]
    host_page_above: ReadOnly[int | None]
    host_alloc: ReadOnly[str | None]


class ObservationEntry(TypedDict):
    """A declared observation of a rule: a fact its cases record."""

    name: ReadOnly[str]
    type: ReadOnly[str]
    meaning: ReadOnly[str]
    evidence: ReadOnly[str]
    values: ReadOnly[list[str]]
    key: ReadOnly[str | None]
    many: ReadOnly[bool]
    expect: ReadOnly[str | dict[str, int | str] | None]


class ExpectEntry(TypedDict):
    """The exact error code a failing case expects, judged at the code's own level."""

    code: ReadOnly[str]
    value: ReadOnly[int]
    provenance: ReadOnly[Provenance]
    severity: ReadOnly[Severity]
    decides: ReadOnly[bool]


class CaseEntry(TypedDict):
    """One case: a rule at one cell of its matrix."""

    case_id: ReadOnly[str]
    param_id: ReadOnly[str]
    params: ReadOnly[CaseParams]
    expect: ReadOnly[ExpectEntry | None]
    since: ReadOnly[str | None]


class RuleEntry(TypedDict):
    """A conformance rule with its cases."""

    id: ReadOnly[str]
    title: ReadOnly[str]
    statement: ReadOnly[str]
    title_zh: ReadOnly[str]
    statement_zh: ReadOnly[str]
    zh_source: ReadOnly[str | None]
    family: ReadOnly[RuleFamily]
    check: ReadOnly[str]
    severity: ReadOnly[Severity]
    interfaces: ReadOnly[list[str]]
    provenance: ReadOnly[Provenance]
    evidence: ReadOnly[list[CitationEntry]]
    doc_url: ReadOnly[str]
    doc_ref: ReadOnly[str]
    applies: ReadOnly[ApplicabilityEntry]
    needs: ReadOnly[list[str]]
    calls: ReadOnly[list[str]]
    since: ReadOnly[str | None]
    until: ReadOnly[str | None]
    observations: ReadOnly[list[ObservationEntry]]
    cases: ReadOnly[list[CaseEntry]]


class FaultEntry(TypedDict):
    """A fault switch or legal variant of the simulator."""

    name: ReadOnly[str]
    family: ReadOnly[RuleFamily]
    violates: ReadOnly[list[str]]
    description: ReadOnly[str]
    soc: ReadOnly[str | None]
    env: ReadOnly[dict[str, str]]
    legal: ReadOnly[bool]
    covers: ReadOnly[list[str]]
    families: ReadOnly[list[str]]
    environments: ReadOnly[list[dict[str, str]]]
    since: ReadOnly[str | None]


class GlossaryEntry(TypedDict):
    """One term of the kit's vocabulary in both languages; ``source`` cites the official page that uses ``zh``."""

    id: ReadOnly[str]
    en: ReadOnly[str]
    zh: ReadOnly[str]
    en_variants: ReadOnly[list[str]]
    zh_variants: ReadOnly[list[str]]
    source: ReadOnly[str | None]
    note: ReadOnly[str]


Catalog = TypedDict("Catalog", {
    "_generated": "ReadOnly[str]",
    "spec_hash": "ReadOnly[str]",
    "families": "ReadOnly[list[FamilyEntry]]",
    "interfaces": "ReadOnly[dict[str, InterfaceEntry]]",
    "errors": "ReadOnly[dict[str, int]]",
    "sources": "ReadOnly[SourcesEntry]",
    "releases": "ReadOnly[list[ReleaseEntry]]",
    "matrix_interfaces": "ReadOnly[dict[str, str]]",
    "setup_promises": "ReadOnly[dict[str, str]]",
    "promise_calls": "ReadOnly[dict[str, str]]",
    "promise_codes": "ReadOnly[dict[str, str]]",
    "rules": "ReadOnly[list[RuleEntry]]",
    "faults": "ReadOnly[list[FaultEntry]]",
    "glossary": "ReadOnly[list[GlossaryEntry]]",
})
"""The whole catalog (functional form: its first key is not an identifier)."""
