"""harness.report.html.embedded: JSON that sits inside a <script> element and parses back equal,
whatever text it carries, and the packed form the page's script unpacks."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from harness.report.html.embedded import data_block, packed, script_json
from tests.report.html.pagetext import Parsed, unpacked

# What could end the element early or change how its text is read.
NASTY = ["</script>", "</SCRIPT ", "<!--", "-->", "<script>", "\u2028", "\u2029", "&lt;", "]]>"]
texts = st.lists(st.sampled_from(NASTY) | st.text(max_size=6), max_size=5).map("".join)
values = st.recursive(
    st.none() | st.booleans() | st.integers() | texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=12,
)


@given(values)
def test_any_value_stays_inside_its_element_and_parses_back_equal(value):
    block = data_block("rows", value)
    parsed = Parsed(f"<body>{block}<p>after</p></body>")
    assert parsed.scripts == [script_json(value)] and parsed.text == "after"
    shown = script_json(value)
    assert not {"<", ">", "&", "\u2028", "\u2029"} & set(shown)
    assert json.loads(shown) == value


@given(values)
def test_packed_unpacks_to_the_same_value(value):
    block = packed(value)
    assert block["encoding"] == "gzip+base64" and unpacked(block) == value


def test_the_same_value_packs_to_the_same_bytes():
    # No timestamp in the gzip header: a report rendered twice gives the same page.
    assert packed(["row"] * 50) == packed(["row"] * 50)
