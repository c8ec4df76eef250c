"""Words to stems: case, punctuation, stop words and Snowball stems."""

from __future__ import annotations

from pathlib import Path

import snowballstemmer
import Stemmer
from hypothesis import given, settings
from hypothesis import strategies as st
from snowballstemmer.english_stemmer import EnglishStemmer

from harness.routing.terms import MIN_LENGTH, STOP_WORDS, WORD, Analyzer


def test_words_are_lower_cased_split_on_punctuation_and_stemmed():
    assert Analyzer().terms("Merging PDF-files: merged, MERGES!") == ["merg", "pdf", "file", "merg", "merg"]


def test_stop_words_boilerplate_and_single_characters_carry_no_meaning():
    assert Analyzer().terms("Use this skill when the user asks for a x") == []


def test_each_stem_keeps_the_word_as_written():
    assert Analyzer().words("Profiles the CSV") == [("profil", "profiles"), ("csv", "csv")]


def test_letters_of_any_script_and_digits_are_words():
    assert Analyzer().terms("Résumé in S3, version 2") == ["résumé", "s3", "version"]


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


@settings(derandomize=True, max_examples=500)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyzéü'", min_size=2, max_size=14))
def test_the_c_and_pure_python_stemmers_agree_on_any_word(word):
    assert Stemmer.Stemmer("english").stemWord(word) == EnglishStemmer().stemWord(word)
