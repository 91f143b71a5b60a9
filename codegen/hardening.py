"""Lint rules that stop a spec which passes the schema from failing later.

The schema and the cross-references say that a spec is well formed; these rules say that
what it describes can be generated, compiled and run: when they pass, ``generate``
succeeds, the ABI check compiles and every case can call its check. Each problem is a
:class:`~codegen.errors.SpecIssue` at ``file:line: field``:

- C names belong to the ACL namespace (``acl``/``ACL_``, not the simulator's ``aclsim``):
  the generated header is included next to the C library's headers and the names become
  module constants of the Python bindings, where ``getattr`` or ``isinstance`` would
  shadow built-ins; parameter and member names must not be a type or a macro;
- a fault's C name must not be the generated table's own ``ACLSIM_FAULT_COUNT``;
- struct and union sizes, alignments and offsets must be the LP64 layout of their members;
- matrix keys are plain argument names; integers in matrices, error conditions and samples
  fit the C type of the parameter they feed (and matrix integers are not negative);
- a rule's cases stay few enough to run (:data:`MAX_CASES_PER_RULE`, :data:`MAX_CASES`);
- the check a rule names is a public function of ``conformance/checks/<family>.py`` that
  takes exactly the keyword arguments its cases pass.
"""

from __future__ import annotations

import builtins
import keyword
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .checkrefs import check_functions, observed_names, signature_problem
from .ctypes_lp64 import TypeTable
from .errors import SpecIssue
from .model import BUILTIN_TYPES
from .validate import Document

MAX_CASES_PER_RULE = 1024
MAX_CASES = 10_000
ACL_NAMESPACE = re.compile(r"^(acl|ACL_)")
SIMULATOR_NAMESPACE = re.compile(r"^(aclsim|ACLSIM_)")
FAULT_TABLE_NAMES = frozenset({"count"})  # ACLSIM_FAULT_COUNT closes the generated fault enum
#: Macros and objects of the C headers the generated code and the simulator include, which a
#: parameter or member name would collide with.
C_LIBRARY_NAMES = frozenset(
    "NULL EOF errno stdin stdout stderr assert offsetof bool true false alignas alignof static_assert "
    "noreturn complex imaginary main".split()
)
ERROR_CASE_PARAMS = frozenset({"interface", "param", "condition", "value"})
RESERVED_CASE_PARAMS = frozenset({"expect", "acl", "case", "params"})
POINTER_CONDITIONS = frozenset({"is_null", "offset", "unregistered", "config"})


def _matrix_items(value: Any) -> list[Any]:
    return [value] if isinstance(value, str) else list(value)


