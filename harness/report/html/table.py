"""A table of cases a person narrows down (a select per filter key, a search box), one <tbody> a row so
its details hide with it. Only one page of rows is in the document, so 10,000 cases draw as fast as 100:
the first as markup, the rest packed for the page's script; details wait in a <template> until opened."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from harness.printable import escaped
from harness.report.columns import EMPTY
from harness.report.html.embedded import data_block, packed
from harness.report.html.shell import text

Filters = Sequence[tuple[str, str]]  # (key, label): a select each, offering the values its rows hold
PAGE_ROWS = 100  # rows in the document at once: the first page as markup, the others drawn when paged to


@dataclass
class Row:
    """One case: its cells (rendered HTML), the values it filters by (key -> words, space-separated
    when it has several), and rendered HTML shown under it, collapsed, or ''."""

    cells: list[str]
    keys: dict[str, str] = field(default_factory=dict)
    more: str = ""  # usually deferred(...): opened from the row's last cell


class Deferred(str):
    """Rendered HTML of a row's details whose content waits in a <template> until opened."""


def token(value: str) -> str:
    """A filter value as one word: a skill name or verdict as it is, spaces made `_`."""
    return escaped(value).replace(" ", "_")


def cases_table(
    table_id: str,
    headers: Sequence[str],
    rows: Sequence[Row],
    filters: Filters,
    numeric: Sequence[int] = (),
    cell_filter: bool = False,
    widths: Sequence[str] = (),
) -> str:
    """The table with its controls. `cell_filter`: the matrix may filter it, so say when it does;
    `widths`: each column's (a length, a percentage or "auto"), fixing the layout."""
    ident = text(table_id)
    headers, rows, numeric, widths = without_empty_columns(headers, rows, numeric, widths)
    controls = [
        f'<label>Search <input type="search" data-for="{ident}" data-key="q" '
        'placeholder="id, prompt, skill…"></label>'
    ]
    for key, label in filters:
        values = sorted({word for row in rows for word in row.keys.get(key, "").split() if word})
        options = "".join(f'<option value="{text(v)}">{text(v)}</option>' for v in values)
        controls.append(
            f'<label>{text(label)} <select data-for="{ident}" data-key="{text(key)}">'
            f'<option value="">any</option>{options}</select></label>'
        )
    controls.append(f'<button type="button" data-for="{ident}" data-key="clear">Clear filters</button>')
    controls.append(f'<span id="{ident}-count" class="muted" aria-live="polite"></span>')
    chip = (
        f'<p id="{ident}-cell" hidden>Matrix cell: <span></span> '
        f'<button type="button" data-for="{ident}" data-key="clear">show all</button></p>'
        if cell_filter
        else ""
    )
    right = set(numeric)
    head = "".join(
        f'<th scope="col"{" class=num" if i in right else ""}>{text(h)}</th>' for i, h in enumerate(headers)
    )
    bodies, keys = [], []
    for row in rows:
        data = "".join(f' data-{text(key)}="{text(value)}"' for key, value in row.keys.items())
        inline = isinstance(row.more, Deferred)
        shown = [*row.cells[:-1], row.cells[-1] + row.more] if inline and row.cells else row.cells
        cells = "".join(
            f"<td{' class=num' if i in right else ''}>{cell}</td>" for i, cell in enumerate(shown)
        )
        more = (
            f'<tr class="more"><td colspan="{len(headers)}">{row.more}</td></tr>'
            if row.more and not inline
            else ""
        )
        bodies.append(f'<tbody class="case"{data}><tr>{cells}</tr>{more}</tbody>')
        keys.append(row.keys)
    fixed = ' class="fixed"' if widths else ""
    columns = (
        # The width attribute, not a style one: the page's CSP applies no inline style it has no hash for.
        "<colgroup>"
        + "".join("<col>" if w == "auto" else f'<col width="{text(w)}">' for w in widths)
        + "</colgroup>"
        if widths
        else ""
    )
    return (
        f'<div class="controls">{"".join(controls)}</div>{chip}'
        f'<table id="{ident}"{fixed} data-filterable data-page-size="{PAGE_ROWS}">{columns}'
        f"<thead><tr>{head}</tr></thead>"
        + "".join(bodies[:PAGE_ROWS])
        + "</table>"
        + later_pages(table_id, bodies, keys)
    )


def later_pages(table_id: str, bodies: Sequence[str], keys: Sequence[dict[str, str]]) -> str:
    """The pager, and the rows past the first page packed in a data block ([filter values, markup] a row)
    with a note for a reader without JavaScript; '' when every row fits the first page."""
    if len(bodies) <= PAGE_ROWS:
        return ""
    ident = text(table_id)
    buttons = [("first", "First"), ("prev", "Previous"), ("next", "Next"), ("last", "Last")]
    pager = (
        f'<nav id="{ident}-pager" class="pager" aria-label="Pages of this table" hidden>'
        + "".join(f'<button type="button" data-page="{key}">{label}</button>' for key, label in buttons[:2])
        + '<span aria-live="polite"></span>'
        + "".join(f'<button type="button" data-page="{key}">{label}</button>' for key, label in buttons[2:])
        + "</nav>"
    )
    note = (
        f'<noscript><p class="notice">The first {PAGE_ROWS} of {len(bodies)} rows are shown: the others, '
        "paging, search and filters need JavaScript.</p></noscript>"
    )
    rest = [[key, body] for key, body in zip(keys[PAGE_ROWS:], bodies[PAGE_ROWS:], strict=True)]
    return pager + note + data_block(f"{table_id}-rows", {"rows": len(rest), **packed(rest)})


def without_empty_columns(
    headers: Sequence[str], rows: Sequence[Row], numeric: Sequence[int], widths: Sequence[str]
) -> tuple[list[str], list[Row], list[int], list[str]]:
    """The table without the columns empty (or a dash) in every row, such as the trigger rate when no
    case took more than one sample; the last column, which opens a row's details, always stays."""
    last = len(headers) - 1
    empty = {
        i
        for i in range(last)
        if rows and all(i < len(row.cells) and row.cells[i].strip() in EMPTY for row in rows)
    }
    if not empty:
        return list(headers), list(rows), list(numeric), list(widths)
    kept = [i for i in range(len(headers)) if i not in empty]
    new_index = {old: new for new, old in enumerate(kept)}
    return (
        [headers[i] for i in kept],
        [Row([row.cells[i] for i in kept if i < len(row.cells)], row.keys, row.more) for row in rows],
        [new_index[i] for i in numeric if i in new_index],
        [widths[i] for i in kept if i < len(widths)] if widths else [],
    )


def collapsed(summary: str, inner: str) -> str:
    """Rendered HTML `inner` behind a closed <details> whose summary is plain text."""
    return f"<details><summary>{text(summary)}</summary>{inner}</details>"


def deferred(summary: str, inner: str) -> Deferred:
    """A row's details behind a closed <details> in its last cell, `inner` held in a <template> until the
    page's script moves it into a row of its own."""
    return Deferred(
        f'<details class="deferred"><summary>{text(summary)}</summary><template>{inner}</template></details>'
    )


def pre(lines: Sequence[str]) -> str:
    return f"<pre>{text(chr(10).join(lines))}</pre>"
