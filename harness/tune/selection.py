"""Deciding from scores: the early stop on train, and the choice on validation.

Early stop. Train is graded in looks of a few cases. After each look the cases the candidate and the
current description disagree on are put to an exact one-sided sign test of "the candidate is worse";
with J looks planned, a p-value at or below alpha / J stops the candidate (Bonferroni over the looks), so
a candidate no worse than the current one is stopped with a chance of at most alpha. Stopping only ever
removes candidates before validation, so it cannot make a choice more likely.

Choice. On validation only, each candidate that finished train is paired with the current description
case by case. Its gain in accuracy gets a Clopper-Pearson interval at confidence 1 - alpha / m, m every
candidate that was tried (the early-stopped ones included), one-sided (the lower end of the two-sided
1 - 2 alpha / m interval), so the chance that any candidate no better
than the current one is chosen stays below alpha. A candidate is eligible when the interval lies above
zero and no case a neighbour expects (passed under the current description) fails under it; the
eligible one with the largest gain is chosen. None eligible is a result: nothing beat the noise.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from harness.tune.scoring import Scored
from harness.tune.stats import Paired

LOOK_CASES = 4  # train cases graded per look (at least --jobs, so a look keeps every worker busy)


def paired(current: Mapping[str, Scored], candidate: Mapping[str, Scored]) -> Paired:
    """The cases both descriptions were asked about, paired by id."""
    return Paired.of(
        (current[case_id].passed if case_id in current else None, scored.passed)
        for case_id, scored in candidate.items()
    )


@dataclass(frozen=True)
class Look:
    cases: int  # train cases graded so far
    paired: Paired
    p_worse: float
    threshold: float

    @property
    def stops(self) -> bool:
        return self.p_worse <= self.threshold

    def to_json(self) -> dict:
        return {
            "cases": self.cases,
            "wins": self.paired.wins,
            "losses": self.paired.losses,
            "p_worse": round(self.p_worse, 6),
            "threshold": round(self.threshold, 6),
            "stopped": self.stops,
        }


def look(current: Mapping[str, Scored], so_far: Mapping[str, Scored], looks: int, alpha: float) -> Look:
    pairs = paired(current, so_far)
    return Look(len(so_far), pairs, pairs.worse_p(), alpha / max(1, looks))


@dataclass
class Judgement:
    """One candidate on validation."""

    label: str
    paired: Paired
    alpha: float  # the corrected level its interval was drawn at
    regressions: list[str] = field(default_factory=list)  # neighbours' case ids it broke

    def interval(self) -> tuple[float, float] | None:
        """The two-sided 1 - 2 alpha interval: its lower end is the one-sided 1 - alpha bound the choice
        reads."""
        return self.paired.interval(2 * self.alpha)

    @property
    def beats_noise(self) -> bool:
        interval = self.interval()
        return interval is not None and interval[0] > 0

    @property
    def eligible(self) -> bool:
        return self.beats_noise and not self.regressions

    def reason(self) -> str:
        interval = self.interval()
        if interval is None:
            return "no validation case was graded under both descriptions"
        low, high = interval
        level = 100 * (1 - self.alpha)
        shown = f"gain {self.paired.gain:+.3f}, lower bound {low:+.3f} at {level:.4g} % one-sided"
        if self.regressions:
            return f"{shown}; a neighbour's case regressed: {', '.join(self.regressions)}"
        if not self.beats_noise:
            return f"{shown}: the interval reaches zero, so the gain is not beyond noise"
        return f"{shown}: above zero"

    def to_json(self) -> dict:
        return {
            **self.paired.to_json(2 * self.alpha),
            "regressions": self.regressions,
            "beats_noise": self.beats_noise,
            "eligible": self.eligible,
            "reason": self.reason(),
        }


def regressions(
    current: Mapping[str, Scored], candidate: Mapping[str, Scored], neighbours: set[str]
) -> list[str]:
    """Cases a neighbour expects that passed under the current description and fail under the
    candidate (an ungraded one is not counted as either)."""
    return [
        case_id
        for case_id, scored in candidate.items()
        if scored.case.expected_skill in neighbours
        and scored.passed is False
        and case_id in current
        and current[case_id].passed is True
    ]


def judge(
    current: Mapping[str, Scored],
    candidates: Mapping[str, Mapping[str, Scored]],
    tried: int,
    alpha: float,
    neighbours: set[str],
) -> dict[str, Judgement]:
    corrected = alpha / max(1, tried)
    return {
        label: Judgement(label, paired(current, scores), corrected, regressions(current, scores, neighbours))
        for label, scores in candidates.items()
    }


def choose(judged: Mapping[str, Judgement]) -> str | None:
    """The eligible candidate with the largest gain (the first tried on a tie), or None."""
    eligible = [j for j in judged.values() if j.eligible]
    if not eligible:
        return None
    return max(eligible, key=lambda j: j.paired.gain or 0.0).label
