"""`skillscope compare`: two versions of a skill, or with and without it, graded on the same cases."""

from __future__ import annotations

import argparse
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

from harness.cancel import Cancellation, on_signals
from harness.checks.gate import require_well_formed
from harness.cli import flags, resolve
from harness.cli.flags import Limit, parse_list
from harness.cli.options import PaidFlags, compare_modes, paid_flags
from harness.cli.paid import paid_run
from harness.compare import reports, versions
from harness.compare.legs import CompareLegs, failure
from harness.compare.plan import (
    Live,
    Planned,
    Versions,
    candidate_dirs,
    chosen_modes,
    side_dirs,
)
from harness.compare.result import BOTH
from harness.context import Context
from harness.deadline import Deadline
from harness.errors import UsageError
from harness.model import catalog
from harness.model.envelope import RunMeta
from harness.model.repo import Repo
from harness.paid import legs as legs_mod
from harness.paid.loop import run_legs
from harness.report import ReportOptions, finish, publish
from harness.routing.room import HELP as ROOM_HELP
from harness.routing.room import resolve_room

HELP = "compare two versions of a skill (or with and without it) case by case: regressions, improvements"
MODES = ("routing", "behavioral", BOTH)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--reports",
        nargs=2,
        metavar=("OLD", "NEW"),
        help="compare two existing routing or behavioral JSON reports, offline (no agent, no tokens)",
    )
    parser.add_argument(
        "--mode",
        choices=MODES,
        help="what a live compare grades; both: routing, then behavioral (default: both when a selected case "
        "carries an expectation, else routing)",
    )
    parser.add_argument(
        "--baseline",
        metavar="REF|PATH|none",
        default="HEAD",
        help="the version compared against: a git ref, the skill's folder, or none (the skill not "
        "installed) (default: HEAD)",
    )
    parser.add_argument(
        "--candidate",
        metavar="REF|PATH",
        help="the version under test: a git ref or the skill's folder (default: the working tree)",
    )
    flags.add_skills_dir(parser)
    flags.add_routing_room(parser, f"{ROOM_HELP}, on both sides (default: --skill)")
    flags.add_case_selection(parser)
    flags.add_agent(parser, choose=True, models=True)
    parser.add_argument(
        "--baseline-agent",
        choices=flags.AGENTS,
        help="run the baseline side on this agent instead, to compare two agents side by side (give "
        "--baseline the skill's folder to hold the version still) (default: --agent)",
    )
    parser.add_argument(
        "--baseline-model",
        type=flags.blank_is_unset,
        metavar="MODEL",
        help="run the baseline side on this model instead, to compare two models side by side (give "
        "--baseline the skill's folder to hold the version still) (default: --model)",
    )
    flags.add_judge(
        parser,
        agent="behavioral: the agent CLI that runs the judge of both sides",
        model="behavioral: the judge's model on both sides",
    )
    flags.add_strict_isolation(parser)
    flags.add_run_limits(
        parser,
        jobs=Limit(4, "runs at once, both sides on one pool"),
        case_timeout=Limit(None, "limit for one run", shown="240 routing, 900 behavioral"),
        max_budget_usd=Limit(
            None, "spend cap per run, passed to claude; 0 turns it off", shown="0.75 routing, 5 behavioral"
        ),
    )
    parser.add_argument(
        "--repeat",
        type=flags.positive_int,
        default=3,
        metavar="N",
        help="runs of each case on each side, interleaved A, B, A, B (default: 3)",
    )
    flags.add_routing_stops(parser, unit="routing run")
    parser.add_argument(
        "--min-pairs",
        type=flags.positive_int,
        default=1,
        metavar="N",
        help="cases each mode must grade on both sides, or the comparison is an error: an outage that "
        "errors every run compares nothing and must not pass (default: 1)",
    )
    parser.add_argument(
        "--allow-regressions",
        action="store_true",
        help="report regressions without failing (exit 0 unless nothing could be compared)",
    )
    flags.add_negatives(parser)
    flags.add_warn(
        parser,
        "structural rules the gate before the run reports as warnings (the repo's "
        ".skillscope/baseline.json applies when present)",
    )
    flags.add_strict(parser)
    flags.add_no_canary(parser, "routing mode: skip the canary")
    flags.add_paid_run(parser)
    flags.add_reports(parser)
    flags.add_timeout(parser, default=1800)


# Each mode's own defaults for the flags both share, as `skillscope routing` and `behavioral` have them.


