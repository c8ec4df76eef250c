"""Rules skip their pattern where a cheap test proves it cannot match: hidden-unicode on ASCII-only
text (every character it looks for lies outside ASCII), padding on text without enough line ends or
blanks, encoded-payload's long-word search on text none of whose whitespace-separated words holds a run
that long, hidden-directive's parse on text without markup, and every cued pattern on text without its
cues (searched in the text's distinct words). Skipping must never change a finding: with and without the
test, each finds the same in any text, and the pattern is not run where it is skipped."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import harness.checks.security as security
from harness.checks.security import encoded, hidden_directive, hidden_unicode, padding, phrases
from harness.checks.security.content import SkillContent, TextFile, folded
from harness.model.skill import Skill
from tests.support.examples import examples

SUSPECTS = "\u200b\u200d\u202e\u2066\ufe0f\ufeff\ue000\U000e0041\U000e0100"
TEXTS = st.text(
    alphabet=st.sampled_from(["a", "b", " ", "\t", "\n", "\r", "\f", "\v", "é", "👍", *SUSPECTS]),
    max_size=300,
)


def content_of(text: str) -> SkillContent:
    read = SkillContent(skill=Skill(name="s", path=Path("s")), rel="s", skill_md="s/SKILL.md")
    read.texts.append(TextFile(rel="s/notes.md", name="notes.md", text=text))
    return read


@settings(max_examples=examples(300), deadline=None)
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


@settings(max_examples=examples(300), deadline=None)
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


@settings(max_examples=examples(500), deadline=None)
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
    assert encoded.may_hold_long_word(text.split()) == bool(encoded.LONG_WORD.search(text))
    with patch.object(encoded, "may_hold_long_word", lambda words: True):  # the pattern over every text
        everywhere = encoded.scan(content_of(text))
    assert encoded.scan(content_of(text)) == everywhere


def test_encoded_runs_no_long_word_search_over_prose():
    read = content_of(
        "plain prose, with [a link](references/a-rather-long-file-name.md#and-a-long-anchor)\n" * 20
    )
    assert encoded.scan(read) == [] and not read.texts[0].seen.found


def cue_lists() -> dict[str, tuple[str, ...]]:
    """Every cue list of the pack: the modules' `*CUES` tuples and the phrase patterns' cues."""
    found = {f"phrases.CUED[{at}]": cues for at, (_, cues) in enumerate(phrases.CUED)}
    for module in pkgutil.iter_modules(security.__path__):
        loaded = importlib.import_module(f"{security.__name__}.{module.name}")
        found |= {
            f"{module.name}.{name}": value for name, value in vars(loaded).items() if name.endswith("CUES")
        }
    return found


CUE_LISTS = cue_lists()
# Cue words in any case, whitespace str.split reads beyond ASCII, and characters whose lowercase differs
# in length or form (İ, Σ), so the words' split and lowercasing meet every case the plain search meets.
CUE_TEXTS = st.lists(
    st.one_of(
        st.sampled_from(sorted({cue for cues in CUE_LISTS.values() for cue in cues})).flatmap(
            lambda cue: st.sampled_from([cue, cue.upper(), cue.title(), cue[:-1], cue[1:]])
        ),
        # a cue cut in two by whitespace: its halves are words, and the cue is not in the text
        st.sampled_from(sorted({cue for cues in CUE_LISTS.values() for cue in cues if len(cue) > 1})).flatmap(
            lambda cue: st.integers(1, len(cue) - 1).map(lambda at: f"{cue[:at]} {cue[at:]}")
        ),
        st.sampled_from(
            [" ", "\n", "\t", "\x1c", "\x85", "\xa0", "\u2028", "\u3000", "İ", "Σ", "ſ", "K", "|", "-"]
        ),
        st.text(alphabet="aeiosk_-. |", max_size=4),
    ),
    max_size=12,
).map("".join)


@pytest.mark.parametrize("name", sorted(CUE_LISTS))
@settings(max_examples=examples(100), deadline=None)
@given(text=CUE_TEXTS)
def test_a_cue_is_found_in_the_words_exactly_when_in_the_text(name, text):
    cues = CUE_LISTS[name]
    assert TextFile(rel="s/a.md", name="a.md", text=text).holds_any(cues) == any(
        cue in " ".join(folded(text).split()) for cue in cues
    )


def test_a_cue_cut_by_whitespace_is_not_found():
    for text in ("ign ore", "ore ign", "ign\u2028ore ign"):
        assert not TextFile(rel="s/a.md", name="a.md", text=text).holds_any(("ignore",))
    assert TextFile(rel="s/a.md", name="a.md", text="we no\tlonger, no longer").holds_any(("no longer",))


def test_the_pack_has_cue_lists_with_and_without_whitespace():
    cues = {cue for listed in CUE_LISTS.values() for cue in listed}
    assert len(CUE_LISTS) >= 8 and any(" " in cue for cue in cues) and any(" " not in cue for cue in cues)


# What hidden-directive parses: a comment, an image, or a link with a title, as one pattern.
MARKUP = re.compile(r"<!--|!\[|\]\([^)\n]*\s[\"'(]")


@settings(max_examples=examples(300), deadline=None)
@given(
    text=st.lists(
        st.sampled_from(["<!--", "<", "!", "-", "[", "]", "(", ")", "]( ", " ", "\n", '"', "'", "a"]),
        max_size=30,
    ).map("".join)
)
def test_hidden_directive_parses_what_its_markup_pattern_finds(text):
    assert hidden_directive.may_hide(text) == bool(MARKUP.search(text))
