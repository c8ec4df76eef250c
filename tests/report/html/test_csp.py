"""Every page the harness writes carries a CSP that allows its own inline script and stylesheet by
their hashes and nothing else inline: escaping is the first defence, the policy the second."""

from __future__ import annotations

import pytest

from harness.history.ledger import Ledger
from harness.history.result import History
from harness.report import history_html, html
from harness.report.html import logs, shell
from tests.report.html.csp import Inline, assert_only_its_own_inline_code
from tests.support.reports import HOSTILE
from tests.support.synthetic_reports import routing_report


def test_the_shell_allows_its_script_and_style_by_hash_with_or_without_the_script():
    for filters in (True, False):
        table = shell.simple_table([HOSTILE], [[HOSTILE]])
        page = shell.page(HOSTILE, [shell.section(HOSTILE, table)], filters)
        assert_only_its_own_inline_code(page)
        assert Inline(page).texts["script"] == ([shell.SCRIPT] if filters else [])


def test_a_changed_script_is_no_longer_allowed():
    # The check itself: a script the policy has no hash for is caught.
    page = shell.page("t", []).replace("(function () {", "(function () { alert(1);", 1)
    with pytest.raises(AssertionError, match="script-src"):
        assert_only_its_own_inline_code(page)


@pytest.mark.parametrize(
    "page",
    [
        pytest.param(lambda: html.render(routing_report(cases=40, samples=2, skills=4)), id="routing"),
        pytest.param(
            lambda: html.logs_page(HOSTILE, [logs.Entry(HOSTILE, "pass", [(HOSTILE, [HOSTILE])])]), id="logs"
        ),
        pytest.param(
            lambda: history_html.page(History.of(Ledger(), [HOSTILE], HOSTILE).to_json()), id="history"
        ),
    ],
)
def test_each_kind_of_page_without_a_run(page):
    assert_only_its_own_inline_code(page())


def test_a_page_with_rows_packed_in_a_data_block_allows_only_its_own_script():
    page = html.render(routing_report(cases=250, samples=2, skills=4))
    assert_only_its_own_inline_code(page)
    assert len(Inline(page).texts["data"]) == 1 and Inline(page).texts["script"] == [shell.SCRIPT]
