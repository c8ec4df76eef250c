"""Markdown parsed the CommonMark way (markdown-it-py), for checks that need its structure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from harness.markdown import budget

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token


def parser() -> MarkdownIt:
    from markdown_it import MarkdownIt  # on first parse: a run with no policy file never imports it

    return MarkdownIt("commonmark")


@dataclass(frozen=True)
class Section:
    level: int
    title: str
    line: int
    has_content: bool


def sections(text: str) -> list[Section]:
    """Every ATX or setext heading, and whether any non-heading block follows it before the next
    heading of the same or a higher level. Headings inside code fences are code, not headings.
    Raises budget.TooManyLinkMarks for a file too full of markup to parse in reasonable time."""
    budget.refuse_too_many_link_marks(text)
    tokens = parser().parse(text)
    heads = [(i, tok) for i, tok in enumerate(tokens) if tok.type == "heading_open"]
    out = []
    for position, (index, tok) in enumerate(heads):
        level = int(tok.tag[1])
        end = next((j for j, other in heads[position + 1 :] if int(other.tag[1]) <= level), len(tokens))
        out.append(
            Section(
                level=level,
                title=_inline_text(tokens[index + 1]).strip(),
                line=(tok.map[0] + 1) if tok.map else 0,
                has_content=_has_content(tokens[index + 3 : end]),
            )
        )
    return out


def _has_content(tokens: list[Token]) -> bool:
    inside_heading = False
    for tok in tokens:
        if tok.type == "heading_open":
            inside_heading = True
        elif tok.type == "heading_close":
            inside_heading = False
        elif not inside_heading and tok.type not in ("hr",) and (tok.content.strip() or tok.children):
            return True
    return False


def _inline_text(inline: Token) -> str:
    return "".join(child.content for child in inline.children or [] if child.type in ("text", "code_inline"))
