"""A table the markdown and the page both draw, declared once: each column's head and how its cell reads a
row of the JSON report, so that a reader of a PR comment finds the same columns under the same names on
the page. The markdown draws it as a pipe table, the page as its HTML table."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

Column = tuple[str, Callable[[Any], object]]  # a row: a mapping of the JSON report (a Finding for findings)
EMPTY = ("", "—")  # a cell saying nothing: a column of only these is left out


def heads(columns: Sequence[Column]) -> list[str]:
    return [head for head, _ in columns]


def cells(columns: Sequence[Column], row: Any) -> list[str]:
    """A row's cells as plain text, in the columns' order ('' for a cell the row has nothing for)."""
    return ["" if (value := cell(row)) is None else str(value) for _, cell in columns]


def rows(columns: Sequence[Column], items: Iterable[Any]) -> list[list[str]]:
    return [cells(columns, item) for item in items]


def drawn(columns: Sequence[Column], items: Sequence[Any]) -> tuple[list[str], list[list[str]]]:
    """The heads and rows of `items`, without the columns empty in every row (a trigger rate when no case
    took two samples): both forms leave out the same ones."""
    table = rows(columns, items)
    kept = [i for i in range(len(columns)) if not table or any(row[i] not in EMPTY for row in table)]
    return [columns[i][0] for i in kept], [[row[i] for i in kept] for row in table]


def field(key: str) -> Callable[[Mapping], object]:
    """The cell of a field the row holds (its schema requires it), as it is."""
    return lambda row: row[key]


def fraction(part: str, whole: str) -> Callable[[Mapping], str]:
    """The cell `part/whole` of two counts the row holds."""
    return lambda row: f"{row[part]}/{row[whole]}"


def named(items: Mapping[str, object], key: str) -> list[dict]:
    """A report's rows keyed by name (per skill, per category) as rows holding their name under `key`."""
    return [{key: name, **row} for name, row in items.items() if isinstance(row, dict)]
