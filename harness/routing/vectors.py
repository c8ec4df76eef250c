"""TF-IDF vectors of what an agent sees of each skill (its name and description), compared by cosine.

The one representation behind lexical routing (a prompt ranked against every skill) and the
description-collision check (every two skills compared). Pure and deterministic: same text, same
scores, on every platform.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from harness.routing.scoring import SHARED_SHOWN, Vector
from harness.routing.terms import Analyzer

if TYPE_CHECKING:
    from harness.routing.blocks import Postings, ScoreBlock

IDF_PLACES = 12
# How many times a skill's name counts beside its description. Measured on a public catalog's own cases
# (docs/benchmarks.md, lexical_peer_bench.py): 1 lost six prompts whose skill only its name described.
NAME_WEIGHT = 3
# Floating-point slack when a bound decides whether a pair can still reach a threshold.
SLACK = 1e-9


@dataclass(frozen=True)
class Pair:
    first: str
    second: str
    score: float
    shared: tuple[str, ...]


def document_text(name: str, description: str) -> str:
    """What an agent reads about a skill before it chooses: the name's words, then the description."""
    return f"{name} {description}"


def ranked_text(name: str, description: str) -> str:
    """A skill as a prompt is ranked against it: its name counting NAME_WEIGHT times, then its description.

    The name heads each entry of a listing and is the one part every listing keeps; the words of a
    hyphenated name ("test-driven-development") are often the only ones naming the skill's job. Two
    descriptions are compared (description-collision) with the name counted once: names always differ.
    """
    return " ".join([name] * NAME_WEIGHT + [description])


class Index:
    """Every skill of a room as a unit TF-IDF vector, with the inverted lists a ranking walks."""

    def __init__(self, documents: Mapping[str, str], analyzer: Analyzer | None = None):
        self.analyzer = analyzer or Analyzer()
        self.names = sorted(documents)
        counts = {name: self.analyzer.counts(documents[name]) for name in self.names}
        self.document_frequency: Counter[str] = Counter()
        for counted, _ in counts.values():
            self.document_frequency.update(counted.keys())
        self.idfs = {stem: self.idf(stem) for stem in self.document_frequency}
        self.unseen_idf = self.idf("")  # every word no skill holds weighs the same; none holds ""
        self.vectors = {name: self._vector(*counts[name]) for name in self.names}
        self.columns = {name: column for column, name in enumerate(self.names)}
        self._postings: Postings | None = None

    def idf(self, stem: str) -> float:
        """Smoothed, so a word every skill holds still weighs 1 and two identical descriptions score 1.

        Rounded: `log` may differ in its last bit between platforms; every later step is exact IEEE
        arithmetic in a fixed order, so the same text gets the same scores and ranks everywhere.
        """
        return round(math.log((1 + len(self.names)) / (1 + self.document_frequency[stem])) + 1, IDF_PLACES)

    def score_block(self, texts: list[str]) -> ScoreBlock:
        """Each text's cosine with every skill, one row per text and one column per name."""
        from harness.routing.blocks import ScoreBlock

        return ScoreBlock(self.postings(), [self.vector(text) for text in texts])

    def postings(self) -> Postings:
        """The arrays a ranking walks, built once, on first use (the collision check never needs numpy)."""
        from harness.routing.blocks import Postings

        if self._postings is None:
            self._postings = Postings(self.names, self.vectors)
        return self._postings

    def vector(self, text: str) -> Vector:
        return self._vector(*self.analyzer.counts(text))

    def shared(self, query: Vector, name: str) -> tuple[str, ...]:
        """Words `query` and skill `name` both hold, heaviest in the score first, as `query` wrote them."""
        weights = self.vectors[name].weights
        common = sorted(
            (-weight * weights[stem], stem) for stem, weight in query.weights.items() if stem in weights
        )
        written = query.words
        return tuple(written[stem] for _, stem in common[:SHARED_SHOWN])

    def similar_pairs(self, threshold: float) -> list[Pair]:
        """Every two skills whose cosine reaches `threshold` (0 < threshold <= 1), by name.

        Only candidate pairs are scored: with words ordered rarest first, two vectors that reach the
        threshold share a word early enough that the rest of either vector could not reach it alone.
        """
        order = {stem: (count, stem) for stem, count in self.document_frequency.items()}
        seen: dict[str, list[str]] = {}
        candidates: set[tuple[str, str]] = set()
        for name in self.names:
            for stem in self._prefix(self.vectors[name].weights, order, threshold):
                for other in seen.setdefault(stem, []):
                    candidates.add((other, name))
                seen[stem].append(name)
        pairs = []
        for first, second in sorted(candidates):
            score = self._dot(first, second)
            if score >= threshold - SLACK:
                shared = self.shared(self.vectors[first], second)
                pairs.append(Pair(first, second, score, shared))
        return pairs

    def _prefix(self, weights: dict[str, float], order: dict, threshold: float) -> list[str]:
        """The rarest words of a vector, up to where the remaining ones weigh less than `threshold`."""
        stems = sorted(weights, key=order.__getitem__)
        remaining = 1.0
        prefix = []
        for stem in stems:
            if math.sqrt(max(remaining, 0.0)) < threshold - SLACK:
                break
            prefix.append(stem)
            remaining -= weights[stem] ** 2
        return prefix

    def _dot(self, first: str, second: str) -> float:
        a, b = self.vectors[first].weights, self.vectors[second].weights
        if len(b) < len(a):
            a, b = b, a
        return math.fsum(weight * b[stem] for stem, weight in a.items() if stem in b)

    def _vector(self, counted: dict[str, int], words: dict[str, str]) -> Vector:
        known, unseen = self.idfs.get, self.unseen_idf
        weights = {stem: count * known(stem, unseen) for stem, count in counted.items()}
        # fsum: exactly rounded, so the norm is the same double on every Python (3.12's sum compensates)
        norm = math.sqrt(math.fsum(w * w for w in weights.values()))
        return Vector({stem: w / norm for stem, w in weights.items()} if norm else {}, words)
