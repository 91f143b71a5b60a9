"""The typed spec model: frozen dataclasses built from validated spec data.

Everything the templates need is decided here (or in :mod:`codegen.cases`): how a C
type is spelled for cffi or Python, which parameters are outputs, which families an
interface supports. Templates only lay the answers out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import Where
from .evidence import Citation, Release, Sources

if TYPE_CHECKING:
    from .state_model import StateModel

DOC_BASE = "https://github.com/hicann/runtime/blob/master/docs/zh/api_ref"

# C scalar types the spec may use without defining them, with their Python meaning.
BUILTIN_TYPES: dict[str, str] = {
    "void": "void",
    "char": "int",
    "int": "int",
    "int32_t": "int",
    "uint8_t": "int",
    "uint16_t": "int",
    "uint32_t": "int",
    "uint64_t": "int",
    "size_t": "int",
    "uintptr_t": "int",
}


@dataclass(frozen=True)
class CType:
    """A parsed C type: optional const, a base name and 0-2 levels of pointer."""

    base: str
    pointers: int = 0
    const: bool = False

    @classmethod
    def parse(cls, text: str) -> CType:
        """Parse the spec's restricted type syntax (``const char *``, ``void **``)."""
        const = text.startswith("const ")
        body = text[len("const ") :] if const else text
        stars = body.count("*")
        return cls(base=body.replace("*", "").strip(), pointers=stars, const=const)

    @property
    def spelled(self) -> str:
        """The C spelling, e.g. ``const void *``."""
        prefix = "const " if self.const else ""
        return prefix + self.base + (" " + "*" * self.pointers if self.pointers else "")

    def declare(self, name: str) -> str:
        """A declaration of ``name`` with this type, e.g. ``void **hostPtr``."""
        prefix = "const " if self.const else ""
        return f"{prefix}{self.base} {'*' * self.pointers}{name}"

    def pointee(self) -> CType:
        """The type one pointer level down."""
        return CType(self.base, self.pointers - 1, self.const)


@dataclass(frozen=True)
class Doc:
    """A doc anchor: page file name and anchor id on the official API pages."""

    page: str
    anchor: str

    @property
    def url(self) -> str:
        """Link to the anchor in the public runtime repository."""
        return f"{DOC_BASE}/{self.page}#{self.anchor}"

    @property
    def ref(self) -> str:
        """Short reference, e.g. ``11-02_host_memory_management.md#aclrtMallocHost``."""
        return f"{self.page}#{self.anchor}"


@dataclass(frozen=True)
class ErrorCode:
    """An aclError value with its symbolic name, class and meaning."""

    name: str
    value: int
    cls: str
    form: str
    meaning: str


@dataclass(frozen=True)
class EnumMember:
    """One enumerator."""

    name: str
    value: int
    meaning: str
    reserved: bool = False


@dataclass(frozen=True)
class Enum:
    """A C enum typedef."""

    name: str
    members: tuple[EnumMember, ...]
    tag: str | None = None
    doc: Doc | None = None


@dataclass(frozen=True)
class Macro:
    """A ``#define`` constant."""

    name: str
    value: int
    suffix: str
    meaning: str

    @property
    def literal(self) -> str:
        """The C literal, hex for flag-like values."""
        text = hex(self.value) if self.value >= 16 or self.suffix else str(self.value)
        return text + self.suffix


@dataclass(frozen=True)
class StructMember:
    """A struct or union member with its LP64 offset."""

    name: str
    ctype: CType
    offset: int
    meaning: str
    array: int | None = None
    selected_by: str | None = None

    @property
    def declaration(self) -> str:
        """The member declaration, e.g. ``uint8_t rsv[8]``."""
        suffix = f"[{self.array}]" if self.array else ""
        return self.ctype.declare(self.name) + suffix


@dataclass(frozen=True)
class Struct:
    """A struct or union typedef with its expected size and alignment."""

    name: str
    kind: str
    size: int
    align: int
    members: tuple[StructMember, ...]
    doc: Doc | None = None


@dataclass(frozen=True)
class Typedef:
    """A plain typedef (``typedef int aclError``)."""

    name: str
    ctype: CType


@dataclass(frozen=True)
class Callback:
    """A function-pointer typedef (``aclrtHostFunc``)."""

    name: str
    returns: CType
    params: tuple[tuple[str, CType], ...]

    @property
    def declaration(self) -> str:
        """``typedef void (*aclrtHostFunc)(void *args);`` without the semicolon."""
        args = ", ".join(t.declare(n) for n, t in self.params) or "void"
        return f"typedef {self.returns.spelled} (*{self.name})({args})"


