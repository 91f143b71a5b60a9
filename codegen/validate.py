"""Schema validation and cross-reference checks over the located spec documents.

Both passes report :class:`~codegen.errors.SpecIssue` values that name the file, the
line and the field path, so a spec maintainer can jump straight to the mistake.
"""

from __future__ import annotations

import copy
import fnmatch
import re
import reprlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from .errors import SpecIssue, Where
from .model import BUILTIN_TYPES, CType
from .prose import prose_keyword
from .state_model import EXPLORER_FAMILY, StateModelReferences
from .yamlload import format_path, locate

SCHEMA_DIR = Path(__file__).parent / "schema"
RESERVED_C_WORDS = frozenset(
    "auto break case char const continue default do double else enum extern float for goto if "
    "inline int long register restrict return short signed sizeof static struct switch typedef "
    "union unsigned void volatile while _Bool".split()
)
PYTHON_KEYWORDS = frozenset(
    "False None True and as assert async await break class continue def del elif else except "
    "finally for from global if import in is lambda nonlocal not or pass raise return try while "
    "with yield".split()
)

# Names the generated bindings module defines itself (acl_bindings.py.j2). Error codes, enum
# members and macros become module constants there, interfaces become AclLibrary methods,
# and parameters become wrapper arguments, so none of them may take these names.
BINDINGS_MODULE_NAMES = frozenset(
    "annotations os resources Callable Sequence Any FFI SPEC_HASH CDEF ffi ERRORS ERROR_NAMES ENUMS MALLOC_ATTR_FIELDS "
    "error_name error_meaning AclError OUT Out CData TraceHook address MallocConfig malloc_config AclLibrary "
    "LibraryBase Literal overload load".split()
)
BINDINGS_LIBRARY_MEMBERS = frozenset({"path", "lib", "trace"})
WRAPPER_ARGUMENTS = frozenset({"self", "raw", "ffi"})


@dataclass(frozen=True)
class Document:
    """One loaded spec file: its display name and located data."""

    name: str
    kind: str
    data: Any

    def where(self, path: list[str | int]) -> Where:
        """The location of a field path in this document."""
        return Where(self.name, locate(self.data, path), format_path(path))


@cache
def _ecma_regex(pattern: str) -> re.Pattern[str]:
    """Compile a schema pattern with ECMA-262 semantics for ``$`` (end of input only).

    Python's ``$`` also matches before a final newline, so ``^[A-Za-z_]+$`` would accept
    ``"name\\n"``; schema patterns are ECMA-262, where it does not. Every unescaped ``$``
    outside a character class becomes ``\\Z``.
    """
    out: list[str] = []
    escaped = in_class = False
    for ch in pattern:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == "[":
            in_class = True
        elif ch == "]":
            in_class = False
        elif ch == "$" and not in_class:
            out.append("\\Z")
            continue
        out.append(ch)
    return re.compile("".join(out))


