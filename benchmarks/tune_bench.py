"""Samples `skillscope tune` spends against the exhaustive schedule (a benchmark, not a test).

A synthetic room: the tuned skill's positives and a neighbour's, near misses and shared negatives, and a
scripted grader standing in for the agent, so the figures are samples (one model request each, with the
stop at the decision) and not seconds. The current description misses its positives and fires on some
near misses; of the candidates the first fixes both, the others get every case wrong. The sequential
schedule is
the tuner itself (early stop on train, validation for survivors, final once); the exhaustive one grades
every description on every case. Both must choose the same candidate. Target: at least 30 % fewer
samples at the same choice on 3 candidates and 30 cases.

    python benchmarks/tune_bench.py [--cases 30] [--candidates 3] [--seed 0]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from harness.model.dataset import Case
from harness.model.skill import Skill
from harness.tune import selection
from harness.tune.candidates import Candidate
from harness.tune.scoring import Scored
from harness.tune.split import PARTS, VALIDATION, split
from harness.tune.tuning import Plan, Tuner

TARGET = 0.30


def room(cases: int) -> list[Case]:
    """40 % the skill's positives, 20 % a neighbour's, the rest near misses and shared negatives."""
    own, theirs = int(cases * 0.4), int(cases * 0.2)
    out = [Case(f"alpha-pos-{n}", f"alpha {n}", True, "alpha", "a.json") for n in range(own)]
    out += [Case(f"beta-pos-{n}", f"beta {n}", True, "beta", "b.json") for n in range(theirs)]
    out += [
        Case(f"alpha-neg-{n}", f"near {n}", False, "alpha", "a.json") for n in range(cases - own - theirs)
    ]
    return out


class Scripted:
    """The grader: `current` misses the skill's positives and fires on its even-numbered near misses;
    `good` passes everything; the others get every case wrong (a broken description). Counts the samples
    it is asked for."""

    engine = "agent"
    agents = ["scripted"]
    notes: list[str] = []

    def __init__(self) -> None:
        self.samples = 0

    def grade(self, candidate: Candidate, cases: list[Case]) -> list[Scored]:
        self.samples += len(cases)
        return [Scored(c, self.passes(candidate.text, c), "scripted") for c in cases]

    @staticmethod
    def passes(description: str, case: Case) -> bool:
        number = int(case.id.rsplit("-", 1)[1])
        if description == "good":
            return True
        if description == "current":
            return case.expected_skill != "alpha" and not (case.skill == "alpha" and number % 2 == 0)
        return False


def exhaustive_choice(plan: Plan, texts: list[str]) -> str | None:
    """Every description graded on every part; the same rule picks on validation."""

    def scores(text: str) -> dict[str, Scored]:
        return {c.id: Scored(c, Scripted.passes(text, c), "scripted") for c in plan.split.parts[VALIDATION]}

    current = scores("current")
    labels = {f"file-{n + 1}": scores(text) for n, text in enumerate(texts)}
    judged = selection.judge(current, labels, len(texts), plan.alpha, {"beta"})
    return selection.choose(judged)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=30)
    parser.add_argument("--candidates", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    pooled = room(args.cases)
    texts = ["good", *(f"bad {n}" for n in range(1, args.candidates))]
    skill = Skill("alpha", Path("alpha"), frontmatter={"description": "current"})
    plan = Plan(skill, split(pooled, "alpha", args.seed), {"beta": "beta"}, texts, 0, 1, 0.05)
    grader = Scripted()
    # Nothing to stage: the scripted grader reads the candidate's text.
    tuned = Tuner(plan, grader, Path(), lambda: None, stage=lambda skill, candidate, under: candidate).run()
    exhaustive = len(pooled) * (1 + len(texts))
    saved = 1 - grader.samples / exhaustive
    sizes = ", ".join(f"{part} {len(plan.split.parts[part])}" for part in PARTS)
    same = tuned.chosen == exhaustive_choice(plan, texts)
    print(f"room: {len(pooled)} cases ({sizes}), {len(texts)} candidate(s), seed {args.seed}")
    for arm in tuned.arms:
        print(f"  {arm.label}: {arm.status}; {sum(len(p) for p in arm.scores.values())} sample(s)")
    print(f"samples: sequential {grader.samples}, exhaustive {exhaustive}: {100 * saved:.0f} % fewer")
    print(f"chosen: {tuned.chosen}; same as the exhaustive schedule's: {same}")
    verdict = "meets" if saved >= TARGET and same else "MISSES"
    print(f"target: at least {100 * TARGET:.0f} % fewer at the same choice: {verdict}")


if __name__ == "__main__":
    main()
