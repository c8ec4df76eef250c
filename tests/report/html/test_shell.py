"""harness.report.html.shell: the one page shell, and the one way text enters it."""

from __future__ import annotations

from harness.report.html.shell import SCRIPT, page, section, simple_table, text
from tests.report.html.pagetext import Parsed

HOSTILE = '"><script>alert(1)</script><img src=x onerror=alert(2)>\u202eevil\x1b[2J'


def test_text_cannot_open_a_tag_or_hide_a_character():
    shown = text(HOSTILE)
    assert "<" not in shown and '"' not in shown and "\u202e" not in shown and "\x1b" not in shown
    assert "\\u202eevil\\x1b[2J" in shown  # visible, as the terminal shows them


def test_the_shell_wraps_sections_with_its_one_script_and_no_source():
    html = page(HOSTILE, [section(HOSTILE, simple_table([HOSTILE], [[HOSTILE]]), anchor=HOSTILE)])
    parsed = Parsed(html)
    assert parsed.tags.count("script") == 1 and parsed.scripts == [SCRIPT]
    assert not {"img", "iframe", "link", "object", "embed"} & set(parsed.tags)
    assert not [name for name, _ in parsed.attrs if name in ("src", "onerror", "onload")]
    assert "default-src 'none'" in html  # the CSP: no request may leave the page
    assert "prefers-color-scheme: dark" in html and ":focus-visible" in html
    assert parsed.text.count("\\u202eevil") == 4  # title, heading, column, cell
