"""harness.report.github: workflow-command annotations, escaped the way the runner parses them."""

from __future__ import annotations

from harness.model.findings import error, warning
from harness.report import github


def test_message_data_escapes_percent_and_newlines() -> None:
    assert github.escape_data("100%\r\ndone\n") == "100%25%0D%0Adone%0A"


def test_properties_also_escape_colon_and_comma() -> None:
    assert github.escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"


def test_percent_is_escaped_first_so_escapes_are_not_doubled() -> None:
    assert github.escape_property("%3A") == "%253A"


def test_an_annotation_carries_file_line_and_title() -> None:
    line = github.annotation(
        "error", "bad: thing, here", file="skills/a,b/SKILL.md", line=7, title="skillscope name-format"
    )
    assert line == "::error file=skills/a%2Cb/SKILL.md,line=7,title=skillscope name-format::bad: thing, here"


def test_an_annotation_without_properties_has_no_trailing_space() -> None:
    assert github.annotation("warning", "just text") == "::warning::just text"


def test_one_annotation_per_finding_with_the_right_level() -> None:
    found = [
        error("name-format", "a/SKILL.md", "first\nsecond", line=2),
        warning("unknown-key", "a/SKILL.md", "w"),
        error("no-skill", ".", "nothing found"),
    ]
    lines = github.finding_annotations(found)
    assert lines[0] == "::error file=a/SKILL.md,line=2,title=skillscope name-format::first%0Asecond"
    assert lines[1] == "::warning file=a/SKILL.md,title=skillscope unknown-key::w"
    assert lines[2] == "::error title=skillscope no-skill::nothing found"
