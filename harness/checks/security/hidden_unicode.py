"""Characters a reader does not see but an agent reads: Unicode tag characters (outside the three flag
sequences that use them), zero-width characters, bidirectional controls, variation selectors outside
emoji, and private-use characters. The hidden text is decoded into the message, so the author sees
what was smuggled."""

from __future__ import annotations

import re
import unicodedata

from harness.checks.security.content import SkillContent, TextFile
from harness.model import findings
from harness.model.findings import Finding

RULE = "hidden-unicode"
# The RGI subdivision flags (England, Scotland, Wales): a black flag, tag letters, a cancel tag.
FLAGS = re.compile(
    "\U0001f3f4(?:\U000e0067\U000e0062(?:\U000e0065\U000e006e\U000e0067|\U000e0073\U000e0063\U000e0074|\U000e0077\U000e006c\U000e0073)\U000e007f)"
)
MARKDOWN_SYNTAX = "`~#>|-*+_="
SUSPECT = re.compile(
    "[\U000e0000-\U000e007f\u200b-\u200d\u2060-\u2064\u180e\ufeff\u202a-\u202e\u2066-\u2069"
    "\ufe00-\ufe0f\U000e0100-\U000e01ef\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd]"
)
KINDS = (
    ("tag characters", lambda c: 0xE0000 <= c <= 0xE007F),
    ("variation selectors outside emoji", lambda c: 0xFE00 <= c <= 0xFE0F or 0xE0100 <= c <= 0xE01EF),
    ("bidirectional controls", lambda c: 0x202A <= c <= 0x202E or 0x2066 <= c <= 0x2069),
    ("private-use characters", lambda c: 0xE000 <= c <= 0xF8FF or c >= 0xF0000),
    ("zero-width characters", lambda c: True),
)


def scan(content: SkillContent) -> list[Finding]:
    out = []
    for text in content.texts:
        # Every suspect character lies outside ASCII, and a string knows it is ASCII without a scan.
        if not text.text.isascii() and text.search(SUSPECT):
            out.extend(in_file(content, text))
    return out


def in_file(content: SkillContent, text: TextFile) -> list[Finding]:
    body = FLAGS.sub(lambda m: "\ufffc" * len(m.group(0)), text.text)  # flags kept, offsets kept
    hidden: dict[str, list[int]] = {}
    for match in SUSPECT.finditer(body):
        if not legitimate(body, match.start()):
            point = ord(match.group(0))
            kind = next(name for name, test in KINDS if test(point))
            hidden.setdefault(kind, []).append(match.start())
    out = []
    for kind, offsets in hidden.items():
        line = text.line_at(offsets[0])
        decoded = decode(body, offsets)
        said = f", spelling `{decoded}`" if decoded else ""
        made = findings.warning(
            RULE,
            text.rel,
            f"{len(offsets)} invisible {kind} from line {line}{said}: an agent reads them while a reviewer "
            "sees nothing; delete them (or write visibly what they say).",
            line,
        )
        out.append(content.finding(made, text))
    return out


def legitimate(text: str, at: int) -> bool:
    """Joiners inside emoji or between letters of a script that needs them, emoji presentation
    selectors after an emoji, a byte-order mark as the file's first character, and one zero-width
    space opening a line before markdown syntax (the idiom that shows a fence inside a fence as text):
    alone, it can spell nothing and split no word."""
    point = ord(text[at])
    before = text[at - 1] if at else ""
    after = text[at + 1] if at + 1 < len(text) else ""
    if point == 0xFEFF:
        return at == 0
    if point == 0x200B:
        return before in ("", "\n") and bool(after) and after in MARKDOWN_SYNTAX
    if point in (0xFE0E, 0xFE0F):
        return bool(before) and (pictographic(before) or before in "0123456789#*" or ord(before) == 0x20E3)
    if point in (0x200C, 0x200D):
        return bool(before and after) and (
            (pictographic(before) and pictographic(after))
            or (letter(before) and letter(after))
            or ord(before) in (0xFE0F, 0x200D)
            or pictographic(after)
        )
    return False


def pictographic(char: str) -> bool:
    point = ord(char)
    return (
        point >= 0x1F000
        and point < 0x1FB00
        or 0x2190 <= point <= 0x2BFF
        or point in (0xA9, 0xAE, 0x203C, 0x2049, 0x2122, 0x2139, 0x3030, 0x303D, 0x3297, 0x3299)
        or unicodedata.category(char) == "So"
        or 0x1F3FB <= point <= 0x1F3FF
    )


def letter(char: str) -> bool:
    """A letter or combining mark outside ASCII (Persian, Indic and other scripts join with ZWJ/ZWNJ)."""
    return ord(char) > 0x7F and unicodedata.category(char)[0] in "LM"


def decode(text: str, offsets: list[int]) -> str:
    """What the hidden characters say, where they encode text: tag characters map onto ASCII, variation
    selectors onto bytes; other kinds carry no text and are named by code point."""
    points = [ord(text[at]) for at in offsets]
    if all(0xE0000 <= p <= 0xE007F for p in points):
        return printable("".join(chr(p - 0xE0000) for p in points if 0x20 <= p - 0xE0000 < 0x7F))
    if all(0xFE00 <= p <= 0xFE0F or 0xE0100 <= p <= 0xE01EF for p in points) and len(points) > 1:
        raw = bytes(p - 0xFE00 if p <= 0xFE0F else p - 0xE0100 + 16 for p in points)
        return printable(raw.decode("utf-8", errors="replace"))
    shown = sorted({f"U+{p:04X}" for p in points})
    return ", ".join(shown[:4]) + (" …" if len(shown) > 4 else "")


def printable(decoded: str, most: int = 120) -> str:
    words = "".join(c if c.isprintable() else " " for c in decoded).replace("`", "'").strip()
    return words if len(words) <= most else words[: most - 1] + "…"
