"""Behavioral's steps of the paid leg loop: every case run to completion on each leg with one judge for
all, the result of each leg, its progress lines and its dry run."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from harness.behavioral.result import BehavioralMeta, BehavioralResult, CaseResult
from harness.behavioral.runner import (
    AGENT_TOOLS,
    PERMISSION_MODE,
    BehavioralRun,
    BehavioralSettings,
    SkillUnderTest,
    runs_of,
)
from harness.context import Context
from harness.model.dataset import Case
from harness.model.envelope import Halt
from harness.paid.command import NOT_PROBED, PaidRun
from harness.paid.legs import Leg, leg_settings
from harness.paid.loop import LegHooks, LegRun
from harness.paid.sandbox import SandboxUse
from harness.printable import clip

if TYPE_CHECKING:
    from harness.behavioral.matrix import BehavioralMatrix
    from harness.paid import dryrun


@dataclass
class BehavioralLegs(LegHooks[BehavioralRun, BehavioralResult]):
    """Behavioral's steps of the leg loop: every case run to completion on each leg, one judge for all."""

    paid: PaidRun
    settings: BehavioralSettings
    judge_runtime: str
    skills: dict[str, SkillUnderTest]
    cases: list[Case]

    @property
    def selected(self) -> int:
        return len(self.cases)

    def shared(self) -> list[str]:
        return [self.judge_runtime]  # one judge grades every model

    def plugin_room(self) -> dict[str, Path] | None:
        if self.settings.install != "plugin":
            return None
        return {name: skill.directory for name, skill in self.skills.items()}

    def halted(self, run: PaidRun, leg: Leg, halt: Halt) -> BehavioralResult:
        settings = leg_settings(self.settings, leg, None)
        return self.result_of(run, settings, [], halt)

    def runner(self, run: PaidRun, leg: Leg, label: str | None) -> BehavioralRun:
        paid = self.paid
        return BehavioralRun(
            run.ready(leg.agent),
            self.skills,
            leg_settings(self.settings, leg, label),
            paid.controls(),
            judge_agent=paid.ready(self.judge_runtime),
        )

    def dry_run(self, ctx: Context, legs: Sequence[LegRun[BehavioralRun]]) -> int:
        cli = self.paid.cli_lines()
        return max(dry_run(ctx, leg.runner, self.cases, cli, leg.label) for leg in legs)

    def run(self, leg: LegRun[BehavioralRun]) -> BehavioralResult:
        paid, cases, runner = self.paid, self.cases, leg.runner
        ready = runner.agent
        on = f"{ready.runtime} {ready.version}" + (f" on {leg.leg.model}" if leg.leg.model else "")
        paid.say(f"{len(cases)} case(s) of {', '.join(self.skills)}, {self.settings.jobs} at a time; {on}")
        probed = paid.probe_sandbox(ready)
        line = partial(progress_line, label=f" ({leg.name})" if leg.several else "")
        results = paid.run_with_progress(runner, cases, line)
        halt = paid.halt(len(cases), len(results))
        refused = next((why for c in results if (why := c.sandbox_refused)), None)
        sandbox = paid.sandbox_use(probed, [c.sandbox for c in results], refused)
        return self.result_of(leg.run, runner.settings, results, halt, paid.cache_notes(), sandbox)

    def result_of(
        self,
        paid: PaidRun,
        settings: BehavioralSettings,
        results: list[CaseResult],
        halt: Halt,
        notes: list[str] | None = None,
        sandbox: SandboxUse | None = None,
    ) -> BehavioralResult:
        """The behavioral result of what ran; the agent (the judge's) is absent when it never started."""
        judge = paid.readied.get(self.judge_runtime)
        meta = paid.meta(
            BehavioralMeta,
            halt=halt,
            notes=notes or [],
            sandbox=sandbox or paid.sandbox_use(NOT_PROBED),
            seen_model=seen_model(results, "agent"),
            judge_agent=self.judge_runtime,
            judge_version=judge.version if judge else None,
            judge_model=settings.judge_model or seen_model(results, "judge"),
            skills=list(self.skills),
            strict_isolation=settings.strict_isolation,
            require_evidence=settings.require_evidence,
            tripwire=settings.tripwire,
            scan=settings.scan,
            permission_mode=PERMISSION_MODE,
            allowed_tools=list(AGENT_TOOLS),
        )
        # Every file of each skill's folder: its dataset's hooks and fixtures are inputs of its grades too.
        meta.provenance = paid.provenance(
            {name: paid.repo.skill_dirs[name] for name in self.skills},
            self.cases,
            settings.cache_parts(),
            model=meta.model,
            judge=self.judge_runtime,
            shared_room=False,
        )
        meta.quarantine = paid.quarantined(c.case.id for c in results)
        return BehavioralResult(meta=meta, cases=results)

    def matrix(self, results: list[BehavioralResult], names: list[str]) -> BehavioralMatrix:
        from harness.behavioral.matrix import BehavioralMatrix  # several models only

        return BehavioralMatrix(results, names)

    def failure(self, result: BehavioralResult, label: str | None) -> str | None:
        if result.passed:
            return None
        counts = result.counts()
        why = " (the command's --timeout ran out)" if result.meta.timed_out else ""
        skipped = next((c.error for c in result.cases if c.not_run), None)
        not_run = f"; {counts['not_run']} did not run: {skipped.removeprefix('not run: ')}" if skipped else ""
        halt = result.meta.halt
        where = f" on {label}" if label else ""
        tripped = [c for c in result.cases if c.tripped]
        fired = (
            f" The tripwire fired on {len(tripped)} case(s), first {tripped[0].case.id}." if tripped else ""
        )
        return (
            f"failed{where}{why}: {counts['failed']} case(s) failed, {counts['errors']} errored and "
            f"{counts['blocked']} blocked of {counts['cases']}{not_run}."
            + (f" {halt.sentence()}" if halt.halted else "")
            + fired
        )


