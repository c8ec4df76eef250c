"""Both sides of a compare on one pool, their samples submitted A, B, A, B, so drift in the
API (load, a model update mid-run) falls on both sides alike."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from harness.behavioral import hooks as hooks_mod
from harness.behavioral.result import CaseResult
from harness.behavioral.runner import BehavioralRun, SkillUnderTest
from harness.model.dataset import Case
from harness.routing.metrics import CaseOutcome
from harness.routing.runner import RoutingRun


def run_routing(
    baseline: RoutingRun,
    candidate: RoutingRun,
    cases: list[Case],
    jobs: int,
    repeat: int,
    on_case_done: Callable[[CaseOutcome, CaseOutcome], None] = lambda base, cand: None,
) -> list[tuple[CaseOutcome, CaseOutcome]]:
    """Every case `repeat` times on each side; returns (baseline, candidate) outcomes of the cases
    finished on both sides (all of them unless the command was cancelled). A false case whose `owner`
    a side does not install is never run on that side: it is not graded there, and says why."""
    pairs = [(side_outcome(baseline, case), side_outcome(candidate, case)) for case in cases]

    def finished(base: CaseOutcome, cand: CaseOutcome) -> bool:
        return all(len(o.samples) == (0 if o.ungradable else repeat) for o in (base, cand))

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {}
        for n in range(repeat):
            for base, cand in pairs:
                if not base.ungradable:
                    futures[pool.submit(baseline.finished_sample, base, n)] = (base, base, cand)
                if not cand.ungradable:
                    futures[pool.submit(candidate.finished_sample, cand, n)] = (cand, base, cand)
        for base, cand in pairs:
            if base.ungradable and cand.ungradable:
                on_case_done(base, cand)
        for future in as_completed(futures):
            outcome, base, cand = futures[future]
            sample = future.result()
            if sample is None:  # cancelled: never graded
                continue
            outcome.samples.append(sample)
            if finished(base, cand):
                on_case_done(base, cand)
    return [(b, c) for b, c in pairs if finished(b, c)]


def side_outcome(side: RoutingRun, case: Case) -> CaseOutcome:
    """A case's outcome on one side, ungradable there when it is a false case whose owner the side does
    not install. (Only an owner: with/without leaves the skill itself out of the baseline on purpose.)"""
    owned = case.owner is not None and not case.should_trigger
    return CaseOutcome(case, ungradable=side.ungradable(case) if owned else "")


def run_behavioral(
    baseline: BehavioralRun,
    candidate: BehavioralRun,
    sides: Mapping[str, tuple[SkillUnderTest, SkillUnderTest]],
    cases: list[Case],
    jobs: int,
    repeat: int,
    temp_parent: Path | None,
) -> list[tuple[Case, list[CaseResult], list[CaseResult]]]:
    """Every case `repeat` times on each side, one skill's hooks session shared by both sides (the
    cases, fixtures and hooks are the candidate's); returns (case, baseline runs, candidate runs)
    of the cases finished on both sides (all of them unless the command was cancelled)."""
    results: dict[str, tuple[list[CaseResult], list[CaseResult]]] = {case.id: ([], []) for case in cases}
    for name, (base_skill, cand_skill) in sides.items():
        group = [case for case in cases if case.skill == name]
        with hooks_mod.session(cand_skill.hooks, temp_parent) as session:
            if session.error:
                for case in group:
                    for runs in results[case.id]:
                        runs.append(CaseResult(case, error=session.error))
                continue
            with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
                futures = {}
                for n in range(repeat):
                    for case in group:
                        base = pool.submit(baseline.sample, base_skill, case, session.placeholders, n)
                        cand = pool.submit(candidate.sample, cand_skill, case, session.placeholders, n)
                        futures[base], futures[cand] = results[case.id][0], results[case.id][1]
                for future in as_completed(futures):
                    result = future.result()
                    if result is not None:  # None: cancelled, never graded
                        futures[future].append(result)
    finished = [(case, *results[case.id]) for case in cases]
    return [(case, b, c) for case, b, c in finished if len(b) == len(c) == repeat]
