"""Headless Chromium for the page tests and benchmark: Debian's packaged browser driven by Playwright
(no browser is downloaded), every request but the page's own file refused and recorded."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("SKILLSCOPE_TEST_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


@contextmanager
def chromium() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def browser():
    """One browser a module (registered for the suite in tests/conftest.py)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(
            "Chromium is needed for these tests: install it (apt-get install chromium) "
            "or set SKILLSCOPE_TEST_CHROMIUM",
            pytrace=False,
        )
    with chromium() as found:
        yield found


def guarded_page(browser, page_url: str, **options):
    """A page that may load `page_url` and nothing else; returns (page, refused URLs, console errors)."""
    page = browser.new_page(**options)
    refused: list[str] = []
    errors: list[str] = []

    def route(route):
        if route.request.url == page_url:
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    page.route("**/*", route)
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page, refused, errors
