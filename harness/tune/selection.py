"""Deciding from scores: the early stop on train, and the choice on validation.

Early stop. Train is graded in looks of a few cases. After each look the cases the candidate and the
current description disagree on are put to an exact one-sided sign test of "the candidate is worse";
with J looks planned, a p-value at or below STOP_ALPHA / J stops the candidate (Bonferroni over the
looks), so a candidate no worse than the current one is stopped with a chance of at most STOP_ALPHA.
Stopping only ever removes candidates before validation, so it cannot make a choice more likely.

Choice. On validation only, each candidate that finished train is paired with the current description
case by case. Its gain in accuracy gets a Clopper-Pearson interval at confidence 1 - alpha / m, m every
candidate that was tried (the early-stopped ones included), one-sided (the lower end of the two-sided
1 - 2 alpha / m interval), so the chance that any candidate no better
than the current one is chosen stays below alpha. A candidate is eligible when the interval lies above
zero and no case a neighbour expects (passed under the current description) fails under it; the
eligible one with the largest gain is chosen. None eligible is a result: nothing beat the noise.

Several agents. Each agent's cases are paired, stopped and judged on their own; a candidate stops when it
is clearly worse on any agent, and is eligible only when it is eligible on each (an intersection of
tests, each at the corrected level, so no further correction is owed); its gain is its smallest.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from harness.tune.scoring import Scored
from harness.tune.stats import Paired

LOOK_CASES = 4  # train cases graded per look (at least --jobs, so a look keeps every worker busy)
# The early stop's level over all its looks: a futility rule, whose error costs a chance to find a better
# candidate and never a wrong choice, so it may be lenient where the choice is strict.
STOP_ALPHA = 0.2


def paired(current: Mapping[str, Scored], candidate: Mapping[str, Scored]) -> Paired:
    """The cases both descriptions were asked about, paired by id."""
    return Paired.of(
        (current[case_id].passed if case_id in current else None, scored.passed)
        for case_id, scored in candidate.items()
    )


def of_agent(scores: Mapping[str, Scored], agent: str) -> dict[str, Scored]:
    return {key: s for key, s in scores.items() if s.agent == agent}


def agents_of(scores: Mapping[str, Scored]) -> list[str]:
    return list(dict.fromkeys(s.agent for s in scores.values()))


@dataclass(frozen=True)
class Look:
    cases: int  # train cases graded so far
    paired: Paired
    p_worse: float
    threshold: float
    agent: str = ""

    @property
    def stops(self) -> bool:
        return self.p_worse <= self.threshold

    def to_json(self) -> dict:
        return {
            "agent": self.agent,
            "cases": self.cases,
            "wins": self.paired.wins,
            "losses": self.paired.losses,
            "p_worse": round(self.p_worse, 6),
            "threshold": round(self.threshold, 6),
            "stopped": self.stops,
        }


def look(
    current: Mapping[str, Scored], so_far: Mapping[str, Scored], looks: int, alpha: float, agent: str = ""
) -> Look:
    pairs = paired(current, so_far)
    return Look(len(so_far), pairs, pairs.worse_p(), alpha / max(1, looks), agent)


def looks_on_each(
    current: Mapping[str, Scored], so_far: Mapping[str, Scored], looks: int, alpha: float
) -> list[Look]:
    """One look per agent, at its own cases."""
    return [
        look(of_agent(current, agent), of_agent(so_far, agent), looks, alpha, agent)
        for agent in agents_of(current)
    ]


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
        scored.case.id
        for key, scored in candidate.items()
        if scored.case.expected_skill in neighbours
        and scored.passed is False
        and key in current
        and current[key].passed is True
    ]


@dataclass
class OnEach:
    """One candidate judged on each agent."""

    label: str
    by_agent: dict[str, Judgement]

    @property
    def eligible(self) -> bool:
        return bool(self.by_agent) and all(j.eligible for j in self.by_agent.values())

    @property
    def gain(self) -> float:
        """The smallest gain over the agents: what it wins everywhere."""
        return min((j.paired.gain or 0.0 for j in self.by_agent.values()), default=0.0)

    def reason(self) -> str:
        if len(self.by_agent) == 1:
            return next(iter(self.by_agent.values())).reason()
        losing = [agent for agent, j in self.by_agent.items() if not j.eligible]
        said = "; ".join(f"on {agent}: {j.reason()}" for agent, j in self.by_agent.items())
        return f"does not win on {', '.join(losing)}; {said}" if losing else said

    def to_json(self) -> dict:
        return {agent: j.to_json() for agent, j in self.by_agent.items()}


def judge(
    current: Mapping[str, Scored],
    candidates: Mapping[str, Mapping[str, Scored]],
    tried: int,
    alpha: float,
    neighbours: set[str],
) -> dict[str, OnEach]:
    """Every candidate judged against the current description on each agent that graded it."""
    corrected = alpha / max(1, tried)
    judged = {}
    for label, scores in candidates.items():
        by_agent = {}
        for agent in agents_of(current):
            mine, theirs = of_agent(scores, agent), of_agent(current, agent)
            by_agent[agent] = Judgement(
                label, paired(theirs, mine), corrected, regressions(theirs, mine, neighbours)
            )
        judged[label] = OnEach(label, by_agent)
    return judged


def choose(judged: Mapping[str, OnEach]) -> str | None:
    """The candidate eligible on every agent with the largest gain (the first tried on a tie), or None."""
    eligible = [j for j in judged.values() if j.eligible]
    if not eligible:
        return None
    return max(eligible, key=lambda j: j.gain).label
