"""Text to terms for the lexical engine: lower-cased words, stop words dropped, Snowball stems.

One Analyzer serves one run: it memoizes each word's stem, since a catalog repeats its words
thousands of times and stemming is the costly step.
"""

from __future__ import annotations

import enum
import re

# Letters and digits of any script; `_`, `-` and punctuation split words ("pdf-tools" is two).
WORD = re.compile(r"[^\W_]+")
# Function words, and the boilerplate of a request ("when the user asks", "when Claude needs to"): they say
# nothing about which skill a prompt belongs to. Words naming a subject stay, however common: "skill" is
# the whole job of a skill that chooses skills, "test" of a testing skill; IDF already weighs them down.
STOP_TEXT = """
    a about above after again against all also am an and any are as at be because been before being
    below between both but by can could did do does doing done down during each either else etc even
    ever every few for from further get gets getting had has have having he her here hers him his how
    i if in into is it its itself just let lets like may me might more most much must my no nor not
    now of off on once one only or other our ours out over own per please same she should so some
    such than that the their theirs them then there these they this those through to too under until
    up upon us very via was we were what whatever when whenever where whether which while who whom
    whose why will with within without would yet you your yours yourself
    use used uses using user users want wants need needs ask asks asked claude
"""
STOP_WORDS = frozenset(STOP_TEXT.split())
MIN_LENGTH = 2


class Unseen(enum.Enum):
    """A word not stemmed yet (None is a stop word's stem); an enum, so a type checker narrows `is`."""

    WORD = "unseen"


UNSEEN = Unseen.WORD


class Analyzer:
    """Turns text into stems; not shared between threads (the Snowball stemmer keeps state)."""

    def __init__(self) -> None:
        import snowballstemmer  # on first use: it loads every language's stemmer, and memoized runs need none

        self._stemmer = snowballstemmer.stemmer("english")
        self._stems: dict[str, str | None] = {}

    def counts(self, text: str) -> tuple[dict[str, int], dict[str, str]]:
        """Each stem of `text` that carries meaning with its count, and the word first written for it
        (lower-cased), both in order of first use."""
        counted: dict[str, int] = {}
        first: dict[str, str] = {}
        stems = self._stems
        for written in WORD.findall(text):
            word = written.casefold()
            stem = stems.get(word, UNSEEN)
            if stem is UNSEEN:
                stem = self.stem(word)
            if stem is None:
                continue
            if stem in counted:
                counted[stem] += 1
            else:
                counted[stem] = 1
                first[stem] = word
        return counted, first

    def stem(self, word: str) -> str | None:
        """The word's stem, or None for a stop word or a single character."""
        stem = None
        if len(word) >= MIN_LENGTH and word not in STOP_WORDS:
            stem = self._stemmer.stemWord(word)
        self._stems[word] = stem
        return stem