def _pattern(validator: Any, pattern: str, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    """The ``pattern`` keyword with ECMA-262 anchoring (see :func:`_ecma_regex`)."""
    if validator.is_type(instance, "string") and not _ecma_regex(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _is_integer(checker: Any, instance: Any) -> bool:
    """JSON Schema's ``integer`` without floats: 1.0 is a number with a fraction in YAML, not an int."""
    return isinstance(instance, int) and not isinstance(instance, bool)


_StrictValidator = validators.extend(
    Draft202012Validator,
    {"pattern": _pattern, "prose": prose_keyword},
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
)


@cache
def _validator(kind: str) -> Draft202012Validator:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    common = yaml.load((SCHEMA_DIR / "common.yaml").read_text(encoding="utf-8"), Loader=loader)  # noqa: S506
    schema = yaml.load((SCHEMA_DIR / f"{kind}.yaml").read_text(encoding="utf-8"), Loader=loader)  # noqa: S506
    registry = Registry().with_resources(
        [("common", Resource.from_contents(common, default_specification=DRAFT202012))]
    )
    return _StrictValidator(schema, registry=registry)


_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 50
_SHORT.maxlist = _SHORT.maxdict = _SHORT.maxlevel = 3


def _short(value: Any) -> str:
    """A bounded repr: never longer than about 60 characters, whatever the size of ``value``."""
    text = _SHORT.repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _deepest(errors: list[ValidationError]) -> ValidationError | None:
    """The error of ``errors`` or their sub-errors (``oneOf`` branches) that points deepest into the data.

    For ``matrix.size: [1.5, 65]`` that is the float at ``size[0]``, not the whole list.
    """
    found: list[ValidationError] = []
    pending = list(errors)
    while pending:
        error = pending.pop()
        found.append(error)
        pending.extend(error.context or [])
    if not any(not e.context for e in found):
        return None
    leaves = [e for e in found if not e.context]
    depth = max(len(e.absolute_path) for e in leaves)
    deepest = [e for e in leaves if len(e.absolute_path) == depth]
    types = [e.validator_value for e in deepest if e.validator == "type"]
    if len(types) == len(deepest) > 1:  # every branch wanted another type: name them all
        combined = copy.copy(deepest[0])
        names = {t for value in types for t in ([value] if isinstance(value, str) else value)}
        combined.validator_value = sorted(names)
        return combined
    return best_match(deepest)


def _explain(error: ValidationError) -> tuple[list[str | int], str]:
    """Turn a schema error into (field path, message) that points at the exact key."""
    path = list(error.absolute_path)
    if error.context:
        deepest = _deepest(error.context)
        if deepest is not None and len(deepest.absolute_path) > len(path):
            return _explain(deepest)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(error.schema.get("properties", {}))
        extra = sorted(k for k in error.instance if k not in allowed)
        if extra:
            known = ", ".join(sorted(allowed)) or "none"
            return path + [extra[0]], f"unknown key {extra[0]!r} (allowed: {known})"
    if error.validator == "required":
        missing = re.findall(r"'([^']+)' is a required property", error.message)
        if missing:
            return path + [missing[0]], f"missing required field {missing[0]!r}"
    if error.validator == "pattern":
        return path, f"{_short(error.instance)} does not match the required form {error.validator_value}"
    if error.validator == "enum":
        options = ", ".join(str(v) for v in error.validator_value)
        return path, f"{_short(error.instance)} is not one of: {options}"
    if error.validator == "type":
        wanted = error.validator_value if isinstance(error.validator_value, str) else " or ".join(error.validator_value)
        return path, f"expected {wanted}, got {type(error.instance).__name__} {_short(error.instance)}"
    if error.validator in _BOUNDS:
        return path, _BOUNDS[error.validator](error.instance, error.validator_value)
    message = error.message if len(error.message) <= 200 else error.message[:197] + "..."
    return path, message


def _size(instance: Any) -> str:
    return f"{len(instance)} characters" if isinstance(instance, str) else f"{len(instance)} items"


# Messages for the keywords whose jsonschema message quotes the whole (possibly huge) value.
_BOUNDS = {
    "maxLength": lambda instance, limit: f"{_short(instance)} is too long: {_size(instance)}, the limit is {limit}",
    "minLength": lambda instance, limit: f"{_short(instance)} is too short: at least {limit} characters",
    "maxItems": lambda instance, limit: f"too many items: {_size(instance)}, the limit is {limit}",
    "minItems": lambda instance, limit: f"{_short(instance)} needs at least {limit} item(s)",
    "maximum": lambda instance, limit: f"{_short(instance)} is greater than the maximum of {limit}",
    "minimum": lambda instance, limit: f"{_short(instance)} is less than the minimum of {limit}",
}


def schema_issues(doc: Document) -> list[SpecIssue]:
    """Every schema violation in one document."""
    issues = []
    for error in _validator(doc.kind).iter_errors(doc.data):
        path, message = _explain(error)
        issues.append(SpecIssue(doc.where(path), message))
    return issues


class CrossReferences:
    """Checks that every name a document uses is defined, and defined once."""

    def __init__(self, docs: dict[str, Document]) -> None:
        self.docs = docs
        self.issues: list[SpecIssue] = []
        types = docs["types"].data
        self.error_names = {e["name"] for e in types["errors"]}
        self.enums = {e["name"]: {m["name"]: m["value"] for m in e["members"]} for e in types["enums"]}
        self.enum_members = {m for members in self.enums.values() for m in members}
        self.macros = {m["name"] for m in types["macros"]}
        self.type_names = (
            set(BUILTIN_TYPES)
            | {t["name"] for t in types["typedefs"]}
            | {c["name"] for c in types["callbacks"]}
            | set(self.enums)
            | {s["name"] for s in types["structs"]}
        )
        self.functions = {i["name"] for i in docs["interfaces"].data["interfaces"]}
        self.family_ids = [f["id"] for f in docs["products"].data["families"]]
        self.rule_ids = {r["id"]: r for r in docs["rules"].data["rules"]}
        if "state_model" in docs:
            self.rule_ids.update({r["id"]: {**r, "family": EXPLORER_FAMILY}
                                  for r in docs["state_model"].data["rules"] if r["id"] not in self.rule_ids})

    def report(self, doc: str, path: list[str | int], message: str) -> None:
        """Record an issue at ``path`` of document ``doc``."""
        self.issues.append(SpecIssue(self.docs[doc].where(path), message))

    def run(self) -> list[SpecIssue]:
        """Run every check; returns the issues found."""
        self._unique_c_names()
        self._types()
        self._interfaces()
        self._teardown()
        self._products()
        self._rules()
        self._faults()
        if "state_model" in self.docs:
            rules = {r["id"]: r for r in self.docs["rules"].data["rules"]}
            self.issues += StateModelReferences(self.docs["state_model"], rules, self.functions).run()
        return self.issues

    def _name_ok(self, doc: str, path: list[str | int], name: str, taken: frozenset[str] = frozenset()) -> None:
        if name in RESERVED_C_WORDS or name in PYTHON_KEYWORDS:
            self.report(doc, path, f"{name!r} is a reserved word in C or Python and cannot be a name")
        elif name in taken or name.startswith("_"):
            self.report(doc, path, f"{name!r} would clash with a name of the generated Python bindings")

    def _unique_c_names(self) -> None:
        seen: dict[str, str] = {}
        types = self.docs["types"].data
        entries: list[tuple[str, list[str | int], str]] = []
        for section in ("errors", "typedefs", "callbacks", "macros", "enums", "structs"):
            for i, item in enumerate(types[section]):
                entries.append(("types", [section, i, "name"], item["name"]))
        for i, enum in enumerate(types["enums"]):
            for j, member in enumerate(enum["members"]):
                entries.append(("types", ["enums", i, "members", j, "name"], member["name"]))
        for i, iface in enumerate(self.docs["interfaces"].data["interfaces"]):
            entries.append(("interfaces", ["interfaces", i, "name"], iface["name"]))
        for doc, path, name in entries:
            taken = {"errors": BINDINGS_MODULE_NAMES, "macros": BINDINGS_MODULE_NAMES, "enums": BINDINGS_MODULE_NAMES,
                     "interfaces": BINDINGS_LIBRARY_MEMBERS}.get(str(path[0]), frozenset())
            if path[0] == "enums" and len(path) == 3:
                taken = frozenset()  # the enum's own name is a C type only
            self._name_ok(doc, path, name, taken)
            if name in seen:
                self.report(doc, path, f"duplicate name {name!r} (first defined at {seen[name]})")
            else:
                seen[name] = str(self.docs[doc].where(path))

    def _type_ok(self, doc: str, path: list[str | int], text: str) -> None:
        base = CType.parse(text).base
        if base not in self.type_names:
            self.report(doc, path, f"unknown type {base!r}")

    def _types(self) -> None:
        types = self.docs["types"].data
        for i, t in enumerate(types["typedefs"]):
            self._type_ok("types", ["typedefs", i, "type"], t["type"])
        for i, cb in enumerate(types["callbacks"]):
            for j, p in enumerate(cb["params"]):
                self._type_ok("types", ["callbacks", i, "params", j, "type"], p["type"])
        for i, enum in enumerate(types["enums"]):
            values: dict[int, str] = {}
            for j, m in enumerate(enum["members"]):
                if m["value"] in values:
                    self.report("types", ["enums", i, "members", j, "value"],
                                f"value {m['value']} repeats {values[m['value']]}")
                values[m["value"]] = m["name"]
        codes: dict[int, str] = {}
        for i, e in enumerate(types["errors"]):
            if e["value"] in codes and e["value"] != 0:
                self.report("types", ["errors", i, "value"], f"value {e['value']} repeats {codes[e['value']]}")
            codes.setdefault(e["value"], e["name"])
        for i, s in enumerate(types["structs"]):
            for j, m in enumerate(s["members"]):
                self._type_ok("types", ["structs", i, "members", j, "type"], m["type"])
                if m["offset"] >= s["size"]:
                    self.report("types", ["structs", i, "members", j, "offset"],
                                f"offset {m['offset']} lies outside the {s['size']}-byte {s['name']}")
                if s["kind"] == "union" and m["offset"] != 0:
                    self.report("types", ["structs", i, "members", j, "offset"], "union members start at offset 0")
                sel = m.get("selected_by")
                if sel is not None and sel not in self.enum_members:
                    self.report("types", ["structs", i, "members", j, "selected_by"], f"unknown enum member {sel!r}")

    def _teardown(self) -> None:
        """Resources name known calls, each call acquires or releases one resource, and teardown gives every
        resource back with one of the calls that release it."""
        doc = self.docs["interfaces"].data
        resources = doc["resources"]
        owner: dict[str, str] = {}
        for name, resource in resources.items():
            for field, verb in (("acquired_by", "acquires"), ("released_by", "releases")):
                for j, call in enumerate(resource[field]):
                    if call not in self.functions:
                        self.report("interfaces", ["resources", name, field, j], f"unknown function {call!r}")
                    elif call in owner:
                        self.report("interfaces", ["resources", name, field, j],
                                    f"{call} already acquires or releases {owner[call]}: a call {verb} one resource")
                    owner.setdefault(call, name)
        steps = doc["teardown"]
        for i, step in enumerate(steps):
            if step["resource"] not in resources:
                self.report("interfaces", ["teardown", i, "resource"], f"unknown resource {step['resource']!r}")
            if step["call"] not in self.functions:
                self.report("interfaces", ["teardown", i, "call"], f"unknown function {step['call']!r}")
        released = {step["resource"] for step in steps}
        for name in resources:
            if name not in released:
                self.report("interfaces", ["resources", name], f"no teardown step gives {name!r} back")
        last = {step["resource"]: (i, step["call"]) for i, step in enumerate(steps) if step["resource"] in resources}
        for name, (i, call) in last.items():
            if call not in resources[name]["released_by"]:
                self.report("interfaces", ["teardown", i, "call"],
                            f"{call} gives {name!r} back but is not among its released_by calls")

    def _interfaces(self) -> None:
        doc = self.docs["interfaces"].data
        for i, iface in enumerate(doc["interfaces"]):
            base: list[str | int] = ["interfaces", i]
            if iface["returns"] != "aclError":
                self._type_ok("interfaces", base + ["returns"], iface["returns"])
            support = iface.get("support")
            if iface["group"] == "host_memory":
                if support is None:
                    self.report("interfaces", base + ["support"], "an interface under test needs a support matrix")
                else:
                    missing = [f for f in self.family_ids if f not in support]
                    if missing:
                        self.report("interfaces", base + ["support"], f"no support entry for {', '.join(missing)}")
            for fam in (support or {}):
                if fam not in self.family_ids:
                    self.report("interfaces", base + ["support", fam], f"unknown product family {fam!r}")
            for j, name in enumerate(iface.get("pairs_with", [])):
                if name not in self.functions:
                    self.report("interfaces", base + ["pairs_with", j], f"pairs with unknown function {name!r}")
            names: set[str] = set()
            for j, p in enumerate(iface["params"]):
                ppath = base + ["params", j]
                self._name_ok("interfaces", ppath + ["name"], p["name"], WRAPPER_ARGUMENTS)
                if p["name"][:2] in ("c_", "r_") and any(q["name"] == p["name"][2:] for q in iface["params"]):
                    self.report("interfaces", ppath + ["name"],
                                f"{p['name']!r} would clash with the wrapper's local for {p['name'][2:]!r}")
                if p["name"] in names:
                    self.report("interfaces", ppath + ["name"], f"duplicate parameter {p['name']!r}")
                names.add(p["name"])
                self._type_ok("interfaces", ppath + ["type"], p["type"])
                ctype = CType.parse(p["type"])
                if p["direction"] == "out" and ctype.pointers == 0 and p["type"] != "aclrtStream":
                    self.report("interfaces", ppath + ["direction"], "an output parameter must be a pointer")
                if "buffer" in p and p["buffer"] not in self.macros:
                    self.report("interfaces", ppath + ["buffer"], f"unknown size macro {p['buffer']!r}")
                self._constraints(ppath, p)

    def _constraints(self, ppath: list[str | int], p: dict[str, Any]) -> None:
        for k, c in enumerate(p.get("constraints", [])):
            if not isinstance(c, dict):
                continue
            cpath = ppath + ["constraints", k]
            for m, flag in enumerate(c.get("flags", {}).get("allowed", [])):
                if flag not in self.macros:
                    self.report("interfaces", cpath + ["flags", "allowed", m], f"unknown flag macro {flag!r}")
            if "enum" in c and c["enum"]["type"] not in self.enums:
                self.report("interfaces", cpath + ["enum", "type"], f"unknown enum {c['enum']['type']!r}")
            for m, fn in enumerate(c.get("allocated_by", {}).get("functions", [])):
                if fn not in self.functions:
                    self.report("interfaces", cpath + ["allocated_by", "functions", m], f"unknown function {fn!r}")
        sample = p.get("sample", {})
        if "enum_member" in sample and sample["enum_member"] not in self.enum_members:
            self.report("interfaces", ppath + ["sample", "enum_member"],
                        f"unknown enum member {sample['enum_member']!r}")

    def _products(self) -> None:
        families = self.docs["products"].data["families"]
        seen: set[str] = set()
        for i, fam in enumerate(families):
            if fam["id"] in seen:
                self.report("products", ["families", i, "id"], f"duplicate family id {fam['id']!r}")
            seen.add(fam["id"])
            soc = fam["sample_soc"]
            first = next((f for f in families if any(fnmatch.fnmatchcase(soc, p) for p in f["soc_patterns"])), None)
            if first is not fam:
                owner = first["id"] if first else "no family"
                self.report("products", ["families", i, "sample_soc"],
                            f"{fam['sample_soc']!r} is identified as {owner}, not {fam['id']}")

    def _rules(self) -> None:
        doc = self.docs["rules"].data
        matrices = doc["matrices"]
        seen: set[str] = set()
        interfaces = {i["name"]: i for i in self.docs["interfaces"].data["interfaces"]}
        for i, rule in enumerate(doc["rules"]):
            base: list[str | int] = ["rules", i]
            if rule["id"] in seen:
                self.report("rules", base + ["id"], f"duplicate rule id {rule['id']!r}")
            seen.add(rule["id"])
            for j, name in enumerate(rule.get("interfaces", [])):
                if name not in self.functions:
                    self.report("rules", base + ["interfaces", j], f"rule names unknown interface {name!r}")
            for j, fam in enumerate(rule.get("applies", {}).get("families", [])):
                if fam not in self.family_ids:
                    self.report("rules", base + ["applies", "families", j], f"unknown product family {fam!r}")
            for key, value in rule.get("matrix", {}).items():
                items = [value] if isinstance(value, str) else value
                refs = [v for v in items if isinstance(v, str) and v.startswith("@")]
                for ref in refs:
                    self._matrix_ref(base + ["matrix", key], ref, matrices)
            keys = set(rule.get("matrix", {}))
            for j, extra in enumerate(rule.get("also", [])):
                if set(extra) != keys:
                    self.report("rules", base + ["also", j], f"an extra combination must name exactly the matrix keys "
                                                             f"({', '.join(sorted(keys)) or 'none'})")
            for j, need in enumerate(rule.get("needs", [])):
                if need == rule["id"]:
                    self.report("rules", base + ["needs", j], "a rule cannot need its own promise")
                elif need not in self.rule_ids:
                    self.report("rules", base + ["needs", j], f"needs unknown rule {need!r}")
            code = rule.get("code", {}).get("name")
            if code is not None and code not in self.error_names:
                self.report("rules", base + ["code", "name"], f"unknown error code {code!r}")
            errors = rule.get("errors", [])
            if rule["family"] == "invalid_argument" and rule["check"] == "invalid_argument" and not errors:
                self.report("rules", base + ["errors"], "an invalid_argument rule needs errors")
            if errors and rule["check"] != "invalid_argument":
                self.report("rules", base + ["errors"], "only the invalid_argument check takes errors")
            target = interfaces.get((rule.get("interfaces") or [""])[0])
            for j, err in enumerate(errors):
                epath = base + ["errors", j]
                if "code" in err and err["code"]["name"] not in self.error_names:
                    self.report("rules", epath + ["code", "name"], f"unknown error code {err['code']['name']!r}")
                if target is not None and not any(p["name"] == err["when"]["param"] for p in target["params"]):
                    self.report("rules", epath + ["when", "param"],
                                f"{target['name']} has no parameter {err['when']['param']!r}")

        self._needs_acyclic(doc["rules"])
        owners: dict[str, str] = {}
        for step, promise in doc.get("setup_promises", {}).items():
            if promise["rule"] not in self.rule_ids:
                self.report("rules", ["setup_promises", step, "rule"],
                            f"set-up step {step!r} rests on unknown rule {promise['rule']!r}")
            # A call or a code belongs to one step: its crash, hang or answer has one owner.
            kinds = (("calls", self.functions, "function"), ("codes", self.error_names, "error code"))
            for field, known, kind in kinds:
                for j, name in enumerate(promise.get(field, [])):
                    if name not in known:
                        self.report("rules", ["setup_promises", step, field, j], f"unknown {kind} {name!r}")
                    elif name in owners:
                        self.report("rules", ["setup_promises", step, field, j],
                                    f"{name} is already the {field[:-1]} of set-up step {owners[name]!r}")
                    owners.setdefault(name, step)

    def _needs_acyclic(self, rules: list[dict[str, Any]]) -> None:
        """Report a rule whose needs lead back to itself: such a pair could block each other."""
        needs = {r["id"]: [n for n in r.get("needs", []) if n != r["id"]] for r in rules}
        index = {r["id"]: i for i, r in enumerate(rules)}
        state: dict[str, int] = {}  # 1: on the current path, 2: done

        def visit(rid: str, path: list[str]) -> None:
            state[rid] = 1
            for need in needs.get(rid, []):
                if state.get(need) == 1:
                    cycle = path[path.index(need):] + [need] if need in path else [rid, need]
                    self.report("rules", ["rules", index[rid], "needs"], "needs form a cycle: " + " -> ".join(cycle))
                elif need in needs and state.get(need) is None:
                    visit(need, path + [need])
            state[rid] = 2

        for rid in needs:
            if state.get(rid) is None:
                visit(rid, [rid])

    def _matrix_ref(self, path: list[str | int], ref: str, matrices: dict[str, Any]) -> None:
        name = ref[1:]
        if name.startswith("enum:"):
            if name[5:] not in self.enums:
                self.report("rules", path, f"matrix names unknown enum {name[5:]!r}")
        elif name != "host_memory_interfaces" and name not in matrices:
            self.report("rules", path, f"matrix names unknown matrix {name!r}")

    def _fault_points(self) -> dict[str, int]:
        """The declared fault points by name (index in points:); reports duplicates."""
        found: dict[str, int] = {}
        for i, point in enumerate(self.docs["faults"].data.get("points", [])):
            if point["name"] in found:
                self.report("faults", ["points", i, "name"], f"duplicate fault point {point['name']!r}")
            found.setdefault(point["name"], i)
        return found

    def _unused_fault_points(self, points: dict[str, int], used: set[str]) -> None:
        for name, i in points.items():
            if name not in used:
                self.report("faults", ["points", i, "name"], f"fault point {name!r} is declared but no fault acts "
                            "at it (remove it, or add it to the points: of the faults switched there)")

    def _faults(self) -> None:
        if "faults" not in self.docs:
            return
        seen: set[str] = set()
        patterns = [(f["id"], f["soc_patterns"]) for f in self.docs["products"].data["families"]]
        points = self._fault_points()
        used: set[str] = set()
        for i, fault in enumerate(self.docs["faults"].data["faults"]):
            base: list[str | int] = ["faults", i]
            if fault["name"] in seen:
                self.report("faults", base + ["name"], f"duplicate fault {fault['name']!r}")
            seen.add(fault["name"])
            for j, point in enumerate(fault.get("points", [])):
                used.add(point)
                if point not in points:
                    self.report("faults", base + ["points", j], f"unknown fault point {point!r} (declare it under "
                                f"points:)")
            named = "covers" if fault.get("legal") else "violates"
            for j, rid in enumerate(fault.get(named, [])):
                rule = self.rule_ids.get(rid)
                if rule is None:
                    self.report("faults", base + [named, j], f"fault names unknown rule {rid!r}")
            for j, fam in enumerate(fault.get("families", [])):
                if fam not in self.family_ids:
                    self.report("faults", base + ["families", j], f"unknown product family {fam!r}")
            families = {self.rule_ids[r]["family"] for r in fault.get(named, []) if r in self.rule_ids}
            if families and fault["family"] not in families:
                self.report("faults", base + ["family"],
                            f"family {fault['family']!r} is not the family of any rule it {named[:-1]}s "
                            f"({', '.join(sorted(families))})")
            soc = fault.get("soc")
            if soc is not None and not any(fnmatch.fnmatchcase(soc, p) for _, pats in patterns for p in pats):
                self.report("faults", base + ["soc"], f"SoC {soc!r} belongs to no product family")
        self._unused_fault_points(points, used)
