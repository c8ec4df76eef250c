"""Both sides of a routing compare on one pool, their samples submitted A, B, A, B, so drift in the
API (load, a model update mid-run) falls on both sides alike."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed

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
    """Every case `repeat` times on each side; returns (baseline, candidate) outcomes per case."""
    pairs = [(CaseOutcome(case), CaseOutcome(case)) for case in cases]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {}
        for n in range(repeat):
            for base, cand in pairs:
                futures[pool.submit(baseline.run_sample, base, n)] = (base, base, cand)
                futures[pool.submit(candidate.run_sample, cand, n)] = (cand, base, cand)
        for future in as_completed(futures):
            outcome, base, cand = futures[future]
            outcome.samples.append(future.result())
            if len(base.samples) == len(cand.samples) == repeat:
                on_case_done(base, cand)
    return pairs
