"""Compare's steps of the paid leg loop: the whole comparison on each leg (a model), both sides
interleaved; its dry run, and the sentence that says why a compare failed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from harness.compare.matrix import CompareMatrix
from harness.compare.modes import BehavioralCompare, RoutingCompare, Shared
from harness.compare.plan import (
    Live,
    Planned,
    compared,
    live_meta,
    mode_of,
    shared_of,
)
from harness.compare.result import CompareResult
from harness.context import Context
from harness.model.envelope import Halt
from harness.paid import exit_code
from harness.paid.command import PaidRun
from harness.paid.legs import Leg
from harness.paid.loop import LegHooks, LegRun


@dataclass
class CompareLegs(LegHooks[Shared, CompareResult]):
    """Compare's steps of the leg loop: the whole comparison on each leg (a model), both sides
    interleaved; every leg's agents ready before any case runs."""

    planned: dict[Leg, Planned]
    names: list[str]
    room: list[str]

    def __post_init__(self) -> None:
        self.first = next(iter(self.planned.values()))
        self.agents: dict[Leg, Shared] = {}

    @property
    def selected(self) -> int:
        return sum(len(m.cases) for m in self.first.modes)

    def ready(self, run: PaidRun, leg: Leg) -> None:
        self.agents[leg] = shared_of(self.planned[leg])

    def halted(self, run: PaidRun, leg: Leg, halt: Halt) -> CompareResult:
        """A report of a compare whose agent could not start (on the first leg's plan)."""
        plan = self.first
        meta = live_meta(plan.paid, plan.live, self.names, mode_of(plan.modes), {}, [], halt)
        return CompareResult(meta=meta, cases=[])

    def runner(self, run: PaidRun, leg: Leg, label: str | None) -> Shared:
        return self.agents[leg]

    def dry_run(self, ctx: Context, legs: Sequence[LegRun[Shared]]) -> int:
        return max(
            dry_run(ctx, plan.live, leg.runner, plan.modes, plan.paid.cli_lines(), leg.label)
            for leg in legs
            for plan in [self.planned[leg.leg]]
        )

    def run(self, leg: LegRun[Shared]) -> CompareResult:
        return compared(self.planned[leg.leg], leg.runner, self.names, self.room)

    def matrix(self, results: list[CompareResult], names: list[str]) -> CompareMatrix:
        return CompareMatrix(results, names)

    def failure(self, result: CompareResult, label: str | None) -> str | None:
        """With one leg: how the run was halted, else why it failed; with several, each leg that failed."""
        halted = result.meta.halt.sentence()
        if label is None:
            if halted:
                return halted
            return f"failed: {failure(result)}." if exit_code(result.passed, self.first.paid.cancel) else None
        if result.passed:
            return None
        return f"failed on {label}: {halted or failure(result) + '.'}"


def dry_run(
    ctx: Context,
    live: Live,
    shared: Shared,
    modes: list[RoutingCompare | BehavioralCompare],
    cli: list[str] | None = None,
    label: str | None = None,
) -> int:
    """Print what the compare would run and cost; nothing is sent, nothing started (no preflight
    either), no report. `cli`: where each CLI it would use is; `label`: the model's leg, when the
    compare runs on several."""
    ctx.out("## Compare dry run: nothing was sent" + (f" ({label})" if label else ""))
    ctx.out(
        f"Baseline {live.baseline}, candidate {live.candidate}; "
        f"{live.repeat} run(s) of each case on each side, interleaved."
    )
    for line in cli or []:
        ctx.out(line)
    for mode in modes:
        for line in mode.dry_run(shared):
            ctx.out(line)
    return 0


def failure(result: CompareResult) -> str:
    if blocked := result.canary_failure:
        return f"the routing mode graded no case, since a canary failed: {blocked.rstrip('.')}"
    if result.not_run:
        runs = [r for c in result.not_run for r in c.baseline.runs + c.candidate.runs if r.not_run]
        why = next((r.error for r in runs if r.error), "the run reached its --max-run-usd")
        return f"{len(result.not_run)} case(s) did not run on both sides: {why.removeprefix('not run: ')}"
    if result.failing:
        return f"{len(result.failing)} regression(s); pass --allow-regressions to only report them"
    short = result.short_modes()
    if short and result.compared:
        return "; ".join(
            f"{mode}: {got} case(s) graded on both sides, fewer than --min-pairs {result.meta.min_pairs} "
            "(every other run errored: an outage compares nothing)"
            for mode, got in short.items()
        )
    return "no case was graded on both sides, so nothing was compared"
