"""The JSON report as text: its outline indented, each deeper value on one line by orjson (ten thousand
cases indented all the way down take a second; a line a case still diffs case by case)."""

from __future__ import annotations

import json

import orjson

# Levels shown indented: the envelope's keys, and the items of its lists and objects (a case, a skill).
OUTLINE_LEVELS = 2
INDENT = "  "
STANDARD = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


class Laid:
    """A value of the document already laid out as one line of JSON text, as `readable` would write it
    at or below OUTLINE_LEVELS. Redaction does not reach inside it: lay out a value already redacted."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def value(self) -> object:
        return json.loads(self.text)


def line(value: object) -> str:
    """The one line of text `readable` writes for `value` below the outline (a Laid's text)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # what orjson refuses (integers beyond 64 bits, lone surrogates), written alike
        return STANDARD.encode(value)


def readable(document: object) -> str:
    """`document` as JSON text ending in a newline, indented OUTLINE_LEVELS deep."""
    return _text(document, 0) + "\n"


def _text(value: object, level: int) -> str:
    if isinstance(value, Laid):
        return value.text
    if level >= OUTLINE_LEVELS or not isinstance(value, (dict, list)) or not value:
        return line(value)
    inner, outer = INDENT * (level + 1), INDENT * level
    if isinstance(value, dict):
        items = [f"{inner}{line(str(key))}: {_text(item, level + 1)}" for key, item in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{outer}}}"
    # A case list holds thousands of lines laid out ahead: their text is taken as it is, without a call.
    items = [f"{inner}{item.text if type(item) is Laid else _text(item, level + 1)}" for item in value]
    return "[\n" + ",\n".join(items) + f"\n{outer}]"
