"""The JSON report as text: its outline indented, each deeper value on one line.

A report of ten thousand cases indented all the way down takes Python's pure-Python encoder about a
second; one line per case is written by the C encoder, still reads and diffs case by case, and parses
to the same document.
"""

from __future__ import annotations

import json

# Levels shown indented: the envelope's keys, and the items of its lists and objects (a case, a skill).
OUTLINE_LEVELS = 2
INDENT = "  "


def readable(document: object) -> str:
    """`document` as JSON text ending in a newline, indented OUTLINE_LEVELS deep."""
    return _text(document, json.JSONEncoder(ensure_ascii=False).encode, 0) + "\n"


def _text(value: object, encode, level: int) -> str:
    if level >= OUTLINE_LEVELS or not isinstance(value, (dict, list)) or not value:
        return encode(value)
    inner, outer = INDENT * (level + 1), INDENT * level
    if isinstance(value, dict):
        items = [
            f"{inner}{encode(str(key))}: {_text(item, encode, level + 1)}" for key, item in value.items()
        ]
        return "{\n" + ",\n".join(items) + f"\n{outer}}}"
    items = [f"{inner}{_text(item, encode, level + 1)}" for item in value]
    return "[\n" + ",\n".join(items) + f"\n{outer}]"
