"""harness.report.html.table: each case its own <tbody> carrying its filter values, a select per
filter offering the values the rows hold, details collapsed."""

from __future__ import annotations

import json

from harness.report.html.table import PAGE_ROWS, Row, cases_table, collapsed, token
from tests.report.html.pagetext import Parsed, unpacked


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


def test_only_the_first_page_is_markup_and_every_other_row_is_packed_once():
    rows = [Row([f"case-{n}"], {"skill": f"s{n % 3}"}) for n in range(PAGE_ROWS * 2 + 5)]
    page = cases_table("cases", ["case"], rows, [("skill", "Skill")])
    table = page[: page.index("</table>")]
    assert table.count("<tbody") == PAGE_ROWS and f'data-page-size="{PAGE_ROWS}"' in table
    block = page.split('<script type="application/json" id="cases-rows">')[1].split("</script>")[0]
    held = json.loads(block)
    later = unpacked(held)
    assert held["rows"] == len(later) == PAGE_ROWS + 5
    assert [keys for keys, _ in later] == [{"skill": f"s{n % 3}"} for n in range(PAGE_ROWS, len(rows))]
    drawn = [f"case-{n}" for n in range(PAGE_ROWS)]
    assert [Parsed(markup).text for _, markup in later] == [f"case-{n}" for n in range(PAGE_ROWS, len(rows))]
    assert all(f"<td>{name}</td>" in table for name in drawn)
    assert not any(f"<td>{name}</td>" in table for _, markup in later for name in [Parsed(markup).text])
    assert 'id="cases-pager"' in page and "<noscript>" in page


def test_a_table_that_fits_one_page_has_no_pager_and_no_data_block():
    page = cases_table("cases", ["case"], [Row([f"c{n}"]) for n in range(PAGE_ROWS)], [])
    assert page.count("<tbody") == PAGE_ROWS and "<script" not in page and "pager" not in page
