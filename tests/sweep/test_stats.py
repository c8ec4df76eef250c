"""The knee finder against synthetic accuracy curves of known shape, in seeded repeats: it finds a
known knee in at least 95 % of them, says there is none on a flat curve in at least 95 %, and says it
cannot tell when too few cases were graded for any drop to be told from noise."""

from __future__ import annotations

import random

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
