"""harness.options: list flags as JSON arrays or comma lists, errors naming the flag."""

from __future__ import annotations

import pytest

from harness.errors import UsageError
from harness.options import parse_list


def test_a_list_flag_takes_a_json_array() -> None:
    assert parse_list("--skills-dir", '["skills/*", "extra/*"]') == ["skills/*", "extra/*"]


def test_a_list_flag_takes_a_comma_list_and_strips_blanks_around_items() -> None:
    assert parse_list("--skills-dir", " skills/* , extra/*,") == ["skills/*", "extra/*"]


def test_a_blank_or_absent_list_flag_is_empty() -> None:
    assert parse_list("--skill-files", None) == []
    assert parse_list("--skill-files", "   ") == []


@pytest.mark.parametrize("text", ['["a", ', '{"a": 1}', '["a", 3]', "a,,b", '["  "]'])
def test_a_malformed_list_names_the_flag(text: str) -> None:
    with pytest.raises(UsageError, match="^--skill-sections"):
        parse_list("--skill-sections", text)
