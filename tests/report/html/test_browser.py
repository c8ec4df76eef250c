"""The report page in a real browser (Debian's Chromium under Playwright), as a person uses it: the
header, a matrix cell filtering the table, the search box, transcripts collapsed until opened, dark
mode, no console error, and no request leaving the page (the paid commands' pages from saved reports and
from small real runs, see conftest.py); and a page of 10,000 cases, one page of rows
in the document at a time, paged to its last case, searched and opened."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.report import html
from harness.report.html.routing import failures_first
from harness.report.html.table import PAGE_ROWS
from tests.support.browser import guarded_page
from tests.support.saved_reports import PAID
from tests.support.synthetic_reports import routing_report

# One worker builds the small real runs (a session fixture) for every page test: see conftest.py.
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("report-pages")]  # starts a browser


def open_page(browser, tmp_path: Path, report: dict, transcripts=None, **options):
    path = tmp_path / "page.html"
    path.write_text(html.render(report, transcripts), encoding="utf-8")
    url = path.as_uri()
    page, refused, errors = guarded_page(browser, url, **options)
    page.goto(url)
    page.wait_for_function(ALL_READY)  # rows past the first page are unpacked after the load event
    return page, refused, errors


ALL_READY = (
    "() => [...document.querySelectorAll('table[data-filterable]')].every(t => t.hasAttribute('data-ready'))"
)


def shown(page) -> list[str]:
    return page.eval_on_selector_all(
        "#cases tbody:not([hidden]) tr:first-child td:first-child", "cells => cells.map(c => c.innerText)"
    )


def filter_by_cell(page, link: str, table: str = "cases") -> None:
    """Click a matrix cell's link and wait for its filter, which runs from the page's hash change: an event
    of its own, after the click returns (reading the rows at once raced it on a busy host)."""
    page.click(link)
    page.locator(f"#{table}-cell").wait_for(state="visible")


def test_a_routing_page_filters_by_matrix_cell_and_search(browser, tmp_path, page_reports):
    report = page_reports["routing"]
    logs = {"alpha-pos-2": [("alpha-pos-2.jsonl: run", ["  1. Skill beta", "ended: result"])]}
    page, refused, errors = open_page(browser, tmp_path, report, logs)
    assert page.inner_text("h1").startswith("skillscope routing")
    assert "below the --min-accuracy bar of 0.9" in page.inner_text("header")
    assert len(shown(page)) == len(report["cases"])
    filter_by_cell(page, 'a[aria-label="expected alpha, observed beta: 1 case(s)"]')
    assert shown(page) == ["alpha-pos-2"]
    assert page.is_visible("#cases-cell") and "observed beta" in page.inner_text("#cases-cell")
    assert page.inner_text("#cases-count") == f"1 of {len(report['cases'])} shown"
    page.click("#cases-cell button")
    assert len(shown(page)) == len(report["cases"])
    page.fill('input[data-for="cases"]', "variant 3")
    assert shown(page) == ["alpha-pos-3 flaky"]
    page.fill('input[data-for="cases"]', "")
    page.select_option('select[data-key="verdict"]', "flaky")
    assert shown(page) == ["alpha-pos-3 flaky"]
    # The hostile prompt is shown as text: no script ran, no element was made of it.
    assert page.evaluate("() => document.scripts.length") == 1
    assert refused == [] and errors == []


def test_transcripts_are_collapsed_until_opened_by_keyboard(browser, tmp_path, page_reports):
    logs = {"alpha-pos-2": [("alpha-pos-2.jsonl: run", ["  1. Skill beta"])]}
    page, _, errors = open_page(browser, tmp_path, page_reports["routing"], logs)
    body = page.locator("#cases tbody", has_text="alpha-pos-2")
    transcript = body.locator("pre", has_text="1. Skill beta")
    assert not transcript.is_visible()
    body.locator("summary", has_text="details").focus()
    page.keyboard.press("Enter")
    body.locator("summary", has_text="transcript:").focus()
    page.keyboard.press("Enter")
    transcript.wait_for(state="visible")  # drawn from its template after the key press
    assert transcript.is_visible() and errors == []


def test_dark_mode_repaints_the_page(browser, tmp_path, page_reports):
    colours = {}
    for scheme in ("light", "dark"):
        page, _, errors = open_page(browser, tmp_path, page_reports["behavioral"], color_scheme=scheme)
        colours[scheme] = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        assert errors == []
    assert colours == {"light": "rgb(255, 255, 255)", "dark": "rgb(13, 17, 23)"}


@pytest.mark.parametrize(
    "name",
    ["structural", "refs", "lexical", "behavioral", "compare", "cost", "routing-matrix", "compare-matrix"],
)
def test_every_commands_page_opens_without_error_or_request(browser, tmp_path, page_reports, name):
    page, refused, errors = open_page(browser, tmp_path, page_reports[name])
    assert page.inner_text("h1").startswith("skillscope ")
    assert refused == [] and errors == []


@pytest.mark.parametrize("name", PAID)
def test_a_small_real_runs_page_opens_without_error_or_request(browser, tmp_path, small_real_reports, name):
    page, refused, errors = open_page(browser, tmp_path, small_real_reports[name])
    assert page.inner_text("h1").startswith(f"skillscope {small_real_reports[name]['command']}")
    assert refused == [] and errors == []


def test_a_small_real_routing_page_filters_by_its_matrix_cell(browser, tmp_path, small_real_reports):
    report = small_real_reports["routing"]
    page, refused, errors = open_page(browser, tmp_path, report)
    assert len(shown(page)) == len(report["cases"]) == 2
    filter_by_cell(page, 'a[aria-label="expected alpha, observed beta: 1 case(s)"]')
    assert shown(page) == ["alpha-pos-2"]
    assert page.inner_text("#cases-count") == "1 of 2 shown"
    assert refused == [] and errors == []


def test_a_matrix_cell_of_the_second_leg_filters_that_leg_s_table(browser, tmp_path, page_reports):
    """Each leg's matrix links to its own case table: a cell of the second never filters the first."""
    page, refused, errors = open_page(browser, tmp_path, page_reports["routing-matrix"])
    first, second = "cases-claude-claude-fake-1", "cases-claude-claude-fake-2"

    def rows(table: str) -> list[str]:
        return page.eval_on_selector_all(
            f"#{table} tbody:not([hidden]) tr:first-child td:first-child",
            "cells => [...cells].map(c => c.innerText)",
        )

    everything = rows(first)
    filter_by_cell(
        page, f'a[href^="#{second}:"][aria-label="expected alpha, observed beta: 1 case(s)"]', second
    )
    assert rows(second) == ["alpha-pos-2"]
    assert rows(first) == everything
    assert page.is_visible(f"#{second}-cell") and not page.is_visible(f"#{first}-cell")
    assert refused == [] and errors == []


