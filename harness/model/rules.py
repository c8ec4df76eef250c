"""The rules a finding can carry, as harness/data/rules.json ships them (the rules tables of the docs'
command pages, which tests keep in step), and each rule's help as markdown and as plain text."""

from __future__ import annotations

import json
import re

from harness.files import packaged_text

# A code span, a link, or a backslash escape: the three markdown forms the rules tables write. One pass,
# so a code span is never read as a link; a table cell escapes its pipes (`\|`) even inside code.
INLINE = re.compile(r"`([^`]+)`|\[([^\]]+)\]\([^)]*\)|\\([!-/:-@\[-`{-~])")


def table() -> dict[str, dict[str, str]]:
    """Each rule id with its `what`, `bar`, `severity` and `source`."""
    known: dict[str, dict[str, str]] = json.loads(packaged_text("data", "rules.json"))
    return known


def described(about: dict[str, str]) -> str:
    """A rule's help in markdown: what it looks at, and the bar that must meet."""
    return f"{about['what']}: {about['bar']}"


def plain(markdown: str, code_space: str = " ") -> str:
    """A rule's markdown as plain text, for readers that render none (a terminal, SARIF's text): code
    spans without their backticks, links as their text (the targets are docs-site pages), escapes undone.
    Each space inside a code span is written as `code_space`: given a no-break space, a wrapper keeps a
    command such as `curl … | sh` on one line."""

    def text(match: re.Match[str]) -> str:
        code, link, escaped = match.groups()
        if code is not None:
            return code.replace("\\|", "|").replace(" ", code_space)
        return plain(link, code_space) if link is not None else escaped

    return INLINE.sub(text, markdown)
