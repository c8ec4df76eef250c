"""The exact statistics of tuning, checked against known values and by simulation."""

from __future__ import annotations

import random

import pytest

from harness.tune.stats import Paired, binomial_tail, clopper_pearson


def test_the_binomial_tail_matches_its_sum():
    assert binomial_tail(0, 5) == 1.0
    assert binomial_tail(5, 5) == pytest.approx(1 / 32)
    assert binomial_tail(4, 5) == pytest.approx(6 / 32)


@pytest.mark.parametrize(("k", "n"), [(0, 10), (3, 10), (10, 10), (17, 40)])
def test_clopper_pearson_bounds_have_the_tail_mass_they_promise(k, n):
    low, high = clopper_pearson(k, n, 0.05)
    if k:
        assert binomial_tail(k, n, low) == pytest.approx(0.025, abs=1e-9)
    else:
        assert low == 0
    if k < n:
        assert 1 - binomial_tail(k + 1, n, high) == pytest.approx(0.025, abs=1e-9)
    else:
        assert high == 1
    assert low <= k / n <= high


def test_all_wins_give_the_closed_form_bound():
    low, _ = clopper_pearson(6, 6, 0.1)
    assert low == pytest.approx(0.05 ** (1 / 6))


def test_paired_counts_leave_out_ungraded_cases():
    pairs = Paired.of([(False, True), (True, False), (True, True), (None, True), (False, None)])
    assert (pairs.wins, pairs.losses, pairs.ties, pairs.unpaired) == (1, 1, 1, 2)
    assert pairs.gain == 0


def test_a_gain_interval_lies_above_zero_only_with_enough_disagreeing_wins():
    assert Paired(wins=4, ties=4).interval(0.2)[0] > 0  # one-sided 0.1: 0.5 ** 4 < 0.1
    assert Paired(wins=3, ties=4).interval(0.2)[0] <= 0
    assert Paired(wins=4, losses=1, ties=4).interval(0.2)[0] <= 0


def test_the_corrected_choice_keeps_its_false_choice_rate_under_alpha():
    """Simulated: m candidates no better than the current one (each case flips with the same chance
    either way); the chance that any is declared better stays below alpha."""
    rng = random.Random(7)
    alpha, m, trials, cases = 0.1, 3, 600, 30
    false_choices = 0
    for _ in range(trials):
        for _candidate in range(m):
            draws = [rng.random() for _ in range(cases)]
            wins, losses = sum(d < 0.15 for d in draws), sum(d > 0.85 for d in draws)
            pairs = Paired(wins, losses, cases - wins - losses)
            if pairs.interval(2 * alpha / m)[0] > 0:
                false_choices += 1
                break
    assert false_choices / trials <= alpha
