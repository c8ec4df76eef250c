"""Words to stems: case, punctuation, stop words and Snowball stems."""

from __future__ import annotations

from pathlib import Path

import snowballstemmer
import Stemmer
from hypothesis import given, settings
from hypothesis import strategies as st
from snowballstemmer.english_stemmer import EnglishStemmer

from harness.routing.terms import MIN_LENGTH, STOP_WORDS, WORD, Analyzer
from tests.support.examples import examples


def test_words_are_lower_cased_split_on_punctuation_stemmed_and_counted_in_order_of_first_use():
    counted, first = Analyzer().counts("Merging PDF-files: merged, MERGES!")
    assert list(counted.items()) == [("merg", 3), ("pdf", 1), ("file", 1)]
    assert first == {"merg": "merging", "pdf": "pdf", "file": "files"}


def test_stop_words_boilerplate_and_single_characters_carry_no_meaning():
    assert Analyzer().counts("Use this when the user asks for a x; Claude needs it") == ({}, {})


# Words that name what a skill is about: a stop list that held one would blind the engine to the skills
# whose job that word is ("which skill should handle this" belongs to a skill that chooses skills).
SUBJECT_WORDS = ("skill", "skills", "test", "tests", "agent", "agents", "tool", "tools", "ci", "ui", "api")


def test_words_naming_a_subject_are_kept_however_common():
    assert not STOP_WORDS.intersection(SUBJECT_WORDS)
    counted, first = Analyzer().counts("Which skill should handle this? Add CI and UI tests")
    assert list(first.values()) == ["skill", "handle", "add", "ci", "ui", "tests"]
    assert counted["skill"] == 1


def test_each_stem_keeps_the_first_word_written_for_it():
    _, first = Analyzer().counts("Profiles the CSV, profiled")
    assert list(first.items()) == [("profil", "profiles"), ("csv", "csv")]


def test_letters_of_any_script_and_digits_are_words():
    counted, _ = Analyzer().counts("Résumé in S3, version 2")
    assert list(counted) == ["résumé", "s3", "version"]


# The C stemmer (PyStemmer, which snowballstemmer uses when it is installed) must stem as the pure-Python
# one does, or ranks would depend on what an install happened to include.
REPO = Path(__file__).resolve().parents[2]


def repo_vocabulary() -> set[str]:
    words: set[str] = set()
    for path in [REPO / "README.md", *(REPO / "docs").rglob("*.md"), *(REPO / "examples").rglob("*.md")]:
        words |= {match.group().casefold() for match in WORD.finditer(path.read_text(encoding="utf-8"))}
    return words


def test_the_c_stemmer_is_the_one_in_use_and_stems_the_docs_vocabulary_as_the_pure_python_one():
    assert isinstance(snowballstemmer.stemmer("english"), Stemmer.Stemmer)
    analyzer, reference = Analyzer(), EnglishStemmer()
    words = sorted(word for word in repo_vocabulary() if len(word) >= MIN_LENGTH and word not in STOP_WORDS)
    assert len(words) > 500
    assert [analyzer.stem(word) for word in words] == [reference.stemWord(word) for word in words]


@settings(derandomize=True, max_examples=examples(500))
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyzéü'", min_size=2, max_size=14))
def test_the_c_and_pure_python_stemmers_agree_on_any_word(word):
    assert Stemmer.Stemmer("english").stemWord(word) == EnglishStemmer().stemWord(word)
