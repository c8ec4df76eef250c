"""Three rules skip their pattern where a cheap test proves it cannot match: hidden-unicode on ASCII-only
text (every character it looks for lies outside ASCII), padding on text without enough line ends or
blanks, encoded-payload's long-word search on text none of whose whitespace-separated words holds a run
that long. Skipping must never change a finding: with and without the test, each finds the same in any
text, and the pattern is not run where it is skipped."""

from __future__ import annotations

from pathlib import Path
from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

from harness.checks.security import encoded, hidden_unicode, padding
from harness.checks.security.content import SkillContent, TextFile
from harness.model.skill import Skill

SUSPECTS = "\u200b\u200d\u202e\u2066\ufe0f\ufeff\ue000\U000e0041\U000e0100"
TEXTS = st.text(
    alphabet=st.sampled_from(["a", "b", " ", "\t", "\n", "\r", "\f", "\v", "é", "👍", *SUSPECTS]),
    max_size=300,
)


def content_of(text: str) -> SkillContent:
    read = SkillContent(skill=Skill(name="s", path=Path("s")), rel="s", skill_md="s/SKILL.md")
    read.texts.append(TextFile(rel="s/notes.md", name="notes.md", text=text))
    return read


@settings(max_examples=300, deadline=None)
@given(text=TEXTS)
def test_hidden_unicode_finds_what_a_scan_of_every_text_finds(text):
    read = content_of(text)
    every = [
        f for t in read.texts if t.search(hidden_unicode.SUSPECT) for f in hidden_unicode.in_file(read, t)
    ]
    assert hidden_unicode.scan(content_of(text)) == every


def test_hidden_unicode_runs_no_pattern_over_ascii_text():
    read = content_of("plain ascii text\n" * 50)
    assert hidden_unicode.scan(read) == [] and not read.texts[0].seen.first


@settings(max_examples=300, deadline=None)
@given(
    head=TEXTS,
    blanks=st.sampled_from(
        ["", "\n" * 199, "\n" * 201, "\n \n" * 201, " " * 1999, " \t" * 1000, "\v" * 2000]
    ),
    tail=TEXTS,
)
def test_padding_finds_what_its_pattern_finds_everywhere(head, blanks, tail):
    text = head + blanks + tail
    assert padding.could_pad(text) or padding.RUN.search(text) is None
    with patch.object(padding, "could_pad", lambda text: True):  # the pattern run over every text
        everywhere = padding.scan(content_of(text))
    assert padding.scan(content_of(text)) == everywhere


def test_padding_runs_no_pattern_over_short_text():
    read = content_of("a short page\n\nwith two lines\n")
    assert padding.scan(read) == [] and not read.texts[0].seen.found


# Whitespace as str.split and the pattern's `\\s` read it, beyond ASCII, and the characters that end a word.
WORD_BREAKS = [
    " ",
    "\t",
    "\n",
    "\x1c",
    "\x85",
    "\xa0",
    "\u2028",
    "\u3000",
    "\u200b",
    '"',
    "(",
    "]",
    ",",
    "|",
    ":",
]


@settings(max_examples=500, deadline=None)
@given(
    parts=st.lists(
        st.one_of(
            st.sampled_from(WORD_BREAKS),
            st.integers(min_value=1, max_value=70).map(lambda n: "x" * n),
            st.text(
                alphabet=st.sampled_from(["a", "Z", "9", "+", "/", "=", "-", "é", *WORD_BREAKS]), max_size=80
            ),
        ),
        max_size=12,
    )
)
def test_a_text_skipped_for_long_words_holds_none(parts):
    text = "".join(parts)
    assert encoded.may_hold_long_word(text) == bool(encoded.LONG_WORD.search(text))
    with patch.object(encoded, "may_hold_long_word", lambda text: True):  # the pattern over every text
        everywhere = encoded.scan(content_of(text))
    assert encoded.scan(content_of(text)) == everywhere


def test_encoded_runs_no_long_word_search_over_prose():
    read = content_of(
        "plain prose, with [a link](references/a-rather-long-file-name.md#and-a-long-anchor)\n" * 20
    )
    assert encoded.scan(read) == [] and not read.texts[0].seen.found
