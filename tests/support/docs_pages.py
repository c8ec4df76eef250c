"""The pages of the documentation site as the tests see them: the files under docs/, the pages the
build generates (the rules page, the flag reference), and the anchors each page's headings get."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
# Inline code and link syntax in a heading: the anchor is made from the words alone.
MARKUP = re.compile(r"`|\[([^\]]*)\]\([^)]*\)")


@cache
def generated() -> dict[str, str]:
    """The markdown of each page the build writes, by its path under docs/."""
    import mkdocs_hooks
    from harness import cli
    from harness.cli import reference

    rules = json.loads(mkdocs_hooks.RULES_JSON.read_text(encoding="utf-8"))
    return {
        mkdocs_hooks.RULES_PAGE: mkdocs_hooks.rules_page(rules),
        reference.PAGE: reference.reference_page(cli.build_parser()),
    }


def text(page: str) -> str | None:
    """A page's markdown (None when the site has no such page)."""
    if page in generated():
        return generated()[page]
    path = DOCS / page
    return path.read_text(encoding="utf-8") if path.is_file() else None


def anchors(markdown: str) -> list[str]:
    """The anchor of each heading, in order, slugged as mkdocs.yml slugs them (GitHub's way)."""
    from markdown_it import MarkdownIt
    from pymdownx.slugs import slugify

    slug = slugify(case="lower")
    tokens = MarkdownIt("commonmark").parse(markdown)
    titles = [tokens[n + 1].content for n, token in enumerate(tokens) if token.type == "heading_open"]
    return [slug(MARKUP.sub(lambda m: m[1] or "", title), "-") for title in titles]
