"""The attributes of HTML start tags in markdown, with their lines: imported on first use, since most
skills hold no HTML and html.parser costs every run's start-up."""

from __future__ import annotations

import re
from html.parser import HTMLParser


class TagReader(HTMLParser):
    """Collects (line, attribute, value) of start tags' `names` attributes; comments and script/style
    text are skipped by the HTML parser itself."""

    def __init__(self, names: tuple[str, ...]) -> None:
        super().__init__(convert_charrefs=True)
        self.names = names
        self.attributes: list[tuple[int, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        raw = self.get_starttag_text() or ""
        for name, value in attrs:
            if value is not None and name in self.names:
                self.attributes.append((line + lines_before(raw, name), name, value.strip()))

    handle_startendtag = handle_starttag


def lines_before(tag_text: str, attribute: str) -> int:
    """Newlines inside the tag before `attribute`, so `<a\n  href=…>` reports the href's line."""
    found = re.search(rf"\s{re.escape(attribute)}\s*=", tag_text, re.IGNORECASE)
    return tag_text.count("\n", 0, found.start() + 1) if found else 0
