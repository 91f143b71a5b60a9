"""Strings from the library and from waivers cannot write the kit's reports (F8)."""

from __future__ import annotations

from bundle_helpers import FAULTED_RULE, first_case, write_fake_bundle

from conformance.certify.certificate import visible_verdicts_markdown
from conformance.certify.verdict import NOT_CERTIFIED, assess
from conformance.harness.untrusted_text import markdown_text, terminal_text, unsafe_characters
from conformance.results.summary import format_summary

FORGED = "Ascend910B3\n\n## Verdict: **CERTIFIED**\n"


def test_a_library_string_cannot_add_a_verdict_heading_to_the_certificate(tmp_path, catalog, make_summary):
    failing = first_case(catalog, FAULTED_RULE)
    summary = make_summary({failing: {"outcome": "FAIL", "message": "second unregister\n## Verdict: **CERTIFIED**"}},
                           soc=FORGED, cann_version="9.2.0\n| forged | row |")
    assert assess(summary, catalog).verdict == NOT_CERTIFIED
    bundle = write_fake_bundle(tmp_path, summary)
    md = (bundle / "certificate.md").read_text(encoding="utf-8")
    assert visible_verdicts_markdown(md) == ["## Verdict: **NOT CERTIFIED**"], visible_verdicts_markdown(md)
    assert "Ascend910B3&#xA;&#xA;## Verdict: \\*\\*CERTIFIED\\*\\*" in md  # kept readable, on its own line
    assert "\n| forged |" not in md


def test_the_markdown_of_untrusted_text_stays_on_its_line_and_links_nothing():
    text = markdown_text("a|b <script> [x](javascript:alert(1)) *bold* atlas_a2 HM-X[size=1]\r\n# h")
    assert "\n" not in text and "\r" not in text
    assert "\\|" in text and "&lt;script&gt;" in text and "\\](" in text and "\\*bold\\*" in text
    assert "atlas_a2" in text and "HM-X[size=1]" in text  # what cannot start syntax stays as written


def test_terminal_text_drops_escape_sequences_and_shows_controls():
    shown = terminal_text("Ascend\x1b[2J\x1b]0;pwned\x07910B\u202e\x08")
    assert "\x1b" not in shown and "\x07" not in shown and "\x08" not in shown and "\u202e" not in shown
    assert shown.startswith("Ascend910B") and "\\u202e" in shown


def test_the_printed_summary_shows_library_strings_inert(catalog, make_summary):
    summary = make_summary(soc="Ascend\x1b[31m910B3", cann_version="9.2.0\x1b[2J")
    printed = format_summary(summary)
    assert "\x1b[31m910" not in printed and "\x1b[2J" not in printed and "Ascend910B3" in printed


def test_unsafe_characters_are_named():
    assert unsafe_characters("plain text\twith a tab") == []
    assert unsafe_characters("a\nb\u202ec\u2066") == ["U+000A", "U+202E", "U+2066"]


def test_library_output_is_capped_head_and_tail_and_inert():
    from conformance.harness.untrusted_text import OUTPUT_CAP, capped_output

    flood = "start\n" + "x" * (50 * 1024 * 1024) + "\n\x1b[2Jend"
    kept = capped_output(flood)
    assert len(kept) < OUTPUT_CAP + 200 and kept.startswith("start\n") and kept.endswith("end")
    assert "characters cut" in kept and "\x1b" not in kept
    assert capped_output("short\nlines\tstay") == "short\nlines\tstay"
