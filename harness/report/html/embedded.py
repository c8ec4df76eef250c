"""Data a page carries for its script: one <script type="application/json"> block (a data block, never
run, so the CSP has nothing to allow), its JSON escaped so no text inside can end the element.

A case table's rows beyond its first page travel packed: JSON, gzip, base64, unpacked by the page's
own script (the browser's DecompressionStream) when it loads. Packed, 10,000 routing cases of five
samples weigh about 0.65 MB instead of 10 MB of markup, and none of them is parsed until it is shown.
"""

from __future__ import annotations

import base64
import gzip
import json

from harness.report.html.shell import text

# What could end the element or open a comment inside it, and the two line separators older JavaScript
# parsers took for newlines: written as JSON escapes, which JSON.parse reads back as the same text.
UNSAFE = str.maketrans(
    {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)


def script_json(value: object) -> str:
    """`value` as JSON that can sit between <script> and </script> and parse back equal."""
    dumped = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return dumped.translate(UNSAFE)


def packed(value: object) -> dict:
    """`value` as JSON, gzipped (no timestamp, so the same report gives the same page) and base64'd."""
    raw = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return {
        "encoding": "gzip+base64",
        "data": base64.b64encode(gzip.compress(raw, compresslevel=6, mtime=0)).decode("ascii"),
    }


def unpacked(block: dict) -> object:
    """What `packed` packed: how the page's script reads it, for tests and tools."""
    return json.loads(gzip.decompress(base64.b64decode(block["data"])).decode("utf-8"))


def data_block(ident: str, value: object) -> str:
    """The <script type="application/json" id=ident> element holding `value`."""
    return f'<script type="application/json" id="{text(ident)}">{script_json(value)}</script>'
