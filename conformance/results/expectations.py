"""Expectations: known deviations of a backend, declared in YAML, that turn FAIL into WAIVED.

An expectations file lists entries, each keyed by a rule ID pattern or a case ID pattern
and optionally narrowed to product families, a SoC-name pattern and a CANN version range::

    schema: acl-conformance-expectations/1
    expectations:
      - rule: HM-PAIR-DOUBLE-UNREGISTER
        families: [atlas_a2]
        soc: "Ascend910B*"
        cann: ">=8.0,<8.5"
        reason: Driver 24.1 reports success on a second unregister.
        tracking: https://gitcode.com/cann/runtime/issues/1234
        expires: 2027-03-31
        accepted: false

Patterns are globs in which only ``*`` (any run of characters) and ``?`` (one character)
are special; ``[`` and ``]`` are literal, so a case ID such as
``HM-ALIGN-MALLOC[api=malloc,cfg=null_cfg,size=1]`` is its own pattern. Version ranges
are comma-separated clauses ``OP VERSION`` with OP one of ``>= > <= < == !=``; versions
compare component by component (numbers numerically, ``RCn`` before any number), a
shorter version being lower than any longer one that extends it, and ``==``/``!=``
compare by prefix (``==8.0`` holds for 8.0, 8.0.RC1 and 8.0.1).

The scope of an entry must name one rule and at least one product family: the rule part
(``rule``, or the part of ``case`` before ``[``) is an exact rule ID, and ``families`` is
required. Wildcards are allowed only in the parameters of a ``case`` pattern, and an
entry with a wildcard is never accepted for certification (``accepted: true`` is refused).

The plugin applies the entries: a FAIL that matches becomes WAIVED, a PASS that matches
becomes XPASS (a stale waiver), an ERROR is never waived, and neither is a FAIL whose
call timed out or whose teardown could not release what the case held
(:func:`~conformance.results.outcomes.apply_waiver`). An entry whose ``expires`` date lies
before today never matches and is listed by :meth:`ExpectationSet.expired`.

An entry with ``observation:`` (a name pattern, e.g. ``grain`` or ``*``) waives no outcome:
it accepts a known behaviour drift of that observation in the gate, and needs a ``reason``
and an ``expires`` date; the scope rules above are for waivers of outcomes.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict

from codegen.yamlload import LocDict, LocList, load_yaml

from ..harness.untrusted_text import unsafe_characters
from .matching import VersionRange, glob_match, parse_version_range

SCHEMA = "acl-conformance-expectations/1"

_TOP_KEYS = {"schema", "expectations"}
#: The longest an accepted waiver may stand before somebody looks at it again.
ACCEPTED_FOR_AT_MOST = datetime.timedelta(days=366)
_ENTRY_KEYS = {"rule", "case", "families", "soc", "cann", "reason", "tracking", "expires", "accepted", "observation"}
_RULE_ID = re.compile(r"^[A-Za-z0-9_.-]+$")
_RULE_PATTERN = re.compile(r"^[A-Za-z0-9_.*?-]+$")
WILDCARDS = frozenset("*?")
_FAMILY_ID = re.compile(r"^[a-z0-9_]+$")
_SOC_PATTERN = re.compile(r"^[A-Za-z0-9_.*?-]+$")
_OBSERVATION = re.compile(r"^[a-z0-9_*?]+$")
_TRACKING = re.compile(r"^(https?://\S+|[A-Za-z][A-Za-z0-9_.-]*[-#][0-9]+)$")


class ExpectationError(Exception):
    """A malformed expectations file; ``str()`` is ``file:line: field: message``."""

    def __init__(self, file: str, line: int, field_name: str, message: str) -> None:
        self.file = file
        self.line = line
        self.field = field_name
        self.message = message
        super().__init__(f"{file}:{line}: {field_name}: {message}")


# --------------------------------------------------------------------------- line-aware YAML


def _load_yaml(path: Path) -> object:
    """Parse one file with positions; raises ExpectationError for syntax errors and duplicate keys."""
    data, issues = load_yaml(path, str(path))
    if issues:
        issue = issues[0]
        raise ExpectationError(str(path), issue.where.line, issue.where.path or "(file)", issue.message)
    return data


# --------------------------------------------------------------------------- the model


class WaiverJSON(TypedDict):
    """An :class:`Expectation` as summary.json records it (a case's ``waiver``, ``expectations.expired``)."""

    rule: str | None
    case: str | None
    families: list[str]
    soc: str | None
    cann: str | None
    reason: str
    tracking: str | None
    expires: str | None
    accepted: bool
    observation: str | None
    where: str


@dataclass(frozen=True)
class Expectation:
    """One entry of an expectations file."""

    rule: str | None
    case: str | None
    families: tuple[str, ...]
    soc: str | None
    cann: VersionRange | None
    reason: str
    tracking: str | None
    expires: datetime.date | None
    accepted: bool
    file: str
    line: int
    observation: str | None = None

    @property
    def where(self) -> str:
        """``file:line`` of the entry."""
        return f"{self.file}:{self.line}"

    @property
    def pattern(self) -> str:
        """The rule or case pattern that keys the entry."""
        return self.case if self.case is not None else str(self.rule)

    def is_expired(self, today: datetime.date) -> bool:
        """Whether the entry's expiry date lies before ``today``."""
        return self.expires is not None and self.expires < today

    def applies(self, case_id: str, rule_id: str, family: str, soc: str, cann_version: str) -> bool:
        """Whether the entry covers this case on this product (expiry not considered)."""
        if self.case is not None and not glob_match(self.case, case_id):
            return False
        if self.rule is not None and not glob_match(self.rule, rule_id):
            return False
        if self.families and family not in self.families:
            return False
        if self.soc is not None and not glob_match(self.soc, soc or ""):
            return False
        return self.cann is None or self.cann.contains(cann_version or "")

    def to_json(self) -> WaiverJSON:
        """The entry as a JSON-ready dict (summary.json ``waiver`` objects, reports)."""
        return {
            "rule": self.rule,
            "case": self.case,
            "families": list(self.families),
            "soc": self.soc,
            "cann": self.cann.text if self.cann else None,
            "reason": self.reason,
            "tracking": self.tracking,
            "expires": self.expires.isoformat() if self.expires else None,
            "accepted": self.accepted,
            "observation": self.observation,
            "where": self.where,
        }


@dataclass
class ExpectationSet:
    """Every entry of the loaded files, in file order; case-keyed entries win over rule-keyed."""

    files: list[Path] = field(default_factory=list)
    entries: list[Expectation] = field(default_factory=list)

    def match(
        self,
        case_id: str,
        rule_id: str,
        family: str,
        soc: str,
        cann_version: str,
        today: datetime.date,
    ) -> Expectation | None:
        """The first unexpired entry covering the case: case-keyed entries first, then rule-keyed.

        Entries that accept a drift (``observation:``) never waive an outcome.
        """
        return self._first(case_id, rule_id, family, soc, cann_version, today, lambda e: e.observation is None)

    def match_drift(self, case_id: str, rule_id: str, observation: str, family: str, soc: str,
                    cann_version: str, today: datetime.date) -> Expectation | None:
        """The first unexpired ``observation:`` entry accepting a drift of ``observation`` in the case."""
        return self._first(case_id, rule_id, family, soc, cann_version, today,
                           lambda e: e.observation is not None and glob_match(e.observation, observation))

    def _first(self, case_id: str, rule_id: str, family: str, soc: str, cann_version: str, today: datetime.date,
               kind: Callable[[Expectation], bool]) -> Expectation | None:
        for keyed_by_case in (True, False):
            for entry in self.entries:
                if (entry.case is not None) != keyed_by_case or entry.is_expired(today) or not kind(entry):
                    continue
                if entry.applies(case_id, rule_id, family, soc, cann_version):
                    return entry
        return None

    def expired(self, today: datetime.date) -> list[Expectation]:
        """Entries whose expiry date lies before ``today``."""
        return [entry for entry in self.entries if entry.is_expired(today)]

    def __len__(self) -> int:
        return len(self.entries)


# --------------------------------------------------------------------------- loading


def load_expectations(paths: Iterable[Path]) -> ExpectationSet:
    """Load and validate expectations files; raises :class:`ExpectationError` on the first problem."""
    result = ExpectationSet()
    for path in paths:
        path = Path(path)
        result.files.append(path)
        result.entries.extend(_load_file(path))
    return result


def _load_file(path: Path) -> list[Expectation]:
    name = str(path)
    if not path.is_file():
        raise ExpectationError(name, 1, "(file)", "no such expectations file")
    data = _load_yaml(path)
    if data is None:
        return []
    if not isinstance(data, LocDict):
        raise ExpectationError(name, getattr(data, "line", 1), "(top)", "must be a mapping with 'expectations:'")
    for key in data:
        if key not in _TOP_KEYS:
            raise ExpectationError(
                name, data.key_lines[key], key, f"unknown key (allowed: {', '.join(sorted(_TOP_KEYS))})"
            )
    if "schema" in data and data["schema"] != SCHEMA:
        raise ExpectationError(name, data.key_lines["schema"], "schema", f"must be {SCHEMA!r}")
    items = data.get("expectations", [])
    if items is None:
        return []
    if not isinstance(items, LocList):
        raise ExpectationError(name, data.key_lines["expectations"], "expectations", "must be a list of entries")
    entries = []
    for index, item in enumerate(items):
        entries.append(_parse_entry(name, f"expectations[{index}]", items.item_lines[index], item))
    return entries


class _Entry:
    """Field access on one located mapping, raising ExpectationError with file:line: field."""

    def __init__(self, file: str, prefix: str, line: int, data: LocDict) -> None:
        self.file, self.prefix, self.line, self.data = file, prefix, line, data

    def fail(self, key: str | None, message: str) -> ExpectationError:
        line = self.data.key_lines.get(key, self.line) if key else self.line
        return ExpectationError(self.file, line, f"{self.prefix}.{key}" if key else self.prefix, message)

    def text(self, key: str, pattern: re.Pattern[str] | None = None, what: str = "") -> str | None:
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, f"must be a non-empty string, got {type(value).__name__}")
        if pattern is not None and not pattern.match(value):
            raise self.fail(key, f"{value!r} is not {what}")
        return value