def test_a_page_that_would_fetch_is_caught(browser, tmp_path):
    # The guard itself: a page asking for an image is refused and the attempt recorded.
    path = tmp_path / "fetch.html"
    path.write_text('<img src="http://127.0.0.1:9/x.png">', encoding="utf-8")
    page, refused, _ = guarded_page(browser, path.as_uri())
    page.goto(path.as_uri())
    assert refused == ["http://127.0.0.1:9/x.png"]


def test_a_large_synthetic_page_filters(browser, tmp_path):
    report = routing_report(cases=300, samples=3, skills=8)
    page, refused, errors = open_page(browser, tmp_path, report)
    page.select_option('select[data-key="status"]', "error")
    errored = [c["id"] for c in failures_first(report["cases"]) if c["status"] == "error"]
    assert page.inner_text("#cases-count") == f"{len(errored)} of 300 shown"
    assert [row.split(" ")[0] for row in shown(page)] == errored  # rows from both the markup and the block
    assert refused == [] and errors == []


@pytest.fixture(scope="module")
def catalog_page(tmp_path_factory) -> tuple[Path, list[dict]]:
    """A 10,000-case routing page, written once for the tests below, and its cases in table order."""
    report = routing_report(cases=10_000, samples=5, skills=20)
    path = tmp_path_factory.mktemp("catalog") / "page.html"
    path.write_text(html.render(report), encoding="utf-8")
    return path, failures_first(report["cases"])


def open_catalog(browser, catalog_page):
    path, ordered = catalog_page
    page, refused, errors = guarded_page(browser, path.as_uri())
    page.goto(path.as_uri())
    page.wait_for_function(ALL_READY)
    return page, ordered, refused, errors


def first_ids(page) -> list[str]:
    return [row.split(" ")[0] for row in shown(page)]


