"""Routing's steps of the paid leg loop: the room installed in each leg's agent, every case routed,
the result of each leg, its progress lines and its dry run."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from pathlib import Path

from harness.agent.workspace import ANSWER_KEY_DIR
from harness.context import Context
from harness.model.dataset import Case
from harness.model.envelope import Halt
from harness.model.listing import listing_rule
from harness.paid import dryrun
from harness.paid.command import PaidRun
from harness.paid.legs import Leg, leg_settings
from harness.paid.loop import LegHooks, LegRun
from harness.paid.sandbox import SandboxUse
from harness.printable import clip
from harness.routing import canary, listed, metrics
from harness.routing.matrix import RoutingMatrix
from harness.routing.metrics import CaseOutcome
from harness.routing.result import RoutingMeta, RoutingResult
from harness.routing.runner import RoutingRun, RoutingSettings


@dataclass
class RoutingLegs(LegHooks[RoutingRun, RoutingResult]):
    """Routing's steps of the leg loop: the room installed in each leg's agent, every case routed."""

    paid: PaidRun
    settings: RoutingSettings
    bar: Fraction
    room: list[str]
    cases: list[Case]
    outside: list[str]
    widen: Callable[[Sequence[str]], str] | None = None

    def __post_init__(self) -> None:
        self.installed = {name: self.paid.repo.skill_dirs[name] for name in self.room}

    @property
    def selected(self) -> int:
        return len(self.cases)

    def plugin_room(self) -> Mapping[str, Path] | None:
        return self.installed if self.settings.install == "plugin" else None

    def halted(self, run: PaidRun, leg: Leg, halt: Halt) -> RoutingResult:
        settings = leg_settings(self.settings, leg, None)
        return self.result_of(run, settings, [], halt, runtime=leg.agent)

    def runner(self, run: PaidRun, leg: Leg, label: str | None) -> RoutingRun:
        return RoutingRun(
            run.ready(leg.agent),
            self.installed,
            leg_settings(self.settings, leg, label),
            self.paid.controls(),
            widen=self.widen,
        )

    def dry_run(self, ctx: Context, legs: Sequence[LegRun[RoutingRun]]) -> int:
        cli = self.paid.cli_lines
        return max(
            dry_run(ctx, leg.runner, self.cases, self.room, leg.label, cli(leg.leg.agent), self.outside)
            for leg in legs
        )

    def run(self, leg: LegRun[RoutingRun]) -> RoutingResult:
        paid, settings, cases, runner = self.paid, self.settings, self.cases, leg.runner
        times = f"up to {settings.repeat}, until settled" if settings.adaptive else str(settings.repeat)
        ready = runner.agent
        on_model = f" on {leg.leg.model}" if leg.leg.model else ""
        paid.say(
            f"{len(cases)} case(s) x {times} with {len(self.room)} skill(s) installed together: "
            f"{', '.join(self.room)}; {ready.runtime} {ready.version}{on_model}"
        )
        # Before money is spent, once a run: every leg has the same room, so a matrix says it on its first.
        for note in self.outside if leg.leg == paid.legs()[0] else []:
            paid.say(note)
        # The inspection before the decision runs commands too: --sandbox confines them.
        probed = paid.probe_sandbox(ready)
        checked = canary.check(runner) if runner.settings.canary else canary.skipped()
        paid.say(checked.line(leg.label or ""))
        if checked.blocks:
            outcomes = canary.unrun(cases, checked)
        else:
            line = partial(progress_line, label=f" ({leg.name})" if leg.several else "")
            outcomes = paid.run_with_progress(runner, cases, line)
        halt = paid.halt(len(cases), len(outcomes))
        sandbox = sandbox_said(paid, probed, outcomes)
        notes = runner.notes + paid.cache_notes() + self.outside
        notes += [said] if (said := sandbox.sentence()) else []
        return self.result_of(
            leg.run, runner.settings, outcomes, halt, notes, sandbox, leg.leg.agent, checked
        )

    def result_of(
        self,
        paid: PaidRun,
        settings: RoutingSettings,
        outcomes: list[CaseOutcome],
        halt: Halt,
        notes: list[str] | None = None,
        sandbox: SandboxUse | None = None,  # None: --sandbox not given, or no agent started
        runtime: str | None = None,
        checked: canary.Verdict | None = None,  # None: the agent never started
    ) -> RoutingResult:
        """The routing result of what ran on one agent (`runtime`); its agent is absent when it never
        started. A canary that failed (`checked`) makes it an error, whatever the cases say."""
        ready = paid.readied.get(runtime or paid.settings.agents[0])
        meta = paid.meta(
            RoutingMeta,
            runtime=runtime,
            halt=halt,
            notes=notes or [],
            sandbox=sandbox or SandboxUse(False),
            seen_model=seen_model(outcomes),
            agent_path=ready.path if ready else None,
            room=self.room,
            repeat=settings.repeat,
            max_tool_calls=settings.max_tool_calls,
            max_inspection_calls=settings.max_inspection_calls,
            min_accuracy=self.bar,
            adaptive=settings.adaptive,
            canary=checked,
        )
        meta.provenance = paid.provenance(
            self.installed,
            [o.case for o in outcomes],
            settings.cache_parts(),
            model=meta.model,
            runtime=runtime,
            skip_top=(ANSWER_KEY_DIR,),  # what the room installs: the datasets stay out of the agent's reach
        )
        meta.quarantine = paid.quarantined(o.case.id for o in outcomes)
        rule = ready.listing if ready else listing_rule(runtime or paid.settings.agents[0])
        shown = listed.room_listing(rule, listed.descriptions(self.installed), meta.model)
        meta.listing = listed.to_json(shown)
        meta.notes += [said] if (said := listed.sentence(shown)) else []
        listed.mark(outcomes, shown)
        judged = canary.gate(checked) or metrics.gate(
            outcomes, self.bar, paid.settings.strict, meta.quarantined
        )
        return RoutingResult(meta=meta, outcomes=outcomes, gate=judged)

    def matrix(self, results: list[RoutingResult], names: list[str]) -> RoutingMatrix:
        return RoutingMatrix(results, names)

    def failure(self, result: RoutingResult, label: str | None) -> str | None:
        if result.passed:
            return None
        reason = result.meta.halt.sentence() or (
            "the command's --timeout ran out" if result.meta.timed_out else result.gate.reason
        )
        where = f" on {label}" if label else ""
        return f"failed{where}: {reason.rstrip('.')}."


def progress_line(outcome: CaseOutcome, label: str = "") -> str:
    status = "PASS" if outcome.passed else ("FAIL" if outcome.graded else outcome.verdict.upper())
    sample = outcome.representative
    stop = sample.stop_reason if sample else "-"
    seconds = sum(s.elapsed_s for s in outcome.samples)
    verdict = f"({outcome.verdict}, {stop}, {seconds:.1f}s)"
    return f"  [{status}] {outcome.case.id}{label}: {outcome.summary} {verdict}"


def seen_model(outcomes: list[CaseOutcome]) -> str | None:
    """The model the CLI reported at init, when none was asked for."""
    return next((s.model for o in outcomes for s in o.samples if s.model), None)


def dry_run(
    ctx: Context,
    runner: RoutingRun,
    cases: list[Case],
    room: list[str],
    named: str | None = None,
    cli: list[str] | None = None,
    outside: list[str] | None = None,
) -> int:
    """Print what the run would do and cost; nothing is sent, nothing started (no preflight either).
    `named`: the leg's name when it is one of several, heading its part; `cli`: where its CLI is."""
    argv, env = runner.agent.invocation(runner.spec(cases[0], Path("<workspace>")))
    estimate = dry_run_estimate(runner, cases)
    dry_run_heading(ctx, room, named, cli, outside)
    said, replay = canary.dry_run_line(runner)
    ctx.out(said)
    if runner.settings.canary:
        estimate.add_canary(replay)
    dry_run_cases(ctx, runner, cases, estimate)
    ctx.out("Command (one fresh workspace per sample as its directory, the case's prompt on stdin):")
    ctx.out(f"  {dryrun.command_text(argv, env)}")
    for line in estimate.lines():
        ctx.out(line)
    return 0