@dataclass(frozen=True)
class Param:
    """A function parameter with direction, nullability, constraints and valid sample."""

    name: str
    ctype: CType
    direction: str
    nullable: bool
    constraints: tuple[Any, ...] = ()
    sample: tuple[str, Any] | None = None
    buffer: str | None = None

    @property
    def is_out(self) -> bool:
        """True for output parameters, which the Python wrappers allocate."""
        return self.direction == "out"


@dataclass(frozen=True)
class Since:
    """The release from which something is in the contract, and the citations that show it there."""

    release: str
    evidence: tuple[Citation, ...] = ()


@dataclass(frozen=True)
class Interface:
    """A runtime function: one of the nine under test or a harness call."""

    name: str
    group: str
    summary: str
    returns: CType
    doc: Doc
    params: tuple[Param, ...]
    support: tuple[tuple[str, bool], ...] = ()
    pairs_with: tuple[str, ...] = ()
    implicit_sync: str = "none"
    advisories: tuple[str, ...] = ()
    support_disputed: tuple[str, ...] = ()
    where: Where | None = None
    since: Since | None = None
    support_since: tuple[tuple[str, Since], ...] = ()  # family -> the release its support holds from
    declared_since: Since | None = None  # the header declares it before the docs do

    @property
    def exported_since(self) -> str | None:
        """The first release whose library exports the function (declared, documented or not)."""
        claim = self.declared_since or self.since
        return claim.release if claim else None

    @property
    def returns_error(self) -> bool:
        """True when the function returns an aclError."""
        return self.returns.spelled == "aclError"

    @property
    def prototype(self) -> str:
        """The C prototype without the semicolon."""
        args = ", ".join(p.ctype.declare(p.name) for p in self.params) or "void"
        ret = self.returns.spelled
        sep = "" if ret.endswith("*") else " "
        return f"{ret}{sep}{self.name}({args})"

    @property
    def pointer_type(self) -> str:
        """The function-pointer type, for ABI checks: ``aclError (*)(void **, size_t)``."""
        args = ", ".join(p.ctype.spelled for p in self.params) or "void"
        return f"{self.returns.spelled} (*)({args})"

    @property
    def in_params(self) -> tuple[Param, ...]:
        """Input parameters in C order."""
        return tuple(p for p in self.params if not p.is_out)

    @property
    def out_params(self) -> tuple[Param, ...]:
        """Output parameters in C order."""
        return tuple(p for p in self.params if p.is_out)

    def param(self, name: str) -> Param | None:
        """The parameter called ``name``, if any."""
        return next((p for p in self.params if p.name == name), None)

    def supported_on(self, family: str) -> bool:
        """Whether the support matrix says the family supports this interface."""
        return dict(self.support).get(family, True)


@dataclass(frozen=True)
class Family:
    """A product family with the SoC-name patterns that identify it."""

    id: str
    name: str
    doc_tag: str
    soc_patterns: tuple[str, ...]
    sample_soc: str
    va_flag: bool
    device_run_mode: bool
    confirmed: bool = True
    driver: str = "none"
    name_zh: str = ""  # as the official support lists write it


