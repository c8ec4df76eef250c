"""harness.model.findings: a fingerprint survives unrelated edits and never joins two defects."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from harness.model.findings import fingerprint_of

NAME = st.from_regex(r"[a-z]{1,6}[-_]?[0-9]{1,3}(\.md)?", fullmatch=True)


@given(NAME, NAME)
def test_names_that_differ_only_in_digits_are_different_findings(first: str, second: str):
    """`step1.md` fixed and `step2.md` broken must not read as the same known finding."""
    if first == second:
        return
    for template in ("the link to `{}` has no target", "the link to {} has no target", "skill {} is broken"):
        assert fingerprint_of("rule", "a.md", template.format(first)) != fingerprint_of(
            "rule", "a.md", template.format(second)
        )


@given(st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 99), st.integers(0, 99))
def test_counts_sizes_and_line_numbers_do_not_change_the_fingerprint(count, other, tenths, others):
    message = "the description is {} characters ({}.{} KB), over the limit; see line {}, and 1,{:03d} more"
    one = message.format(count, count, tenths, count, tenths)
    two = message.format(other, other, others, other, others)
    assert fingerprint_of("rule", "a.md", one) == fingerprint_of("rule", "a.md", two)


def test_a_quoted_value_is_kept_whole_even_when_it_is_a_number():
    assert fingerprint_of("r", "a.md", "`timeout` is `30`") != fingerprint_of(
        "r", "a.md", "`timeout` is `31`"
    )
    assert fingerprint_of("r", "a.md", "`timeout` is 30") == fingerprint_of("r", "a.md", "`timeout` is 31")


def test_the_rule_and_the_file_are_part_of_it():
    assert fingerprint_of("r", "a.md", "m") != fingerprint_of("s", "a.md", "m")
    assert fingerprint_of("r", "a.md", "m") != fingerprint_of("r", "b.md", "m")
    assert re.fullmatch(r"[0-9a-f]{20}", fingerprint_of("r", "a.md", "m"))
