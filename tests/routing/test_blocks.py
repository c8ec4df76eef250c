"""The array scorer against the definition it compiles: every score, rank, top three and shared word.

The definition, written out here one posting at a time: a skill's score for a text is the sum, in the
text's word order from 0.0, of each query weight times the skill's weight for that word. The arrays must
give the same doubles, not nearly the same: ranks and ties are read from exact equality.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from harness.routing.scoring import SHARED_SHOWN
from harness.routing.vectors import Index, document_text
from tests.support.examples import examples

# Few words, so descriptions overlap, repeat and tie; "zulu" and "yankee" are held by no skill.
WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
PROMPT_WORDS = [*WORDS, "zulu", "yankee", "the", "of"]

descriptions = st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join)
rooms = st.lists(descriptions, min_size=1, max_size=10).map(
    lambda texts: {f"skill-{n:02d}": text for n, text in enumerate(texts)}
)
prompts = st.lists(st.lists(st.sampled_from(PROMPT_WORDS), max_size=10).map(" ".join), min_size=1, max_size=6)


def defined_scores(index: Index, text: str) -> dict[str, float]:
    query = index.vector(text)
    totals: dict[str, float] = {}
    for stem, weight in query.weights.items():
        for name in index.names:
            other = index.vectors[name].weights.get(stem)
            if other is not None:
                totals[name] = totals.get(name, 0.0) + weight * other
    return totals


def defined_top(index: Index, text: str, count: int) -> list[tuple[str, float, tuple[str, ...]]]:
    scores = defined_scores(index, text)
    best = sorted((-score, name) for name, score in scores.items() if score > 0)[:count]
    query = index.vector(text)
    return [(name, -score, index.shared(query, name)) for score, name in best]


@settings(max_examples=examples(300), deadline=None, derandomize=True)
@given(room=rooms, texts=prompts)
def test_the_arrays_give_the_defined_scores_ranks_tops_and_shared_words_exactly(room, texts):
    index = Index({name: document_text(name, text) for name, text in room.items()})
    block = index.score_block(texts)
    names = index.names
    for row, text in enumerate(texts):
        defined = defined_scores(index, text)
        assert {n: block.matrix[row, c] for c, n in enumerate(names) if block.matrix[row, c]} == defined
        everyone = [defined.get(name, 0.0) for name in names]
        for column, own in enumerate(everyone):
            worst = len(names) if own == 0 else sum(1 for score in everyone if score >= own)
            assert block.worst_ranks([column], [row]) == [worst]
            assert block.best_ranks([column], [row]) == [1 + sum(1 for score in everyone if score > own)]
        got = [(m.skill, m.score, m.shared) for m in block.tops(3)[row]]
        assert got == defined_top(index, text, 3)


def test_a_tie_for_the_last_place_of_the_top_goes_to_the_first_name():
    room = {f"skill-{n}": "alpha bravo" for n in range(5)}
    index = Index({name: document_text(name, text) for name, text in room.items()})
    [top] = index.score_block(["alpha"]).tops(3)
    assert [m.skill for m in top] == ["skill-0", "skill-1", "skill-2"]
    assert len({m.score for m in top}) == 1


def test_shared_words_stop_at_the_shown_count_heaviest_first():
    many = [f"word{n}" for n in range(SHARED_SHOWN + 4)]
    index = Index({"wide": " ".join(many), "other": "unrelated text"})
    [[match]] = index.score_block([" ".join(many)]).tops(3)
    assert len(match.shared) == SHARED_SHOWN
    assert match.shared == index.shared(index.vector(" ".join(many)), "wide")


def test_blocks_hold_a_bounded_number_of_scores_whatever_the_room():
    from harness.routing.blocks import block_rows  # imports numpy: when a test runs, not at collection

    assert block_rows(1) * 1 <= 125_000 and block_rows(1000) * 1000 <= 125_000
    assert block_rows(10_000_000) == 1
