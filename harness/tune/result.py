"""The tune result: the split, every candidate's scores with intervals and why its scoring ended, the
choice, the final estimate, the diff of SKILL.md and the spend. Every tune report renders from it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from harness.model.envelope import ERROR, FAIL, PASS, RunMeta, counts, envelope
from harness.model.stats import wilson_interval
from harness.tune.split import FINAL, PARTS, Split
from harness.tune.tuning import CHOSEN, REJECTED, STOPPED, Arm, Tuned

if TYPE_CHECKING:  # the canary runs an agent, which a lexical tuning never loads
    from harness.routing.canary import Checked

RULE = (
    "Train: graded in looks; a candidate stops early when an exact one-sided sign test on the cases it "
    "and the current description disagree on says it is worse at 0.2 / looks. Validation: each "
    "candidate that finished train is paired with the current description; its gain in accuracy gets a "
    "one-sided Clopper-Pearson bound (on the share of disagreeing cases it wins) at 1 - alpha / m, m "
    "the candidates tried; chosen: the largest gain whose interval lies above zero and that makes no "
    "case a neighbour expects fail. Final: graded once for the chosen candidate and the current "
    "description, the honest estimate; it never selects. Errored or unrun cases pair with nothing."
)


@dataclass
class TuneMeta:
    run: RunMeta
    skill: str
    skill_md: str  # root-relative
    room: list[str]
    engine: str
    agent: str | None  # every agent, comma-separated
    agent_version: str | None
    model: str | None
    confidence: float
    repeat: int
    adaptive: bool
    rounds: int
    propose: int
    candidates_file: str | None
    max_run_usd: float
    cache: str | None
    extended: bool = True

    def to_json(self) -> dict:
        return {
            **self.run.to_json(),
            "skill": self.skill,
            "skill_md": self.skill_md,
            "room": self.room,
            "engine": self.engine,
            "agent": self.agent,
            "agent_version": self.agent_version,
            "model": self.model,
            "confidence": self.confidence,
            "repeat": self.repeat,
            "adaptive": self.adaptive,
            "rounds": self.rounds,
            "propose": self.propose,
            "candidates_file": self.candidates_file,
            "max_run_usd": self.max_run_usd,
            "cache": self.cache,
            "extended": self.extended,
        }


def accuracy_json(arm: Arm, part: str) -> dict | None:
    if part not in arm.scores:
        return None
    passed, graded = arm.accuracy(part)
    interval = wilson_interval(passed, graded)
    return {
        "passed": passed,
        "graded": graded,
        "ungraded": len(arm.scores[part]) - graded,
        "accuracy": round(passed / graded, 4) if graded else None,
        "ci95": [round(interval[0], 4), round(interval[1], 4)] if interval else None,
    }


def arm_json(arm: Arm, tuned: Tuned) -> dict:
    judged = tuned.judged.get(arm.label)
    return {
        **arm.candidate.to_json(),
        "status": arm.status,
        "reason": arm.reason,
        "scores": {part: accuracy_json(arm, part) for part in PARTS if part in arm.scores},
        "looks": [look.to_json() for look in arm.looks],
        "validation": judged.to_json() if judged else None,
        "cases": {part: [s.to_json() for s in scored.values()] for part, scored in arm.scores.items()},
        "spend": spend(arm),
    }


def spend(arm: Arm) -> dict:
    scored = [s for part in arm.scores.values() for s in part.values()]
    return {
        "samples_run": sum(s.samples for s in scored),
        "cached_samples": sum(s.cached for s in scored),
        "cost_usd": round(sum(s.cost_usd for s in scored), 6),
    }


@dataclass
class TuneResult:
    meta: TuneMeta
    split: Split
    tuned: Tuned
    diff: str = ""  # unified diff of SKILL.md for the chosen candidate; empty when none was chosen
    applied: bool = False
    proposal_cost_usd: float = 0.0
    notes: list[str] = field(default_factory=list)
    command: str = "tune"
    canary: list[Checked] = field(default_factory=list)  # agent engine: each agent's canary, run first

    @property
    def passed(self) -> bool:
        """A tuning that ran to its end passed, whether or not a candidate beat the noise; a halted one,
        or one whose current description could not be graded at all, did not."""
        if self.tuned.halted:
            return False
        return self.tuned.current.accuracy("train")[1] > 0

    @property
    def chosen(self) -> Arm | None:
        return next((a for a in self.tuned.arms if a.status == CHOSEN), None)

    def statuses(self) -> dict[str, str]:
        words = {}
        for arm in self.tuned.arms:
            if arm.status == REJECTED or arm.status == STOPPED:
                words[arm.label] = FAIL
            elif arm.status in ("not-scored", "trained"):
                words[arm.label] = ERROR
            else:
                words[arm.label] = PASS if arm.status == CHOSEN else FAIL
        return words

    def canary_cost(self) -> float:
        """What the canaries' own runs spent now (a replay spends nothing)."""
        samples = [c.verdict.sample for c in self.canary]
        return round(sum(s.cost_usd or 0.0 for s in samples if s is not None and not s.cached), 6)

    def total_cost(self) -> float:
        arms = [self.tuned.current, *self.tuned.arms]
        spent = sum(spend(a)["cost_usd"] for a in arms) + self.proposal_cost_usd + self.canary_cost()
        return round(spent, 6)

    def to_json(self) -> dict:
        tuned = self.tuned
        chosen = self.chosen
        final = None
        if chosen is not None and tuned.final:
            alpha = 1 - self.meta.confidence
            final = {
                "candidate": chosen.label,
                "current": accuracy_json(tuned.current, FINAL),
                "chosen": accuracy_json(chosen, FINAL),
                "gain": {agent: pairs.to_json(alpha) for agent, pairs in tuned.final.items()},
            }
        arms = [tuned.current, *tuned.arms]
        return {
            **envelope(self.meta.run, self.passed, counts(list(self.statuses().values()))),
            "meta": self.meta.to_json(),
            "rule": RULE,
            "split": self.split.to_json(),
            "current": arm_json(tuned.current, tuned),
            "candidates": [arm_json(a, tuned) for a in tuned.arms],
            "tried": tuned.tried,
            "chosen": chosen.label if chosen else None,
            "verdict": self.verdict(),
            "final": final,
            "diff": self.diff or None,
            "applied": self.applied,
            "halted": tuned.halted,
            "canary": [c.to_json() for c in self.canary],
            "spend": {
                "cost_usd": self.total_cost(),
                "proposal_cost_usd": round(self.proposal_cost_usd, 6),
                "canary_cost_usd": self.canary_cost(),
                "samples_run": sum(spend(a)["samples_run"] for a in arms),
                "cached_samples": sum(spend(a)["cached_samples"] for a in arms),
            },
            "notes": tuned.notes + self.notes,
        }

    def verdict(self) -> str:
        """The run's answer in one sentence."""
        tuned = self.tuned
        if tuned.halted:
            return f"stopped before the end ({tuned.halted}); nothing was chosen from a partial run"
        if self.chosen is not None:
            return f"{self.chosen.label} beats the current description beyond noise on validation"
        if not tuned.tried:
            return "no candidate reached scoring, so the current description stays"
        return "no candidate beat the current description beyond noise; keep it (that is a result)"
