"""harness.json_positions: where the items of a top-level array start, for findings with lines."""

from __future__ import annotations

from harness import json_positions


def test_each_array_element_gets_its_start_line() -> None:
    text = '{\n  "comment": "x",\n  "evaluations": [\n    {"id": 1},\n\n    {\n      "id": 2\n    }\n  ]\n}'
    assert json_positions.element_lines(text, "evaluations") == [4, 6]


def test_a_missing_key_or_a_non_array_value_has_no_lines() -> None:
    assert json_positions.element_lines('{"other": [1]}', "evaluations") == []
    assert json_positions.element_lines('{"evaluations": {"a": 1}}', "evaluations") == []
    assert json_positions.element_lines("[1, 2]", "evaluations") == []


def test_broken_json_yields_the_lines_found_before_the_break() -> None:
    assert json_positions.element_lines('{"evaluations": [\n{"a": 1},\n{"a": }\n]}', "evaluations") == [2, 3]


def test_deep_nesting_stops_the_walk_instead_of_crashing() -> None:
    text = '{"evaluations": [\n1,\n' + "[" * 100000 + "]" * 100000 + "]}"
    assert json_positions.element_lines(text, "evaluations") == [2, 3]


def test_key_line_finds_a_top_level_key_after_nested_values() -> None:
    text = '{\n  "a": {"evaluations": 1},\n  "evaluations": []\n}'
    assert json_positions.key_line(text, "evaluations") == 3
    assert json_positions.key_line(text, "missing") is None


def test_a_key_written_twice_counts_where_json_loads_takes_it_from_the_last() -> None:
    text = '{\n"evaluations": [1],\n"evaluations": [\n\n{"id": "b"}\n]\n}'
    assert json_positions.element_lines(text, "evaluations") == [5]
    assert json_positions.key_line(text, "evaluations") == 3
