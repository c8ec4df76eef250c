"""Wilson's interval for one rate (the rooms' shared statistics; the difference of two rates is
tested through compare's labels)."""

from __future__ import annotations

import pytest

from harness.model.stats import wilson_interval


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        (0, 1, 0.0, 0.7935),
        (1, 1, 0.2065, 1.0),
        (5, 10, 0.2366, 0.7634),
        (8, 10, 0.4902, 0.9433),
        (2, 3, 0.2077, 0.9385),
        (3, 3, 0.4385, 1.0),
        (0, 3, 0.0, 0.5615),
    ],
)
def test_wilson_interval_matches_the_published_values(successes, trials, low, high):
    got = wilson_interval(successes, trials)
    assert got == (pytest.approx(low, abs=5e-5), pytest.approx(high, abs=5e-5))
    assert 0.0 <= got[0] <= successes / trials <= got[1] <= 1.0


def test_wilson_interval_is_none_without_graded_samples():
    assert wilson_interval(0, 0) is None


def test_wilson_interval_narrows_as_samples_grow():
    widths = [high - low for low, high in (wilson_interval(n, n) for n in (1, 3, 10, 100))]
    assert widths == sorted(widths, reverse=True)
