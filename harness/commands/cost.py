"""`skillscope cost`: one prompt run to completion, with a skill and without it, measured side by side."""

from __future__ import annotations

import argparse
import dataclasses

from harness.cancel import Cancellation, on_signals
from harness.cli import flags, resolve
from harness.cli.flags import Limit, parse_list
from harness.cli.options import PaidFlags, paid_flags
from harness.cli.paid import paid_run
from harness.compare.cost import WITH, CostMeta, CostResult, dry_run, measure, sides
from harness.context import Context
from harness.deadline import Deadline
from harness.errors import UsageError
from harness.paid.legs import DEFAULT_MODEL
from harness.report import publish

HELP = "run one prompt to completion in an agent and measure it: skill fired, time, turns, tokens, cost"
# Why a cost run that did not pass failed, when no signal stopped it.
NOT_COMPARABLE = "a run did not finish, so its figures are not comparable (see the report)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("prompt", metavar="PROMPT", help="the prompt, as a user would type it")
    flags.add_skills_dir(parser)
    parser.add_argument("--skill", metavar="NAME", help="also run without this skill, side by side")
    parser.add_argument(
        "--room", metavar="SKILLS", help="skills installed for the run: a,b (default: --skill, else none)"
    )
    parser.add_argument(
        "--repeat", type=flags.positive_int, default=1, metavar="N", help="runs of each side (default: 1)"
    )
    flags.add_agent(parser, choose=True, models=True)
    flags.add_run_limits(
        parser,
        jobs=Limit(2, "runs at once, both sides on one pool"),
        case_timeout=Limit(900.0, "limit for one run"),
        max_budget_usd=Limit(5.0, "spend cap per run, passed to claude; 0 turns it off"),
    )
    flags.add_dry_run(parser)
    flags.add_yes(parser)
    flags.add_reports(parser)
    flags.add_timeout(parser, default=1800)


def run(args: argparse.Namespace, ctx: Context) -> int:
    given = paid_flags(args)  # a report flag that cannot work is a usage error before any token; so is a list
    # A cancelling signal kills the running runs; the finished ones are reported.
    with on_signals(Cancellation()) as cancel:
        return measure_prompt(args, given, ctx, cancel)


def measure_prompt(args: argparse.Namespace, given: PaidFlags, ctx: Context, cancel: Cancellation) -> int:
    deadline = Deadline(args.timeout)
    if not args.prompt.strip():
        raise UsageError("PROMPT is empty; give the text a user would type.")
    if len(given.agents) > 1:
        raise UsageError("--agent: cost measures one agent at a time; name one (--model takes a list).")
    repo = resolve.resolve_repo(args, ctx)
    room = sides(repo, parse_list("--room", args.room), args.skill)
    paid = paid_run(given, ctx, repo, deadline, cancel, publish)
    models = [leg.model for leg in paid.legs()]
    on_model = [paid.on_model(model) for model in models]
    for run in on_model:  # each model proven reachable before any run
        run.ready()
    ready = paid.ready()

    def plan(shown: Context) -> int:
        return max(
            dry_run(shown, run, ready, room, args.prompt, args.repeat, len(models) > 1) for run in on_model
        )

    if paid.settings.dry_run:
        return plan(ctx)
    if not paid.confirmed(plan):
        return 1
    runs = []
    for model, run in zip(models, on_model, strict=True):
        on = f"{ready.runtime} {ready.version}" + (f" on {model}" if model else "")
        paid.say(f"{args.repeat} run(s) on each side ({', '.join(room)}); {on}")
        settings = run.agent_settings()
        if len(models) > 1 and settings.keep_logs is not None:  # each model's logs in a folder of its own
            settings = dataclasses.replace(settings, keep_logs=settings.keep_logs / (model or DEFAULT_MODEL))
        measured = measure(ready, room, args.prompt, settings, args.repeat, deadline, cancel)
        runs += [dataclasses.replace(r, model=model) for r in measured]
    meta = CostMeta(
        run=paid.run_meta(),
        prompt=args.prompt,
        skill=args.skill,
        room=list(room[WITH]),
        repeat=args.repeat,
        agent={
            "runtime": ready.runtime,
            "version": ready.version,
            "model": models[0],
            "models": models,
            "effort": args.effort,
        },
        halt=paid.halt(args.repeat * len(room) * len(models), len(runs)),
    )
    return paid.finish_saying_why(CostResult(meta=meta, runs=runs), lambda: NOT_COMPARABLE)
