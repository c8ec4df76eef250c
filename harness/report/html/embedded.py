"""Data a page carries for its script: a <script type="application/json"> block (never run, so the CSP
allows nothing), and rows packed with gzip: 10,000 routing cases weigh 0.65 MB instead of 10 MB."""

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


def data_block(ident: str, value: object) -> str:
    """The <script type="application/json" id=ident> element holding `value`."""
    return f'<script type="application/json" id="{text(ident)}">{script_json(value)}</script>'
