"""harness.report.jsontext: the report's text parses back to the same document, outline indented."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from harness.report.jsontext import Laid, line, readable

SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
DOCUMENTS = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


@settings(derandomize=True, max_examples=300)
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
        '    {"id": "a", "top": [{"skill": "x"}]},',
        '    {"id": "b"}',
        "  ],",
        '  "empty": []',
        "}",
    ]


def test_text_outside_ascii_is_written_as_it_is():
    assert readable({"prompt": "résumé ✓"}) == '{\n  "prompt": "résumé ✓"\n}\n'


@settings(derandomize=True, max_examples=300)
@given(st.dictionaries(st.text(), st.lists(DOCUMENTS, max_size=4), max_size=4))
def test_items_laid_out_ahead_give_the_same_text_as_items_laid_out_in_place(document):
    """A forked child lays out its cases' lines; the report must read as if the caller had."""
    ahead = {key: [Laid(line(item)) for item in items] for key, items in document.items()}
    assert readable(ahead) == readable(document)
    for key, items in document.items():
        assert [laid.value() for laid in ahead[key]] == items