def run(args: argparse.Namespace, ctx: Context) -> int:
    written = flags.report_options(args)  # a report flag that cannot work is a usage error before any token
    if args.reports:
        return run_reports(args, ctx, written)
    spending = paid_flags(args, written)  # so is a bad --agent or --model list
    # A cancelling signal stops new runs and kills running ones; cases finished on both sides are reported.
    with on_signals(Cancellation()) as cancel:
        return run_live(args, spending, ctx, cancel)


def run_reports(args: argparse.Namespace, ctx: Context, written: ReportOptions) -> int:
    """The comparison of two reports already written: the candidate's cases decide what is compared."""
    deadline = Deadline(0)  # started first: the run's time counts the reading of both reports
    repo = resolve.resolve_repo(args, ctx)
    paths = [ctx.cwd / Path(name) for name in args.reports]
    old, new = (reports.load(path) for path in paths)
    run = RunMeta.of("compare", repo, deadline)
    result = reports.result_of(
        old,
        new,
        tuple(args.reports),
        run,
        allow_regressions=args.allow_regressions,
        min_pairs=args.min_pairs,
        strict=args.strict,
    )
    code = finish(result, ctx, written)
    if code:
        ctx.err(f"[compare] failed: {failure(result)}.")
    return code


def compared_skills(args: argparse.Namespace, repo: Repo) -> list[str]:
    names = parse_list("--skill", args.skill)
    if not names:
        raise UsageError(
            "a live compare needs --skill NAME[,NAME]: the skills whose two versions are compared."
        )
    catalog.load(repo, names)  # an unknown name stops here, with the skills found
    if args.candidate == versions.NONE:
        raise UsageError("--candidate none compares nothing; give a git ref or a folder, or leave it out.")
    return names


def run_live(args: argparse.Namespace, spending: PaidFlags, ctx: Context, cancel: Cancellation) -> int:
    """Both versions on the candidate's cases, in each mode chosen, their runs interleaved on one pool;
    with --model naming several, the whole comparison on each model, side by side."""
    deadline = Deadline(args.timeout)
    several = len(spending.legs) > 1
    for flag, given in (("--baseline-model", args.baseline_model), ("--baseline-agent", args.baseline_agent)):
        if several and given:
            raise UsageError(
                f"{flag} runs the baseline side elsewhere, while --model naming several compares both "
                f"versions on each model; give one --model, or leave {flag} out."
            )
    repo = resolve.resolve_repo(args, ctx)
    names = compared_skills(args, repo)
    room = resolve_room(parse_list("--routing-room", args.routing_room), repo, names)
    with ExitStack() as stack:
        base = side_dirs(stack, args.baseline, "--baseline", repo, names, ctx)
        cand = candidate_dirs(stack, args.candidate, repo, names, ctx)
        candidate = replace(repo, skill_dirs={**repo.skill_dirs, **cand})
        loaded = catalog.load(candidate, list(dict.fromkeys([*room, *names])), resolve.negatives_from(args))
        # Its --baseline names a version, so the repo's own baseline file is the one in force.
        adopted = resolve.adoption(args, repo.root, ctx.cwd, baseline_flag=False)
        require_well_formed(loaded, ctx, "the skills this compare installs", adopted)
        paid = paid_run(spending, ctx, repo, deadline, cancel, publish)
        found = Versions(repo, candidate, base, cand)
        legs = paid.legs()
        labels = legs_mod.labels(legs)
        judge_model = args.judge_model or legs[0].model  # one judge for every model, as in behavioral
        chosen = compare_modes(args)
        planned = []
        for leg, label in zip(legs, labels, strict=True):
            on = paid.on_model(leg.model)
            logs = on.settings.logs
            if several and logs is not None:  # each model's transcripts in a folder of its own
                logs = logs / label
            live = Live(
                baseline=args.baseline,
                candidate=args.candidate or versions.WORKING_TREE,
                baseline_agent=args.baseline_agent or paid.settings.agents[0],
                baseline_model=args.baseline_model or leg.model,
                judge_agent=args.judge_agent,
                repeat=args.repeat,
                allow_regressions=args.allow_regressions,
                min_pairs=args.min_pairs,
            )
            modes = chosen_modes(chosen, on, found, loaded, names, room, logs, judge_model)
            planned.append(Planned(on, live, modes))
        return run_legs(paid, CompareLegs(dict(zip(legs, planned, strict=True)), names, room))
