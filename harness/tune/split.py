"""The cases of one tuning run, split into train, validation and final, stratified and seeded.

A case is a positive of the tuned skill when it expects that skill to fire; every other case of the room
(a neighbour's positive, any near miss, a shared negative) is one of its negatives, since the skill must
stay quiet there. Each stratum is shuffled on its own, so every part holds both kinds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from harness.errors import UsageError
from harness.model.dataset import Case

TRAIN, VALIDATION, FINAL = "train", "validation", "final"
PARTS = (TRAIN, VALIDATION, FINAL)
POSITIVE, NEGATIVE = "positive", "negative"
# Shares of each stratum; train takes what the other two leave.
SHARES = {VALIDATION: 0.35, FINAL: 0.25}
# Fewer than this many cases of a kind in a part, and its score moves by half a point per case.
MIN_PER_PART = 2
WHAT = {
    POSITIVE: "positive case(s) (prompts that should fire it)",
    NEGATIVE: "negative case(s) (prompts where it must stay quiet)",
}


@dataclass(frozen=True)
class Split:
    seed: int
    skill: str
    parts: dict[str, list[Case]]  # part -> its cases, the two kinds interleaved, each in shuffled order

    def kind(self, case: Case) -> str:
        return POSITIVE if case.expected_skill == self.skill else NEGATIVE

    def counts(self) -> dict[str, dict[str, int]]:
        return {
            part: {kind: sum(1 for c in cases if self.kind(c) == kind) for kind in (POSITIVE, NEGATIVE)}
            for part, cases in self.parts.items()
        }

    def to_json(self) -> dict:
        return {
            "seed": self.seed,
            "shares": {TRAIN: round(1 - sum(SHARES.values()), 2), **SHARES},
            "min_per_part": MIN_PER_PART,
            "counts": self.counts(),
            "cases": {part: [c.id for c in cases] for part, cases in self.parts.items()},
        }


def stratum(cases: list[Case], skill: str, kind: str) -> list[Case]:
    return [c for c in cases if (c.expected_skill == skill) == (kind == POSITIVE)]


def sizes(n: int) -> dict[str, int]:
    """How many of a stratum of `n` cases go to each part: at least MIN_PER_PART each."""
    validation = max(MIN_PER_PART, round(n * SHARES[VALIDATION]))
    final = max(MIN_PER_PART, round(n * SHARES[FINAL]))
    return {TRAIN: n - validation - final, VALIDATION: validation, FINAL: final}


def split(cases: list[Case], skill: str, seed: int, where: str = "") -> Split:
    """`cases` split for tuning `skill`; a UsageError naming how many more cases of which kind to write
    when a part would hold fewer than MIN_PER_PART of a kind. `where`: the skill's dataset, for the fix."""
    needed = MIN_PER_PART * len(PARTS)
    short = {
        kind: needed - len(stratum(cases, skill, kind))
        for kind in (POSITIVE, NEGATIVE)
        if len(stratum(cases, skill, kind)) < needed
    }
    if short:
        wanted = " and ".join(f"{more} more {WHAT[kind]}" for kind, more in short.items())
        raise UsageError(
            f"tune needs at least {needed} positive and {needed} negative cases for `{skill}` to split "
            f"them into train, validation and final; write {wanted} in {where or 'its evals/evals.json'}."
        )
    drawn: dict[str, dict[str, list[Case]]] = {part: {} for part in PARTS}
    for kind in (POSITIVE, NEGATIVE):
        # Sorted first, so the split depends on the seed and the cases, never on their order in files.
        ordered = sorted(stratum(cases, skill, kind), key=lambda c: c.id)
        random.Random(f"{seed}:{kind}").shuffle(ordered)
        start = 0
        for part, size in sizes(len(ordered)).items():
            drawn[part][kind] = ordered[start : start + size]
            start += size
    parts = {part: interleaved(kinds[POSITIVE], kinds[NEGATIVE]) for part, kinds in drawn.items()}
    return Split(seed, skill, parts)


def interleaved(first: list[Case], second: list[Case]) -> list[Case]:
    """Both lists merged evenly (each case at its share of the way through its list), so that any prefix,
    the cases one look of the early stop grades, holds both kinds in about their proportion."""
    placed = [((i + 0.5) / len(first), 0, c) for i, c in enumerate(first)]
    placed += [((i + 0.5) / len(second), 1, c) for i, c in enumerate(second)]
    return [case for _, _, case in sorted(placed, key=lambda item: item[:2])]