class Hardening:
    """Runs the rules of this module over schema-valid, cross-checked spec documents."""

    def __init__(self, docs: dict[str, Document], checks_dir: Path | None = None) -> None:
        self.docs = docs
        self.checks_dir = checks_dir
        self.issues: list[SpecIssue] = []
        self.types = TypeTable.from_types(docs["types"].data)
        self.interfaces = {i["name"]: i for i in docs["interfaces"].data["interfaces"]}

    def report(self, doc: str, path: list[str | int], message: str) -> None:
        """Record an issue at ``path`` of document ``doc``."""
        self.issues.append(SpecIssue(self.docs[doc].where(path), message))

    def run(self) -> list[SpecIssue]:
        """Every rule; returns the issues found."""
        self._c_names()
        self._local_names()
        self._fault_names()
        self._layouts()
        self._samples()
        self._rules()
        return self.issues

    # ---- names ----
    def _global_names(self) -> Iterator[tuple[str, list[str | int], str]]:
        types = self.docs["types"].data
        for section in ("errors", "typedefs", "callbacks", "macros", "enums", "structs"):
            for i, item in enumerate(types[section]):
                yield "types", [section, i, "name"], item["name"]
        for i, enum in enumerate(types["enums"]):
            if enum.get("tag"):
                yield "types", ["enums", i, "tag"], enum["tag"]
            for j, member in enumerate(enum["members"]):
                yield "types", ["enums", i, "members", j, "name"], member["name"]
        for i, iface in enumerate(self.docs["interfaces"].data["interfaces"]):
            yield "interfaces", ["interfaces", i, "name"], iface["name"]

    def _c_names(self) -> None:
        for doc, path, name in self._global_names():
            if hasattr(builtins, name):
                self.report(doc, path, f"{name!r} would shadow Python's built-in {name} in the generated bindings; "
                                       "C names of the spec start with acl or ACL_")
            elif not ACL_NAMESPACE.match(name):
                self.report(doc, path, f"{name!r} is outside the ACL namespace: C names of the spec start with acl "
                                       "or ACL_ (the header is included beside the C library's own)")
            elif SIMULATOR_NAMESPACE.match(name):
                self.report(doc, path, f"{name!r} is in the simulator's namespace (aclsim, ACLSIM_), which the "
                                       "reference simulator defines itself")

    def _local_names(self) -> None:
        taken = {name for _, _, name in self._global_names()} | set(BUILTIN_TYPES) | C_LIBRARY_NAMES
        for i, iface in enumerate(self.docs["interfaces"].data["interfaces"]):
            for j, param in enumerate(iface["params"]):
                if param["name"] in taken:
                    self.report("interfaces", ["interfaces", i, "params", j, "name"],
                                f"parameter name {param['name']!r} is already a type, macro or constant in C")
        for i, struct in enumerate(self.docs["types"].data["structs"]):
            for j, member in enumerate(struct["members"]):
                if member["name"] in taken:
                    self.report("types", ["structs", i, "members", j, "name"],
                                f"member name {member['name']!r} is already a type, macro or constant in C")

    def _fault_names(self) -> None:
        for i, fault in enumerate(self.docs["faults"].data["faults"]):
            if fault["name"] in FAULT_TABLE_NAMES:
                self.report("faults", ["faults", i, "name"], f"fault name {fault['name']!r} would be "
                            f"ACLSIM_FAULT_{fault['name'].upper()}, which the generated fault table defines itself")

    # ---- layouts ----
    def _layouts(self) -> None:
        for i, struct in enumerate(self.docs["types"].data["structs"]):
            base: list[str | int] = ["structs", i]
            for j, member in enumerate(struct["members"]):
                if self.types.size_align(member["type"], frozenset({struct["name"]})) is None:
                    self.report("types", base + ["members", j, "type"],
                                f"{member['type']!r} has no size here (void, or a struct that contains itself)")
                    break
            else:
                self._layout(base, struct)

    def _layout(self, base: list[str | int], struct: dict[str, Any]) -> None:
        layout = self.types.layout(struct)
        if layout is None:
            return
        for j, (member, offset) in enumerate(zip(struct["members"], layout.offsets)):
            if member["offset"] != offset:
                self.report("types", base + ["members", j, "offset"],
                            f"offset {member['offset']} is not where LP64 puts {member['name']} ({offset})")
        if struct["size"] != layout.size:
            self.report("types", base + ["size"], f"size {struct['size']} is not the LP64 size of "
                                                  f"{struct['name']} ({layout.size})")
        if struct["align"] != layout.align:
            self.report("types", base + ["align"], f"alignment {struct['align']} is not the LP64 alignment of "
                                                   f"{struct['name']} ({layout.align})")

    # ---- numbers fed to C parameters ----
    def _fits(self, doc: str, path: list[str | int], value: Any, ctype: str, what: str) -> None:
        bounds = self.types.int_range(ctype)
        if isinstance(value, int) and bounds is not None and not bounds[0] <= value <= bounds[1]:
            self.report(doc, path, f"{value} does not fit {what} ({ctype}: {bounds[0]}..{bounds[1]})")

    def _samples(self) -> None:
        for i, iface in enumerate(self.docs["interfaces"].data["interfaces"]):
            for j, param in enumerate(iface["params"]):
                sample = param.get("sample") or {}
                if "value" in sample:
                    self._fits("interfaces", ["interfaces", i, "params", j, "sample", "value"], sample["value"],
                               param["type"], f"parameter {param['name']}")

    # ---- rules: matrices, conditions, case counts, checks ----
    def _rules(self) -> None:
        rules_doc = self.docs["rules"].data
        matrices = {name: list(values) for name, values in rules_doc["matrices"].items()}
        total = 0
        for i, rule in enumerate(rules_doc["rules"]):
            base: list[str | int] = ["rules", i]
            keys = self._matrix(base, rule, matrices)
            count = len(rule.get("errors") or []) or self._case_count(rule, matrices)
            if count > MAX_CASES_PER_RULE:
                self.report("rules", base + ["matrix"], f"the matrix makes {count} cases; the limit is "
                                                        f"{MAX_CASES_PER_RULE} per rule (matrix product)")
            total += min(count, MAX_CASES_PER_RULE + 1)
            if rule.get("errors"):
                self._conditions(base, rule)
                keys = set(ERROR_CASE_PARAMS)
            if self.checks_dir is not None:
                self._check(base, rule, keys, self.checks_dir)
        if total > MAX_CASES:
            self.report("rules", ["rules"], f"the rules make more than {MAX_CASES} cases in all; "
                                            "that is the limit of one spec")

    def _resolved(self, value: Any, matrices: dict[str, list[Any]]) -> list[Any]:
        out: list[Any] = []
        for item in _matrix_items(value):
            if isinstance(item, str) and item.startswith("@"):
                out.extend(self._reference(item[1:], matrices))
            else:
                out.append(item)
        return out

    def _reference(self, name: str, matrices: dict[str, list[Any]]) -> list[Any]:
        if name.startswith("enum:"):
            enum = next(e for e in self.docs["types"].data["enums"] if e["name"] == name[5:])
            return [m["name"] for m in enum["members"]]
        if name == "host_memory_interfaces":
            return [n for n, i in self.interfaces.items() if i["group"] == "host_memory"]
        return matrices[name]

    def _case_count(self, rule: dict[str, Any], matrices: dict[str, list[Any]]) -> int:
        return math.prod(len(self._resolved(v, matrices)) for v in (rule.get("matrix") or {}).values())

    def _matrix(self, base: list[str | int], rule: dict[str, Any], matrices: dict[str, list[Any]]) -> set[str]:
        params = {p["name"]: p for name in rule.get("interfaces", []) if name in self.interfaces
                  for p in self.interfaces[name]["params"]}
        for key, value in (rule.get("matrix") or {}).items():
            path = base + ["matrix", key]
            if keyword.iskeyword(key) or keyword.issoftkeyword(key):
                self.report("rules", path, f"matrix key {key!r} is a Python keyword and cannot be an argument name")
            elif key in RESERVED_CASE_PARAMS or key.startswith("_"):
                self.report("rules", path, f"matrix key {key!r} is reserved by the generated cases")
            for item in self._resolved(value, matrices):
                if isinstance(item, int) and item < 0:
                    self.report("rules", path, f"{item} is negative; matrices hold sizes, counts and values >= 0")
                    break
                if key in params:
                    before = len(self.issues)
                    self._fits("rules", path, item, params[key]["type"], f"parameter {key}")
                    if len(self.issues) > before:
                        break
        return set(rule.get("matrix") or {})

    def _conditions(self, base: list[str | int], rule: dict[str, Any]) -> None:
        if not rule.get("interfaces"):
            self.report("rules", base + ["interfaces"], "a rule with errors needs the interface they are about")
            return
        target = self.interfaces.get(rule["interfaces"][0])
        if target is None:
            return
        params = {p["name"]: p for p in target["params"]}
        for j, err in enumerate(rule["errors"]):
            when = err["when"]
            param = params.get(when["param"])
            if param is None:
                continue
            kind = next(k for k in when if k != "param")
            path = base + ["errors", j, "when", kind]
            if kind in POINTER_CONDITIONS and not self.types.is_pointer(param["type"]):
                self.report("rules", path, f"{kind} needs a pointer parameter; {param['name']} is {param['type']}")
            elif kind == "config" and self.types.resolve(param["type"]).base != "aclrtMallocConfig":
                self.report("rules", path, f"config needs an aclrtMallocConfig * parameter; {param['name']} is "
                                           f"{param['type']}")
            elif kind == "equals":
                if self.types.int_range(param["type"]) is None:
                    self.report("rules", path, f"equals needs a number parameter; {param['name']} is {param['type']}")
                else:
                    self._fits("rules", path, when["equals"], param["type"], f"parameter {param['name']}")

    def _check(self, base: list[str | int], rule: dict[str, Any], keys: set[str], checks_dir: Path) -> None:
        functions = check_functions(rule["family"], checks_dir)
        module = (checks_dir / f"{rule['family']}.py").as_posix()
        if functions is None:
            self.report("rules", base + ["family"], f"no check module {module}")
            return
        signature = functions.get(rule["check"])
        if signature is None:
            self.report("rules", base + ["check"], f"{rule['check']!r} is not a public function of {module}")
            return
        problem = signature_problem(signature, keys | {"expect"})
        if problem:
            self.report("rules", base + ["check"], f"{problem} ({module}:{signature.line})")
        recorded = observed_names(rule["family"], checks_dir).get(rule["check"], frozenset())
        declared = {entry["name"] for entry in self.docs["observations"].data["observations"].get(rule["id"], [])}
        undeclared = sorted(recorded - declared)
        if undeclared:
            self.report("rules", base + ["check"], f"{rule['check']} ({module}:{signature.line}) records "
                        f"{', '.join(repr(n) for n in undeclared)}, which spec/observations.yaml does not declare "
                        f"for {rule['id']}: declare it there (every case of the rule would end ERROR at run time)")


def hardening_issues(docs: dict[str, Document], checks_dir: Path | None = None) -> list[SpecIssue]:
    """Every issue of :class:`Hardening` for the loaded documents (the ``check:`` names against the
    procedures in ``checks_dir`` only when it is given)."""
    return Hardening(docs, checks_dir).run()
