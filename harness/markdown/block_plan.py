"""Which markdown-it block rules a text needs: most of the parse time of a skill file goes to rules that
cannot match it (no `>` means no blockquote) and to the `list` rule, which re-tokenizes every item.

`plan(text)` returns the rules to switch off and, when lists may be read as plain paragraphs, the lines
that start list items. Every decision here is conservative: when in doubt, the full parser runs.
`text` must already be normalized the way markdown-it does it (`\\n` line ends only).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Line patterns start with a literal newline and are searched in "\n" + text: the regex engine then
# jumps from newline to newline, where `^` in multiline mode would be tried at every character.
# A line that could be a thematic break inside any container: only markers, digits, `>` and spaces.
HR_LINE = re.compile(r"\n[ \t>0-9.)+*_-]*[*_-][ \t>0-9.)+*_-]*(?=\n|\Z)")
# A setext underline sits after blockquote markers and indentation only, never after a list marker.
UNDERLINE_LINE = re.compile(r"\n[ \t>]*(?:=+|-+)[ \t]*(?=\n|\Z)")
# Every list item starts, after container markers and indentation, with a bullet or `1.`/`1)` marker.
ITEM_LINE = re.compile(r"\n[ \t>]*(?:[-+*]|[0-9]{1,9}[.)])(?:[ \t]|(?=\n|\Z))")

ITEM_START = re.compile(r"(?:[-+*]|[0-9]{1,9}[.)])(?: |$)")
PLAIN_ITEM = re.compile(r"(?:[-+*]|[0-9]{1,9}[.)]) {1,4}(?=[^ ])")
BLOCK_START = re.compile(r"[#`~<>*+_=-]|[0-9]{1,9}[.)](?: |$)")
FENCE_OPEN = re.compile(r"(`{3,})[^`]*$|(~{3,})")
SHORT_UNDERLINE = re.compile(r"(?:=+|-+) *$")
# Blank lines between blocks; split on them, a text alternates block, separator, block...
BLANK_RUN = re.compile(r"(\n(?: *\n)+)")
# With these off (idle, or `list` read flat), nothing carries from one block into the next.
SPANNING_RULES = frozenset({"code", "fence", "html_block", "blockquote", "reference", "list"})


@dataclass(frozen=True)
class Plan:
    off: frozenset[str]
    items: frozenset[int] = frozenset()  # 0-based lines starting an item, when `list` is off despite them


def idle_rules(text: str) -> set[str]:
    """Rules that cannot match anywhere in `text`, as a block or as a paragraph terminator, because the
    marker each one needs to start is absent; switching them off changes nothing but the time."""
    idle = set()
    if "\t" not in text and "    " not in text:
        idle.add("code")  # indented code needs 4 columns of indentation beyond its container
    if "```" not in text and "~~~" not in text:
        idle.add("fence")
    if ">" not in text:
        idle.add("blockquote")
    if "<" not in text:
        idle.add("html_block")
    if "#" not in text:
        idle.add("heading")
    if "]:" not in text:
        idle.add("reference")  # a definition's label is followed right away by its colon
    lines = "\n" + text
    if not HR_LINE.search(lines):
        idle.add("hr")
    if not UNDERLINE_LINE.search(lines):
        idle.add("lheading")
    if not ITEM_LINE.search(lines):
        idle.add("list")
    return idle


def plan(text: str) -> Plan:
    idle = idle_rules(text)
    if "list" in idle:
        return Plan(frozenset(idle))
    items = flat_items(text)
    if items is None:
        return Plan(frozenset(idle))
    return Plan(frozenset(idle | {"list"}), frozenset(items))


def blank_inert(text: str, off: frozenset[str]) -> str:
    """`text` with every block that can yield no reference and no anchor turned into blank lines, so
    the parser steps over it; line numbers stay. Only when no rule in `off`'s complement spans blocks:
    then each block parses alone, and one without `[`, `<`, `#`, `://` or a setext underline yields
    nothing. Otherwise `text` comes back unchanged."""
    if not SPANNING_RULES.issubset(off):
        return text
    underlines = "lheading" not in off
    parts = BLANK_RUN.split(text)
    for index in range(0, len(parts), 2):
        block = parts[index]
        if not (
            "[" in block
            or "<" in block
            or "#" in block
            or "://" in block
            or (underlines and UNDERLINE_LINE.search("\n" + block))
        ):
            parts[index] = "\n" * block.count("\n")
    return "".join(parts)


def flat_items(text: str) -> set[int] | None:
    """The item lines when every list in `text` is flat enough to be read as paragraph text, else None.

    Without the `list` rule, `- x` lines join the paragraph around them. The blocks stay the same when,
    outside fenced code, no line is indented (no nested block, no continuation that indented code could
    claim), no line starts a blockquote or HTML block, every item's text starts like a paragraph, no
    setext underline follows text (`- x` then `---` would become a heading), and no item opens with
    a `[label]:` definition. What the inline parser does across the joined lines is checked afterwards
    (`links.parse`): a link or code span crossing a line ends the fast path."""
    if "\t" in text:
        return None
    items: set[int] = set()
    fence: str | None = None
    after_text = bracket_item = definition = False
    for number, line in enumerate(text.split("\n")):
        if fence is not None:
            if closes(line, fence):
                fence, after_text = None, False
            continue
        if not line.strip(" "):
            after_text = bracket_item = definition = False
            continue
        if line[0] in " <>" or (after_text and SHORT_UNDERLINE.match(line)):
            return None
        opened = FENCE_OPEN.match(line)
        if opened:
            fence, after_text = opened.group(1) or opened.group(2), False
            continue
        if ITEM_START.match(line):
            plain = PLAIN_ITEM.match(line)
            if plain is None or BLOCK_START.match(line, plain.end()):
                return None
            items.add(number)
            bracket_item = bracket_item or line[plain.end()] == "["
        definition = definition or "]:" in line
        if bracket_item and definition:
            return None
        after_text = True
    return items


def closes(line: str, fence: str) -> bool:
    """A closing fence: up to 3 spaces, at least as many of the opening character, then only spaces."""
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3 or not stripped.startswith(fence):
        return False
    return not stripped.rstrip(" ").strip(fence[0])
