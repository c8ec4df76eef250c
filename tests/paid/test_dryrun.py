"""The dry run's estimate: requests per sample as the agent spends them, a mean where it varies."""

from __future__ import annotations

from harness.paid.dryrun import Estimate, Figures


def test_a_whole_figure_per_sample_multiplies_out():
    lines = Estimate(samples=4, requests_per_sample=(2, 40)).lines()
    assert lines[1] == "Model requests: about 8 (2 per sample that decides on its first turn, at most 160)."


def test_a_mean_figure_is_shown_as_measured_and_the_total_rounded():
    lines = Estimate(samples=6, cached=[Figures()], requests_per_sample=(1.25, 41)).lines()
    assert (
        lines[1] == "Model requests: about 6 (1.25 per sample that decides on its first turn, at most 205)."
    )


def test_nothing_left_to_run_asks_for_nothing():
    estimate = Estimate(samples=1, cached=[Figures(cost_usd=0.01)], requests_per_sample=(2, 2))
    assert estimate.lines()[1] == "Model requests: 0."


def test_the_sample_count_says_how_many_of_them_are_the_canary():
    estimate = Estimate(samples=74)
    estimate.add_canary(Figures(cost_usd=0.01))
    assert estimate.samples == 75 and estimate.to_run == 74
    assert estimate.lines()[0].startswith("Estimate: 75 sample(s), 1 of them the canary; 1 from the result")
    estimate.add_canary(None)  # compare's other side, on another agent
    assert estimate.lines()[0].startswith("Estimate: 76 sample(s), 2 of them canaries; 1 from the result")
    assert Estimate(samples=3).lines()[0].startswith("Estimate: 3 sample(s); 0 from")
