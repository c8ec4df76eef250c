"""Extraction and slugs of harness.markdown.links, one markdown construct at a time."""

from __future__ import annotations

import pytest

from harness.markdown import budget, links
from harness.markdown.links import Reference, Slugger, classify, parse, slugify


def refs(text: str) -> list[tuple[str, int, str]]:
    return [(r.target, r.line, r.kind) for r in parse(text).references]


def test_inline_links_and_images_keep_their_line():
    text = '# T\n\nfirst line\nsee [a](a.md) and ![b](b.png "title")\n'
    assert refs(text) == [("a.md", 4, links.LINK), ("b.png", 4, links.IMAGE)]


def test_a_link_split_over_lines_counts_from_its_opening_bracket():
    text = "intro\nthen [two\nlines](x.md) and [next](y.md)\n"
    assert refs(text) == [("x.md", 2, links.LINK), ("y.md", 3, links.LINK)]


def test_a_multi_line_title_does_not_shift_later_lines():
    text = '[a](a.md "one\ntwo\nthree") [b](b.md)\n'
    assert refs(text) == [("a.md", 1, links.LINK), ("b.md", 3, links.LINK)]


def test_a_code_span_over_two_lines_does_not_shift_later_lines():
    text = "`code\nspan` [after](after.md)\n"
    assert refs(text) == [("after.md", 2, links.LINK)]


def test_reference_links_are_checked_once_at_their_definition():
    text = "[a][one] and [one] and [two][]\n\n[one]: one.md\n[two]: two.md\n[unused]: three.md\n"
    assert refs(text) == [
        ("one.md", 3, links.DEFINITION),
        ("two.md", 4, links.DEFINITION),
        ("three.md", 5, links.DEFINITION),
    ]


def test_autolinks_and_bare_urls_with_a_scheme():
    text = "<https://a.example/x> and http://b.example/y. Then SKILL.md and www.c.example.\n"
    assert refs(text) == [
        ("https://a.example/x", 1, links.AUTOLINK),
        ("http://b.example/y", 1, links.BARE_URL),
    ]


def test_raw_html_href_and_src_inline_and_in_blocks():
    text = 'a <a href="a.md">x</a>\n<a\n  href="b.md">y</a>\n\n<div>\n  <img src="c.png">\n</div>\n'
    assert refs(text) == [("a.md", 1, links.HTML), ("b.md", 3, links.HTML), ("c.png", 6, links.HTML)]


@pytest.mark.parametrize(
    "text",
    [
        "`[a](x.md)`",
        "``[a](x.md) ` ``",
        "```\n[a](x.md)\n```",
        "~~~\n<a href='x.md'>\n~~~",
        "    [a](x.md)",
        "<!-- [a](x.md) -->",
        "<!--\n[a](x.md)\n<a href='x.md'>\n-->",
        "a <!-- <img src='x.png'> --> b",
        "\\[a](x.md)",
        "[undefined][nowhere]",
        "---\ntitle: '[a](x.md) https://x.example'\n---\nbody",
    ],
)
def test_illustrations_yield_no_reference(text: str):
    assert refs(text) == []


def test_frontmatter_is_blanked_without_moving_lines():
    text = "---\nname: x\n---\n[a](a.md)\n"
    assert refs(text) == [("a.md", 4, links.LINK)]


def test_links_in_lists_quotes_tables_and_headings():
    text = "# [h](h.md)\n\n- [l](l.md)\n  > [q](q.md)\n\n| a | b |\n|---|---|\n| [t](t.md) | x |\n"
    assert [(t, line) for t, line, _ in refs(text)] == [("h.md", 1), ("l.md", 3), ("q.md", 4), ("t.md", 8)]


def test_targets_are_kept_as_written():
    assert refs("[a](<my file.md>) [b](caf%C3%A9.md) [c](&#x61;.md)\n") == [
        ("my file.md", 1, links.LINK),
        ("caf%C3%A9.md", 1, links.LINK),
        ("a.md", 1, links.LINK),
    ]


