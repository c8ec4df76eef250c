"""The fast parse (block rules a text cannot use switched off, flat lists read as paragraphs) must give
exactly what the full CommonMark parse gives: same references (target, line, kind), same anchors."""

from __future__ import annotations

import functools
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.markdown import block_plan, links
from tests.support.examples import examples

ROOT = Path(__file__).resolve().parents[2]
CORPUS = sorted(
    path
    for path in {
        *ROOT.glob("tests/**/*.md"),
        *ROOT.glob("examples/**/*.md"),
        *ROOT.glob("docs/**/*.md"),
        ROOT / "README.md",
    }
    # The bad-input corpus holds files built to exceed the parse budget: neither parser reads them.
    if path.is_file() and "badinput" not in path.relative_to(ROOT).parts
)

# Lines that put each guard of the fast path to work: item starts that open blocks, indentation,
# fences, HTML, quotes, underlines, definitions, and inline constructs that span lines.
PIECES = [
    "",
    "",
    "",
    "text before",
    "- [a](a.md)",
    "1. [b](b.md#x)",
    "2) second item",
    "+ plus [p](p.md)",
    "* item with `code",
    "- code` end [c](c.md)",
    "- [multi",
    "line](m.md) after",
    "---",
    "===",
    "***",
    "  - nested [n](n.md)",
    "    indented [i](i.md)",
    "   three [t](t.md)",
    "```",
    "~~~",
    "```py",
    "> quote [q](q.md)",
    "> - quoted item [qi](qi.md)",
    "<!-- comment [hidden](h.md)",
    "-->",
    "<a href='html.md'>x</a>",
    "<div>",
    "</div>",
    "- <https://x.example/auto>",
    "[ref]: ref.md",
    "- [ref]",
    "- [ref]: item-def.md",
    "# Heading",
    "## Sub [h](h.md)",
    "- # heading in item",
    '- [t](t.md "title',
    'continues")',
    "- see http://x.example/y",
    "-",
    "1.",
    "- a\\",
    "\\",
    "- [x](<y z.md>)",
    "\t- tab item [tab](tab.md)",
    "- ***",
    "- `[not](link.md)`",
    "- <span id='s'>",
    "</span> [after](after.md)",
    "- [a](",
    "- b.md)",
    "- ![img](img.png)",
    "1.     code [c](c.md)",
    "-   three spaces [s](s.md)",
    "- ~~~",
    "- > quote",
    "Setext",
    "- item then",
    "lazy [l](l.md)",
    "- `a",
    "- b` [x](x.md)",
    "- <a",
    "- href='y.md'>",
    "10. ten [ten](ten.md)",
    "- [ok](ok.md) `x`",
]


# Only what the fast path accepts at block level, so the inline checks across items get exercised.
FLAT_PIECES = [
    "",
    "",
    "text [t](t.md)",
    "- [a](a.md)",
    "1. [b](b.md#x)",
    "2) two",
    "* star `code",
    "- code` [c](c.md)",
    "- [multi",
    "line](m.md)",
    '- [t](t.md "title',
    'more")',
    "- <a",
    "- href='y.md'>",
    "- <b>ok</b> [o](o.md)",
    "- see http://x.example/y",
    "# Head",
    "```",
    "[x]",
    "[x]: x.md",
    "- ![i](i.png)",
    "- *em [e](e.md)*",
    "- a\\",
    "lazy `tick",
    "- [a](",
    "- b.md)",
    "- [x]",
    "***",
]
# Documents made mostly of blocks with no reference and no heading, beside ones that have them.
INERT_PIECES = [
    "",
    "",
    "",
    "plain prose",
    "prose with *stars* and `code`",
    "- a plain item",
    "1. step one",
    "# Head",
    "text [t](t.md)",
    "- [a](a.md)",
    "Title",
    "=====",
    "***",
    "- [multi",
    "line](m.md)",
    "lazy `tick",
    "- code` [c](c.md)",
    "see https://x.example/a",
    "<b id='x'>",
]


