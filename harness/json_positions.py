"""Where things sit in a JSON text: the line each element of a top-level array starts on.

The json module keeps no positions, and a finding without a line makes an author hunt.
"""

from __future__ import annotations

import json

_decoder = json.JSONDecoder()
_WHITESPACE = " \t\r\n"


def element_lines(text: str, key: str) -> list[int]:
    """1-based start lines of the items of the array stored under top-level `key`."""
    start = _value_offset(text, key)
    if start is None or text[start] != "[":
        return []
    return _items_from(text, start)


def nested_element_lines(text: str, keys: tuple[str, ...]) -> list[int]:
    """1-based start lines of the items of the array reached through nested object keys, such as
    ("trigger", "positive") for `{"trigger": {"positive": [...]}}`."""
    start: int | None = 0
    for key in keys:
        start = _value_offset(text, key, start or 0)
        if start is None:
            return []
    if start is None or start >= len(text) or text[start] != "[":
        return []
    return _items_from(text, start)


def top_array_lines(text: str) -> list[int]:
    """1-based start lines of the items of a text whose top level is an array."""
    start = _skip_space(text, 0)
    if start >= len(text) or text[start] != "[":
        return []
    return _items_from(text, start)


def _items_from(text: str, start: int) -> list[int]:
    lines: list[int] = []
    index = start + 1
    while True:
        index = _skip_space(text, index)
        if index >= len(text) or text[index] == "]":
            return lines
        lines.append(text.count("\n", 0, index) + 1)
        after = _after_value(text, index)
        if after is None:
            return lines
        index = after


def path_line(text: str, path: tuple[str | int, ...]) -> int | None:
    """1-based line of the value reached from the top through `path`, object keys and array indexes mixed,
    such as ("plugins", 0, "skills", 2); None when the text has no such value."""
    start: int | None = _skip_space(text, 0)
    for step in path:
        if start is None or start >= len(text):
            return None
        start = _value_offset(text, step, start) if isinstance(step, str) else _item_offset(text, step, start)
    return None if start is None else text.count("\n", 0, start) + 1


def _item_offset(text: str, index: int, start: int) -> int | None:
    """Offset of item `index` of the array at `start`."""
    if start >= len(text) or text[start] != "[":
        return None
    at = start + 1
    for _ in range(index):
        at = _skip_space(text, at)
        if at >= len(text) or text[at] == "]":
            return None
        after = _after_value(text, at)
        if after is None:
            return None
        at = after
    at = _skip_space(text, at)
    return None if at >= len(text) or text[at] == "]" else at


def key_line(text: str, key: str) -> int | None:
    offset = _value_offset(text, key)
    return None if offset is None else text.count("\n", 0, offset) + 1


def _value_offset(text: str, key: str, start: int = 0) -> int | None:
    """Offset of the value of `key` in the object at `start` (the top level by default), walking its
    members in order. A key written twice counts where it was written last: json.loads keeps that."""
    index = _skip_space(text, start)
    if index >= len(text) or text[index] != "{":
        return None
    index += 1
    found = None
    while True:
        index = _skip_space(text, index)
        if index >= len(text) or text[index] != '"':
            return found
        try:
            name, index = _decoder.raw_decode(text, index)
        except ValueError:
            return found
        index = _skip_space(text, index)
        if index >= len(text) or text[index] != ":":
            return found
        index = _skip_space(text, index + 1)
        if name == key:
            found = index
        after = _after_value(text, index)
        if after is None:
            return found
        index = after


def _after_value(text: str, index: int) -> int | None:
    """The offset past the JSON value at `index` and the comma after it; None when it does not parse."""
    try:
        _, index = _decoder.raw_decode(text, index)
    except (ValueError, RecursionError):
        return None
    index = _skip_space(text, index)
    return index + 1 if index < len(text) and text[index] == "," else index


def _skip_space(text: str, index: int) -> int:
    while index < len(text) and text[index] in _WHITESPACE:
        index += 1
    return index