def test_a_10000_case_page_draws_one_page_of_rows_and_pages_to_the_last_case(browser, catalog_page):
    page, ordered, refused, errors = open_catalog(browser, catalog_page)
    ids = [c["id"] for c in ordered]
    assert page.inner_text("#cases-count") == "10000 of 10000 shown"
    assert page.locator("#cases tbody").count() == PAGE_ROWS and first_ids(page) == ids[:PAGE_ROWS]
    pager = page.locator("#cases-pager")
    assert pager.is_visible() and "page 1 of 100" in pager.inner_text()
    pager.locator("button", has_text="Next").focus()
    page.keyboard.press("Enter")  # by keyboard, as a button
    assert first_ids(page) == ids[PAGE_ROWS : 2 * PAGE_ROWS] and "rows 101–200 of 10000" in pager.inner_text()
    pager.locator("button", has_text="Last").click()
    assert first_ids(page) == ids[-PAGE_ROWS:] and first_ids(page)[-1] == ids[-1]
    assert page.locator("#cases tbody").count() == PAGE_ROWS and "page 100 of 100" in pager.inner_text()
    assert pager.locator("button", has_text="Next").get_attribute("aria-disabled") == "true"
    pager.locator("button", has_text="First").click()
    assert first_ids(page) == ids[:PAGE_ROWS]
    assert refused == [] and errors == []


def test_a_10000_case_page_finds_a_case_not_drawn_and_opens_its_details(browser, catalog_page):
    page, ordered, refused, errors = open_catalog(browser, catalog_page)
    wanted = ordered[9_000]  # far past the first page: its row is not in the document yet
    assert page.locator("#cases tbody", has_text=wanted["id"]).count() == 0
    page.fill('input[data-for="cases"]', f"request {wanted['line'] - 3} for")  # words of its prompt
    assert first_ids(page) == [wanted["id"]] and page.inner_text("#cases-count") == "1 of 10000 shown"
    assert page.is_hidden("#cases-pager")  # one page of results: nothing to page through
    body = page.locator("#cases tbody", has_text=wanted["id"])
    samples = body.locator("summary", has_text="5 samples")
    assert samples.count() == 0  # the details are not drawn until the row is opened
    body.locator("summary", has_text="details").click()
    samples.click()
    body.locator("pre", has_text="1. ").wait_for(state="visible")
    assert body.locator("h3", has_text="Prompt").is_visible()
    page.select_option('select[data-key="status"]', "error")  # a filter and the search together
    assert page.inner_text("#cases-count") == f"{int(wanted['status'] == 'error')} of 10000 shown"
    assert refused == [] and errors == []


def test_the_tune_page_filters_candidates_by_status_and_opens_a_candidate_s_details(
    browser, tmp_path, tune_reports
):
    page, refused, errors = open_page(browser, tmp_path, tune_reports["tune"])
    page.select_option('select[data-for="candidates"][data-key="status"]', "stopped-early")
    assert page.inner_text("#candidates-count") == f"1 of {len(tune_reports['tune']['candidates']) + 1} shown"
    body = page.locator("#candidates tbody:not([hidden])")
    looks = body.locator("h3", has_text="Early-stop looks on train")
    assert not looks.is_visible()
    body.locator("summary", has_text="details").click()
    looks.wait_for(state="visible")  # the details are drawn from their template after the click
    assert looks.is_visible() and refused == [] and errors == []

    for name, report in tune_reports.items():  # both pages open clean
        page, refused, errors = open_page(browser, tmp_path, report)
        assert page.inner_text("h1").startswith("skillscope tune") and refused == [] and errors == [], name


# What escaping keeps out, put into the page after it was rendered: an inline script, an inline event
# handler and an inline stylesheet. The page's CSP allows only its own script and style, by their hashes.
INJECTED = (
    "<script>window.injected = 'script'; document.title = 'injected';</script>"
    '<img src="data:," onerror="window.injected = \'handler\'">'
    "<style>body { background: rgb(255, 0, 0) !important; }</style>"
)


def test_an_inline_script_put_into_the_page_after_rendering_does_not_run_and_the_page_still_works(
    browser, tmp_path, page_reports
):
    report = page_reports["routing"]
    rendered = html.render(report)
    path = tmp_path / "injected.html"
    # Once at the top of the body, once at its end: before and after the page's own script.
    injected = rendered.replace("<body>\n", "<body>\n" + INJECTED, 1).replace("</body>", INJECTED + "</body>")
    path.write_text(injected, encoding="utf-8")
    page, refused, errors = guarded_page(browser, path.as_uri())
    page.goto(path.as_uri())
    page.select_option('select[data-key="verdict"]', "flaky")  # the page's own script runs: it filters
    assert shown(page) == ["alpha-pos-3 flaky"]
    assert page.inner_text("#cases-count") == f"1 of {len(report['cases'])} shown"
    assert page.evaluate("() => window.injected === undefined")
    assert page.title().startswith("skillscope routing")
    assert page.evaluate("() => getComputedStyle(document.body).backgroundColor") != "rgb(255, 0, 0)"
    assert refused == []
    assert len(errors) == 6 and all("Content Security Policy" in error for error in errors), errors


