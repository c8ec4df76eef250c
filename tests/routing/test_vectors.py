"""TF-IDF vectors over names and descriptions: rankings, ties, shared words and similar pairs."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.routing.vectors import NAME_WEIGHT, Index, document_text, ranked_text
from tests.support.examples import examples

ROOM = {
    "pdf-merge": "Merges PDF documents into one file, ordering pages by bookmark.",
    "csv-profile": "Profiles CSV tables: column types, missing values and outliers.",
    "slide-deck": "Builds presentation slides from an outline, with speaker notes.",
}


def index(room: dict[str, str] = ROOM) -> Index:
    return Index({name: document_text(name, text) for name, text in room.items()})


class Ranked:
    """One text's row of a score block, read by skill name."""

    def __init__(self, built: Index, text: str):
        self.built, self.block = built, built.score_block([text])

    def score(self, name: str) -> float:
        return self.block.scores_of([self.built.columns[name]])[0]

    def worst_rank(self, name: str) -> int:
        return self.block.worst_ranks([self.built.columns[name]])[0]

    def best_rank(self, name: str) -> int:
        return self.block.best_ranks([self.built.columns[name]])[0]

    def top(self, count: int):
        return self.block.tops(count)[0]

    @property
    def first(self) -> str | None:
        """The engine's pick: the best score above zero, ties by name."""
        top = self.top(1)
        return top[0].skill if top else None

    @property
    def scores(self) -> dict[str, float]:
        return {name: self.score(name) for name in self.built.names if self.score(name)}


def test_a_prompt_ranks_the_skill_whose_words_it_shares_first():
    ranking = Ranked(index(), "Profile the columns of this CSV")
    assert ranking.first == "csv-profile"
    assert ranking.worst_rank("csv-profile") == 1
    assert ranking.score("pdf-merge") == 0 and ranking.score("slide-deck") == 0
    top = ranking.top(3)
    assert [m.skill for m in top] == ["csv-profile"]
    assert 0 < top[0].score <= 1
    assert set(top[0].shared) == {"profile", "columns", "csv"}


def test_a_prompt_sharing_no_word_scores_zero_everywhere_and_picks_nothing():
    ranking = Ranked(index(), "Who broke the nightly job last Tuesday?")
    assert ranking.first is None and ranking.top(3) == []
    assert ranking.best_rank("pdf-merge") == 1
    assert ranking.worst_rank("pdf-merge") == len(ROOM)


def test_a_tie_is_read_against_the_case():
    twins = index({"alpha-job": "Renders invoices.", "beta-job": "Renders invoices."})
    ranking = Ranked(twins, "render the invoices")
    assert ranking.score("alpha-job") == ranking.score("beta-job") > 0
    assert ranking.best_rank("beta-job") == 1  # for a negative: it does rank first
    assert ranking.worst_rank("alpha-job") == 2  # for a positive: it is not alone in first place
    assert ranking.first == "alpha-job"  # what the engine would pick: ties by name


def test_words_every_skill_holds_still_count_so_identical_descriptions_score_one():
    twins = index({"alpha": "Renders invoices as PDF.", "beta": "Renders invoices as PDF."})
    [pair] = twins.similar_pairs(0.5)
    assert (pair.first, pair.second) == ("alpha", "beta")
    assert 0.5 < pair.score < 1  # the names differ
    assert set(pair.shared) == {"renders", "invoices", "pdf"}


def test_distinct_descriptions_are_not_a_pair():
    assert index().similar_pairs(0.05) == []


def test_the_same_text_gets_the_same_scores_whatever_order_the_room_is_given_in():
    reversed_room = dict(reversed(list(ROOM.items())))
    prompt = "merge the outline pages into slides"
    assert Ranked(index(), prompt).scores == Ranked(index(reversed_room), prompt).scores


def brute_force_pairs(built: Index, threshold: float) -> list[tuple[str, str]]:
    names = built.names
    out = []
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            a, b = built.vectors[first].weights, built.vectors[second].weights
            if sum(w * b.get(stem, 0.0) for stem, w in a.items()) >= threshold:
                out.append((first, second))
    return out


@pytest.mark.parametrize("threshold", [0.2, 0.5, 0.75])
def test_the_pruned_pair_search_finds_exactly_what_comparing_every_pair_finds(threshold: float):
    rng = random.Random(13)
    words = [f"word{n}" for n in range(12)]
    built = Index({f"skill-{n:02d}": " ".join(rng.choices(words, k=rng.randint(2, 8))) for n in range(60)})
    found = [(p.first, p.second) for p in built.similar_pairs(threshold)]
    assert found == brute_force_pairs(built, threshold)
    assert found  # the random room is dense enough that some pairs are similar


def ranked(room: dict[str, str]) -> Index:
    return Index({name: ranked_text(name, text) for name, text in room.items()})


def test_a_name_counts_its_weight_and_its_hyphenated_parts_are_words():
    built = ranked({"test-driven-development": "Implements logic in small steps."})
    weights = built.vectors["test-driven-development"].weights
    assert weights["test"] == weights["driven"] == NAME_WEIGHT * weights["implement"] > 0


WORDS = st.lists(st.sampled_from([f"word{n}" for n in range(20)]), min_size=1, max_size=12)


@settings(derandomize=True, max_examples=examples(200))
@given(description=WORDS, other=WORDS)
def test_a_word_in_the_name_weighs_more_than_the_same_word_in_the_description(description, other):
    """The same skill, the same room: only where the prompt's word stands differs."""
    rest = " ".join(description)
    named = ranked({"alpha-handler": rest, "other": " ".join(other)})
    described = ranked({"alpha": f"{rest} handler", "other": " ".join(other)})
    by_name = Ranked(named, "handler").score("alpha-handler")
    by_description = Ranked(described, "handler").score("alpha")
    assert by_name > by_description > 0
