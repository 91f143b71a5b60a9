"""The spec's own texts in a language: rule titles and statements, product family names, the glossary.

The spec carries each rule's Chinese next to its English (``title_zh``, ``statement_zh``,
``reason_zh``), each product family's Chinese name (``name_zh``) and one glossary; the generated
catalog passes them on. Every report reads those texts here and nowhere else, so a catalog
without a field (an older bundle's spec) shows the English text instead of nothing.

Rule family IDs (``alignment``, ``sync``, ...) are the kit's vocabulary, not the spec's prose:
their Chinese is in the message catalogue.
"""

from __future__ import annotations

from collections.abc import Mapping

from . import DEFAULT, N_, translate

#: The rule families' display names (English: the ID itself, as the reports always showed it).
RULE_FAMILIES: dict[str, str] = {
    "alignment": N_("alignment"),
    "capability": N_("capability"),
    "content": N_("content"),
    "explorer": N_("explorer"),
    "invalid_argument": N_("invalid_argument"),
    "pairing": N_("pairing"),
    "product_support": N_("product_support"),
    "sync": N_("sync"),
    "va_identity": N_("va_identity"),
}


def _field(entry: Mapping[str, object], name: str, lang: str) -> str:
    """``entry[name]`` in ``lang``: ``name_zh`` for zh where the spec has it, else the English field."""
    english = entry.get(name)
    if lang != DEFAULT:
        localised = entry.get(f"{name}_{lang}")
        if isinstance(localised, str) and localised.strip():
            return localised
    return "" if english is None else str(english)


def rule_title(rule: Mapping[str, object], lang: str) -> str:
    """A rule's title in ``lang`` (its English title where the spec has no translation)."""
    return _field(rule, "title", lang)


def rule_statement(rule: Mapping[str, object], lang: str) -> str:
    """A rule's statement in ``lang``."""
    return _field(rule, "statement", lang)


def rule_reason(rule: Mapping[str, object], lang: str) -> str:
    """Why a rule holds (its ``reason``) in ``lang``."""
    return _field(rule, "reason", lang)


def product_family_name(family: Mapping[str, object], lang: str) -> str:
    """A product family's name in ``lang`` (the support lists' own words: "Atlas A2 训练系列产品")."""
    return _field(family, "name", lang)


def rule_family_name(family_id: str, lang: str) -> str:
    """A rule family's name in ``lang``; an ID the kit does not know is shown as it is."""
    english = RULE_FAMILIES.get(family_id)
    return translate(english, lang) if english is not None else family_id


def glossary_term(catalog: Mapping[str, object], term_id: str, lang: str) -> str | None:
    """The glossary's word for ``term_id`` in ``lang``, or None when the catalog's glossary lacks it."""
    glossary = catalog.get("glossary")
    if not isinstance(glossary, list):
        return None
    for entry in glossary:
        if isinstance(entry, Mapping) and entry.get("id") == term_id:
            word = entry.get(lang) or entry.get(DEFAULT)
            return str(word) if word else None
    return None
