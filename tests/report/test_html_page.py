"""harness.report.html_page: the page `skillscope show --html` writes holds whatever an agent or a
dataset wrote as text only: no markup, no script, no hidden characters, no external asset."""

from __future__ import annotations

from html.parser import HTMLParser

from harness.report.html_page import CaseView, page

HOSTILE = '"><script>alert(1)</script><img src=x onerror=alert(2)>\u202eevil\x1b[2J'


class Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += attrs


def test_hostile_text_anywhere_stays_text():
    case = CaseView(HOSTILE, HOSTILE, HOSTILE, [HOSTILE], [(HOSTILE, [HOSTILE, "second"])])
    html = page(HOSTILE, [HOSTILE], [case])
    tags = Tags()
    tags.feed(html)
    assert set(tags.tags) <= {
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "h1",
        "h3",
        "ul",
        "li",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "a",
        "details",
        "summary",
        "span",
        "pre",
    }
    assert all(name in ("lang", "charset", "href", "class", "id", "open") for name, _ in tags.attrs)
    assert [value for name, value in tags.attrs if name == "href"] == ["#case-1"]
    assert "\u202e" not in html and "\x1b" not in html
    assert "\\u202eevil\\x1b[2J" in html  # visible, as the terminal shows them


def test_every_case_is_a_row_and_a_section_in_order():
    cases = [CaseView("b", "fail", "do b", ["-- case b: fail"], [("b.jsonl", ["x"])]), CaseView("a", None)]
    html = page("skillscope routing: fail", ["repo: /r"], cases)
    assert html.index('href="#case-1">b<') < html.index('href="#case-2">a<')
    assert '<td class="fail">fail</td>' in html and '<td class="">not graded</td>' in html
    assert '<details id="case-2" open><summary>a</summary></details>' in html
