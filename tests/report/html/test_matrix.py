"""harness.report.html.matrix: expected down, observed (none, error) across, each cell with cases a
link that filters the table."""

from __future__ import annotations

from harness.report.html.matrix import ERROR, NONE, axes, cell_link, svg
from tests.report.html.pagetext import Parsed


def test_cells_count_cases_and_link_to_their_filter():
    pairs = [("alpha", "alpha"), ("alpha", "beta"), ("alpha", "beta"), (NONE, NONE), ("beta", ERROR)]
    drawn = svg(pairs, ["alpha", "beta"])
    links = [value for name, value in Parsed(drawn).attrs if name == "href"]
    assert sorted(links) == sorted(
        {cell_link("cases", e, o) for e, o in pairs}
    )  # one link a non-empty cell, none for an empty one
    assert "#cases:expect=alpha&amp;observed=beta" in drawn
    assert 'aria-label="expected alpha, observed beta: 2 case(s)"' in drawn
    assert "#cases:expect=%28none%29&amp;observed=%28none%29" in drawn
    assert 'class="cell-error"' in drawn and 'class="cell-miss"' in drawn and 'class="cell-hit"' in drawn


def test_axes_follow_the_room_then_none_and_error():
    rows, columns, trimmed = axes([("beta", "other:zeta"), ("alpha", NONE)], ["beta", "alpha", "gamma"])
    assert rows == ["beta", "alpha", "other:zeta", NONE]
    assert columns == ["beta", "alpha", "other:zeta", NONE, ERROR] and not trimmed


def test_a_large_room_draws_only_the_confused_skills():
    room = [f"s{n}" for n in range(100)]
    pairs = [(s, s) for s in room] + [("s1", "s2")]
    rows, columns, trimmed = axes(pairs, room)
    assert trimmed and rows == ["s1", "s2", NONE] and columns == ["s1", "s2", NONE, ERROR]


def test_a_hostile_skill_name_stays_text():
    drawn = svg([("<b>x</b>\u202e", NONE)], [])
    assert "<b>" not in drawn and "\u202e" not in drawn and "&lt;b&gt;" in drawn
