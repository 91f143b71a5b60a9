"""Lint of the spec's two languages: every rule and product family in Chinese too, one glossary applied.

The schema makes the Chinese fields required (``title_zh``, ``statement_zh``, ``reason_zh``,
``name_zh``); :class:`BilingualChecks` adds what a schema cannot say:

- a Chinese field holds Chinese (a copy of the English is no translation);
- the glossary (``spec/glossary.yaml``) is one vocabulary: IDs and English terms unique, and
  wherever a rule's English title, statement or applicability reason uses a term, the Chinese
  twin of that text uses the term's Chinese word (or an accepted variant);
- a product family's ``name_zh`` is a product-series term of the glossary, so that its spelling
  is the official support lists' (the term cites the list line);
- a Chinese text that quotes an official page (「...」) names the line in ``zh_source``.

:func:`page_issues` checks against the pinned pages themselves (``lint --reference``): a
``zh_source`` line lies in its anchor's section and holds every quote, and a glossary term with
a ``source`` stands on the cited line.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import SpecIssue
from .evidence import Citation
from .evidence_verify import CitationVerifier
from .validate import Document

#: A quotation of an official page inside a Chinese text.
QUOTE = re.compile(r"「([^」]+)」")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")


@dataclass(frozen=True)
class TextPair:
    """An English prose field and its Chinese twin, with where the twin is (document, field path)."""

    doc: Document
    path: list[str | int]
    en: str
    zh: str

    @property
    def zh_field(self) -> str:
        """The name of the Chinese field, e.g. ``statement_zh``."""
        return str(self.path[-1])


@dataclass(frozen=True)
class Term:
    """A glossary term as lint applies it: the English forms it looks for and the Chinese words it accepts."""

    id: str
    english: tuple[str, ...]
    chinese: tuple[str, ...]
    other_senses: tuple[str, ...] = ()

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> Term:
        """The term of one glossary entry."""
        return cls(raw["id"], (raw["en"], *raw.get("en_variants", [])), (raw["zh"], *raw.get("zh_variants", [])),
                   tuple(raw.get("en_other_senses", [])))

    def used_in(self, english: str) -> str | None:
        """The first English form of the term that ``english`` uses as a whole word, or None.

        A form matches as written or with its first letter capitalised (a sentence start), never in
        other capitals, so that flag names (MAPPED, PINNED) and identifiers (aclrtHostRegister) do
        not count as the words they contain.
        """
        for phrase in self.other_senses:
            english = _whole_word(phrase).sub(" ", english)
        for form in self.english:
            if _whole_word(form).search(english):
                return form
        return None

    def written_in(self, chinese: str) -> bool:
        """Whether ``chinese`` uses the term's Chinese word or one of its variants."""
        return any(word in chinese for word in self.chinese)


@functools.cache
def _whole_word(form: str) -> re.Pattern[str]:
    """``form`` as a whole word (not inside an identifier or a hyphenated word), as written or capitalised."""
    spelled = "|".join(re.escape(s) for s in dict.fromkeys((form, form[:1].upper() + form[1:])))
    return re.compile(rf"(?<![A-Za-z0-9_-])(?:{spelled})(?![A-Za-z0-9_-])")


def rule_pairs(rules_doc: Document, model_doc: Document | None = None) -> Iterator[TextPair]:
    """Every (English, Chinese) prose pair of the rules: titles, statements and applicability reasons."""
    for doc in (rules_doc, model_doc):
        if doc is None:
            continue
        for i, rule in enumerate(doc.data.get("rules") or []):
            for key in ("title", "statement"):
                if f"{key}_zh" in rule:
                    yield TextPair(doc, ["rules", i, f"{key}_zh"], rule.get(key, ""), rule[f"{key}_zh"])
            applies = rule.get("applies") or {}
            if "reason_zh" in applies:
                yield TextPair(doc, ["rules", i, "applies", "reason_zh"], applies.get("reason", ""),
                               applies["reason_zh"])


