"""harness.report.text: finding lines editors can follow, colour only where it can be seen, one summary."""

from __future__ import annotations

import io
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.model.findings import error, warning
from harness.report import text
from tests.support.examples import examples

LINE = re.compile(
    r"^(?P<path>[^:\s]+)(?::(?P<line>\d+))?: (?P<severity>error|warning): "
    r"(?P<rule>[a-z0-9-]+): (?P<message>.+)$"
)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_finding_is_path_line_severity_rule_message():
    line = text.finding_line(error("name-format", "skills/a/SKILL.md", "bad: name", line=2))
    assert line == "skills/a/SKILL.md:2: error: name-format: bad: name"
    assert LINE.match(line).group("path", "line", "rule", "message") == (
        "skills/a/SKILL.md",
        "2",
        "name-format",
        "bad: name",
    )


def test_a_finding_without_a_line_is_path_severity_rule_message():
    assert (
        text.finding_line(warning("unknown-key", "a/SKILL.md", "w")) == "a/SKILL.md: warning: unknown-key: w"
    )


@pytest.mark.parametrize("message", ["two\nlines", "a\r\nb", "bell\x07 and \x1b[31mred", "tab\there"])
def test_a_message_stays_on_one_line_without_control_characters(message):
    line = text.finding_line(error("rule-x", "a.md", message, line=1))
    assert "\n" not in line and "\r" not in line and "\x1b" not in line and "\x07" not in line
    assert LINE.match(line)


def test_colour_only_on_a_terminal_and_never_under_no_color():
    assert text.wants_colour(Terminal(), {}) is True
    assert text.wants_colour(io.StringIO(), {}) is False
    assert text.wants_colour(Terminal(), {"NO_COLOR": "1"}) is False
    assert text.wants_colour(Terminal(), {"NO_COLOR": ""}) is True  # set but empty does not count


def test_coloured_lines_read_the_same_once_the_colour_is_stripped():
    found = error("name-format", "a/SKILL.md", "bad", line=2)
    painted = text.finding_line(found, colour=True)
    assert "\x1b[" in painted
    assert re.sub(r"\x1b\[\d+m", "", painted) == text.finding_line(found)


def test_the_summary_line_names_command_status_headline_and_time():
    document = {"command": "structural", "status": "fail", "elapsed_s": 0.25}
    line = text.summary_line(document, "1 skill(s); 1 error(s)")
    assert line == "skillscope structural: fail: 1 skill(s); 1 error(s) (0.2s)"


def test_a_status_word_no_colour_is_known_for_still_prints():
    assert text.unit_line("case-1", "skipped", colour=True) == "SKIPPED case-1"
    assert text.unit_line("case-1", "pass") == "PASS case-1"


def test_a_finding_that_does_not_fail_says_why_and_is_not_red():
    known = error("tier0-behavior", "a/evals/evals.json", "needs a behavior case").known()
    line = text.finding_line(known, colour=True)
    assert line.endswith("needs a behavior case (known: in the baseline)") and text.RED not in line
    demoted = error("name-format", "a/SKILL.md", "bad", line=2).demote()
    assert text.finding_line(demoted) == "a/SKILL.md:2: warning: name-format: bad (demoted by --warn)"


@settings(max_examples=examples(300))
@given(st.text())
def test_one_line_is_the_text_with_every_unprintable_and_whitespace_run_as_one_space(message):
    by_character = " ".join("".join(c if c.isprintable() else " " for c in message).split())
    assert text.one_line(message) == by_character


@settings(max_examples=examples(200))
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["skills/a", "skills/b", "skills/c/SKILL.md"]),
            st.sampled_from([None, 3]),
            st.sampled_from(["dataset-missing", "name-format"]),
            st.sampled_from(["no eval dataset: add evals/evals.json.", "bad: name"]),
            st.booleans(),
        ),
        max_size=12,
    )
)
def test_each_message_is_said_in_full_once_and_its_repeats_name_where(found):
    """Nineteen skills without a dataset printed nineteen copies of one long fix; each repeat now says
    where that message was said, on a line editors still follow."""
    made = [
        (error(rule, path, message, line=line).known() if known else error(rule, path, message, line=line))
        for path, line, rule, message, known in found
    ]
    lines = text.finding_lines(made)
    assert len(lines) == len(made)
    first: dict[tuple, str] = {}
    for finding, line in zip(made, lines, strict=True):
        parsed = LINE.match(line)
        assert parsed and parsed.group("rule") == finding.rule and line.startswith(finding.location + ":")
        assert parsed.group("severity") == ("error" if finding.fails else "warning")
        key = (finding.rule, finding.message, text.adoption_note(finding))
        if key in first:
            assert parsed.group("message") == f"the same as {first[key]} above{key[2]}"
        else:
            first[key] = finding.location
            assert line == text.finding_line(finding)
