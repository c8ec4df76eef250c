"""harness.compare: the label of each case and the rate test behind it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.compare.labels import LABELS, Side, label
from harness.model import stats
from tests.support.examples import examples

PASS, FAIL = Side(1, 1, outcome=frozenset({"pdf"})), Side(0, 1, outcome=frozenset({"docx"}))
ERRORED = Side(0, 0, errors=1)


@pytest.mark.parametrize(
    ("baseline", "candidate", "expected"),
    [
        (PASS, PASS, "same-pass"),
        (FAIL, FAIL, "same-fail"),
        (FAIL, PASS, "improvement"),
        (PASS, FAIL, "regression"),
        (ERRORED, FAIL, "error"),  # an errored side is never a regression
        (PASS, ERRORED, "error"),
        (FAIL, Side(0, 1, outcome=frozenset({"xlsx"})), "changed"),  # both wrong, differently
    ],
)
def test_single_runs(baseline: Side, candidate: Side, expected: str):
    assert label(baseline, candidate) == expected


def test_with_repeats_a_flip_within_noise_is_not_a_regression():
    assert label(Side(3, 5), Side(2, 5)) == "same-fail"  # pooled 5/10: ties fail
    assert label(Side(4, 5), Side(2, 5)) == "same-pass"  # pooled 6/10
    assert label(Side(10, 10), Side(0, 10)) == "regression"
    assert label(Side(0, 10), Side(10, 10)) == "improvement"


def test_the_interval_matches_newcombes_worked_example():
    # Newcombe (1998), Table II, example (a): 56/70 vs 48/80 -> 0.2000 (0.0524, 0.3339).
    delta, low, high = stats.rate_difference(48, 80, 56, 70)
    assert (round(delta, 4), round(low, 4), round(high, 4)) == (0.2, 0.0524, 0.3339)


COUNTS = st.integers(0, 12).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n)))


@settings(max_examples=examples(500), derandomize=True)
@given(COUNTS, COUNTS)
def test_labels_are_total_and_mirror_each_other(base: tuple[int, int], cand: tuple[int, int]):
    a, b = Side(*base), Side(*cand)
    forward, backward = label(a, b), label(b, a)
    assert forward in LABELS
    mirror = {"regression": "improvement", "improvement": "regression"}
    assert backward == mirror.get(forward, forward)


@settings(max_examples=examples(500), derandomize=True)
@given(COUNTS, COUNTS)
def test_the_interval_holds_the_difference(base: tuple[int, int], cand: tuple[int, int]):
    found = stats.rate_difference(*base, *cand)
    if base[1] == 0 or cand[1] == 0:
        assert found is None
    else:
        delta, low, high = found
        assert -1 <= low <= delta <= high <= 1