@pytest.mark.parametrize(
    ("heading", "slug"),
    [
        ("Installation", "installation"),
        ("The `--flag` option", "the---flag-option"),
        ("*Emphasis* and [a link](x.md)", "emphasis-and-a-link"),
        ("Café, naïve & Ω!", "café-naïve--ω"),
        ("😄 emoji", "-emoji"),
        ("a - b", "a---b"),
        ("Punctuation: (yes) / no? 1.2.3", "punctuation-yes--no-123"),
        ("snake_case and kebab-case", "snake_case-and-kebab-case"),
        ("日本語の見出し", "日本語の見出し"),
    ],
)
def test_heading_slugs_follow_github(heading: str, slug: str):
    assert parse(f"# {heading}\n").anchors == {slug}


def test_duplicate_headings_are_numbered():
    anchors = parse("# Usage\n## Usage\n### Usage\n## Usage-1\n").anchors
    assert anchors == {"usage", "usage-1", "usage-2", "usage-1-1"}


def test_slugger_numbers_like_github_slugger():
    slugger = Slugger()
    assert [slugger.slug(t) for t in ("a", "a", "a-1", "a")] == ["a", "a-1", "a-1-1", "a-2"]


def test_setext_headings_and_html_ids_are_anchors():
    text = "Title\n=====\n\nSub part\n--------\n\n<a id=\"custom\"></a> <span name='legacy'></span>\n"
    assert parse(text).anchors == {"title", "sub-part", "custom", "legacy"}


def test_headings_in_code_are_not_anchors():
    assert parse("```\n# Not a heading\n```\n    # nor this\n").anchors == set()


def test_anchor_lookup_tolerates_case():
    assert parse("# Setup\n").has_anchor("Setup")


@pytest.mark.parametrize(
    ("target", "kind"),
    [
        ("https://x.example", links.EXTERNAL),
        ("HTTP://x.example", links.EXTERNAL),
        ("//x.example/a", links.EXTERNAL),
        ("a.md", links.INTERNAL),
        ("#frag", links.INTERNAL),
        ("/docs/a.md", links.INTERNAL),
        ("mailto:a@b.example", links.IGNORED),
        ("tel:+100", links.IGNORED),
        ("ftp://x", links.IGNORED),
        ("", links.IGNORED),
    ],
)
def test_classify(target: str, kind: str):
    assert classify(target) == kind


def test_slugify_drops_symbols_but_keeps_marks_and_numbers():
    assert slugify("e\u0301tude № 5 ½") == "e\u0301tude--5-½"


def test_reference_is_a_plain_value():
    assert Reference("a.md", 1, links.LINK) == Reference("a.md", 1, links.LINK)


@pytest.mark.parametrize(
    "heading",
    [
        "Plain words 123",
        "Café, naïve – ok?",
        "With `code`",
        "With *em* and _u_",
        "Escaped \\* star",
        "Fish &amp; chips",
        "A [link](x.md) here",
        "😄 emoji",
    ],
)
def test_a_heading_skipped_by_the_inline_parser_slugs_as_if_it_had_been_parsed(heading):
    """Headings without inline markup are slugged from their content; the result must not differ."""
    parsed = links.parse(f"# {heading}\n")
    tokens = links.Parser().markdown().parse(f"# {heading}\n")
    md = links.Parser().markdown()
    children: list = []
    md.inline.parse(tokens[1].content, md, {}, children)
    assert parsed.anchors == {links.Slugger().slug(links.plain_text(children))}


@pytest.mark.parametrize("marks", ["[" * 2_000_000 + "]" * 2_000_000, "<" * 30_000, "![a](b) " * 21_000])
def test_a_file_fuller_of_link_marks_than_any_page_is_refused_before_parsing(marks: str) -> None:
    with pytest.raises(budget.TooManyLinkMarks) as caught:
        links.parse("# Title\n\nText.\n" + marks + "\n")
    assert caught.value.line == 4


def test_a_page_with_thousands_of_links_is_still_read() -> None:
    assert len(links.parse("[a](b.md)\n" * 10_000).references) == 10_000
