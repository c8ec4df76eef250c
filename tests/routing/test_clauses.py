"""harness/routing/clauses.py: a skill's nearest neighbour, scored over the skills that share a word."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.routing.clauses import Distinctions
from tests.support.examples import examples

WORDS = ["parse", "pdf", "table", "chart", "deploy", "docker", "review", "commit", "test", "spec", "slide"]
descriptions = st.lists(st.sampled_from(WORDS), min_size=0, max_size=6).map(" ".join)
catalogs = st.dictionaries(st.sampled_from([f"s{n}" for n in range(8)]), descriptions, min_size=1, max_size=8)


def every_other_scored(known: Distinctions, name: str) -> tuple[str, float] | None:
    """The neighbour as one full scan finds it: every other skill's cosine, the first by name among
    equals."""
    mine = known.index.vectors[name].weights
    best: tuple[float, str] | None = None
    for other in known.index.names:
        if other != name:
            theirs = known.index.vectors[other].weights
            score = sum(weight * theirs.get(stem, 0.0) for stem, weight in mine.items())
            if best is None or score > best[0]:
                best = (score, other)
    return (best[1], best[0]) if best else None


@settings(max_examples=examples(200), deadline=None)
@given(catalogs)
def test_the_nearest_neighbour_is_the_one_a_full_scan_finds(catalog: dict[str, str]) -> None:
    known = Distinctions(catalog)
    for name in catalog:
        assert known.nearest(name) == every_other_scored(known, name)
        assert known.nearest(name) == every_other_scored(known, name)  # asked again: the kept answer


@settings(max_examples=examples(100), deadline=None)
@given(catalogs)
def test_the_nearest_neighbour_is_the_same_scored_in_small_blocks(catalog: dict[str, str]) -> None:
    """A large catalog is scored a block of rows at a time: each block's own skill sits at its offset."""
    from harness.routing import blocks  # imports numpy: when a test runs, not at collection

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(blocks, "CELLS_PER_BLOCK", 10)  # two or three skills a block, for eight skills
        known = Distinctions(catalog)
        for name in catalog:
            assert known.nearest(name) == every_other_scored(known, name)


def test_a_skill_sharing_no_word_gets_the_first_other_at_zero() -> None:
    known = Distinctions({"beta": "parse pdf", "alpha": "deploy docker", "gamma": "chart slide"})
    assert known.nearest("gamma") == ("alpha", 0.0)
    assert Distinctions({"alone": "parse pdf"}).nearest("alone") is None
