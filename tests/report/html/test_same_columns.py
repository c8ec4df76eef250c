"""A reader of a PR comment who opens the page finds the same tables under the same column names: for
every report, each table the markdown and the page both draw has the same heads, in the same order."""

from __future__ import annotations

import html as markup
import re

import pytest

from harness.report import html, kind_of, renderers
from tests.support.saved_reports import PAID

pytestmark = pytest.mark.xdist_group("report-pages")

HEAD_ROW = re.compile(r"<thead><tr>(.*?)</tr></thead>", re.S)
HEAD_CELL = re.compile(r"<th[^>]*>(.*?)</th>", re.S)
# The tables each report must have in both forms, by the first heads: the test is never vacuous.
SHARED = {
    "structural": [("severity", "where")],
    "refs": [("severity", "where")],
    "lexical": [("skill", "positives"), ("case", "category")],
    "routing": [("skill", "expected"), ("category", "graded"), ("case", "category")],
    "behavioral": [("skill", "cases"), ("case", "skill")],
    "compare": [("", "baseline"), ("case", "label")],
    "cost": [("", "with the skill")],
    "routing-matrix": [("agent", "models"), ("skill", "models"), ("case", "expected")],
    "behavioral-matrix": [("agent", "models"), ("case", "skill")],
    "compare-matrix": [("leg", "model"), ("agent", "mode"), ("case", "mode")],
    "tune": [("candidate", "origin")],
    "tune-lexical": [("candidate", "origin")],
}


def markdown_heads(text: str) -> list[tuple[str, ...]]:
    """The head row of each pipe table: the line above a `|---` rule."""
    lines = text.splitlines()
    return [
        tuple(cell.strip() for cell in lines[i - 1].strip().strip("|").split("|"))
        for i, line in enumerate(lines)
        if i and line.startswith("|-")
    ]


def page_heads(page: str) -> list[tuple[str, ...]]:
    return [
        tuple(markup.unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in HEAD_CELL.findall(row))
        for row in HEAD_ROW.findall(page)
    ]


def likeness(one: tuple[str, ...], other: tuple[str, ...]) -> float:
    return len(set(one) & set(other)) / len(set(one) | set(other))


def counterpart(heads: tuple[str, ...], others: list[tuple[str, ...]]) -> tuple[str, ...] | None:
    """The table of the other form that is this one, perhaps drifted: the same first head and most of the
    columns alike (a table of the failing cases only is not the case table)."""
    near = [o for o in others if o[:1] == heads[:1] and likeness(o, heads) > 0.6]
    return max(near, key=lambda o: likeness(o, heads), default=None)


def assert_same_tables(report: dict, name: str) -> None:
    written = renderers(kind_of(report)).markdown(report)
    drawn, page = markdown_heads(written), page_heads(html.render(report))
    for mine, theirs, form in ((drawn, page, "page"), (page, drawn, "markdown")):
        for heads in mine:
            other = counterpart(heads, theirs)
            assert other is None or other == heads, f"{name}: {heads} reads {other} in the {form}"
    for first in SHARED[name]:
        assert any(h[:2] == first for h in drawn) and any(h[:2] == first for h in page), (name, first)


@pytest.mark.parametrize("name", [*PAID, "structural", "refs", "lexical"])
def test_each_table_in_both_forms_has_the_same_columns(page_reports, name):
    assert_same_tables(page_reports[name], name)


@pytest.mark.parametrize("name", ["tune", "tune-lexical"])
def test_the_tune_tables_in_both_forms_have_the_same_columns(tune_reports, name):
    assert_same_tables(tune_reports[name], name)