def progress_line(result: CaseResult, label: str = "") -> str:
    status = result.status.upper()
    case = f"{result.case.id}{label}"
    if result.blocked is not None:
        why = result.error.removeprefix("blocked: ") if result.error else result.blocked
        return f"  [{status}] {case} ({result.blocked}): {why} ({result.elapsed_s:.1f}s)"
    if result.error is not None and not result.unmet:
        return f"  [{status}] {case}: {result.error} ({result.elapsed_s:.1f}s)"
    line = f"  [{status}] {case}: {result.summary()} ({result.elapsed_s:.1f}s)"
    for check in result.unmet:
        line += f"\n      unmet {check.kind}: {check.expectation} -- {check.detail}"
    return line + (f"\n      not graded: {result.error}" if result.error is not None else "")


def seen_model(results: list[CaseResult], side: str) -> str | None:
    """The model the CLI reported, when none was asked for."""
    return next((getattr(r, side).model for r in results if getattr(r, side).model), None)


def planned_case(runner: BehavioralRun, case: Case, estimate: dryrun.Estimate) -> str:
    """A dry run's line for one case; the cost of its cached runs joins the estimate."""
    from harness.paid import dryrun

    assert case.skill is not None  # a behavioral case belongs to a skill
    hits = [runner.cached(runner.skills[case.skill], case, n) for n in range(runs_of(case))]
    for hit in hits:
        if hit is not None:
            usage = hit.agent.usage.plus(hit.judge.usage)
            estimate.cached.append(dryrun.Figures(usage.input_tokens, usage.output_tokens, hit.cost_usd))
    fixture = f"fixture {case.workspace}; " if case.workspace else ""
    held = sum(1 for hit in hits if hit is not None)
    if len(hits) > 1:  # a suite case's own `runs`
        cached = f"{len(hits)} runs (its `runs`), {held} cached"
    else:
        cached = "cached" if held else "not cached"
    return f"  {case.id} ({case.skill}): {fixture}{cached}; {clip(case.prompt, 80)}"


def dry_run(
    ctx: Context,
    runner: BehavioralRun,
    cases: list[Case],
    cli: list[str] | None = None,
    named: str | None = None,
) -> int:
    """Print what the run would do and cost; nothing is sent, nothing started (no preflight either).
    `cli`: where the agent's and the judge's CLIs are; `named`: the leg's name when it is one of several."""
    from harness.paid import dryrun  # a dry run's only

    argv, env = runner.agent.invocation(runner.spec(cases[0], Path("<workspace>")))
    # A plugin eval suite case runs its own `runs` times: every one is an agent run and a judge run.
    estimate = dryrun.Estimate(samples=sum(runs_of(c) for c in cases), requests_per_sample=(2, None))
    ctx.out("## Behavioral dry run: nothing was sent" + (f" ({named})" if named else ""))
    for line in cli or []:
        ctx.out(line)
    how = "its plugin installed" if runner.settings.install == "plugin" else "its own skill installed alone"
    ctx.out(f"Cases ({len(cases)}), each with {how}:")
    for case in cases:
        ctx.out(planned_case(runner, case, estimate))
    ctx.out("Agent command (one fresh workspace per case as its directory, the case's prompt on stdin):")
    ctx.out(f"  {dryrun.command_text(argv, env)}")
    ctx.out("A judge run (read-only tools) follows when a case has expected or unexpected behaviour.")
    if runner.settings.tripwire:
        ctx.out(
            "Tripwire: each case gets a fake ~/.ssh/id_rsa and ~/.aws/credentials in the agent's throwaway "
            "HOME and a .env in its workspace, and its tools a loopback proxy (HTTP(S)_PROXY, ALL_PROXY) "
            "that records and refuses every outbound attempt."
        )
    for line in estimate.lines():
        ctx.out(line)
    return 0