def _parse_entry(file: str, prefix: str, line: int, data: object) -> Expectation:
    if not isinstance(data, LocDict):
        raise ExpectationError(file, line, prefix, "each entry must be a mapping")
    entry = _Entry(file, prefix, line, data)
    for key in data:
        if key not in _ENTRY_KEYS:
            raise entry.fail(key, f"unknown key (allowed: {', '.join(sorted(_ENTRY_KEYS))})")
    observation = entry.text("observation", _OBSERVATION, "an observation name pattern (a-z 0-9 _ * ?)")
    waiver = observation is None  # a waiver of outcomes names its rule exactly; a drift acceptance may use a glob
    if waiver:
        rule = entry.text("rule", _RULE_ID, "one rule ID (letters, digits, - _ .; a waiver names its rule, no "
                                            "wildcards)")
    else:
        rule = entry.text("rule", _RULE_PATTERN, "a rule ID pattern (letters, digits, - _ . * ?)")
    case = entry.text("case")
    if (rule is None) == (case is None):
        raise entry.fail(None, "needs exactly one of 'rule' or 'case'")
    if case is not None:
        _check_case_pattern(entry, case, exact_rule=waiver)
    reason = entry.text("reason")
    if reason is None:
        raise entry.fail(None, "needs a 'reason'")
    for key in ("reason", "tracking", "soc"):
        # The text reaches certificates, reports and terminals: no line breaks, controls or bidi marks.
        unsafe = unsafe_characters(str(data.get(key) or ""))
        if unsafe:
            raise entry.fail(key, f"holds control or bidirectional characters ({', '.join(unsafe[:3])})")
    tracking = entry.text("tracking", _TRACKING, "a URL or a ticket such as ABC-123")
    accepted = data.get("accepted", False)
    if not isinstance(accepted, bool):
        raise entry.fail("accepted", f"must be true or false, got {accepted!r}")
    expires = _parse_date(entry, data.get("expires"))
    if accepted and (tracking is None or expires is None):
        raise entry.fail("accepted", "a waiver accepted for certification needs 'tracking' and 'expires'")
    if observation is not None and expires is None:
        raise entry.fail("observation", "accepting a drift needs an 'expires' date")
    if accepted and WILDCARDS & set(case or rule or ""):
        raise entry.fail("accepted", "a wildcard waiver is never accepted for certification: name each case")
    if accepted and expires is not None and expires > datetime.date.today() + ACCEPTED_FOR_AT_MOST:
        raise entry.fail("expires", f"{expires.isoformat()} is more than a year away: a waiver accepted for "
                                    "certification is reviewed at least once a year")
    families = _parse_families(entry, data.get("families"))
    soc = entry.text("soc", _SOC_PATTERN, "a SoC name pattern (letters, digits, - _ . * ?)")
    cann = _parse_cann(entry, data.get("cann"))
    if not families and observation is None:
        raise entry.fail(None, "needs 'families': a waiver names the product families it covers")
    return Expectation(
        rule=rule,
        case=case,
        families=families,
        soc=soc,
        cann=cann,
        reason=reason,
        tracking=tracking,
        expires=expires,
        accepted=accepted,
        file=file,
        line=line,
        observation=observation,
    )


