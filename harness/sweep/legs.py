"""The agent sweep's steps of the paid leg loop: at each size the catalog and that size's ballast
installed in each leg's agent, every case routed there; what each leg started and spent, and its dry run."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from harness.agent import Agent
from harness.context import Context
from harness.model.dataset import Case
from harness.model.envelope import Halt
from harness.model.listing import predict
from harness.paid import dryrun
from harness.paid.command import PaidRun
from harness.paid.legs import Leg, leg_settings
from harness.paid.loop import LegHooks, LegRun
from harness.routing import canary
from harness.routing.metrics import CaseOutcome
from harness.routing.runner import RoutingRun, RoutingSettings
from harness.sweep import result as sweep_result
from harness.sweep import rooms
from harness.sweep.plan import Plan
from harness.sweep.runner import Graded, SweepData, shown_states
from harness.sweep.runner import Leg as SweepLeg


@dataclass
class Spent:
    """What one leg started and spent, for the report and the dry run's promise."""

    agent_starts: int = 0
    reported: int = 0  # case runs that finished (a cancelling signal stops the rest)
    cached: int = 0
    cost_usd: float = 0.0
    errors: int = 0
    notes: list[str] = field(default_factory=list)

    def add(self, outcomes: Sequence[CaseOutcome]) -> None:
        self.reported += len(outcomes)
        for outcome in outcomes:
            self.errors += not outcome.graded
            for sample in outcome.samples:
                self.cached += sample.cached
                self.agent_starts += not (sample.cached or sample.not_run)
                self.cost_usd += 0.0 if sample.cached else sample.cost_usd or 0.0

    def to_json(self) -> dict:
        return {
            "agent_starts": self.agent_starts,
            "cached_samples": self.cached,
            "cost_usd": round(self.cost_usd, 6),
            "errors": self.errors,
            "notes": self.notes,
        }