@functools.cache  # a Parser keeps its markdown-it instances, which cost more to build than most parses
def reader(fast: bool) -> links.Parser:
    return links.Parser(fast=fast)


def extracted(text: str, fast: bool) -> tuple[list[tuple[str, int, str]], set[str]]:
    doc = links.parse(text, reader(fast))
    return [(r.target, r.line, r.kind) for r in doc.references], doc.anchors


# The generated documents are examples of a property too: the fast profile takes fewer of them, and the
# counts of what they must exercise shrink in step (tests/support/examples.py).
DOCUMENTS = examples(1500)


def at_least(of_1500: int) -> int:
    """A count of what 1,500 generated documents must exercise, scaled to the DOCUMENTS generated."""
    return of_1500 * DOCUMENTS // 1500


def generated(pieces: list[str], count: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return ["\n".join(rng.choice(pieces) for _ in range(rng.randint(2, 14))) + "\n" for _ in range(count)]


def skill_like(items: int = 40) -> str:
    steps = "\n".join(f"{n}. Do step {n} of the job, see [s{n}](s{n}.md#part-{n})." for n in range(1, items))
    return (
        f"---\nname: x\ndescription: y\n---\n\n# Title\n\n{steps}\n\n## References\n\n"
        "- [Setup](references/setup.md#setup-steps)\n- [Usage](references/usage.md)\n"
    )


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(ROOT)))
def test_fixtures_parse_alike(path: Path):
    text = path.read_text(encoding="utf-8", errors="replace")
    assert extracted(text, fast=True) == extracted(text, fast=False)


def count_fast_parses(monkeypatch):
    """Spy on the one check that keeps a list-skipping parse: each False it returns is a fast parse."""
    kept = []
    real = links.crosses_items

    def spy(tokens, items):
        crossed = real(tokens, items)
        kept.append(not crossed)
        return crossed

    monkeypatch.setattr(links, "crosses_items", spy)
    return lambda: sum(kept)


@pytest.mark.parametrize(("pieces", "taken"), [(PIECES, 50), (FLAT_PIECES, 100)], ids=["any", "flat"])
def test_generated_documents_parse_alike(pieces: list[str], taken: int, monkeypatch):
    reader, full_reader = links.Parser(), links.Parser(fast=False)
    fast_parses = count_fast_parses(monkeypatch)
    for text in generated(pieces, DOCUMENTS):
        full, fast = links.parse(text, full_reader), links.parse(text, reader)
        assert ([(r.target, r.line, r.kind) for r in fast.references], fast.anchors) == (
            [(r.target, r.line, r.kind) for r in full.references],
            full.anchors,
        ), text
    assert fast_parses() > at_least(taken)  # the fast path was taken often enough to be tested


def test_variants_of_every_fixture_parse_alike():
    """Each fixture with list items, quotes and indentation stripped, so more of them take the fast path."""
    for path in CORPUS:
        text = path.read_text(encoding="utf-8", errors="replace")
        variants = (text.replace("\n  ", "\n"), text.replace("\n> ", "\n- "), text.replace("\n* ", "\n1. "))
        for variant in variants:
            assert extracted(variant, fast=True) == extracted(variant, fast=False), path


def test_a_flat_list_takes_the_fast_path(monkeypatch):
    reader = links.Parser()
    fast_parses = count_fast_parses(monkeypatch)
    text = skill_like()
    assert "list" in block_plan.plan(links.normalized(links.blank_frontmatter(text))).off
    assert links.parse(text, reader) == links.parse(text, links.Parser(fast=False))
    assert fast_parses() == 1


@pytest.mark.parametrize(
    "text",
    [
        "- `a\n- b` [x](x.md)\n",  # a code span joining two items would hide the link
        '- [t](t.md "title\n- more")\n',  # a link title running into the next item
        "- <a\n- href='y.md'>\n",  # a tag over two items
    ],
)
def test_constructs_across_items_fall_back_to_the_full_parse(text: str, monkeypatch):
    reader = links.Parser()
    assert extracted(text, fast=True) == extracted(text, fast=False)
    fast_parses = count_fast_parses(monkeypatch)
    links.parse(text, reader)
    assert fast_parses() == 0


