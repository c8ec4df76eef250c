"""harness.printable: control, bidi and invisible characters escaped at output; text otherwise kept;
long name lists shortened."""

from __future__ import annotations

import io

import pytest

from harness.context import Context
from harness.printable import escaped, name_list


@pytest.mark.parametrize(
    "raw, shown",
    [
        ("good-\x1b[2Jclear", "good-\\x1b[2Jclear"),
        ("bell\x07 nul\x00 del\x7f c1\x9b", "bell\\x07 nul\\x00 del\\x7f c1\\x9b"),
        ("a\u202eb\u2066c\u200bd", "a\\u202eb\\u2066c\\u200bd"),
        ("lone \ud800 surrogate", "lone \\ud800 surrogate"),
        ("over\rwrite", "over\\x0dwrite"),
        ("line\u2028sep", "line\\u2028sep"),
    ],
)
def test_unsafe_characters_become_visible_escapes(raw: str, shown: str) -> None:
    assert escaped(raw) == shown


def test_newlines_tabs_and_ordinary_unicode_are_kept() -> None:
    text = "Résumé\tnaïve — 東京 😀\n| a | b |"
    assert escaped(text) is text


def test_what_a_command_prints_reaches_the_terminal_escaped_and_encodable() -> None:
    out, err = io.StringIO(), io.StringIO()
    ctx = Context(environ={}, stdout=out, stderr=err)
    ctx.out("case \x1b[31mred\x1b[0m")
    ctx.err("id \ud800")
    assert out.getvalue() == "case \\x1b[31mred\\x1b[0m\n"
    assert err.getvalue().encode("utf-8") == b"id \\ud800\n"


def test_name_list_shortens_long_listings():
    assert name_list([]) == "none"
    assert name_list(["a", "b"]) == "a, b"
    assert name_list([f"s{i}" for i in range(25)], limit=3) == "s0, s1, s2 and 22 more"
