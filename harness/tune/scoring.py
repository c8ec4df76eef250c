"""Grading one description of the tuned skill on some cases: the candidate installed as the real skill
in the real room, by the agent (the same runner, stop at the decision, cache and repeats as `routing`)
or by the free lexical engine.

Each case comes back as a Scored: passed, failed, or not graded (an error, or never run for the spend
cap), which is never a score.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from harness import agent
from harness.model.dataset import Case
from harness.paid.controls import RunControls
from harness.routing.lexical import LexicalEngine
from harness.routing.metrics import CaseOutcome
from harness.routing.runner import RoutingRun, RoutingSettings
from harness.routing.verdicts import PASSING, classify
from harness.tune.candidates import Candidate


@dataclass(frozen=True)
class Scored:
    """One case under one description."""

    case: Case
    passed: bool | None  # None: not graded (errored, or not run)
    agent: str = ""  # the agent that graded it ("lexical" for the lexical engine)
    observed: str | None = None
    error: str | None = None
    samples: int = 0  # run now (not from the cache)
    cached: int = 0
    cost_usd: float = 0.0

    @property
    def key(self) -> str:
        """Unique across the agents of one run: an agent's case."""
        return f"{self.agent}/{self.case.id}"

    def to_json(self) -> dict:
        return {
            "id": self.case.id,
            "agent": self.agent,
            "expected": self.case.expected_skill,
            "observed": self.observed,
            "passed": self.passed,
            "error": self.error,
            "samples_run": self.samples,
            "cached_samples": self.cached,
            "cost_usd": round(self.cost_usd, 6),
        }


def of_routing(outcome: CaseOutcome, agent: str) -> Scored:
    if not outcome.graded:
        return Scored(outcome.case, None, agent, error=outcome.error)
    return Scored(
        outcome.case,
        outcome.passed,
        agent,
        outcome.observed,
        samples=len(outcome.runs),
        cached=sum(1 for s in outcome.samples if s.cached),
        cost_usd=sum(s.cost_usd or 0.0 for s in outcome.runs),
    )


class Scorer(Protocol):
    @property
    def engine(self) -> str: ...
    @property
    def agents(self) -> list[str]:
        """Who grades: each case comes back once per agent."""

    @property
    def notes(self) -> list[str]: ...

    def grade(self, candidate: Candidate, cases: list[Case]) -> list[Scored]: ...


class AgentScorer:
    """The room installed in the agent with the candidate's copy of the skill in place of the skill."""

    engine = "agent"

    def __init__(
        self,
        runner: agent.Agent,
        room: Mapping[str, Path],
        skill: str,
        settings: RoutingSettings,
        controls: RunControls,
        widen: Callable[[Sequence[str]], str] | None = None,
    ):
        """`widen`: the flag that puts a skill a case expects (a negative's `owner`) into the room."""
        self.agent, self.room, self.skill, self.settings = runner, dict(room), skill, settings
        self.widen = widen
        self.controls = controls
        self.agents = [runner.runtime]
        self.notes: list[str] = []
        # One run per description, reused by its every look: its cache key parts (a digest of every
        # installed file of the room) are read once per description, as routing reads them once per run.
        self.runs: dict[str, RoutingRun] = {}

    def installed(self, candidate: Candidate) -> dict[str, Path]:
        # The current description is the skill's own folder: its samples are the ones `routing` cached.
        folder = candidate.folder or self.room[self.skill]
        return {**self.room, self.skill: folder}

    def run_of(self, candidate: Candidate) -> RoutingRun:
        if candidate.label not in self.runs:
            settings = self.settings
            if settings.keep_logs is not None:  # each description's transcripts in a folder of its own
                settings = dataclasses.replace(settings, keep_logs=settings.keep_logs / candidate.label)
            self.runs[candidate.label] = RoutingRun(
                self.agent,
                self.installed(candidate),
                settings,
                self.controls,
                widen=self.widen,
            )
        return self.runs[candidate.label]

    def grade(self, candidate: Candidate, cases: list[Case]) -> list[Scored]:
        run = self.run_of(candidate)
        outcomes = run.run(cases)
        self.notes += [n for n in run.notes if n not in self.notes]
        return [of_routing(o, self.agent.runtime) for o in outcomes]


class EveryAgent:
    """Several agents' scorers as one: each case graded on each agent in turn."""

    engine = "agent"

    def __init__(self, scorers: list[AgentScorer]):
        self.scorers = scorers
        self.agents = [name for scorer in scorers for name in scorer.agents]

    @property
    def notes(self) -> list[str]:
        return [note for scorer in self.scorers for note in scorer.notes]

    def grade(self, candidate: Candidate, cases: list[Case]) -> list[Scored]:
        return [scored for scorer in self.scorers for scored in scorer.grade(candidate, cases)]


class LexicalScorer:
    """Each prompt ranked against the room's names and descriptions, the candidate's in place of the
    skill's: offline and free, an approximation of the agent, for screening."""

    engine = "lexical"

    def __init__(self, descriptions: Mapping[str, str], skill: str):
        self.descriptions, self.skill = dict(descriptions), skill
        self.agents = [self.engine]
        self.notes: list[str] = []

    def grade(self, candidate: Candidate, cases: list[Case]) -> list[Scored]:
        engine = LexicalEngine({**self.descriptions, self.skill: candidate.text})
        out = []
        for o in engine.grade_all(cases):
            if not o.graded:
                out.append(Scored(o.case, None, self.engine, error=o.error))
            else:
                passed = classify(o.expected, o.observed, o.case.unwanted_skill) in PASSING
                out.append(Scored(o.case, passed, self.engine, o.observed))
        return out
