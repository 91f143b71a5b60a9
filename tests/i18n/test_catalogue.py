"""Every message exists in both languages: what the code passes to the catalogue has a reviewed zh text,
and the zh catalogue holds nothing the code no longer uses."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from conformance import i18n
from conformance.i18n import messages

KEYWORDS = set(messages.KEYWORDS)


def _ids_in_the_syntax_tree(package: Path) -> set[str]:
    """Literal first arguments of the catalogue's calls, f-strings included (a cross-check of Babel's extractor:
    a call it cannot see would go untranslated without a word)."""
    found: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in KEYWORDS
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.add(node.args[0].value)
    return found


def test_every_message_the_code_uses_has_a_chinese_text_and_none_is_unused():
    assert list(messages.problems("zh")) == []


def test_babel_sees_every_message_call_of_the_code():
    unseen = _ids_in_the_syntax_tree(messages.PACKAGE) - set(messages.used_ids())
    assert not unseen, f"calls Babel's extractor does not see (a literal inside an f-string?): {sorted(unseen)}"


def test_a_message_missing_from_the_catalogue_is_named(tmp_path):
    package = tmp_path / "kit"
    package.mkdir()
    (package / "new.py").write_text('from conformance.i18n import _\n\nprint(_("a message nobody translated"))\n')
    said = list(messages.problems("zh", package))
    assert any("new.py:3: 'a message nobody translated' has no zh text" in line for line in said), said
    assert any("is used nowhere in the code" in line for line in said)  # this package uses none of the .po's


def test_placeholders_agree_between_the_languages():
    """A zh text that drops or renames a {placeholder} (or argparse's %(default)s, %(value)r, %s) would raise
    at run time, in zh only."""
    import re
    import string

    def names(text: str) -> set[str]:
        return ({field for _, field, _, _ in string.Formatter().parse(text) if field}
                | set(re.findall(r"%\(\w+\)[sr]", text)) | {f"%s x{text.count('%s')}"})

    wrong = {msgid: text for msgid, text in messages.translated("zh").items() if names(msgid) != names(text)}
    assert not wrong


@pytest.mark.parametrize("text", ["HM-ALIGN-MALLOC", "aclrtMallocHost", "ACL_ERROR_INVALID_PARAM", "{0}"])
def test_library_strings_and_case_data_stay_inert(text):
    """Only message IDs the code names are translated: anything else, whatever the language, is itself."""
    assert i18n.translate(text, "zh") == text
