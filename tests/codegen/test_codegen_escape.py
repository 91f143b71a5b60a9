"""Every escaper of codegen.escape is exact and cannot be broken out of, for any text.

Hypothesis draws text from the whole of Unicode (surrogates and controls included), mixed
with the sequences that end or change each context; the decoders in ``decode.py`` read
the text back by the destination language's rules. One C program compiles every C string
literal the run produced and prints its bytes, so C's own reading is checked too.
"""

from __future__ import annotations

import ast
import subprocess

from decode import c_comment_text, c_payloads, c_string_bytes, markdown_code_span, markdown_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codegen.escape import c_comment, c_string, md, md_code, py_docstring, py_literal

FRAGMENTS = ['"', "'", '"""', "'''", "\\", "*/", "/*", "/", "*", "{{", "}}", "{%", "%}", "{#", "\n", "\r", "\x00",
             "\x85", "\u2028", "\u202e", "\u2066", "\u200b", "\ufeff", "\U0001F600", "\ud800", "|", "`", "``", "<b>",
             "&amp;", "&#x41;", "??/", "??=", "$", "~~", "\\x41", "\\u0041", "\\n", "_", "[", "]", "#"]
HOSTILE = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=4)), max_size=12).map("".join)
FAST = settings(max_examples=400, deadline=None, derandomize=True, database=None)


@FAST
@given(HOSTILE)
def test_python_literal_is_exact(text: str) -> None:
    assert ast.literal_eval(py_literal(text)) == text
    assert ast.literal_eval(py_literal([text, (text,), {text: 1}])) == [text, (text,), {text: 1}]


@FAST
@given(HOSTILE)
def test_docstring_is_exact_and_stays_one_string(text: str) -> None:
    module = ast.parse(f'def f():\n    """{py_docstring(text)}"""\n    return 1\n')
    function = module.body[0]
    assert isinstance(function, ast.FunctionDef) and len(function.body) == 2
    assert ast.get_docstring(function, clean=False) == text
    assert "\n" not in py_docstring(text)


@FAST
@given(HOSTILE)
def test_c_comment_is_exact_and_cannot_end_early(text: str) -> None:
    body = c_comment(text)
    assert "*/" not in body and "/*" not in body and "\n" not in body
    assert c_comment_text(body) == text
    comments, strings = c_payloads(f"int a; /* {body} */ int b;")
    assert comments == [f" {text} "] and strings == []


@FAST
@given(HOSTILE)
def test_c_string_is_exact_python_side(text: str) -> None:
    literal = c_string(text)
    assert literal.isascii() and "\n" not in literal and "??" not in literal
    assert c_string_bytes(literal[1:-1]) == text.encode("utf-8", errors="surrogatepass")


@FAST
@given(HOSTILE)
def test_markdown_cell_is_exact_and_stays_in_its_cell(text: str) -> None:
    cell = md(text)
    assert "\n" not in cell and "\r" not in cell
    assert cell.replace("\\\\", "").replace("\\|", "").count("|") == 0
    assert markdown_text(cell) == text


@FAST
@given(HOSTILE)
def test_markdown_code_span_holds_the_text(text: str) -> None:
    span = md_code(text)
    assert "\n" not in span
    if text and text.isprintable():
        assert markdown_code_span(span) == text
    else:
        assert markdown_text(span) == text


@settings(max_examples=5, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(HOSTILE, min_size=100, max_size=100))
def test_c_compiler_reads_c_strings_back_exactly(cc: str, tmp_path_factory, texts: list[str]) -> None:
    directory = tmp_path_factory.mktemp("cstr")
    program = ["#include <stdio.h>", "static const struct { const char *s; unsigned long n; } T[] = {"]
    program += [f"    {{{c_string(t)}, sizeof({c_string(t)}) - 1}}," for t in texts]
    program += ["};", "int main(void) {", "    for (unsigned i = 0; i < sizeof T / sizeof T[0]; i++) {",
                "        fwrite(T[i].s, 1, T[i].n, stdout); fputc(0xff, stdout);", "    }", "    return 0;", "}"]
    source = directory / "strings.c"
    source.write_text("\n".join(program) + "\n", encoding="ascii")
    exe = directory / "strings"
    built = subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-trigraphs", str(source), "-o", str(exe)],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    out = subprocess.run([str(exe)], capture_output=True, check=True).stdout
    want = b"".join(t.encode("utf-8", errors="surrogatepass") + b"\xff" for t in texts)
    assert out == want
