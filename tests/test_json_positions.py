"""harness.json_positions: where the items of a top-level array start, and where any value reached through
keys and indexes starts, for findings with lines."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from harness import json_positions
from harness.json_positions import path_line
from tests.support.examples import examples


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


VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=10,
)


def paths_to_leaves(value, at=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths_to_leaves(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths_to_leaves(item, (*at, index))
    else:
        yield at


def replaced(value, at, marker):
    if not at:
        return marker
    head, *rest = at
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[head] = replaced(value[head], tuple(rest), marker)
    return copy


@settings(max_examples=examples(150), deadline=None)
@given(value=VALUES, indent=st.sampled_from([None, 1, 2]))
def test_path_line_finds_every_leaf_on_the_line_it_was_written(value, indent):
    text = json.dumps(value, indent=indent)
    for at in paths_to_leaves(value):
        marked = json.dumps(replaced(value, at, "\u2603mark"), indent=indent)
        expected = next(n for n, line in enumerate(marked.split("\n"), 1) if "\\u2603mark" in line)
        assert path_line(text, at) == expected


def test_path_line_of_a_missing_step_is_none():
    text = '{\n  "plugins": [\n    {"skills": ["./a"]}\n  ]\n}'
    assert path_line(text, ("plugins", 0, "skills", 0)) == 3
    assert path_line(text, ("plugins", 1)) is None
    assert path_line(text, ("plugins", "skills")) is None
    assert path_line(text, ("nope",)) is None
    assert path_line("[1, 2", (5,)) is None
