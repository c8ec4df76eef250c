"""How much markup a markdown file may hold before parsing it stops being worth the wait."""

from __future__ import annotations

import re

LINK_MARKS = re.compile(r"[\[<]")
# `[` and `<` start every link, image and tag; parsing time grows with them (about 30 ms per thousand).
# 20,000 is some 10,000 links, far past any hand-written page, and parses in well under a second.
MAX_LINK_MARKS = 20_000


class TooManyLinkMarks(ValueError):
    """A file whose `[` and `<` would take the parser minutes: refused before parsing, at `line`."""

    def __init__(self, line: int):
        super().__init__(f"more than {MAX_LINK_MARKS:,} `[` and `<` by line {line}")
        self.line = line


def refuse_too_many_link_marks(text: str) -> None:
    """Raises TooManyLinkMarks at the line of the mark past MAX_LINK_MARKS, if there is one."""
    if text.count("[") + text.count("<") <= MAX_LINK_MARKS:
        return
    for count, mark in enumerate(LINK_MARKS.finditer(text), start=1):
        if count > MAX_LINK_MARKS:
            raise TooManyLinkMarks(text.count("\n", 0, mark.start()) + 1)