class BilingualChecks:
    """The checks of both languages that need nothing outside the spec."""

    def __init__(self, docs: dict[str, Document]) -> None:
        self.docs = docs
        self.glossary = docs["glossary"]
        self.terms = [Term.from_raw(raw) for raw in self.glossary.data["terms"]]
        self.pairs = list(rule_pairs(docs["rules"], docs.get("state_model")))
        self.issues: list[SpecIssue] = []

    def report(self, doc: Document, path: list[str | int], message: str) -> None:
        """Record an issue at ``path`` of ``doc``."""
        self.issues.append(SpecIssue(doc.where(path), message))

    def run(self) -> list[SpecIssue]:
        """Every check; the issues found."""
        self._glossary_unique()
        self._chinese_present()
        self._terms_applied()
        self._family_names()
        self._quotes_cited()
        return self.issues

    def _glossary_unique(self) -> None:
        seen_ids: set[str] = set()
        seen_en: dict[str, str] = {}
        for i, raw in enumerate(self.glossary.data["terms"]):
            if raw["id"] in seen_ids:
                self.report(self.glossary, ["terms", i, "id"], f"glossary term {raw['id']!r} is defined twice")
            seen_ids.add(raw["id"])
            for form in (raw["en"], *raw.get("en_variants", [])):
                other = seen_en.setdefault(form, raw["id"])
                if other != raw["id"]:
                    self.report(self.glossary, ["terms", i, "en"],
                                f"the English {form!r} is already the glossary term {other!r}: one word, one term")

    def _chinese_present(self) -> None:
        # A product name may be all Latin in Chinese too (IPV350): family names and official terms are
        # checked against the glossary and the pages instead.
        fields: list[tuple[Document, list[str | int], str]] = [(p.doc, p.path, p.zh) for p in self.pairs]
        fields += [(self.glossary, ["terms", i, "zh"], t["zh"]) for i, t in enumerate(self.glossary.data["terms"])
                   if t.get("source") is None]
        for doc, path, text in fields:
            if not _CJK.search(text):
                self.report(doc, path, f"{path[-1]} has no Chinese in it: write the text in Chinese (the English "
                                       "field beside it stays as it is)")

    def _terms_applied(self) -> None:
        for pair in self.pairs:
            for term in self.terms:
                form = term.used_in(pair.en)
                if form is not None and not term.written_in(pair.zh):
                    accepted = " or ".join(term.chinese)
                    self.report(pair.doc, pair.path,
                                f"the English text uses {form!r} (glossary term {term.id!r}): the Chinese text must "
                                f"say {accepted} (spec/glossary.yaml; add a zh_variant there if the pages use "
                                "another word)")

    def _family_names(self) -> None:
        series = {word for t in self.terms for word in t.chinese}
        products = self.docs["products"]
        for i, family in enumerate(products.data["families"]):
            name = family.get("name_zh")
            if name is not None and name not in series:
                self.report(products, ["families", i, "name_zh"],
                            f"{name!r} is no term of spec/glossary.yaml: a product family is named as the official "
                            "support lists write it, in a glossary term that cites the list")

    def _quotes_cited(self) -> None:
        for doc in (self.docs["rules"], self.docs.get("state_model")):
            if doc is None:
                continue
            for i, rule in enumerate(doc.data.get("rules") or []):
                for key in ("title_zh", "statement_zh"):
                    if QUOTE.search(rule.get(key, "")) and "zh_source" not in rule:
                        self.report(doc, ["rules", i, key], "quotes an official page (「...」) but the rule has no "
                                    "zh_source: cite the page line the quote stands on")


def page_text(line: str) -> str:
    """A page line as a reader sees it: Markdown links reduced to their text, backslash escapes removed."""
    return re.sub(r"\\(.)", r"\1", _MD_LINK.sub(r"\1", line))


class PageChecks:
    """The checks of the Chinese texts against the pinned pages (``lint --reference DIR``)."""

    def __init__(self, reference: Path, docs: dict[str, Document]) -> None:
        self.verifier = CitationVerifier(reference, None, "")
        self.docs = docs
        self.issues: list[SpecIssue] = []

    def _lines(self, ref: str) -> tuple[str | None, str]:
        """(why ``ref`` cannot be read, the text of its lines as a reader sees them)."""
        citation = Citation.parse({"doc": ref, "says": ref})
        problem = self.verifier.problem(citation)
        if problem:
            return problem, ""
        lines = self.verifier.page(citation.page) or []
        return None, " ".join(page_text(line) for line in lines[citation.first - 1:citation.last])

    def run(self) -> list[SpecIssue]:
        """Every zh_source and glossary source that does not hold on the pages."""
        for doc in (self.docs["rules"], self.docs.get("state_model")):
            if doc is not None:
                for i, rule in enumerate(doc.data.get("rules") or []):
                    if "zh_source" in rule:
                        self._rule(doc, i, rule)
        glossary = self.docs["glossary"]
        for i, term in enumerate(glossary.data["terms"]):
            if term.get("source"):
                problem, text = self._lines(term["source"])
                if problem:
                    self.issues.append(SpecIssue(glossary.where(["terms", i, "source"]), problem))
                elif term["zh"] not in text:
                    self.issues.append(SpecIssue(glossary.where(["terms", i, "zh"]),
                                                 f"{term['zh']!r} does not stand on {term['source']}: an official "
                                                 "term is spelled as the page spells it, on the line cited"))
        return self.issues

    def _rule(self, doc: Document, index: int, rule: dict[str, Any]) -> None:
        problem, text = self._lines(rule["zh_source"])
        if problem:
            self.issues.append(SpecIssue(doc.where(["rules", index, "zh_source"]), problem))
            return
        for key in ("title_zh", "statement_zh"):
            for quote in QUOTE.findall(rule.get(key, "")):
                if quote not in text:
                    self.issues.append(SpecIssue(doc.where(["rules", index, key]),
                                                 f"the quote 「{quote}」 is not on {rule['zh_source']}: quote the "
                                                 "page word for word, or cite the line it stands on"))


def page_issues(reference: Path, docs: dict[str, Document]) -> list[SpecIssue]:
    """The Chinese texts' citations of the pinned pages that do not hold (``lint --reference``)."""
    return PageChecks(reference, docs).run()
