"""What the per-command sections share: cells (a case's place, a rate, a status word), a case's details
and the case table's section."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from harness.report import columns
from harness.report.columns import Column
from harness.report.html.shell import section, text
from harness.report.html.table import Deferred, Filters, Row, cases_table, collapsed, deferred, pre, token

# What `show` found in a run's kept logs: case id -> [(title, lines)], one entry a log.
Transcripts = Mapping[str, Sequence[tuple[str, Sequence[str]]]]


# How the page marks up a shared table's cell (report.columns), by its column's head: the plain cell and
# its row in, rendered HTML out; every other cell is escaped text.
Mark = Callable[[str, Any], str]
MARKS: dict[str, Mark] = {
    "status": lambda plain, row: word(plain),
    "label": lambda plain, row: word(plain),
    "where": lambda plain, row: whole_path(plain) if plain else "",
}


def drawn(
    spec: Sequence[Column], items: Sequence[Any], marks: Mapping[str, Mark] | None = None
) -> tuple[list[str], list[list[str]]]:
    """A shared table's heads and its rows as the page's cells: MARKS (and `marks`) marked, the rest text."""
    heads, plain = columns.drawn(spec, items)
    marked = {**MARKS, **(marks or {})}
    return heads, [
        [marked[h](cell, item) if h in marked else text(cell) for h, cell in zip(heads, row, strict=True)]
        for row, item in zip(plain, items, strict=True)
    ]


def indexes(heads: Sequence[str], names: Iterable[str]) -> list[int]:
    """Where the columns `names` stand among `heads` (a column empty in every row is left out)."""
    wanted = set(names)
    return [i for i, head in enumerate(heads) if head in wanted]


def whole_path(path: str) -> str:
    """A file path that wraps only after a `/`, so `evals.json:55` never breaks mid-name."""
    parts = path.split("/")
    names = [f"<span>{text(part)}/</span>" for part in parts[:-1]] + [f"<span>{text(parts[-1])}</span>"]
    return '<span class="path">' + "<wbr>".join(names) + "</span>"


def fields(row: Mapping, keys: Iterable[str]) -> list[str]:
    """The figures `keys` of a report's row as plain-text cells (`passed/graded`: a fraction)."""
    return ["/".join(str(row[part]) for part in key.split("/")) for key in keys]


def tiles(row: Mapping, figures: Mapping[str, str]) -> list[tuple[str, str]]:
    """Headline tiles: each label with its figure of `row`, read as `fields` reads it."""
    return list(zip(figures, fields(row, figures.values()), strict=True))


def of_total(count: object, total: object, what: str) -> str | None:
    """`3 of 10 cases`, when the report counted them."""
    return f"{count} of {total} {what}" if isinstance(count, int) else None


def filter_keys(case: Mapping, names: Iterable[str]) -> dict[str, str]:
    """What a case's row filters by: each named field's value as one word."""
    return {name: token(str(case[name])) for name in names}


def ranked(cases: list[dict], field: str, order: Sequence[str]) -> list[dict]:
    """`cases` in the order of their `field`'s value (each one its schema allows) in `order`."""
    rank = {value: i for i, value in enumerate(order)}
    return sorted(cases, key=lambda case: rank[case[field]])


def case_section(
    table_id: str, first: str, headers: Sequence[str], rows: Sequence[Row], filters: Filters, **shape: Any
) -> str:
    """A command's case table (`shape`: cases_table's) under its count and what comes `first`."""
    inner = cases_table(table_id, headers, rows, filters, **shape)
    return section(f"Cases ({len(rows)}; {first} first)", inner, anchor=f"{table_id}-section")


def word(status: object) -> str:
    value = str(status) if status is not None else "not graded"
    return f'<span class="{text(value)}">{text(value)}</span>'


def error_line(case: Mapping) -> str:
    """Why the case's run failed, or ''."""
    return f'<p class="error">error: {text(case["error"])}</p>' if case["error"] else ""


def case_details(
    case: Mapping, transcripts: Transcripts, middle: Iterable[str], summary: str = "details"
) -> Deferred:
    """A case's details, opened from its row: its prompt whole, `middle` (HTML), its kept transcripts."""
    prompt = case.get("prompt")
    shown = f"<h3>Prompt</h3>{pre([prompt])}" if isinstance(prompt, str) else ""
    return deferred(summary, shown + "".join(middle) + kept_logs(transcripts.get(str(case["id"]), ())))


def kept_logs(logs: Iterable[tuple[str, Sequence[str]]]) -> str:
    """Each kept log's transcript behind its own closed <details>."""
    return "".join(collapsed(f"transcript: {title}", pre(list(lines))) for title, lines in logs)
