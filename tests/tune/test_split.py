"""The tuning split: stratified, seeded, disjoint, deterministic, and a refusal that says what to write."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.errors import UsageError
from harness.model.dataset import Case
from harness.tune.split import FINAL, MIN_PER_PART, NEGATIVE, PARTS, POSITIVE, TRAIN, VALIDATION, split


def cases(positives: int, negatives: int, neighbours: int = 0) -> list[Case]:
    out = [Case(f"alpha-pos-{n}", f"alpha {n}", True, "alpha", "a.json") for n in range(positives)]
    out += [Case(f"alpha-neg-{n}", f"near {n}", False, "alpha", "a.json") for n in range(negatives)]
    out += [Case(f"beta-pos-{n}", f"beta {n}", True, "beta", "b.json") for n in range(neighbours)]
    return out


sizes = st.integers(min_value=3 * MIN_PER_PART, max_value=40)


@given(sizes, st.integers(min_value=0, max_value=20), st.integers(min_value=0, max_value=20), st.integers())
def test_every_case_lands_in_exactly_one_part_and_each_part_holds_both_kinds(pos, neg, beta, seed):
    if neg + beta < 3 * MIN_PER_PART:
        neg = 3 * MIN_PER_PART
    pool = cases(pos, neg, beta)
    made = split(pool, "alpha", seed)
    ids = [c.id for part in PARTS for c in made.parts[part]]
    assert sorted(ids) == sorted(c.id for c in pool)  # disjoint and complete
    for part in PARTS:
        counts = made.counts()[part]
        assert counts[POSITIVE] >= MIN_PER_PART and counts[NEGATIVE] >= MIN_PER_PART


@given(sizes, sizes, st.integers())
def test_the_split_is_stratified_near_its_shares(pos, neg, seed):
    made = split(cases(pos, neg), "alpha", seed)
    for kind, total in ((POSITIVE, pos), (NEGATIVE, neg)):
        validation = made.counts()[VALIDATION][kind]
        assert abs(validation - max(MIN_PER_PART, round(total * 0.35))) == 0
        assert sum(made.counts()[part][kind] for part in PARTS) == total


@given(sizes, sizes, st.integers(), st.randoms())
def test_the_same_seed_gives_the_same_split_whatever_the_order_of_the_cases(pos, neg, seed, rng):
    pool = cases(pos, neg)
    shuffled = list(pool)
    rng.shuffle(shuffled)
    first, second = split(pool, "alpha", seed), split(shuffled, "alpha", seed)
    assert {p: [c.id for c in first.parts[p]] for p in PARTS} == {
        p: [c.id for c in second.parts[p]] for p in PARTS
    }


def test_another_seed_gives_another_split_and_the_report_records_it():
    pool = cases(20, 20)
    one, other = split(pool, "alpha", 1), split(pool, "alpha", 2)
    assert [c.id for c in one.parts[TRAIN]] != [c.id for c in other.parts[TRAIN]]
    shown = one.to_json()
    assert shown["seed"] == 1
    assert set(shown["cases"]) == {TRAIN, VALIDATION, FINAL}


def test_a_neighbours_positive_is_this_skills_negative():
    made = split(cases(6, 0, 6), "alpha", 0)
    assert all(made.kind(c) == NEGATIVE for part in PARTS for c in made.parts[part] if c.skill == "beta")


def test_parts_interleave_the_two_kinds_so_that_an_early_look_sees_both():
    made = split(cases(10, 10), "alpha", 0)
    first_four = made.parts[TRAIN][:4]
    assert {made.kind(c) for c in first_four} == {POSITIVE, NEGATIVE}


@pytest.mark.parametrize(
    ("pos", "neg", "said"),
    [
        (4, 9, "write 2 more positive case(s) (prompts that should fire it) in alpha/evals/evals.json"),
        (6, 1, "write 5 more negative case(s)"),
        (0, 0, "write 6 more positive case(s) (prompts that should fire it) and 6 more negative case(s)"),
    ],
)
def test_too_few_cases_is_one_sentence_naming_how_many_more_of_which_kind(pos, neg, said):
    with pytest.raises(UsageError) as raised:
        split(cases(pos, neg), "alpha", 0, "alpha/evals/evals.json")
    message = str(raised.value)
    assert said in message and message.count(". ") == 0 and message.endswith(".")
