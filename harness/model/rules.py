"""The rules a finding can carry, as harness/data/rules.json ships them (the rules tables of the docs'
command pages, which tests keep in step), and each rule's help as markdown and as plain text."""

from __future__ import annotations

import json
import re

from harness.files import packaged_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from markdown_it import MarkdownIt
    from markdown_it.token import Token


def table() -> dict[str, dict[str, str]]:
    """Each rule id with its `what`, `bar`, `severity` and `source`."""
    known: dict[str, dict[str, str]] = json.loads(packaged_text("data", "rules.json"))
    return known


def described(about: dict[str, str]) -> str:
    """A rule's help in markdown: what it looks at, and the bar that must meet."""
    return f"{about['what']}: {about['bar']}"


def reader() -> MarkdownIt:
    """A CommonMark reader for `plain` and `linkless`: building one costs more than reading a rule's
    line with it, so a caller writing every rule builds one and passes it to each call."""
    from markdown_it import MarkdownIt  # only where help is printed: a structural run never needs it

    return MarkdownIt("commonmark")


def plain(markdown: str, code_space: str = " ", read: MarkdownIt | None = None) -> str:
    """A rule's markdown as plain text, for readers that render none (a terminal, SARIF's text): code
    spans without their backticks, links as their text (the targets are docs-site pages), escapes undone.
    Each space inside a code span is written as `code_space`: given a no-break space, a wrapper keeps a
    command such as `curl … | sh` on one line."""
    return written(markdown, code=lambda code: code.replace(" ", code_space), text=str, read=read)


def linkless(markdown: str, read: MarkdownIt | None = None) -> str:
    """A rule's markdown for a reader outside the docs site (a SARIF viewer): its links are docs-site
    pages that resolve nowhere else, so each is reduced to its text; code spans stay code."""
    return written(
        markdown,
        code=lambda code: f"`` {code} ``" if "`" in code else f"`{code}`",
        text=lambda text: MARKDOWN_MARKS.sub(r"\\\g<0>", text),
        read=read,
    )


def written(
    markdown: str, code: Callable[[str], str], text: Callable[[str], str], read: MarkdownIt | None = None
) -> str:
    """One line of markdown, its code spans and its text each written by the given form; links and
    emphasis keep only their text."""
    out = []
    for token in inline(markdown, read):
        if token.type == "code_inline":
            out.append(code(unpiped(token.content)))
        elif token.type in ("text", "text_special", "html_inline"):
            out.append(text(token.content))
        elif token.type in ("softbreak", "hardbreak"):
            out.append(" ")
    return "".join(out)


# Characters that would start markup if text were written back as markdown as it reads.
MARKDOWN_MARKS = re.compile(r"[\\`*_\[\]<>]")


def unpiped(code: str) -> str:
    """A table cell escapes its pipes even inside a code span (`\\|`); outside the table it is a pipe."""
    return code.replace("\\|", "|")


def inline(markdown: str, read: MarkdownIt | None = None) -> list[Token]:
    """The inline tokens of one line of markdown, CommonMark's way (by `read`, else a reader of its own)."""
    children = (read or reader()).parseInline(markdown)[0].children
    return list(children or [])
