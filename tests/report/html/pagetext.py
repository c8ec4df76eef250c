"""Reading a rendered page back: its tags, attributes and text, as a browser's parser sees them."""

from __future__ import annotations

import base64
import gzip
import json
from html.parser import HTMLParser


class Parsed(HTMLParser):
    def __init__(self, html: str):
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []
        self.scripts: list[str] = []
        self.data: list[str] = []
        self._in_script = False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += attrs
        self._in_script = tag == "script"

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        (self.scripts if self._in_script else self.data).append(data)

    @property
    def text(self) -> str:
        return "".join(self.data)


def unpacked(block: dict) -> object:
    """What embedded.packed packed, read back as the page's script reads it."""
    return json.loads(gzip.decompress(base64.b64decode(block["data"])).decode("utf-8"))
