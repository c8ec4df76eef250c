"""The history page in a real browser (Debian's Chromium under Playwright), drawn from a ledger that two
real routing runs wrote (the claude CLI against the scripted API): the trend, a timeline cell naming
its run and verdict on hover and on keyboard focus, dark mode, no script error, no request made."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from tests.fakeapi import replies as R
from tests.fakeapi.server import FakeAPI
from tests.report.html.csp import assert_only_its_own_inline_code
from tests.report.html.test_browser import INJECTED
from tests.support.browser import guarded_page
from tests.support.helpers import run_cli
from tests.support.routing import CaseRouter, live_processes_under, route, routing_env, skills_repo
from tests.support.temp_dirs import built_once

# One worker draws the pages; the ledger is made once a run either way (built_once).
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("history-page")]
FIRES = {"alpha-pos-2": R.skill("alpha")}  # a run with no activation at all fails: one always fires


@pytest.fixture(scope="module")
def history_page(tmp_path_factory, claude_bin) -> Path:
    """The page, made once a run even where the xdist group does not keep these tests on one worker."""
    return Path(built_once(tmp_path_factory, "history-page", lambda into: str(ledger_page(into, claude_bin))))


def ledger_page(tmp: Path, claude_bin: str) -> Path:
    """alpha-pos-1 passes in run 1 and fails in run 2 with nothing else changed: a flaky case."""
    repo = skills_repo(tmp / "repo", "alpha", "beta")
    ledger, temp = tmp / "ledger", tmp / "temp"
    ledger.mkdir()
    temp.mkdir()
    with FakeAPI() as api, pytest.MonkeyPatch.context() as patch:
        patch.setattr(tempfile, "tempdir", str(temp))  # the runs' temporary folders, checked below
        env = routing_env(api.base_url, claude_bin, tmp / "home")
        for number, decision in ((1, R.skill("alpha")), (2, "I will <b>just</b> answer.")):
            api.script(CaseRouter({**FIRES, "alpha-pos-1": decision}))
            run = route(
                repo,
                env,
                *("--routing-room", "alpha,beta", "--skip-preflight", "--no-cache", "--min-accuracy", "0"),
                *("--only", "alpha-pos-1,alpha-pos-2"),
                output=ledger / f"run-{number}.json",
            )
            assert run.code == 0, run.stderr
    assert live_processes_under(temp) == []
    shown = run_cli(["history", "--repo", str(repo), str(ledger), "--html", "history.html"], cwd=repo)
    assert shown.code == 0, shown.stderr
    return repo / "history.html"


def test_the_history_page_draws_the_trend_and_names_each_run_on_hover_and_focus(browser, history_page):
    url = history_page.as_uri()
    page, refused, errors = guarded_page(browser, url)
    page.goto(url)
    assert page.inner_text("h1").startswith("skillscope history:")
    assert page.locator("#trends svg polyline.trend").count() == 1
    assert "routing:alpha" in page.inner_text("#trends")
    flaky = page.locator("#timelines tr", has_text="alpha-pos-1")
    assert flaky.locator("td").first.inner_text() == "flaky"
    cells = flaky.locator(".run")
    assert cells.count() == 2
    cells.nth(1).hover()
    hovered = page.evaluate("() => document.querySelector('.run:hover').title")
    assert hovered.endswith("/run-2.json: missed_trigger")  # the run and its verdict
    page.keyboard.press("Tab")  # the first timeline cell of the page takes focus, its title with it
    focused = page.evaluate("() => [document.activeElement.className, document.activeElement.title]")
    assert focused[0] == "run pass" and focused[1].endswith("/run-1.json: correct_trigger")
    assert refused == [] and errors == []
    assert page.evaluate("() => document.scripts.length") == 0


def test_the_history_page_repaints_in_dark_mode(browser, history_page):
    colours = {}
    for scheme in ("light", "dark"):
        page, refused, errors = guarded_page(browser, history_page.as_uri(), color_scheme=scheme)
        page.goto(history_page.as_uri())
        colours[scheme] = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        assert refused == [] and errors == []
    assert colours == {"light": "rgb(255, 255, 255)", "dark": "rgb(13, 17, 23)"}


def test_the_history_page_runs_no_script_put_into_it(browser, history_page, tmp_path):
    """The page has no script of its own: its CSP allows none, and its stylesheet only by hash."""
    rendered = history_page.read_text(encoding="utf-8")
    assert_only_its_own_inline_code(rendered)
    injected = tmp_path / "history.html"  # a copy: the other tests read the page as it was written
    injected.write_text(rendered.replace("</body>", INJECTED + "</body>"), encoding="utf-8")
    url = injected.as_uri()
    page, refused, errors = guarded_page(browser, url)
    page.goto(url)
    assert page.evaluate("() => window.injected === undefined") and not page.title().startswith("injected")
    assert page.evaluate("() => getComputedStyle(document.body).backgroundColor") != "rgb(255, 0, 0)"
    assert refused == [] and len(errors) == 3 and all("Content Security Policy" in e for e in errors)