@dataclass(frozen=True)
class Applicability:
    """Where a rule applies beyond interface support: families, run mode, devices, VA, kernel,
    driver generation, host page size and where host memory comes from."""

    reason: str = ""
    reason_zh: str = ""
    families: tuple[str, ...] = ()
    run_mode: str | None = None
    min_devices: int | None = None
    va_flag: bool | None = None
    kernel_at_most: str | None = None
    kernel_above: str | None = None
    drivers: tuple[str, ...] = ()
    host_page_at_most: int | None = None
    host_page_above: int | None = None
    host_alloc: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The applicability as the catalog carries it."""
        return {"reason": self.reason, "reason_zh": self.reason_zh, "families": list(self.families),
                "run_mode": self.run_mode, "min_devices": self.min_devices, "va_flag": self.va_flag,
                "kernel_at_most": self.kernel_at_most,
                "kernel_above": self.kernel_above, "drivers": list(self.drivers),
                "host_page_at_most": self.host_page_at_most, "host_page_above": self.host_page_above,
                "host_alloc": self.host_alloc}


@dataclass(frozen=True)
class Expectation:
    """The exact error code a failing case expects, judged at the code's own level.

    ``provenance`` is derived from the code's own citations; ``level`` is the severity at
    which a different code is judged (:func:`codegen.evidence.code_level`), and ``decides``
    tells whether that is the rule's severity (a different code fails the case) or lower
    (it is a finding that does not change the verdict).
    """

    code: str
    provenance: str
    level: str
    decides: bool
    evidence: tuple[Citation, ...] = ()
    strict: bool = False


@dataclass(frozen=True)
class Condition:
    """A structured invalid-argument condition: which parameter, and how it is bad."""

    param: str
    kind: str
    value: Any = None

    @property
    def label(self) -> str:
        """Case-ID label, e.g. ``hostPtr=NULL``, ``size=0``, ``ptr=+64``."""
        if self.kind == "is_null":
            return f"{self.param}=NULL"
        if self.kind == "equals":
            shown = self.value if isinstance(self.value, str) else (hex(self.value) if self.value > 255 else self.value)
            return f"{self.param}={str(shown).lstrip('@')}"
        if self.kind == "offset":
            return f"{self.param}=+{self.value}"
        if self.kind == "unregistered":
            return f"{self.param}=unregistered"
        return f"{self.param}={self.value}"


@dataclass(frozen=True)
class ErrorExpectation:
    """One condition of an invalid-argument rule: its evidence that the call fails, and the code."""

    when: Condition
    evidence: tuple[Citation, ...]
    provenance: str
    expect: Expectation | None = None
    since: Since | None = None

    def matches(self, params: dict[str, Any]) -> bool:
        """Whether a case's parameters are this condition's (see cases.error_cases)."""
        return (params.get("param"), params.get("condition"), params.get("value")) == \
            (self.when.param, self.when.kind, self.when.value)


#: Rule family -> the docstring of its generated test module (acl_hostmem_generated/cases/test_<family>.py).
RULE_FAMILY_DOCS: dict[str, str] = {
    'alignment': 'Alignment cases: every successful host allocation is 64-byte aligned.',
    'capability': 'Capability cases: aclrtHostMemMapCapabilities over every device and HAC type.',
    'content': ('Content cases: full-range access, aclrtMemset initialisation, content '
        'untouched by registration and by freeing neighbours.'),
    'explorer': ('Explorer cases: random interleavings of the calls, judged '
        'step by step against the generated state model.'),
    'invalid_argument': ('Invalid-argument cases: each bad argument gets its '
        'documented error, with every other argument valid.'),
    'pairing': 'Pairing and lifecycle cases: allocate/free and register/unregister pairs and their misuse.',
    'product_support': 'Product-support cases: each interface is available exactly where the support matrix says.',
    'sync': 'Synchronisation cases: which calls wait for the device and which return at once.',
    'va_identity': 'VA identity cases: device addresses of registered memory, with and without the VA flag.',
}


@dataclass(frozen=True)
class Observation:
    """A fact a rule's cases record next to their outcome (spec/observations.yaml)."""

    name: str
    type: str
    meaning: str
    evidence: str
    values: tuple[str, ...] = ()
    key: str | None = None
    many: bool = False
    expect: Any = None  # what a PASS implies of the value ("refused", {equals|at_least|one_of: ...}), or None

    @property
    def described_type(self) -> str:
        """The type in words, e.g. ``enum of page, exact, refused``, ``code (list)``, ``int per device``."""
        text = self.type + (f" of {', '.join(self.values)}" if self.values else "")
        return text + (f" per {self.key}" if self.key else "") + (" (list)" if self.many else "")

    def to_json(self) -> dict[str, Any]:
        """The declaration as the catalog carries it."""
        return {"name": self.name, "type": self.type, "meaning": self.meaning, "evidence": self.evidence,
                "values": list(self.values), "key": self.key, "many": self.many, "expect": self.expect}