@dataclass
class SweepLegs(LegHooks[Agent, sweep_result.SweepResult]):
    """The agent sweep's steps of the leg loop: each leg's agent given every size's room in turn."""

    paid: PaidRun
    settings: RoutingSettings
    plan: Plan

    @property
    def selected(self) -> int:
        return self.plan.runs

    def runner(self, run: PaidRun, leg: Leg, label: str | None) -> Agent:
        return run.ready(leg.agent)

    def routing(self, agent: Agent, leg: Leg, room: dict[str, Path], label: str | None) -> RoutingRun:
        return RoutingRun(agent, room, leg_settings(self.settings, leg, label), self.paid.controls())

    def halted(self, run: PaidRun, leg: Leg, halt: Halt) -> sweep_result.SweepResult:
        return self.plan.report(run.run_meta(), [], {"halt": halt.sentence(), **Spent().to_json()})

    def room(
        self, ordering: Sequence[tuple[str, str]], size: int, folders: dict[str, Path]
    ) -> dict[str, Path]:
        return rooms.room_at(self.plan.catalog, ordering, size, folders)

    def dry_run(self, ctx: Context, legs: Sequence[LegRun[Agent]]) -> int:
        plan = self.plan
        orderings = plan.orderings()
        ctx.out("## Sweep dry run (agent engine): nothing was sent")
        ctx.out(
            f"Sizes {', '.join(map(str, plan.sizes))} x {plan.repeats} ordering(s) of the ballast "
            f"({plan.ballast.source}), {len(plan.cases)} case(s) at each, one sample each"
        )
        with rooms.ballast_folders(rooms.needed(orderings, plan.sizes[-1], len(plan.catalog))) as folders:
            for leg in legs:
                self.dry_run_leg(ctx, leg, orderings, folders)
        return 0

    def dry_run_leg(
        self,
        ctx: Context,
        leg: LegRun[Agent],
        orderings: list[list[tuple[str, str]]],
        folders: dict[str, Path],
    ) -> None:
        """One leg's plan: the agent starts it takes and their estimate (cached samples start none)."""
        plan, deciding = self.plan, leg.runner.requests_to_decision
        estimate = dryrun.Estimate(requests_per_sample=(deciding, math.ceil(deciding)))
        first = self.routing(leg.runner, leg.leg, self.room(orderings[0], plan.sizes[0], folders), None)
        if self.settings.canary:
            _, replay = canary.dry_run_line(first)
            estimate.add_canary(replay)
        for ordering in orderings:
            for size in plan.sizes:
                runner = self.routing(leg.runner, leg.leg, self.room(ordering, size, folders), None)
                hits = [hit for case in plan.cases if (hit := runner.cached(case, 0)) is not None]
                estimate.samples += len(plan.cases)
                estimate.cached += [dryrun.Figures(h.input_tokens, h.output_tokens, h.cost_usd) for h in hits]
        ctx.out(f"### {leg.name}" if leg.several else f"Agent: {leg.name}")
        for line in self.paid.cli_lines(leg.leg.agent):
            ctx.out(line)
        canary_said = "the canary, then " if self.settings.canary else ""
        ctx.out(
            f"Agent starts: {estimate.to_run} ({canary_said}{len(plan.cases)} case(s) x {len(plan.sizes)} "
            f"size(s) x {plan.repeats} ordering(s); {len(estimate.cached)} from the result cache)"
        )
        for line in estimate.lines():
            ctx.out(line)

    def run(self, leg: LegRun[Agent]) -> sweep_result.SweepResult:
        plan, paid = self.plan, self.paid
        sweep_leg = SweepLeg(leg.leg.agent, leg.leg.model)
        data = SweepData(plan.sizes, plan.repeats, plan.cases, [sweep_leg])
        data.data[sweep_leg] = [[] for _ in plan.sizes]
        spent = Spent()
        orderings = plan.orderings()
        rule = leg.runner.listing
        scores = plan.usage.scores(rule)
        with rooms.ballast_folders(rooms.needed(orderings, plan.sizes[-1], len(plan.catalog))) as folders:
            blocked = self.canary(leg, self.room(orderings[0], plan.sizes[0], folders), spent)
            for repeat, ordering in enumerate(orderings):
                described = {**dict(ordering), **plan.described}
                for index, size in enumerate(plan.sizes):
                    room = self.room(ordering, size, folders)
                    stopped = blocked or paid.cancel.is_set()
                    outcomes = [] if stopped else self.route(leg, room, size, repeat)
                    spent.add(outcomes)
                    listing = predict(rule, [(n, described[n]) for n in room], leg.leg.model, usage=scores)
                    shown = shown_states(listing, plan.described)
                    data.data[sweep_leg][index].append(graded(plan.cases, outcomes, shown))
        halt = paid.halt(plan.runs, spent.reported)
        legs = sweep_result.build(data, plan.seed)
        run = {"halt": halt.sentence(), **spent.to_json()}
        done = [dataclasses.replace(built, agent_version=leg.runner.version, run=run) for built in legs]
        return plan.report(paid.run_meta(), done, run)

    def canary(self, leg: LegRun[Agent], room: dict[str, Path], spent: Spent) -> bool:
        """The canary once on the leg's agent, beside the smallest room: True when it blocks every case
        (its activations cannot be seen, so no case may be graded)."""
        if not self.settings.canary:
            return False
        checked = canary.check(self.routing(leg.runner, leg.leg, room, leg.label))
        self.paid.say(checked.line(leg.label or ""))
        sample = checked.sample
        if sample is not None and not sample.cached:
            spent.agent_starts += 1
            spent.cost_usd += sample.cost_usd or 0.0
        if checked.blocks:
            spent.notes.append(checked.sentence or "the canary failed")
        return checked.blocks

    def route(self, leg: LegRun[Agent], room: dict[str, Path], size: int, repeat: int) -> list[CaseOutcome]:
        self.paid.say(
            f"{leg.name}: {size} skills installed (ordering {repeat + 1} of {self.plan.repeats}), "
            f"{len(self.plan.cases)} case(s)"
        )
        runner = self.routing(leg.runner, leg.leg, room, leg.label)
        return self.paid.run_with_progress(runner, self.plan.cases, partial(progress_line, size=size))

    def matrix(self, results: list[sweep_result.SweepResult], names: list[str]) -> sweep_result.SweepResult:
        merged = results[0]
        for other in results[1:]:
            merged.legs += other.legs
            merged.findings = []
            merged.gradings += other.gradings
            merged.run = sum_runs(merged.run, other.run)
        source = merged.ballast["source"]
        merged.findings = sweep_result.degradations(merged.legs, merged.places, len(merged.catalog), source)
        return merged

    def failure(self, result: sweep_result.SweepResult, label: str | None) -> str | None:
        return next(iter(result.failures(label)), None)


def graded(cases: list[Case], outcomes: list[CaseOutcome], shown: dict[str, tuple[str, int]]) -> Graded:
    """The cases' outcomes at one size in one repeat: passed or not where the agent decided, None where
    its run errored or never ran (graded on neither side)."""
    by_id = {outcome.case.id: outcome for outcome in outcomes}
    passed: list[bool | None] = []
    picks: list[str | None] = []
    for case in cases:
        outcome = by_id.get(case.id)
        decided = outcome is not None and outcome.graded
        passed.append(outcome.passed if decided and outcome is not None else None)
        picks.append(outcome.observed if decided and outcome is not None else None)
    return Graded(passed, picks, shown)


def sum_runs(first: dict | None, second: dict | None) -> dict | None:
    if first is None or second is None:
        return first or second
    out = dict(first)
    for key in ("agent_starts", "cached_samples", "cost_usd", "errors"):
        out[key] = first[key] + second[key]
    out["notes"] = first["notes"] + second["notes"]
    out["halt"] = first.get("halt") or second.get("halt")
    return out


def progress_line(outcome: CaseOutcome, size: int) -> str:
    status = "PASS" if outcome.passed else ("FAIL" if outcome.graded else outcome.verdict.upper())
    # An errored run is graded on neither side: the line says why, as no finding will.
    error = next((s.error for s in outcome.samples if s.error), None) if not outcome.graded else None
    return f"  [{status}] {outcome.case.id} at {size}: {outcome.summary}" + (f" ({error})" if error else "")
