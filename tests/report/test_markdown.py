"""harness.report.markdown: the pieces every report shares. Whatever text a repo or an agent supplies
reaches a markdown report as text, never as HTML a reader of the summary would render."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from harness.report import kind_of, renderers
from harness.report import markdown as md
from tests.support import saved_reports
from tests.support.helpers import make_skill, run_cli

HOSTILE = (
    "</script><img src=x onerror=alert(1)><svg onload=alert(2)>\"'><iframe src=javascript:alert(3)> & co"
)
TABLE_TAGS = {"table", "thead", "tbody", "tr", "th", "td"}
# What markdown itself makes of emphasis and code spans in a cell: formatting, not raw HTML. (Its links
# and images need brackets, left out of the generated text, so a raw <a> or <img> is still caught.)
MARKDOWN_TAGS = {"em", "strong", "code"}


class Elements(HTMLParser):
    """The elements a browser would create from a page, and the text of each cell."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.cells: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "td":
            self.cells.append("")

    def handle_data(self, data):
        if self.cells and self.tags and self.tags[-1] == "td":
            self.cells[-1] += data


def rendered(markdown: str) -> Elements:
    """The page GitHub-flavoured markdown makes of it, raw HTML allowed as a summary reader may."""
    page = Elements()
    page.feed(MarkdownIt("commonmark", {"html": True}).enable("table").render(markdown))
    return page


TEXT = st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="[]")


@given(st.text(alphabet=TEXT, max_size=60))
def test_no_text_in_a_cell_makes_a_raw_html_element(value: str):
    assert set(rendered(md.table(["value"], [[value]])).tags) <= TABLE_TAGS | MARKDOWN_TAGS


@given(st.text(alphabet=st.sampled_from("ab <>&\"'=/"), min_size=1, max_size=40))
def test_a_cell_shows_its_text_as_written(value: str):
    page = rendered(md.table(["value"], [["x " + value]]))
    assert page.cells[0].strip() == " ".join(("x " + value).split())


def test_the_hostile_payload_is_shown_not_rendered():
    page = rendered(md.table(["expected", "reason"], [[HOSTILE, HOSTILE]]))
    assert set(page.tags) <= TABLE_TAGS
    assert "onerror=alert(1)" in page.cells[0]


def test_a_structural_summary_quotes_a_hostile_skill_as_text(tmp_path: Path):
    root = tmp_path / "repo"
    make_skill(
        root, "alpha", body="# Alpha\n\nSee [the form](evil<svg/onload=alert(2)><img/onerror=alert(1)>.md).\n"
    )
    summary = tmp_path / "summary.md"
    run = run_cli(
        ["structural", "--repo", str(root), "--summary", str(summary), "--output", str(tmp_path / "r.json")],
        cwd=root,
    )
    assert run.code == 1, run.stderr
    text = summary.read_text(encoding="utf-8")
    assert "onerror=alert(1)" in text and "onload=alert(2)" in text  # the finding quotes the target...
    assert "<img" not in text and "<iframe" not in text and "<svg" not in text  # ...as text
    assert set(rendered(text).tags) <= TABLE_TAGS | {"h2", "p", "strong", "code", "em"}


def test_the_cache_line_appears_only_when_something_was_reused():
    assert md.spend_lines("10 tokens in", None, None) == ["Spent now: 10 tokens in."]


def test_reused_units_say_what_they_saved_when_it_is_known():
    said = "2 of 2 cases replayed from the result cache"
    assert md.spend_lines("x", said, 0.5)[1] == f"{said}, saving $0.5000."
    assert md.spend_lines("x", said, None)[1] == f"{said}."


@pytest.mark.parametrize("name", ["routing", "behavioral", "compare"])
def test_a_case_table_stops_at_its_cap_and_says_how_many_more_the_report_holds(name):
    """A step summary holds 1 MiB: however many cases a run had, each markdown table stops at the cap."""
    report = saved_reports.load(name)
    one = report["cases"][0]
    report["cases"] = [{**one, "id": f"many-{i:04d}"} for i in range(md.ROWS_SHOWN + 57)]
    written = renderers(kind_of(report)).markdown(report)
    assert "57 more in the JSON report." in written
    shown = {line.split("|")[1].strip() for line in written.splitlines() if line.startswith("| many-")}
    assert len(shown) == md.ROWS_SHOWN
