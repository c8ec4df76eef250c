"""What the reports say of replayed samples: how many of how many, and the runs that made them."""

from __future__ import annotations

from harness.report import replays

A, B, C, D = (
    {"started_at": f"2026-12-0{n}T10:00:00+00:00", "harness_version": "0.1.0"} for n in range(1, 5)
)  # cached_from, as a report holds it


def test_nothing_replayed_says_nothing():
    assert replays.summary([], 3, "sample") is None


def test_one_run_is_named():
    assert replays.summary([A, A], 3, "sample") == (
        "2 of 3 samples replayed from the result cache (made by the run of 2026-12-01T10:00:00+00:00)"
    )
    assert replays.summary([A], 1, "case").startswith("1 of 1 case replayed from the result cache")


def test_a_few_runs_are_named_in_order_and_many_are_spanned():
    assert replays.made_by([B, A, C]) == (
        " (made by runs of 2026-12-01T10:00:00+00:00, 2026-12-02T10:00:00+00:00 and "
        "2026-12-03T10:00:00+00:00)"
    )
    assert replays.made_by([D, A, C, B]) == (
        " (made by 4 runs, from 2026-12-01T10:00:00+00:00 to 2026-12-04T10:00:00+00:00)"
    )
    assert replays.made_by([None]) == ""


def test_a_junit_line_names_the_run_and_its_harness():
    assert replays.sample_line(A, "sample 2 replayed") == (
        "sample 2 replayed from the result cache, made by the run of 2026-12-01T10:00:00+00:00, "
        "skillscope 0.1.0"
    )
    assert replays.sample_line(None) == "replayed from the result cache, made by an earlier run"
