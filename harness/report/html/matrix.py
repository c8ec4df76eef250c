"""The routing confusion matrix as inline SVG: expected skill (or none) down, observed skill, none or
error across, a count per cell. Each cell with cases is a link that filters the case table to them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from urllib.parse import quote

from harness.report.html.shell import text
from harness.report.html.table import token

# The words a case is filtered by: no skill name has parentheses, so neither can be taken for a skill.
NONE = "(none)"
ERROR = "(error)"
SHOWN = {NONE: "no skill", ERROR: "error"}
CELL = 34
LABEL_CHARS = 24  # of a skill name along an axis; its <title> holds it whole
MOST_SKILLS = 40  # past this, only the skills some case was confused on get a row and a column


def cell_link(table_id: str, expect: str, observed: str) -> str:
    return f"#{table_id}:expect={quote(token(expect), safe='')}&observed={quote(token(observed), safe='')}"


def shown(name: str) -> str:
    return SHOWN.get(name, name)


def axes(pairs: Sequence[tuple[str, str]], room: Sequence[str]) -> tuple[list[str], list[str], bool]:
    """(rows, columns, trimmed): the room's skills in its order, then none (and error across)."""
    seen = {e for e, _ in pairs} | {o for _, o in pairs}
    skills = [s for s in room if s in seen] + sorted(seen - set(room) - {NONE, ERROR})
    trimmed = len(skills) > MOST_SKILLS
    if trimmed:
        confused = {e for e, o in pairs if e != o} | {o for e, o in pairs if e != o}
        skills = [s for s in skills if s in confused][:MOST_SKILLS]
    rows = [*skills, NONE]
    columns = [*skills, NONE, ERROR]
    return rows, columns, trimmed


def label(name: str, placed: str) -> str:
    """A skill's name along an axis, clipped (its <title> holds it whole); `placed`: where, as attributes."""
    whole = shown(name)
    short = whole if len(whole) <= LABEL_CHARS else whole[: LABEL_CHARS - 1] + "…"
    return f"<text {placed}>{text(short)}<title>{text(whole)}</title></text>"


def svg(pairs: Sequence[tuple[str, str]], room: Sequence[str], table_id: str = "cases") -> str:
    """`pairs`: (expected, observed) per case, NONE for no skill and ERROR for a run with no decision."""
    counts = Counter(pairs)
    rows, columns, trimmed = axes(pairs, room)
    left = 8 * min(LABEL_CHARS, max(len(r) for r in rows)) + 16
    top = 8 * min(LABEL_CHARS, max(len(c) for c in columns)) + 16
    width, height = left + CELL * len(columns) + 4, top + CELL * len(rows) + 4
    most = max([counts[(r, c)] for r in rows for c in columns] + [1])
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" aria-labelledby="{table_id}-matrix-title">'
        f'<title id="{table_id}-matrix-title">Confusion matrix: expected skill down, observed across</title>'
    ]
    for i, column in enumerate(columns):
        parts.append(
            label(column, f'transform="translate({left + i * CELL + CELL // 2},{top - 6}) rotate(-60)"')
        )
    for j, row in enumerate(rows):
        parts.append(label(row, f'x="{left - 6}" y="{top + j * CELL + CELL // 2 + 4}" text-anchor="end"'))
        for i, column in enumerate(columns):
            parts.append(
                cell(counts[(row, column)], most, row, column, left + i * CELL, top + j * CELL, table_id)
            )
    parts.append("</svg>")
    note = (
        f'<p class="muted">{len(room)} skills: only those some case was confused on are drawn.</p>'
        if trimmed
        else ""
    )
    return "".join(parts) + note


def cell(count: int, most: int, expect: str, observed: str, x: int, y: int, table_id: str) -> str:
    kind = "zero" if not count else "error" if observed == ERROR else "hit" if expect == observed else "miss"
    opacity = 1.0 if not count else 0.25 + 0.75 * count / most
    box = (
        f'<rect class="cell-{kind}" x="{x + 1}" y="{y + 1}" width="{CELL - 2}" height="{CELL - 2}" '
        f'rx="3" fill-opacity="{opacity:.2f}"/>'
    )
    if not count:
        return box
    label = f"expected {shown(expect)}, observed {shown(observed)}: {count} case(s)"
    return (
        f'<a href="{text(cell_link(table_id, expect, observed))}" aria-label="{text(label)}">{box}'
        f'<text x="{x + CELL // 2}" y="{y + CELL // 2 + 4}" text-anchor="middle">{count}</text>'
        f"<title>{text(label)}</title></a>"
    )
