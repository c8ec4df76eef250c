"""The clauses that tell a skill from its nearest neighbour, in the lexical engine's terms: the neighbour
is the skill whose TF-IDF vector is closest, the distinguishing terms are the heaviest stems of the
skill's description that the neighbour's text lacks, and a clause is the stretch of the description
between punctuation that holds one of them.

When a listing cuts a description, a clause past the cut whose terms appear nowhere before it is a
distinction the agent's model never reads: the two skills then look alike to it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from harness.routing.terms import Analyzer
from harness.routing.vectors import Index, document_text

TERMS = 3  # distinguishing terms looked for, heaviest first
# Where a clause ends: sentence and clause punctuation, a dash between words, a bracket.
BOUNDARY = re.compile(r"[.;:!?()\[\]]\s*|,\s+|\s+[-\u2013\u2014]\s+")
SHOWN = 100  # characters of a clause a message quotes


@dataclass(frozen=True)
class Clause:
    text: str
    start: int  # character offsets in the text looked at
    end: int
    terms: tuple[str, ...]  # the distinguishing words it holds, as written


@dataclass(frozen=True)
class Distinction:
    """What sets `skill` apart from `neighbour`, and where in its description it is said."""

    skill: str
    neighbour: str
    similarity: float
    terms: tuple[str, ...]  # stems
    clauses: tuple[Clause, ...]


class Distinctions:
    """One catalog indexed once; `of(name, text)` says what sets a skill apart as `text` words it."""

    def __init__(self, described: Mapping[str, str]):
        self.index = Index({name: document_text(name, text) for name, text in described.items()})
        self.neighbours: dict[str, tuple[str, float]] | None = None

    def nearest(self, name: str) -> tuple[str, float] | None:
        """The other skill of highest cosine, the first by name among equals (any other when none shares
        a word). A large catalog asks it of most of its skills, so all are scored at once on first ask."""
        if self.neighbours is None:
            self.neighbours = self.every_nearest()
        return self.neighbours.get(name)

    def every_nearest(self) -> dict[str, tuple[str, float]]:
        """Each skill's nearest other, scored a block of skills against the catalog at a time (the
        lexical engine's arithmetic: the same doubles as adding each product in word order)."""
        import numpy as np

        from harness.routing.blocks import ScoreBlock, block_rows

        names, postings = self.index.names, self.index.postings()
        found: dict[str, tuple[str, float]] = {}
        if len(names) < 2:
            return found
        step = block_rows(len(names))
        for start in range(0, len(names), step):
            block = names[start : start + step]
            scores = ScoreBlock(postings, [self.index.vectors[name] for name in block]).matrix
            rows = np.arange(len(block))
            scores[rows, rows + start] = -np.inf  # a skill is not its own neighbour
            best = scores.argmax(axis=1)  # the first column, so the first name, among equals
            for row, name in enumerate(block):
                found[name] = (names[best[row]], float(scores[row, best[row]]))
        return found

    def of(self, name: str, text: str) -> Distinction | None:
        """What sets `name` apart from its nearest neighbour, located in `text` (its description as
        the agent lists it in full); None when it has no neighbour or no word of its own."""
        found = self.nearest(name)
        if found is None:
            return None
        neighbour, similarity = found
        analyzer = self.index.analyzer
        theirs = self.index.vectors[neighbour].weights
        named = set(analyzer.counts(name)[0])  # the name is always listed: its words are never lost
        counted, _ = analyzer.counts(text)
        weights = self.index.vectors[name].weights
        own = sorted(
            (stem for stem in counted if stem not in theirs and stem not in named),
            key=lambda stem: (-weights.get(stem, 0.0), stem),
        )[:TERMS]
        if not own:
            return None
        located = tuple(
            Clause(text[start:end].strip(), start, end, tuple(words[s] for s in stems if s in own))
            for (start, end), stems, words in split(text, analyzer)
            if set(stems) & set(own)
        )
        return Distinction(name, neighbour, similarity, tuple(own), located)

    def lost(self, distinction: Distinction, shown: str) -> list[Clause]:
        """The clauses a cut to `shown` loses whole: each begins past the cut and none of its
        distinguishing words survives anywhere in what is shown."""
        kept = set(self.index.analyzer.counts(shown)[0])
        stem = self.index.analyzer.stem
        return [
            clause
            for clause in distinction.clauses
            if clause.start >= len(shown) and not any(stem(word.casefold()) in kept for word in clause.terms)
        ]


def split(text: str, analyzer: Analyzer) -> list[tuple[tuple[int, int], list[str], dict[str, str]]]:
    """Each clause of `text`: its span, its stems in order, and the word first written for each."""
    out = []
    start = 0
    for match in [*BOUNDARY.finditer(text), None]:
        end = match.start() if match else len(text)
        piece = text[start:end]
        if piece.strip():
            counted, first = analyzer.counts(piece)
            lead = len(piece) - len(piece.lstrip())
            out.append(((start + lead, end), list(counted), first))
        start = match.end() if match else len(text)
    return out


def quoted(clause: Clause) -> str:
    text = " ".join(clause.text.split())
    return text if len(text) <= SHOWN else text[: SHOWN - 1].rstrip() + "…"
