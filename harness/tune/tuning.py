"""The tuning loop: the current description on train; each round's candidates staged, screened and
graded on train with the early stop; the survivors and the current description on validation; the
choice; and the final split graded once, for the chosen candidate and the current description only.

The loop stops where the spend cap, a cancelling signal or the --timeout stops it, and keeps what it
has: a halted run chooses nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from harness.model.dataset import Case
from harness.model.skill import Skill
from harness.tune import candidates as cands
from harness.tune import selection
from harness.tune.candidates import Candidate
from harness.tune.propose import Failure
from harness.tune.scoring import Scored, Scorer
from harness.tune.selection import Look, OnEach
from harness.tune.split import FINAL, TRAIN, VALIDATION, Split
from harness.tune.stats import Paired

# Why an arm's scoring ended where it did.
REJECTED = "rejected"  # structural's rules refused it: no token spent
STOPPED = "stopped-early"  # clearly worse than the current description on train
TRAINED = "trained"  # train graded in full, validation not yet
SCORED = "scored"  # train and validation graded
NOT_SCORED = "not-scored"  # the run halted first
CHOSEN = "chosen"


@dataclass
class Arm:
    """A description and its scores, part -> case id -> Scored."""

    candidate: Candidate
    scores: dict[str, dict[str, Scored]] = field(default_factory=dict)
    looks: list[Look] = field(default_factory=list)
    status: str = NOT_SCORED
    reason: str = ""

    @property
    def label(self) -> str:
        return self.candidate.label

    def part(self, name: str) -> dict[str, Scored]:
        return self.scores.setdefault(name, {})

    def accuracy(self, name: str) -> tuple[int, int]:
        graded = [s for s in self.scores.get(name, {}).values() if s.passed is not None]
        return sum(1 for s in graded if s.passed), len(graded)

    def failures(self) -> list[Failure]:
        """Its train cases that failed, once each (on several agents, the first agent's observation)."""
        failed: dict[str, Failure] = {}
        for s in self.part(TRAIN).values():
            if s.passed is False and s.case.id not in failed:
                failed[s.case.id] = Failure(s.case.prompt, s.case.expected_skill, s.observed)
        return list(failed.values())


@dataclass
class Plan:
    skill: Skill
    split: Split
    neighbours: dict[str, str]  # the room's other skills and their descriptions
    file_candidates: list[str]
    propose: int
    rounds: int
    alpha: float  # of the choice, before the correction for the candidates tried
    look_cases: int = selection.LOOK_CASES
    stop_alpha: float = selection.STOP_ALPHA

    def current(self) -> Candidate:
        """The skill's own description, the candidate every other is graded against."""
        return Candidate("current", self.skill.description, cands.CURRENT)


# What asks the agent for descriptions: (description to improve, its train failures, how many) ->
# (texts, why none, if none). Handed train failures only.
Proposer = Callable[[str, list[Failure], int], tuple[list[str], str | None]]


@dataclass
class Tuned:
    """What the loop found."""

    current: Arm
    arms: list[Arm]
    judged: dict[str, OnEach]
    tried: int
    chosen: str | None = None
    final: dict[str, Paired] = field(default_factory=dict)  # agent -> the chosen one against the current
    halted: str | None = None  # why the loop stopped before its end
    notes: list[str] = field(default_factory=list)


class Tuner:
    def __init__(
        self,
        plan: Plan,
        scorer: Scorer,
        staging: Path,
        halted: Callable[[], str | None],
        proposer: Proposer | None = None,
        say: Callable[[str], None] = lambda line: None,
        stage: Callable[[Skill, Candidate, Path], Candidate] = cands.stage,
    ):
        self.plan, self.scorer, self.staging, self.stage = plan, scorer, staging, stage
        self.halted, self.proposer, self.say = halted, proposer, say
        self.current = Arm(plan.current(), status=SCORED)
        self.arms: list[Arm] = []
        self.notes: list[str] = []
        self.unproposed: list[str] = []  # why a round's proposal call gave no candidate

    def grade(self, arm: Arm, part: str, cases: list[Case]) -> None:
        for scored in self.scorer.grade(arm.candidate, cases):
            arm.part(part)[scored.key] = scored

    def run(self) -> Tuned:
        split = self.plan.split.parts
        self.say(f"current description on train ({len(split[TRAIN])} case(s))")
        self.grade(self.current, TRAIN, split[TRAIN])
        if (why := self.halted()) is not None:
            return self.end(why)
        if not self.current.accuracy(TRAIN)[1]:  # nothing to compare a candidate with: spend no more
            error = next((s.error for s in self.current.part(TRAIN).values() if s.error), "no case ran")
            return self.end(f"no train case of the current description was graded (first error: {error})")
        seen = {self.current.candidate.text}
        for round_number in range(1, self.plan.rounds + 1):
            for candidate in self.round_candidates(round_number, seen):
                arm = Arm(self.stage(self.plan.skill, candidate, self.staging))
                self.arms.append(arm)
                if candidate.rejected:
                    arm.status = REJECTED
                    first = candidate.rejected[0]
                    arm.reason = f"{first['rule']}: {first['message']}"
                    continue
                self.train(arm)
                if (why := self.halted()) is not None:
                    return self.end(why)
        if not self.arms and self.unproposed:  # nothing was graded against the current description
            return self.end(f"no candidate to score: {'; '.join(self.unproposed)}")
        survivors = [a for a in self.arms if a.status == TRAINED]
        if not survivors:
            return self.end(None)
        self.say(f"current description on validation ({len(split[VALIDATION])} case(s))")
        self.grade(self.current, VALIDATION, split[VALIDATION])
        for arm in survivors:
            if (why := self.halted()) is not None:
                return self.end(why)
            self.say(f"{arm.label} on validation")
            self.grade(arm, VALIDATION, split[VALIDATION])
            arm.status = SCORED
        if (why := self.halted()) is not None:
            return self.end(why)
        return self.end(None, finish=True)

    def round_candidates(self, round_number: int, seen: set[str]) -> list[Candidate]:
        texts: list[tuple[str, str]] = []
        if round_number == 1:
            texts += [(cands.FILE, t) for t in self.plan.file_candidates]
        if self.plan.propose and self.proposer is not None:
            best = self.best_on_train()
            self.say(f"round {round_number}: asking the agent for {self.plan.propose} description(s)")
            proposed, problem = self.proposer(best.candidate.text, best.failures(), self.plan.propose)
            if problem:
                self.notes.append(f"round {round_number}: no proposal used: {problem}")
                self.unproposed.append(f"round {round_number}: {problem}")
            texts += [(cands.PROPOSED, t) for t in proposed]
        out: list[Candidate] = []
        for origin, text in texts:
            if text in seen:
                self.notes.append(
                    f"round {round_number}: a {origin} candidate repeats one already tried; skipped"
                )
                continue
            seen.add(text)
            number = sum(1 for c in out if c.origin == origin) + 1
            label = f"{origin}-{number}" if origin == cands.FILE else f"proposed-{round_number}.{number}"
            out.append(Candidate(label, text, origin, round_number if origin == cands.PROPOSED else 0))
        return out

    def best_on_train(self) -> Arm:
        """The description with the best train accuracy so far (the current one on a tie), which the next
        round improves on."""
        finished = [a for a in self.arms if a.status == TRAINED]

        def share(arm: Arm) -> float:
            passed, graded = arm.accuracy(TRAIN)
            return passed / graded if graded else -1.0

        return max([self.current, *finished], key=share)

    def train(self, arm: Arm) -> None:
        """Train graded look by look, stopped once the candidate is clearly worse (see selection)."""
        cases = self.plan.split.parts[TRAIN]
        size = max(1, self.plan.look_cases)
        looks = math.ceil(len(cases) / size)
        self.say(f"{arm.label} on train ({len(cases)} case(s), {looks} look(s))")
        for start in range(0, len(cases), size):
            self.grade(arm, TRAIN, cases[start : start + size])
            if self.halted() is not None:
                return
            seen = selection.looks_on_each(
                self.current.part(TRAIN), arm.part(TRAIN), looks, self.plan.stop_alpha
            )
            arm.looks += seen
            stopping = next((one for one in seen if one.stops), None)
            if stopping is not None:
                where = f" on {stopping.agent}" if len(seen) > 1 else ""
                arm.status = STOPPED
                arm.reason = (
                    f"clearly worse than the current description{where} on train after {stopping.cases} "
                    f"case(s): {stopping.paired.losses} lost, {stopping.paired.wins} won, sign test "
                    f"p = {stopping.p_worse:.4f} <= {stopping.threshold:.4f}"
                )
                self.say(f"{arm.label}: stopped early, {arm.reason}")
                return
        arm.status = TRAINED

    def end(self, halted: str | None, finish: bool = False) -> Tuned:
        tried = sum(1 for a in self.arms if a.status != REJECTED)
        scored = {a.label: a.part(VALIDATION) for a in self.arms if a.status == SCORED}
        neighbours = set(self.plan.neighbours)
        judged = selection.judge(self.current.part(VALIDATION), scored, tried, self.plan.alpha, neighbours)
        for arm in self.arms:
            if arm.label in judged:
                arm.reason = judged[arm.label].reason()
            elif arm.status in (NOT_SCORED, TRAINED):
                arm.reason = f"not scored: {halted}" if halted else "not scored"
        tuned = Tuned(
            self.current, self.arms, judged, tried, halted=halted, notes=self.notes + self.scorer.notes
        )
        if not finish or halted:
            return tuned
        tuned.chosen = selection.choose(judged)
        if tuned.chosen is None:
            return tuned
        chosen = next(a for a in self.arms if a.label == tuned.chosen)
        chosen.status = CHOSEN
        for arm in self.arms:
            if arm is not chosen and arm.label in judged and judged[arm.label].eligible:
                arm.reason += (
                    f"; eligible, but {chosen.label} gained as much or more (and was tried first on a tie)"
                )
        cases = self.plan.split.parts[FINAL]
        self.say(f"final split ({len(cases)} case(s)), graded once: current and {chosen.label}")
        self.grade(self.current, FINAL, cases)
        self.grade(chosen, FINAL, cases)
        before, after = self.current.part(FINAL), chosen.part(FINAL)
        tuned.final = {
            agent: selection.paired(selection.of_agent(before, agent), selection.of_agent(after, agent))
            for agent in self.scorer.agents
        }
        tuned.halted = self.halted()
        tuned.notes = self.notes + self.scorer.notes
        return tuned