@dataclass(frozen=True)
class Rule:
    """A conformance rule: a documented behaviour with the cases that check it."""

    id: str
    title: str
    statement: str
    family: str
    check: str
    severity: str
    doc: Doc
    provenance: str
    evidence: tuple[Citation, ...] = ()
    interfaces: tuple[str, ...] = ()
    applies: Applicability = field(default_factory=Applicability)
    matrix: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    expect: Expectation | None = None
    errors: tuple[ErrorExpectation, ...] = ()
    where: Where | None = None
    observations: tuple[Observation, ...] = ()
    needs: tuple[str, ...] = ()
    also: tuple[tuple[tuple[str, Any], ...], ...] = ()
    since: Since | None = None
    until: Since | None = None
    matrix_since: tuple[tuple[str, str, Since], ...] = ()  # (matrix key, value, since) of later cases
    title_zh: str = ""
    statement_zh: str = ""
    zh_source: str | None = None  # page#anchor:lines of the official Chinese text the statement follows

    @property
    def citations(self) -> tuple[Citation, ...]:
        """Every citation of the rule: its own, then its conditions' and codes' (deduplicated)."""
        seen: dict[tuple[str, str, str], Citation] = {}
        groups = [self.evidence, self.expect.evidence if self.expect else ()]
        for err in self.errors:
            groups += [err.evidence, err.expect.evidence if err.expect else ()]
        for group in groups:
            for c in group:
                seen.setdefault((c.ref, c.stance, c.says), c)
        return tuple(seen.values())

    @property
    def python_name(self) -> str:
        """The test-function name: ``test_HM_ALIGN_MALLOC``."""
        return "test_" + self.id.replace("-", "_")


@dataclass(frozen=True)
class GlossaryTerm:
    """One word of the kit's vocabulary in both languages (spec/glossary.yaml)."""

    id: str
    en: str
    zh: str
    en_variants: tuple[str, ...] = ()
    zh_variants: tuple[str, ...] = ()
    source: str | None = None  # page#anchor:lines where the official pages use ``zh``; None: the kit's own word
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        """The term as the catalog carries it."""
        return {"id": self.id, "en": self.en, "zh": self.zh, "en_variants": list(self.en_variants),
                "zh_variants": list(self.zh_variants), "source": self.source, "note": self.note}


@dataclass(frozen=True)
class Fault:
    """A simulator switch: a fault that breaks rules, or a legal variant the evidence allows."""

    name: str
    family: str
    violates: tuple[str, ...]
    description: str
    soc: str | None = None
    env: tuple[tuple[str, str], ...] = ()
    legal: bool = False
    covers: tuple[str, ...] = ()
    families: tuple[str, ...] = ()
    environments: tuple[tuple[tuple[str, str], ...], ...] = ()
    since: str | None = None  # the first release whose contract the fault breaks (None: every release)
    points: tuple[str, ...] = ()  # the fault points (FaultPoint.name) where the simulator switches it

    @property
    def c_name(self) -> str:
        """The enumerator name in the generated fault table."""
        return "ACLSIM_FAULT_" + self.name.upper()


@dataclass(frozen=True)
class FaultPoint:
    """A named place in the simulator's flow where faults act (``points:`` in spec/faults.yaml).

    ``kind`` says how: ``point`` (the faithful model calls ``FAULT_POINT`` at each site and a
    handler in sim/faults/ acts), ``hook`` (an answer rewrite in sim/hooks.c) or ``setting`` (a
    legal variant that is the alias of a configuration setting, read in sim/init.c at aclInit). A
    site is ``file:function``.
    """

    name: str
    kind: str
    sites: tuple[str, ...]
    description: str

    @property
    def enum_suffix(self) -> str:
        """``register.mode`` -> ``REGISTER_MODE``: what FAULT_POINT names."""
        return self.name.replace(".", "_").upper()

    @property
    def c_name(self) -> str:
        """The enumerator name in the generated point table."""
        return "ACLSIM_POINT_" + self.enum_suffix

    @property
    def handler(self) -> str:
        """The C function that acts at a ``point`` point: ``sim_point_register_mode``."""
        return "sim_point_" + self.name.replace(".", "_")


@dataclass(frozen=True)
class Resource:
    """Something calls acquire and teardown gives back: a registration, memory, a stream."""

    name: str
    acquired_by: tuple[str, ...]
    handle: str  # "first_argument" or "output": what names the resource after the call
    released_by: tuple[str, ...] = ()  # the calls that give it back (their first argument names it)
    per_device: bool = False  # given back under the device it was acquired on


@dataclass(frozen=True)
class TeardownStep:
    """One step of teardown: ``call`` on every held ``resource``; the resource's last step gives it back."""

    resource: str
    call: str
    gives_back: bool


