"""Verdicts of one run, the majority over repeated runs, and the trigger-rate interval."""

from __future__ import annotations

import pytest

from harness.paid.replay import Origin, Replay
from harness.routing.verdicts import (
    CORRECT_TRIGGER,
    ERROR,
    FALSE_TRIGGER,
    MISSED_TRIGGER,
    NOT_RUN,
    PASSING,
    TRUE_NEGATIVE,
    VERDICTS,
    WRONG_SKILL,
    Sample,
    classify,
    decided,
    majority,
)


@pytest.mark.parametrize(
    ("expected", "observed", "verdict"),
    [
        ("pdf", "pdf", CORRECT_TRIGGER),
        (None, None, TRUE_NEGATIVE),
        ("pdf", None, MISSED_TRIGGER),
        ("pdf", "pdf-tools", WRONG_SKILL),
        ("pdf", "other:pdf", WRONG_SKILL),  # an uninstalled skill is never the expected one
        (None, "pdf", FALSE_TRIGGER),
        (None, "other:stray", FALSE_TRIGGER),
    ],
)
def test_classify_covers_every_graded_verdict(expected, observed, verdict):
    assert classify(expected, observed) == verdict


def test_only_the_two_right_answers_pass():
    assert set(PASSING) == {CORRECT_TRIGGER, TRUE_NEGATIVE}
    graded = {CORRECT_TRIGGER, TRUE_NEGATIVE, MISSED_TRIGGER, WRONG_SKILL, FALSE_TRIGGER}
    assert set(VERDICTS) == graded | {ERROR, NOT_RUN}


def test_a_sample_with_an_error_is_an_error_whatever_it_observed():
    assert Sample(error="the API answered 529 (overloaded)").verdict("pdf") == ERROR
    assert Sample(error="timed out").verdict(None) == ERROR
    assert Sample(observed=None).verdict("pdf") == MISSED_TRIGGER  # no error: a graded miss


def test_sample_json_carries_its_own_verdict_and_rounded_time():
    sample = Sample(
        observed="pdf",
        stop_reason="activation",
        elapsed_s=1.23456,
        tool_calls=1,
        input_tokens=100,
        output_tokens=20,
        cost_usd=0.0008,
    )
    data = sample.to_json("pdf")
    assert data["verdict"] == CORRECT_TRIGGER and data["elapsed_s"] == 1.235
    assert data["tokens"] == {"input": 100, "output": 20} and data["error"] is None
    assert sample.to_json(None)["verdict"] == FALSE_TRIGGER


@pytest.mark.parametrize(
    ("verdicts", "expected"),
    [
        ([CORRECT_TRIGGER], CORRECT_TRIGGER),
        ([CORRECT_TRIGGER, CORRECT_TRIGGER, MISSED_TRIGGER], CORRECT_TRIGGER),
        ([MISSED_TRIGGER, MISSED_TRIGGER, CORRECT_TRIGGER], MISSED_TRIGGER),
        ([TRUE_NEGATIVE, FALSE_TRIGGER, FALSE_TRIGGER], FALSE_TRIGGER),
    ],
)
def test_majority_takes_the_most_common_verdict(verdicts, expected):
    assert majority(verdicts) == expected


@pytest.mark.parametrize(
    ("verdicts", "stricter"),
    [
        ([CORRECT_TRIGGER, MISSED_TRIGGER], MISSED_TRIGGER),
        ([MISSED_TRIGGER, CORRECT_TRIGGER], MISSED_TRIGGER),  # order does not matter
        ([CORRECT_TRIGGER, WRONG_SKILL], WRONG_SKILL),
        ([MISSED_TRIGGER, WRONG_SKILL], WRONG_SKILL),
        ([TRUE_NEGATIVE, FALSE_TRIGGER], FALSE_TRIGGER),
        ([CORRECT_TRIGGER, CORRECT_TRIGGER, MISSED_TRIGGER, WRONG_SKILL, WRONG_SKILL], WRONG_SKILL),
    ],
)
def test_a_tie_goes_to_the_stricter_verdict(verdicts, stricter):
    assert majority(verdicts) == stricter


def test_errors_do_not_vote_but_all_errors_stay_an_error():
    assert majority([ERROR, ERROR, CORRECT_TRIGGER]) == CORRECT_TRIGGER
    assert majority([ERROR, MISSED_TRIGGER, CORRECT_TRIGGER]) == MISSED_TRIGGER
    assert majority([ERROR, ERROR, ERROR]) == ERROR
    assert majority([]) == ERROR


def test_a_case_none_of_whose_samples_started_is_not_run_and_an_error_outranks_it():
    assert majority([NOT_RUN, NOT_RUN]) == NOT_RUN
    assert majority([ERROR, NOT_RUN]) == ERROR
    assert majority([NOT_RUN, MISSED_TRIGGER]) == MISSED_TRIGGER
    assert majority([]) == ERROR
    assert Sample(error="not run: cap", not_run=True).verdict("pdf") == NOT_RUN


@pytest.mark.parametrize(
    ("passes", "trials", "settled"),
    [(0, 0, False), (1, 1, False), (3, 3, False), (4, 4, True), (0, 4, True), (3, 4, False), (9, 10, True)],
)
def test_a_verdict_is_settled_once_the_interval_clears_one_half(passes, trials, settled):
    assert decided(passes, trials) is settled


def test_a_cache_entry_stands_in_for_the_sample_and_says_it_was_cached():
    made = Sample(
        observed="pdf", stop_reason="activation", input_tokens=100, cost_usd=0.002, visible_skills=["pdf"]
    )
    origin = Origin("2026-12-01T10:00:00+00:00", "0.1.0")
    again = Sample.from_cache(Replay({**made.cache_entry(), "unknown_later_field": 1}, origin))
    assert again.cached and not made.cached and "cached_from" not in made.cache_entry()
    assert (again.observed, again.cost_usd, again.visible_skills) == ("pdf", 0.002, ["pdf"])
    assert again.to_json("pdf")["cached"] is True and again.verdict("pdf") == CORRECT_TRIGGER
    assert (
        again.to_json("pdf")["cached_from"] == origin.to_json() and made.to_json("pdf")["cached_from"] is None
    )
