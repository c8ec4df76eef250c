"""`skillscope routing --engine agent`: the room installed in each agent CLI, every case run and graded.

Imported only when an agent runs, so the free lexical engine starts without the agent machinery.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
from pathlib import Path

from harness import agent
from harness.cancel import Cancellation
from harness.checks.gate import require_well_formed
from harness.cli import flags, resolve
from harness.cli.flags import min_accuracy, parse_list
from harness.context import Context
from harness.deadline import Deadline
from harness.errors import UsageError
from harness.model import catalog
from harness.model.baseline import Adoption
from harness.model.catalog import Catalog
from harness.model.dataset import Case
from harness.model.envelope import Halt, RunMeta
from harness.model.repo import Repo
from harness.paid import AgentNotReady, dryrun, exit_code, halt_of, progress, ready_agent
from harness.paid.cache import ResultCache
from harness.paid.sandbox import SandboxUse
from harness.paid.sandbox import probe as probe_sandbox
from harness.paid.spend import RunBudget
from harness.report import publish
from harness.report.markdown import clip
from harness.routing import metrics
from harness.routing.matrix import RoutingMatrix
from harness.routing.metrics import CaseOutcome
from harness.routing.result import RoutingMeta, RoutingResult
from harness.routing.runner import RoutingRun, RoutingSettings


def run_agents(
    args: argparse.Namespace,
    ctx: Context,
    deadline: Deadline,
    cancel: Cancellation,
    loaded: Catalog,
    room: list[str],
    adoption: Adoption,
) -> int:
    """Gate the room, ready every agent --agent names, then run the selected cases on each in turn."""
    repo = loaded.repo
    skill_filter = parse_list("--skill", args.skill)
    require_well_formed(loaded, ctx, "the skills this run installs", adoption)
    pooled = loaded.cases(room, extended=args.extended) + loaded.negative_cases()
    cases = catalog.select_cases(pooled, parse_list("--only", args.only), skill_filter)
    if not cases:
        raise UsageError("no routing case selected; check --skill and --only.")
    readied = []
    for name in resolve.agents_of(args):  # every agent ready before any case spends a token
        try:
            readied.append(ready_agent(args, ctx, deadline, cancel, not args.dry_run, name))
        except AgentNotReady as exc:
            halt = halt_of(cancel, len(cases), 0, str(exc))
            publish(
                result_of(args, ctx, repo, deadline, room, [], None, halt, runtime=name),
                ctx,
                flags.report_options(args),
            )
            ctx.err(f"error: {exc}")
            return exit_code(False, cancel)
    repeat, adaptive = args.repeat
    settings = RoutingSettings(
        model=args.model,
        effort=args.effort,
        jobs=args.jobs,
        case_timeout=args.case_timeout,
        max_tool_calls=args.max_tool_calls,
        max_inspection_calls=args.max_inspection_calls,
        max_budget_usd=args.max_budget_usd,
        repeat=repeat,
        adaptive=adaptive,
        sandbox=args.sandbox,
        keep_logs=(ctx.cwd / args.keep_logs).resolve() if args.keep_logs else None,
    )
    folder = resolve.cache_folder(args, repo, ctx)
    results = ResultCache(folder) if folder else None
    budget = RunBudget(args.max_run_usd)  # --max-run-usd caps the whole command, every agent together
    matrix = len(readied) > 1
    runners = [
        RoutingRun(
            ready,
            {name: repo.skill_dirs[name] for name in room},
            per_agent_logs(settings, ready.runtime) if matrix else settings,
            deadline,
            cancel=cancel,
            results=results,
            budget=budget,
        )
        for ready in readied
    ]
    if args.dry_run:
        return max(dry_run(ctx, runner, cases, room, matrix) for runner in runners)
    times = f"up to {repeat}, until settled" if adaptive else str(repeat)
    done = []
    for runner in runners:
        ready = runner.agent
        ctx.err(
            f"[routing] {len(cases)} case(s) x {times} with {len(room)} skill(s) installed together: "
            f"{', '.join(room)}; {ready.runtime} {ready.version}"
        )
        sandbox = SandboxUse(False)
        if args.sandbox:  # the inspection before the decision runs commands too: confine them
            sandbox = SandboxUse.of(True, *probe_sandbox(ready, deadline, cancel))
            ctx.err(f"[routing] {sandbox.sentence()}")
        label = f" ({ready.runtime})" if matrix else ""
        with progress.on_stderr(ctx, len(cases)) as shown:
            runner.on_case_start = lambda case: shown.started(case.id)
            runner.on_case_done = lambda outcome, label=label: shown.finished(
                outcome.case.id, progress_line(outcome, label)
            )
            outcomes = runner.run(cases)
        halt = halt_of(cancel, len(cases), len(outcomes))
        notes = runner.notes + ([results.write_error] if results and results.write_error else [])
        notes += [said] if (said := sandbox.sentence()) else []
        done.append(result_of(args, ctx, repo, deadline, room, outcomes, ready, halt, notes, sandbox=sandbox))
    publish(done[0] if len(done) == 1 else RoutingMatrix(done), ctx, flags.report_options(args))
    for result in (r for r in done if not r.passed):
        reason = result.meta.halt.sentence() or (
            "the command's --timeout ran out" if result.meta.timed_out else result.gate.reason
        )
        where = f" on {result.meta.agent}" if matrix else ""
        ctx.err(f"[routing] failed{where}: {reason.rstrip('.')}.")
    return exit_code(all(r.passed for r in done), cancel)


def result_of(
    args: argparse.Namespace,
    ctx: Context,
    repo: Repo,
    deadline: Deadline,
    room: list[str],
    outcomes: list[CaseOutcome],
    ready: agent.Agent | None,
    halt: Halt,
    notes: list[str] | None = None,
    runtime: str | None = None,
    sandbox: SandboxUse | None = None,  # None: --sandbox not given
) -> RoutingResult:
    """The routing result of what ran on one agent; `ready` is None when the agent (`runtime`) never
    started."""
    bar = min_accuracy(args.min_accuracy)  # already checked before any token was spent
    repeat, adaptive = args.repeat
    folder = resolve.cache_folder(args, repo, ctx)
    meta = RoutingMeta(
        run=RunMeta.of("routing", repo, deadline),
        agent=ready.runtime if ready else (runtime or resolve.agents_of(args)[0]),
        agent_version=ready.version if ready else None,
        agent_path=ready.path if ready else None,
        model=args.model or seen_model(outcomes),
        effort=args.effort,
        room=room,
        extended=args.extended,
        jobs=args.jobs,
        repeat=repeat,
        case_timeout=args.case_timeout,
        max_tool_calls=args.max_tool_calls,
        max_inspection_calls=args.max_inspection_calls,
        max_budget_usd=args.max_budget_usd,
        min_accuracy=bar,
        isolation=ready.describe() if ready else {},
        timed_out=deadline.expired,
        strict=args.strict,
        notes=notes or [],
        halt=halt,
        adaptive=adaptive,
        max_run_usd=args.max_run_usd,
        cache=str(folder) if folder else None,
        sandbox=sandbox or SandboxUse(False),
        keep_logs=args.keep_logs or None,
    )
    return RoutingResult(meta=meta, outcomes=outcomes, gate=metrics.gate(outcomes, bar, args.strict))


def per_agent_logs(settings: RoutingSettings, runtime: str) -> RoutingSettings:
    """Each agent of a matrix keeps its transcripts in its own sub-folder of --keep-logs."""
    if settings.keep_logs is None:
        return settings
    return dataclasses.replace(settings, keep_logs=settings.keep_logs / runtime)


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


def dry_run(ctx: Context, runner: RoutingRun, cases: list[Case], room: list[str], named: bool = False) -> int:
    """Print what the run would do and cost; nothing is sent (no preflight either). `named`: the agent
    is one of several, so its name heads its part."""
    settings = runner.settings
    samples = settings.repeat
    argv, env = runner.agent.invocation(runner.spec(cases[0], Path("<workspace>")))
    # Each runtime spends its own number of requests on the deciding turn; the tool budgets add theirs.
    deciding = runner.agent.requests_to_decision
    estimate = dryrun.Estimate(
        samples=len(cases) * samples,
        requests_per_sample=(
            deciding,
            settings.max_tool_calls + settings.max_inspection_calls + math.ceil(deciding),
        ),
    )
    ctx.out("## Routing dry run: nothing was sent" + (f" ({runner.agent.runtime})" if named else ""))
    ctx.out(f"Room ({len(room)}): {', '.join(room)}")
    how = f"up to {samples} sample(s), until settled" if settings.adaptive else f"{samples} sample(s)"
    ctx.out(f"Cases ({len(cases)}), {how} each:")
    for case in cases:
        hits = [hit for n in range(samples) if (hit := runner.cached(case, n)) is not None]
        estimate.cached += [dryrun.Figures(h.input_tokens, h.output_tokens, h.cost_usd) for h in hits]
        cached = f"{len(hits)}/{samples} cached" if hits else "not cached"
        ctx.out(
            f"  {case.id}: expects {case.expected_skill or 'no skill'}; {cached}; {clip(case.prompt, 80)}"
        )
    ctx.out("Command (one fresh workspace per sample as its directory, the case's prompt on stdin):")
    ctx.out(f"  {dryrun.command_text(argv, env)}")
    for line in estimate.lines():
        ctx.out(line)
    return 0