@pytest.mark.parametrize(
    "text",
    [
        "- a\n---\n",
        "- a\n\n    code [c](c.md)\n",
        "- # h\n",
        "- > q\n",
        "- [d]: d.md\n",
        "-     code\n",
        "- a\n\t- b\n",
        "<div>\n- a\n</div>\n",
        "- a\n  - b\n",
    ],
)
def test_the_plan_keeps_lists_it_cannot_prove_flat(text: str):
    assert "list" not in block_plan.plan(text).off


def test_idle_rules_are_only_those_without_their_marker():
    assert block_plan.idle_rules("plain words\n\nmore words\n") == {
        "code",
        "fence",
        "blockquote",
        "html_block",
        "heading",
        "reference",
        "hr",
        "lheading",
        "list",
    }
    every_block = "# T\n\n> q\n\n```\nx\n```\n\n- a\n\n[r]: x\n\n<b>\n\nA\n---\n    c\n"
    assert block_plan.idle_rules(every_block) == set()


def test_inert_blocks_become_blank_lines():
    text = "# T\n\nprose one\nprose *two*\n\n- item\n\nsee [a](a.md)\n"
    assert block_plan.blank_inert(text, block_plan.plan(text).off) == "# T\n\n\n\n\n\n\nsee [a](a.md)\n"
    underlined = "prose\n\nTitle\n===\n"
    assert block_plan.blank_inert(underlined, block_plan.plan(underlined).off) == "\n\nTitle\n===\n"


@pytest.mark.parametrize(
    "text",
    [
        "prose\n\n```\ncode\n\n```\n",  # a fence runs over blank lines
        "prose\n\n    indented\n\n    code\n",
        "- item\n\n  continued\n",  # an indented continuation keeps the list rule on
        "<div>\n\nprose\n\n</div>\n",
        "[a]: a.md\n\nprose\n",  # a definition serves the whole file
    ],
)
def test_nothing_is_blanked_when_a_rule_spans_blocks(text: str):
    assert block_plan.blank_inert(text, block_plan.plan(text).off) == text


def test_generated_documents_with_inert_blocks_parse_alike():
    blanked = 0
    reader, full_reader = links.Parser(), links.Parser(fast=False)
    for text in generated(INERT_PIECES, DOCUMENTS, seed=11):
        blanked += block_plan.blank_inert(text, block_plan.plan(text).off) != text
        full, fast = links.parse(text, full_reader), links.parse(text, reader)
        assert ([(r.target, r.line, r.kind) for r in fast.references], fast.anchors) == (
            [(r.target, r.line, r.kind) for r in full.references],
            full.anchors,
        ), text
    assert blanked > at_least(200)  # the blanking was exercised, not just allowed


# The line patterns as plain multiline regexes: what the newline-anchored ones must find.
MULTILINE_FORMS = {
    "HR_LINE": re.compile(r"^[ \t>0-9.)+*_-]*[*_-][ \t>0-9.)+*_-]*$", re.M),
    "UNDERLINE_LINE": re.compile(r"^[ \t>]*(?:=+|-+)[ \t]*$", re.M),
    "ITEM_LINE": re.compile(r"^[ \t>]*(?:[-+*]|[0-9]{1,9}[.)])(?:[ \t]|$)", re.M),
}


@settings(max_examples=examples(3000), deadline=None, derandomize=True)
@given(st.text(alphabet=" \t>0123456789.)+*_-=\nab", max_size=30))
def test_line_patterns_match_where_multiline_anchors_would(text: str):
    for name, multiline in MULTILINE_FORMS.items():
        assert bool(getattr(block_plan, name).search("\n" + text)) == bool(multiline.search(text)), name
