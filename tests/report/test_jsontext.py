"""harness.report.jsontext: the report's text parses back to the same document, outline indented."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from harness.report.jsontext import Laid, line, readable
from tests.support.examples import examples

FINITE = st.floats(allow_nan=False, allow_infinity=False)  # JSON holds no other number (see below)
SCALARS = st.none() | st.booleans() | st.integers() | FINITE | st.text()
DOCUMENTS = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)
# An item below the outline is laid out as one line however deep it goes, ahead or in place: a few
# leaves each reach every shape of it, where thirty each (times sixteen items) only cost drawing.
ITEMS = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=6,
)


@settings(derandomize=True, max_examples=examples(300))
@given(DOCUMENTS)
def test_the_text_parses_back_to_the_same_document(document):
    text = readable(document)
    assert text.endswith("\n")
    assert json.loads(text) == document


def test_the_outline_is_indented_and_each_case_is_one_line():
    document = {
        "command": "routing",
        "cases": [{"id": "a", "top": [{"skill": "x"}]}, {"id": "b"}],
        "empty": [],
    }
    assert readable(document).splitlines() == [
        "{",
        '  "command": "routing",',
        '  "cases": [',
        '    {"id":"a","top":[{"skill":"x"}]},',
        '    {"id":"b"}',
        "  ],",
        '  "empty": []',
        "}",
    ]


def test_a_number_json_cannot_hold_is_null_so_every_reader_can_parse_the_report():
    assert readable({"ratio": float("inf"), "cases": [{"score": float("nan")}]}) == (
        '{\n  "ratio": null,\n  "cases": [\n    {"score":null}\n  ]\n}\n'
    )


def test_what_the_fast_encoder_refuses_is_written_by_the_standard_one():
    assert line({"big": 2**70, 1: "key"}) == f'{{"big":{2**70},"1":"key"}}'
    assert json.loads(line({"big": 2**70})) == {"big": 2**70}


def test_text_outside_ascii_is_written_as_it_is():
    assert readable({"prompt": "résumé ✓"}) == '{\n  "prompt": "résumé ✓"\n}\n'


@settings(derandomize=True, max_examples=examples(300))
@given(st.dictionaries(st.text(), st.lists(ITEMS, max_size=4), max_size=4))
def test_items_laid_out_ahead_give_the_same_text_as_items_laid_out_in_place(document):
    """A forked child lays out its cases' lines; the report must read as if the caller had."""
    ahead = {key: [Laid(line(item)) for item in items] for key, items in document.items()}
    assert readable(ahead) == readable(document)
    for key, items in document.items():
        assert [laid.value() for laid in ahead[key]] == items