def dry_run_estimate(runner: RoutingRun, cases: list[Case]) -> dryrun.Estimate:
    """The requests and spend of the gradable cases' samples, before the canary and the cache count."""
    settings = runner.settings
    # Each runtime spends its own number of requests on the deciding turn; the tool budgets add theirs.
    deciding = runner.agent.requests_to_decision
    gradable = [case for case in cases if not runner.ungradable(case)]
    return dryrun.Estimate(
        samples=len(gradable) * settings.repeat,
        requests_per_sample=(
            deciding,
            settings.max_tool_calls + settings.max_inspection_calls + math.ceil(deciding),
        ),
        run_cap_usd=settings.max_budget_usd if runner.agent.caps_run_spend() else None,
    )


def dry_run_heading(
    ctx: Context, room: list[str], named: str | None, cli: list[str] | None, outside: list[str] | None
) -> None:
    """The dry run's title, where the CLI is, the room and the notes on skills outside it."""
    ctx.out("## Routing dry run: nothing was sent" + (f" ({named})" if named else ""))
    for line in cli or []:
        ctx.out(line)
    ctx.out(f"Room ({len(room)}): {', '.join(room)}")
    for note in outside or []:
        ctx.out(note)


def dry_run_cases(ctx: Context, runner: RoutingRun, cases: list[Case], estimate: dryrun.Estimate) -> None:
    """One line a case: why it will not run, or what it expects and how many samples are cached
    (those are added to `estimate`)."""
    settings = runner.settings
    samples = settings.repeat
    how = f"up to {samples} sample(s), until settled" if settings.adaptive else f"{samples} sample(s)"
    ctx.out(f"Cases ({len(cases)}), {how} each:")
    for case in cases:
        if why := runner.ungradable(case):
            ctx.out(f"  {case.id}: not run, not graded: {why}")
            continue
        hits = [hit for n in range(samples) if (hit := runner.cached(case, n)) is not None]
        estimate.cached += [dryrun.Figures(h.input_tokens, h.output_tokens, h.cost_usd) for h in hits]
        cached = f"{len(hits)}/{samples} cached" if hits else "not cached"
        ctx.out(f"  {case.id}: expects {metrics.expects(case)}; {cached}; {clip(case.prompt, 80)}")


def sandbox_said(
    paid: PaidRun, probed: tuple[bool | None, str | None], outcomes: Sequence[CaseOutcome]
) -> SandboxUse:
    """What the report says of --sandbox: the probe's word before the runs, each run's CLI's after."""
    samples = [sample for outcome in outcomes for sample in outcome.samples]
    off = next((sample.sandbox_off for sample in samples if sample.sandbox_off), None)
    return paid.sandbox_use(probed, [sample.sandbox for sample in samples], off)
