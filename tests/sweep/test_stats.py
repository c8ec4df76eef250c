"""The knee finder against synthetic accuracy curves of known shape, in seeded repeats: it finds a
known knee in at least 95 % of them, says there is none on a flat curve in at least 95 %, and says it
cannot tell when too few cases were graded for any drop to be told from noise."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from harness.sweep import stats

SIZES, REPEATS, CASES = 8, 5, 40
SEEDS = 100


def curve(seed: int, knee: int | None, high: float = 0.9, low: float = 0.6, cases: int = CASES) -> list:
    """Outcomes [size][repeat][case], each case passing with the curve's accuracy at that size."""
    rng = random.Random(seed)
    return [
        [
            [rng.random() < (high if knee is None or size < knee else low) for _ in range(cases)]
            for _ in range(REPEATS)
        ]
        for size in range(SIZES)
    ]


def test_a_known_knee_is_found_in_at_least_95_percent_of_seeded_repeats():
    found = [stats.knee(curve(seed, 3), seed, replicates=40) for seed in range(SEEDS)]
    agree = sum(k.verdict == stats.KNEE and k.index == 3 for k in found)
    assert agree >= 0.95 * SEEDS, agree


def test_a_flat_curve_has_no_knee_in_at_least_95_percent_of_seeded_repeats():
    found = [stats.knee(curve(seed, None), seed, replicates=40) for seed in range(SEEDS)]
    agree = sum(k.verdict == stats.NO_KNEE and k.index is None for k in found)
    assert agree >= 0.95 * SEEDS, agree


def test_too_few_cases_cannot_tell_a_knee_from_noise():
    outcomes = [[[True]] for _ in range(SIZES - 1)] + [[[False]]]
    assert stats.knee(outcomes).verdict == stats.CANNOT_TELL


def test_the_bootstrap_is_seeded():
    outcomes = curve(7, 4)
    assert stats.knee(outcomes, 1, replicates=30) == stats.knee(outcomes, 1, replicates=30)


def test_wilson_holds_the_proportion_and_stays_in_bounds():
    low, high = stats.wilson(9, 10)
    assert 0 <= low < 0.9 < high <= 1
    assert stats.wilson(0, 0) == (0.0, 1.0)


def test_mcnemar_is_one_sided_and_exact():
    assert stats.mcnemar(0, 5) == 1.0
    assert abs(stats.mcnemar(5, 0) - 0.5**5) < 1e-12
    assert abs(stats.mcnemar(2, 2) - 11 / 16) < 1e-12


@given(
    st.lists(st.lists(st.sampled_from([True, False, None]), min_size=4, max_size=4), min_size=2, max_size=2)
)
def test_a_pair_with_an_errored_side_counts_on_neither_side(repeats: list[list[bool | None]]) -> None:
    first, later = [repeats[0]], [repeats[1]]
    kept = [(a, b) for a, b in zip(first[0], later[0], strict=True) if a is not None and b is not None]
    worse, better = stats.paired(first, later)
    assert worse == sum(1 for a, b in kept if a and not b)
    assert better == sum(1 for a, b in kept if b and not a)


def test_errors_at_a_size_are_no_drop_and_the_bootstrap_agrees() -> None:
    """Every case passes at the first size; at the second a third of the runs errored and the rest
    passed: no knee, however many errors (an error is not a miss)."""
    cases = 12
    outcomes = [[[True] * cases] * 3, [[None if i % 3 == 0 else True for i in range(cases)]] * 3]
    found = stats.knee(outcomes, seed=1)
    assert found.verdict == stats.NO_KNEE and found.pmf == {None: 1.0}
