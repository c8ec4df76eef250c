"""claude's listing rules measured on 2.1.332 that no catalog of plain words shows: how a description
is cleaned before it is measured, and in which order descriptions are kept past the budget (by usage,
ties in listing order). The golden listings (tests/agent/test_listing_golden.py) check them against
the real CLI; these pin each rule on its own, offline."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.model.listing import (
    NAME_ONLY,
    blanked,
    blanked_by_graphemes,
    capped,
    invisible,
    listing_rule,
    normalized,
    predict,
    render,
    width,
)

CLAUDE = listing_rule("claude")
# (description as written, as claude 2.1.332 listed it): measured with the real CLI.
MEASURED = [
    ("a\u200bb", "a b"),
    ("a\tb", "a b"),
    ("a\u0007b", "a b"),
    ("a\u200db", "a b"),
    ("a\u2028b", "a b"),
    ("a\u200b\u200bb", "a b"),
    ("a \u200b b", "a   b"),
    ("a\n\nb", "a b"),
    ("\u200bab", " ab"),
    ("a\ufe0fb", "a b"),
    ("a\ue000b", "a b"),
    ("a\u2800b", "a b"),
    ("a\u00a0b", "a\u00a0b"),
    ("a\u3000b", "a\u3000b"),
    ("a\u0301b", "a\u0301b"),
    ("a\U0001f469\u200d\U0001f4bbb", "a\U0001f469\u200d\U0001f4bbb"),
    ("a\u26a0\ufe0fb", "a\u26a0\ufe0fb"),
    ("1\ufe0f\u20e3", "1\ufe0f\u20e3"),
    ("  ab  ", "ab"),
    ("\u00a0ab\u3000", "ab"),
    ("line one\nline two\n", "line one line two"),
    ("a <tag> & b", "a &lt;tag&gt; & b"),
]


@pytest.mark.parametrize(("written", "listed"), MEASURED)
def test_claude_cleans_a_description_as_measured(written: str, listed: str) -> None:
    assert normalized(CLAUDE, written) == listed


@given(st.text())
def test_blanking_leaves_no_run_of_invisible_characters_outside_an_emoji(text: str) -> None:
    out = blanked(text)
    bare = [char for char in out if invisible(char) and ord(char) not in (0x200D, 0xFE0F, 0x20E3)]
    assert all(0xE0020 <= ord(char) < 0xE0080 for char in bare)  # only an emoji's tag glue stays


@given(st.text(alphabet=st.sampled_from(["a", " ", "\u200b", "\t", "\n", "\u2060"])))
def test_each_run_of_invisible_characters_becomes_one_space(text: str) -> None:
    expected, in_run = [], False
    for char in text:
        if char == "a" or char == " ":
            expected.append(char)
            in_run = False
        elif not in_run:
            expected.append(" ")
            in_run = True
    assert blanked(text) == "".join(expected)


def catalog(count: int) -> list[tuple[str, str]]:
    return [(f"skill-{n:02d}", "w" * 1000) for n in range(count)]


def test_past_the_budget_a_skill_never_used_loses_its_description_in_listing_order() -> None:
    listing = predict(CLAUDE, catalog(40), "claude-opus-5-5")
    short = [skill.name for skill in listing.skills if skill.state == NAME_ONLY]
    assert short == [f"skill-{n:02d}" for n in range(29, 40)]


def test_a_used_skill_keeps_its_description_before_the_never_used_ones() -> None:
    usage = {"skill-39": 2.0, "skill-38": 1.0}  # claude's score: uses, decayed by age
    listing = predict(CLAUDE, catalog(40), "claude-opus-5-5", usage=usage)
    short = [skill.name for skill in listing.skills if skill.state == NAME_ONLY]
    assert short == [f"skill-{n:02d}" for n in range(27, 38)]  # the two used ones kept, two others not
    assert render(listing).splitlines()[39].startswith("- skill-39: www")


def test_a_later_shorter_description_still_fits_after_a_longer_one_did_not() -> None:
    skills = [*catalog(29), ("skill-29", "w" * 1000), ("skill-30", "short")]
    states = {skill.name: skill.state for skill in predict(CLAUDE, skills, "claude-opus-5-5").skills}
    assert states["skill-29"] == NAME_ONLY and states["skill-30"] == "full"


def test_claude_cleans_a_description_before_its_cap_cuts_it() -> None:
    """Measured: the 1,536-unit cap counts the cleaned text, entities and blanked runs included."""
    assert capped(CLAUDE, "<b> " + "w" * 1600) == "&lt;b&gt; " + "w" * 1525 + "…"
    assert capped(CLAUDE, "a\u200b\u200b\u200bb" + "w" * 1600) == "a b" + "w" * 1532 + "…"


NAMES = st.text(alphabet="abc-", min_size=1, max_size=4)


@given(
    st.sampled_from(["claude", "copilot", "codex", "gemini", "opencode"]),
    st.dictionaries(NAMES, st.text(alphabet="ab \u200b", max_size=40_000 // 8), max_size=12),
    NAMES,
)
def test_state_of_answers_what_a_walk_of_the_listing_finds(runtime: str, room: dict, asked: str) -> None:
    """The listing's index by name agrees with walking its entries, for names listed or not."""
    listing = predict(listing_rule(runtime), sorted(room.items()))
    walked = next((skill.state for skill in listing.skills if skill.name == asked), None)
    assert listing.state_of(asked) == walked
    assert asked in room or walked is None


@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=127)))
def test_printable_ascii_has_nothing_to_blank_and_the_rest_goes_through_the_grapheme_walk(text: str) -> None:
    """blanked() returns printable ASCII as it is, without loading wcwidth: none of it is invisible."""
    if text.isprintable():
        assert blanked(text) == text and not any(invisible(char) for char in text)
    else:  # a control character: blanked as the walk does
        assert blanked(text) != text


@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126)))
def test_printable_ascii_is_one_column_a_character_as_wcwidth_measures_it(text: str) -> None:
    import wcwidth

    assert width(text) == len(text) == wcwidth.width(text)


@given(
    st.text(alphabet=st.characters(codec="utf-8"))
    | st.text(alphabet="a \u200d\ufe0f\u20e3\U0001f600\u00ad\t\U000e0041")
)
def test_a_text_without_invisible_characters_is_returned_as_the_walk_would(text: str) -> None:
    """blanked() skips the grapheme walk (and wcwidth) when no character is invisible: the walk changes
    only invisible characters, so it would give the text back unchanged."""
    assert blanked(text) == blanked_by_graphemes(text)


ONE_COLUMN_TEXT = st.text(
    alphabet=st.one_of(
        st.characters(min_codepoint=0x20, max_codepoint=0x7E),
        st.characters(min_codepoint=0xA0, max_codepoint=0x24F),
        st.characters(min_codepoint=0x2010, max_codepoint=0x2027),
        st.characters(min_codepoint=0x2030, max_codepoint=0x205E),
    )
)


@given(ONE_COLUMN_TEXT | st.text())
def test_width_measured_without_wcwidth_is_what_wcwidth_measures(text: str) -> None:
    """width() counts the characters it knows to be one column each; anything else goes to wcwidth."""
    import wcwidth

    assert width(text) == max(0, wcwidth.width(text))


def test_every_character_width_counts_as_one_column_is_one_column_to_wcwidth() -> None:
    import wcwidth

    from harness.model.listing import ONE_COLUMN

    counted = [chr(point) for point in range(0x110000) if ONE_COLUMN.fullmatch(chr(point))]
    assert counted and [char for char in counted if wcwidth.width(char) != 1] == []
