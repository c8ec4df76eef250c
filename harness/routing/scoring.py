"""What a lexical score is made of and what it reports: a text's unit vector, and a skill's match.

Shared by the pure definition of the scores (vectors) and their compiled form (blocks), so that
neither imports the other's module for its types.
"""

from __future__ import annotations

from dataclasses import dataclass

# The words two texts share, as many as a match lists (the heaviest in the score first).
SHARED_SHOWN = 8


@dataclass(frozen=True)
class Match:
    """One skill's score for a text, and the words both held, the heaviest first."""

    skill: str
    score: float
    shared: tuple[str, ...]


@dataclass
class Vector:
    weights: dict[str, float]  # stem -> weight, the vector of unit length
    words: dict[str, str]  # stem -> the first word written for it
