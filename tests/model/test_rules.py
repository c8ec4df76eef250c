"""harness/model/rules.py: the rules table, and each rule's markdown help as plain text."""

from __future__ import annotations

import pytest

from harness.model import rules


@pytest.mark.parametrize(
    ("markdown", "text"),
    [
        ("less alike than `--collision-warn`", "less alike than --collision-warn"),
        ("as [lexical routing](commands/routing.md#the-lexical-engine) sees", "as lexical routing sees"),
        ("a [`name`](x.md) field", "a name field"),
        ("no `curl … \\| sh`", "no curl … | sh"),  # a table cell's pipe, escaped even inside code
        ("a \\* and a \\\\", "a * and a \\"),
        ("`[x](y)` as written", "[x](y) as written"),  # a code span is never read as a link
        ("at most 20,000 `[` and `<`", "at most 20,000 [ and <"),
    ],
)
def test_markdown_reads_as_plain_text(markdown: str, text: str) -> None:
    assert rules.plain(markdown) == text


def test_a_code_spans_spaces_can_be_kept_for_a_wrapper() -> None:
    assert rules.plain("run `curl … | sh` now", code_space="_") == "run curl_…_|_sh now"


def test_the_windows_reserved_characters_read_as_windows_reserves_them() -> None:
    """The docs cell wrote the backslash twice, which a code span (docs page and plain text alike) shows
    as two."""
    text = rules.plain(rules.described(rules.table()["path-windows-reserved"]))
    assert text.endswith('none of < > : " | ? * \\')


def test_no_shipped_rules_help_keeps_markdown_in_its_plain_text() -> None:
    for rule, about in rules.table().items():
        text = rules.plain(rules.described(about))
        assert not any(mark in text for mark in ("`", "](", "\\|")), rule


@pytest.mark.parametrize(
    ("markdown", "portable"),
    [
        ("as [lexical routing](commands/routing.md#the-lexical-engine) sees", "as lexical routing sees"),
        ("a [`name`](x.md) field", "a `name` field"),
        ("no `curl … \\| sh`", "no `curl … | sh`"),
        ("a \\* stays a star", "a \\* stays a star"),
        ("the `` ` `` mark", "the `` ` `` mark"),
    ],
)
def test_markdown_outside_the_docs_site_keeps_code_and_drops_link_targets(
    markdown: str, portable: str
) -> None:
    assert rules.linkless(markdown) == portable


def test_no_shipped_rules_help_links_to_a_docs_page_in_sarif() -> None:
    for rule, about in rules.table().items():
        assert "](" not in rules.linkless(rules.described(about)), rule
