"""The markdown pieces paid reports share."""

from __future__ import annotations

from harness.report.markdown import spend_lines


def test_the_cache_line_appears_only_when_something_was_reused():
    assert spend_lines("10 tokens in", 0, "sample", None) == ["Spent now: 10 tokens in."]


def test_reused_units_say_what_they_saved_when_it_is_known():
    assert spend_lines("x", 2, "case", 0.5)[1] == "Reused from the result cache: 2 case(s), saving $0.5000."
    assert spend_lines("x", 1, "sample", None)[1] == "Reused from the result cache: 1 sample(s)."
