"""Large catalogs written on disk: many skills whose descriptions have exact lengths and no words in
common (so only the listing budget, never a description collision, has anything to say)."""

from __future__ import annotations

from pathlib import Path

from tests.support.helpers import frontmatter_text, make_skill

LETTERS = "bcdfghjklmnprstvz"
VOWELS = "aeiou"


def word(number: int) -> str:
    """A pronounceable word of its own for every number: consonant-vowel pairs in base 85."""
    out = ""
    while True:
        number, pair = divmod(number, len(LETTERS) * len(VOWELS))
        out += LETTERS[pair // len(VOWELS)] + VOWELS[pair % len(VOWELS)]
        if not number:
            return out + "n"


def description(index: int, length: int) -> str:
    """`length` characters of words only skill `index` uses."""
    words, count = [], 0
    while len(" ".join(words)) < length:
        words.append(word(index * 1000 + count))
        count += 1
    text = " ".join(words)[:length]
    return text[:-1] + "x" if text.endswith(" ") else text  # YAML would drop a trailing space


def make_catalog(root: Path, count: int, length: int, prefix: str = "skill") -> dict[str, str]:
    """`count` skills `<prefix>-NNN` under `root`, each description `length` characters; returns them."""
    made = {}
    for index in range(count):
        name = f"{prefix}-{index:03d}"
        text = description(index, length)
        make_skill(root, name, skill_md=frontmatter_text({"name": name, "description": text}) + "# Do it\n")
        made[name] = text
    return made