def _check_case_pattern(entry: _Entry, case: str, *, exact_rule: bool) -> None:
    if any(char.isspace() for char in case):
        raise entry.fail("case", f"{case!r} contains white space")
    if case.count("[") != case.count("]") or case.count("[") > 1:
        raise entry.fail("case", f"{case!r} is not RULE-ID[params] (brackets are literal, not a character class)")
    head = case.split("[", 1)[0]
    if exact_rule and not _RULE_ID.match(head):
        raise entry.fail("case", f"{case!r} does not start with one rule ID (wildcards only inside [...])")
    if not _RULE_PATTERN.match(head):
        raise entry.fail("case", f"{case!r} does not start with a rule ID pattern")


def _parse_families(entry: _Entry, value: object) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not value:
        raise entry.fail("families", "must be a non-empty list of product family IDs")
    for item in value:
        if not isinstance(item, str) or not _FAMILY_ID.match(item):
            raise entry.fail("families", f"{item!r} is not a product family ID such as atlas_a2")
    return tuple(value)


def _parse_cann(entry: _Entry, value: object) -> VersionRange | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise entry.fail("cann", f"must be a quoted version range such as '>=8.0,<8.5', got {value!r}")
    try:
        return parse_version_range(value)
    except ValueError as exc:
        raise entry.fail("cann", str(exc)) from None


def _parse_date(entry: _Entry, value: object) -> datetime.date | None:
    if value is None:
        return None
    if isinstance(value, datetime.datetime):
        raise entry.fail("expires", "must be a date (YYYY-MM-DD), not a timestamp")
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, str):
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            pass
    raise entry.fail("expires", f"{value!r} is not a date in the form YYYY-MM-DD")


# --------------------------------------------------------------------------- rules of certification


def certification_problem(waiver: object) -> str | None:
    """Why a recorded waiver (``Expectation.to_json()``) cannot count as accepted for certification, or None.

    Certification recomputes this instead of trusting ``accepted``: the waiver must say
    ``accepted: true``, name exactly one rule or case (no wildcard) and name its families.
    """
    if not isinstance(waiver, dict) or waiver.get("accepted") is not True:
        return "the waiver is not accepted for certification"
    pattern = waiver.get("case") or waiver.get("rule")
    if not isinstance(pattern, str) or not pattern or WILDCARDS & set(pattern):
        return "a wildcard waiver is never accepted for certification"
    if not waiver.get("families"):
        return "the waiver names no product family"
    return None
