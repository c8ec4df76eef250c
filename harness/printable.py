"""Text from a repo, a dataset or an agent, made fit to show: safe in a terminal and JUnit XML, and
lists of names kept short in messages.

A case id or prompt may hold ESC sequences (which clear a terminal or forge a line), bidi overrides
(which reverse what follows), NUL and other characters XML 1.0 cannot hold, or a lone surrogate (which
no UTF-8 stream can encode). Each becomes a visible escape such as `\\x1b` or `\\u202e`, at output, in
this one place; newlines and tabs are kept.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f"
    "\ud800-\udfff\ufeff\ufff9-\ufffb\ufffe\uffff]"
)


def escaped(text: str) -> str:
    """`text` with every unsafe character written as its escape."""
    return UNSAFE.sub(_escape, text) if UNSAFE.search(text) else text


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def name_list(names: Sequence[str], limit: int = 20) -> str:
    """Skill names for a message: all of a few, the first `limit` of many; `none` for no names."""
    if not names:
        return "none"
    shown = ", ".join(names[:limit])
    return shown if len(names) <= limit else f"{shown} and {len(names) - limit} more"


def clip(value: object, limit: int) -> str:
    """`value` as one line (every whitespace run one space) of at most `limit` characters, ending in `…`
    when cut; not escaped, since each format escapes in its own way (None is the empty string)."""
    flat = "" if value is None else " ".join(str(value).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
