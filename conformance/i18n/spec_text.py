"""The spec's own texts in a language: rule titles and product family names (and the rule families' names).

The spec carries each rule's Chinese next to its English (``title_zh``, ``statement_zh``, ...)
and each product family's Chinese name (``name_zh``); the generated catalog passes them on. Every
report reads those texts here and nowhere else (the reports show rule titles and family names
today), so a catalog without a field (an older bundle's spec, or one written before the Chinese
texts) shows the English text instead of nothing.

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


def product_family_name(family: Mapping[str, object], lang: str) -> str:
    """A product family's name in ``lang`` (the support lists' own words: "Atlas A2 训练系列产品")."""
    return _field(family, "name", lang)


def rule_family_name(family_id: str, lang: str) -> str:
    """A rule family's name in ``lang``; an ID the kit does not know is shown as it is."""
    english = RULE_FAMILIES.get(family_id)
    return translate(english, lang) if english is not None else family_id
