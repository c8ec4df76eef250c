"""harness.report.html.table: each case its own <tbody> carrying its filter values, a select per
filter offering the values the rows hold, details collapsed."""

from __future__ import annotations

from harness.report.html.table import Row, cases_table, collapsed, token
from tests.report.html.pagetext import Parsed


def test_rows_carry_their_filter_words_and_selects_offer_them():
    rows = [
        Row(["a"], {"verdict": "fail flaky", "skill": "alpha"}, collapsed("details", "<p>x</p>")),
        Row(["b"], {"verdict": "pass", "skill": "beta"}),
    ]
    html = cases_table("cases", ["case"], rows, [("verdict", "Verdict"), ("skill", "Skill")])
    assert '<tbody class="case" data-verdict="fail flaky" data-skill="alpha">' in html
    values = [value for name, value in Parsed(html).attrs if name == "value"]
    assert values == ["", "fail", "flaky", "pass", "", "alpha", "beta"]
    assert "<details><summary>details</summary>" in html and "<details open" not in html
    assert html.count("<tbody") == 2 and 'id="cases-count"' in html


def test_a_filter_word_is_one_word_and_shows_its_hidden_characters():
    assert token("other:a b\u202e") == "other:a_b\\u202e"