@dataclass(frozen=True)
class Spec:
    """The whole validated spec."""

    spec_hash: str
    files: tuple[str, ...]
    abi: str
    errors: tuple[ErrorCode, ...]
    typedefs: tuple[Typedef, ...]
    callbacks: tuple[Callback, ...]
    macros: tuple[Macro, ...]
    enums: tuple[Enum, ...]
    structs: tuple[Struct, ...]
    interfaces: tuple[Interface, ...]
    families: tuple[Family, ...]
    rules: tuple[Rule, ...]
    faults: tuple[Fault, ...]
    fault_points: tuple[FaultPoint, ...] = ()
    matrices: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    matrix_interfaces: tuple[tuple[str, str], ...] = ()  # matrix value -> the interface it calls
    sources: Sources = field(default_factory=lambda: Sources(""))
    retired: tuple[tuple[str, str], ...] = ()
    state_model: StateModel | None = None
    setup_promises: tuple[tuple[str, str], ...] = ()  # set-up step -> the rule whose promise it rests on
    promise_calls: tuple[tuple[str, str], ...] = ()  # function -> the set-up step its crash or hang belongs to
    promise_codes: tuple[tuple[str, str], ...] = ()  # error name -> the set-up step a needed call answering it breaks
    resources: tuple[Resource, ...] = ()
    teardown: tuple[TeardownStep, ...] = ()  # in the order teardown runs
    glossary: tuple[GlossaryTerm, ...] = ()

    @property
    def host_memory_interfaces(self) -> tuple[Interface, ...]:
        """The nine interfaces under test."""
        return tuple(i for i in self.interfaces if i.group == "host_memory")

    @property
    def releases(self) -> tuple[Release, ...]:
        """The releases the spec knows, oldest first."""
        return self.sources.releases

    def case_since(self, rule: Rule, params: dict[str, Any]) -> str | None:
        """The first release whose contract holds a case of ``rule``: the rule's own ``since`` or that of
        the interfaces the case calls, the latest. A case whose parameters name an interface (HM-PROD-SUPPORT
        per interface, HM-CTX-NO-DEVICE per call) calls that one instead of every interface the matrix names."""
        named = {i.name: i for i in self.interfaces}
        alias = dict(self.matrix_interfaces)

        def called(value: Any) -> str | None:
            name = alias.get(value, value) if isinstance(value, str) else None
            return name if name in named else None

        chosen = {n for n in map(called, params.values()) if n}
        listed = {n for _key, values in rule.matrix for n in map(called, values) if n}
        calls = sorted(chosen | {n for n in rule.interfaces if n not in listed})
        found = [rule.since.release] if rule.since else []
        found += [err.since.release for err in rule.errors if err.since and err.matches(params)]
        found += [claim.release for key, value, claim in rule.matrix_since if str(params.get(key)) == value]
        found += [since.release for n in calls if n in named and (since := named[n].since)]
        return self._latest(found)

    def _latest(self, names: list[str]) -> str | None:
        order = {r.name: r.key for r in self.releases}
        known = [name for name in names if name in order]
        return max(known, key=lambda name: order[name]) if known else None

    def earliest(self, names: list[str | None]) -> str | None:
        """The oldest of ``names`` (releases the spec knows), or None."""
        order = {r.name: r.key for r in self.releases}
        known = [name for name in names if name in order]
        return min(known, key=lambda name: order[name]) if known else None

    def error(self, name: str) -> ErrorCode:
        """The error code called ``name``."""
        return next(e for e in self.errors if e.name == name)

    @property
    def mutations(self) -> tuple[Fault, ...]:
        """The fault switches that break rules (not the legal variants)."""
        return tuple(f for f in self.faults if not f.legal)

    @property
    def legal_variants(self) -> tuple[Fault, ...]:
        """The switches for behaviour the evidence leaves open."""
        return tuple(f for f in self.faults if f.legal)

    def rule(self, rule_id: str) -> Rule:
        """The rule with ID ``rule_id``."""
        return next(r for r in self.rules if r.id == rule_id)

    @property
    def rule_families(self) -> tuple[str, ...]:
        """Rule families in first-use order."""
        seen: dict[str, None] = {}
        for rule in self.rules:
            seen.setdefault(rule.family, None)
        return tuple(seen)

    @property
    def constants(self) -> tuple[tuple[str, int], ...]:
        """Every named integer: error codes, enum members and macros, in spec order."""
        out = [(e.name, e.value) for e in self.errors]
        out += [(m.name, m.value) for e in self.enums for m in e.members]
        out += [(m.name, m.value) for m in self.macros]
        return tuple(out)