@pytest.mark.parametrize("width", [1400, 360])
def test_the_start_time_stays_on_one_line_and_the_tile_names_its_bar(browser, tmp_path, page_reports, width):
    page, refused, errors = open_page(
        browser, tmp_path, page_reports["routing"], viewport={"width": width, "height": 900}
    )
    # A wrapped inline element has one box per line it spans.
    assert page.eval_on_selector(".facts time", "t => t.getClientRects().length") == 1
    assert ", bar 90.0%" in page.inner_text("header") and "(0.9)" not in page.inner_text("header")
    assert refused == [] and errors == []


@pytest.mark.parametrize("width", [1400, 360])
@pytest.mark.parametrize("name", ["lexical", "routing", "routing-matrix", "behavioral", "compare", "cost"])
def test_every_column_header_fits_its_cell(browser, tmp_path, page_reports, name, width):
    page, refused, errors = open_page(
        browser, tmp_path, page_reports[name], viewport={"width": width, "height": 900}
    )
    # A header wider than its column runs over the next one's; a narrow screen wraps it or scrolls.
    spilled = page.eval_on_selector_all(
        "th", "ths => ths.filter(t => t.scrollWidth > t.clientWidth).map(t => t.innerText)"
    )
    assert spilled == []
    assert refused == [] and errors == []


def narrow_routing_report() -> dict:
    """Single-sample cases (no trigger rate to show) with long dataset paths, and a room skill that no
    case expected and none fired."""
    report = routing_report(cases=12, samples=1, skills=3)
    for case in report["cases"]:
        case["source"] = "skills/a-rather-long-skill-folder-name/evals/evals.json"
        case["line"] = 55
    zeros = dict.fromkeys(
        ("expected", "correct", "missed", "lost_to_other_skill", "fired_when_not_expected"), 0
    )
    report["per_skill"]["idle-member"] = {**zeros, "fired_total": 0, "recall": None, "precision": None}
    report["per_skill"]["skill-00"] = {**zeros, "expected": 4, "correct": 3, "missed": 1, "fired_total": 3}
    return report


@pytest.mark.parametrize("width", [1400, 360])
def test_paths_wrap_in_their_column_and_empty_columns_and_idle_rows_are_left_out(browser, tmp_path, width):
    page, refused, errors = open_page(
        browser, tmp_path, narrow_routing_report(), viewport={"width": width, "height": 900}
    )
    # Each name and its slash is a box of its own: one that fits its cell stays on one line...
    broken = page.eval_on_selector_all(
        "#cases .path > span",
        """names => names.filter(n => {
            const cell = n.closest('td'), pad = getComputedStyle(cell);
            const room = cell.clientWidth - parseFloat(pad.paddingLeft) - parseFloat(pad.paddingRight);
            // Its width unwrapped and uncapped (its max-width would hold a wider name to the cell's width).
            n.style.whiteSpace = 'nowrap'; n.style.maxWidth = 'none';
            const natural = n.getBoundingClientRect().width;
            n.style.whiteSpace = ''; n.style.maxWidth = '';
            const lines = n.getBoundingClientRect().height / parseFloat(getComputedStyle(n).lineHeight);
            return natural <= room && lines > 1.5;
        }).map(n => n.innerText)""",
    )
    assert broken == []
    # ...and one wider than its cell (a real catalog's skill folder) wraps inside it rather than
    # running over the next column's text.
    spilled = page.eval_on_selector_all(
        "#cases td:has(.path)", "cells => cells.filter(c => c.scrollWidth > c.clientWidth).length"
    )
    assert spilled == 0
    assert page.locator("#cases .path").count() == 12
    assert "evals.json:55" in page.inner_text("#cases tbody")
    headers = page.eval_on_selector_all("#cases thead th", "ths => ths.map(t => t.innerText)")
    assert "trigger rate [95%]" not in headers and "where" in headers
    per_skill = page.locator("section", has_text="Per skill")
    assert "idle-member" not in per_skill.locator("table").inner_text()
    assert (
        "Not shown: 1 room skill(s) no case expected and none fired (idle-member)" in per_skill.inner_text()
    )
    assert refused == [] and errors == []
