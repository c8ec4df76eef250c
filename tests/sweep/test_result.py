"""harness.sweep.result: the sentence each engine prints for a leg whose knee fails --min-knee."""

from __future__ import annotations

from harness.model.envelope import RunMeta
from harness.sweep import stats
from harness.sweep.result import LegResult, SweepResult
from harness.sweep.runner import Leg

SIZES = [10, 1000, 2000]


def leg(runtime: str, knee_at: int | None) -> LegResult:
    verdict = stats.NO_KNEE if knee_at is None else stats.KNEE
    knee = stats.Knee(verdict, knee_at, {knee_at: 1.0}, (knee_at, knee_at))
    return LegResult(Leg(runtime), "listing", [], knee, [], SIZES)


def swept(min_knee: int, *legs: LegResult) -> SweepResult:
    meta = RunMeta("sweep", "/repo", ["*"], "2026-01-01T00:00:00+00:00")
    return SweepResult(meta, [], SIZES, 1, 0, {}, 0, list(legs), min_knee=min_knee)


def test_each_leg_whose_knee_is_at_or_below_the_bar_has_one_sentence_with_its_size() -> None:
    result = swept(1000, leg("claude", 1), leg("codex", 2), leg("gemini", None))
    assert result.failures() == ["failed: on claude the knee is at 1,000 skills (--min-knee 1000)."]
    assert result.failures("claude") == result.failures()
    assert result.failures("codex") == []


def test_without_a_bar_no_knee_fails() -> None:
    assert swept(0, leg("claude", 0)).failures() == []
