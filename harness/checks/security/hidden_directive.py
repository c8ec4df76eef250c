"""Directives placed where a reader of the rendered page never looks: HTML comments, link titles and
image alt text. An agent reads the source, so a comment telling it to act is an instruction the
reviewer never saw. Markdown is parsed as CommonMark (markdown-it-py), so code examples are not markup."""

from __future__ import annotations

import re
from collections.abc import Iterator

from harness.checks.security import phrases
from harness.checks.security.content import SkillContent, TextFile
from harness.checks.security.fetch_execute import PATTERN as FETCH_EXECUTE
from harness.markdown import budget
from harness.model import findings
from harness.model.findings import Finding

RULE = "hidden-directive"
COMMENT = re.compile(r"<!--(.*?)(?:-->|$)", re.DOTALL)
# A link whose destination is followed by a title: its literal start `](` lets the engine skip ahead.
TITLED = re.compile(r"\]\([^)\n]*\s[\"'(]")


def scan(content: SkillContent) -> list[Finding]:
    out = []
    for text in content.texts:
        if text.markdown and may_hide(text.text):
            out.extend(in_file(content, text))
    return out


def may_hide(text: str) -> bool:
    """Whether the file is worth parsing: it holds a comment, an image, or a link with a title. Two
    substring tests and one pattern with a literal start cost half of one pattern of three branches."""
    return "<!--" in text or "![" in text or bool(TITLED.search(text))


def in_file(content: SkillContent, text: TextFile) -> list[Finding]:
    try:
        budget.refuse_too_many_link_marks(text.text)
    except budget.TooManyLinkMarks:
        return []  # the not-scanned rule reports this file
    out = []
    for where, line, hidden in hidden_texts(text):
        said = directive(hidden)
        if said:
            made = findings.warning(
                RULE,
                text.rel,
                f"the {where} on line {line} tells the agent `{said}`, which a reader of the rendered page "
                "never sees; put instructions in visible text, or remove it.",
                line,
            )
            out.append(content.finding(made, text))
    return out


def hidden_texts(text: TextFile) -> Iterator[tuple[str, int, str]]:
    """(where, line, text) for each HTML comment, link title and image alt text of the file."""
    from harness.markdown.sections import parser

    for token in parser().parse(text.text):
        line = token.map[0] + 1 if token.map else 1
        if token.type == "html_block":
            for match in COMMENT.finditer(token.content):
                yield "HTML comment", line + token.content.count("\n", 0, match.start()), match.group(1)
        for child in token.children or ():
            if child.type == "html_inline" and child.content.startswith("<!--"):
                yield "HTML comment", line, child.content[4:].removesuffix("-->")
            elif child.type == "link_open" and child.attrGet("title"):
                yield "link title", line, str(child.attrGet("title"))
            elif child.type == "image":
                if child.content:
                    yield "image alt text", line, child.content
                if child.attrGet("title"):
                    yield "image title", line, str(child.attrGet("title"))


def directive(hidden: str) -> str:
    """The words that make hidden text an instruction to the agent, or empty."""
    for pattern in (phrases.OVERRIDE, phrases.SECRECY, phrases.JUDGE, FETCH_EXECUTE, phrases.ADDRESSED):
        match = pattern.search(hidden)
        if match:
            return phrases.quoted(match)
    return ""
