"""harness.sweep.result: the sentence each engine prints for a leg whose knee fails --min-knee, and the
status of a skill none of whose runs was graded."""

from __future__ import annotations

from harness.model.envelope import RunMeta
from harness.report import sweep as sweep_report
from harness.sweep import stats
from harness.sweep.result import LegResult, Point, SkillCurve, SweepResult
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


def errored_leg() -> LegResult:
    """Every run of alpha's cases errored at both sizes: nothing graded."""
    points = [Point(size, 0, 0, [], None, errors=2) for size in SIZES[:2]]
    curve = SkillCurve("alpha", points, [{}, {}], None, False)
    knee = stats.Knee(stats.CANNOT_TELL, None, {}, None)
    return LegResult(Leg("claude"), "listing", points, knee, [curve], SIZES[:2])


def test_a_skill_whose_every_run_errored_is_an_error_and_the_headline_says_nothing_was_graded() -> None:
    meta = RunMeta("sweep", "/repo", ["*"], "2026-01-01T00:00:00+00:00")
    result = SweepResult(meta, ["alpha"], SIZES[:2], 1, 0, {}, 2, [errored_leg()], engine="agent")
    report = result.to_json()
    assert result.statuses() == sweep_report.statuses(report) == {"alpha": "error"}
    assert report["status"] == "error" and not report["passed"]
    assert "claude graded no case: every run errored; 0 skill(s) degrade" in sweep_report.headline(report)


def test_a_headline_without_any_leg_has_no_empty_part() -> None:
    meta = RunMeta("sweep", "/repo", ["*"], "2026-01-01T00:00:00+00:00")
    report = SweepResult(meta, ["alpha"], SIZES[:2], 1, 0, {}, 2, [], engine="agent").to_json()
    assert sweep_report.headline(report).endswith("x 1 repeat(s); 0 skill(s) degrade")
