"""Words to stems: case, punctuation, stop words and Snowball stems."""

from __future__ import annotations

from harness.routing.terms import Analyzer


def test_words_are_lower_cased_split_on_punctuation_and_stemmed():
    assert Analyzer().terms("Merging PDF-files: merged, MERGES!") == ["merg", "pdf", "file", "merg", "merg"]


def test_stop_words_boilerplate_and_single_characters_carry_no_meaning():
    assert Analyzer().terms("Use this skill when the user asks for a x") == []


def test_each_stem_keeps_the_word_as_written():
    assert Analyzer().words("Profiles the CSV") == [("profil", "profiles"), ("csv", "csv")]


def test_letters_of_any_script_and_digits_are_words():
    assert Analyzer().terms("Résumé in S3, version 2") == ["résumé", "s3", "version"]
