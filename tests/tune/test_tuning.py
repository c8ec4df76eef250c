"""The tuning loop with a scripted grader: what is graded on which split, and when the loop stops."""

from __future__ import annotations

from pathlib import Path

from harness.model.dataset import Case
from harness.model.skill import Skill
from harness.tune.candidates import Candidate
from harness.tune.propose import Failure
from harness.tune.scoring import Scored
from harness.tune.split import FINAL, TRAIN, VALIDATION, split
from harness.tune.tuning import CHOSEN, SCORED, STOPPED, Plan, Tuner


def pool(positives: int = 12) -> list[Case]:
    out = [Case(f"alpha-pos-{n}", f"alpha {n}", True, "alpha", "a.json") for n in range(positives)]
    out += [Case(f"alpha-neg-{n}", f"near {n}", False, "alpha", "a.json") for n in range(12)]
    return out


class Scripted:
    """`rules[text](case, part)` says whether the description passes the case; every call is logged."""

    engine = "agent"
    agents = ["scripted"]
    notes: list[str] = []

    def __init__(self, plan: Plan, rules):
        self.rules, self.calls = rules, []
        self.part_of = {c.id: part for part, cases in plan.split.parts.items() for c in cases}

    def grade(self, candidate: Candidate, cases: list[Case]) -> list[Scored]:
        self.calls += [(candidate.text, self.part_of[c.id]) for c in cases]
        return [Scored(c, self.rules[candidate.text](c, self.part_of[c.id]), "scripted") for c in cases]


def plan_of(*texts: str, propose: int = 0, positives: int = 12) -> Plan:
    skill = Skill("alpha", Path("alpha"), frontmatter={"description": "current"})
    return Plan(skill, split(pool(positives), "alpha", 0), {}, list(texts), propose, 1, 0.05)


def unstaged(skill, candidate, under):
    return candidate


def current(case, part):
    return not case.should_trigger  # misses every positive


def test_a_candidate_better_on_final_only_is_never_chosen_and_final_is_then_never_graded():
    plan = plan_of("final-only")
    rules = {"current": current, "final-only": lambda case, part: part == FINAL or current(case, part)}
    grader = Scripted(plan, rules)
    tuned = Tuner(plan, grader, Path(), lambda: None, stage=unstaged).run()
    assert tuned.chosen is None and tuned.arms[0].status == SCORED
    assert FINAL not in {part for _, part in grader.calls}


def test_the_chosen_candidate_and_the_current_one_are_the_only_ones_graded_on_final():
    plan = plan_of("good", "also-ok", positives=24)  # 8 validation positives: enough to beat the noise
    rules = {
        "current": current,
        "good": lambda case, part: True,
        "also-ok": lambda case, part: case.id.endswith("1"),
    }
    grader = Scripted(plan, rules)
    tuned = Tuner(plan, grader, Path(), lambda: None, stage=unstaged).run()
    assert tuned.chosen == "file-1" and tuned.arms[0].status == CHOSEN
    on_final = {text for text, part in grader.calls if part == FINAL}
    assert on_final == {"current", "good"}
    assert tuned.final["scripted"].wins == sum(1 for c in plan.split.parts[FINAL] if c.should_trigger)


def test_a_clearly_worse_candidate_is_stopped_on_train_and_never_graded_on_validation():
    plan = plan_of("broken")
    rules = {"current": lambda case, part: True, "broken": lambda case, part: False}
    grader = Scripted(plan, rules)
    tuned = Tuner(plan, grader, Path(), lambda: None, stage=unstaged).run()
    assert tuned.arms[0].status == STOPPED
    assert ("broken", VALIDATION) not in grader.calls
    assert sum(1 for text, _ in grader.calls if text == "broken") < len(plan.split.parts[TRAIN])


def test_the_proposer_is_handed_train_failures_only():
    plan = plan_of(propose=2)
    handed: list[list[Failure]] = []

    def proposer(description, failures, count):
        handed.append(failures)
        return ["good"], None

    grader = Scripted(plan, {"current": current, "good": lambda case, part: True})
    Tuner(plan, grader, Path(), lambda: None, proposer, stage=unstaged).run()
    train_prompts = {c.prompt for c in plan.split.parts[TRAIN]}
    assert handed and {f.prompt for f in handed[0]} == {
        c.prompt for c in plan.split.parts[TRAIN] if c.should_trigger
    }
    assert {f.prompt for f in handed[0]} <= train_prompts


def test_a_halted_run_chooses_nothing():
    plan = plan_of("good")
    grader = Scripted(plan, {"current": current, "good": lambda case, part: True})
    calls = iter([None, None, None, None, "the run's --max-run-usd was reached"])
    tuned = Tuner(plan, grader, Path(), lambda: next(calls, "stopped"), stage=unstaged).run()
    assert tuned.halted and tuned.chosen is None
    assert FINAL not in {part for _, part in grader.calls}


def test_when_every_train_case_of_the_current_description_errors_no_candidate_is_run():
    plan = plan_of("good")
    grader = Scripted(plan, {"current": lambda case, part: None, "good": lambda case, part: True})
    tuned = Tuner(plan, grader, Path(), lambda: None, stage=unstaged).run()
    assert tuned.halted and tuned.halted.startswith("no train case of the current description was graded")
    assert {text for text, _ in grader.calls} == {"current"}


def test_when_every_proposal_call_fails_the_run_halts_rather_than_keeping_the_description():
    """An overloaded API is no evidence that the current description is best: with no candidate graded,
    the run stopped, and says why."""
    plan = plan_of(propose=2)
    failed = "the proposal call failed (the API answered 529 (overloaded))"
    grader = Scripted(plan, {"current": current})
    tuned = Tuner(plan, grader, Path(), lambda: None, lambda *_: ([], failed), stage=unstaged).run()
    assert tuned.halted == f"no candidate to score: round 1: {failed}"
    assert tuned.chosen is None and tuned.tried == 0


def test_a_proposal_that_fails_beside_file_candidates_leaves_them_to_be_graded():
    plan = plan_of("good", propose=2)
    grader = Scripted(plan, {"current": current, "good": lambda case, part: True})
    failed = "the proposal call failed (the API answered 529 (overloaded))"
    tuned = Tuner(plan, grader, Path(), lambda: None, lambda *_: ([], failed), stage=unstaged).run()
    assert tuned.halted is None and tuned.tried == 1
