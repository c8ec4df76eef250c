"""`skillscope compare`: two versions of a skill, or with and without it, graded on the same cases."""

from __future__ import annotations

import argparse
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

from harness import options
from harness.compare import interleave, reports, versions
from harness.compare.labels import label
from harness.compare.result import CaseComparison, CompareMeta, CompareResult
from harness.compare.sides import SideRecord, routing_runs
from harness.context import Context
from harness.deadline import Deadline
from harness.envelope import RunMeta
from harness.errors import UsageError
from harness.model import baseline as baseline_file
from harness.model import catalog
from harness.model.repo import Repo
from harness.options import ReportOptions, parse_list
from harness.paid import ready_agent, require_well_formed
from harness.report import finish
from harness.routing.metrics import CaseOutcome
from harness.routing.result import case_json
from harness.routing.room import resolve_room
from harness.routing.runner import RoutingRun, RoutingSettings

HELP = "compare two versions of a skill (or with and without it) case by case: regressions, improvements"
MODES = ("routing", "behavioral")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--reports",
        nargs=2,
        metavar=("OLD", "NEW"),
        help="compare two existing routing or behavioral JSON reports, offline (no agent, no tokens)",
    )
    parser.add_argument(
        "--mode", choices=MODES, default="routing", help="what a live compare grades (default: routing)"
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
    options.add_skills_dir(parser)
    parser.add_argument(
        "--routing-room",
        metavar="SKILLS",
        help="skills installed side by side on both sides: a,b or all (default: --skill)",
    )
    options.add_case_selection(parser)
    options.add_agent(parser)
    parser.add_argument(
        "--jobs",
        type=options.positive_int,
        default=4,
        help="runs at once, both sides on one pool (default: 4)",
    )
    parser.add_argument(
        "--repeat",
        type=options.positive_int,
        default=3,
        metavar="N",
        help="runs of each case on each side, interleaved A, B, A, B (default: 3)",
    )
    parser.add_argument(
        "--case-timeout",
        type=options.non_negative,
        default=240.0,
        metavar="SECONDS",
        help="limit for one run (default: 240)",
    )
    parser.add_argument(
        "--max-tool-calls",
        type=options.positive_int,
        default=4,
        metavar="N",
        help="routing: stop a run after N tool calls without a skill decision (default: 4)",
    )
    parser.add_argument(
        "--max-inspection-calls",
        type=options.positive_int,
        default=8,
        metavar="N",
        help="routing: stop a run after N calls that only read the installed skills (default: 8)",
    )
    parser.add_argument(
        "--max-budget-usd",
        type=options.non_negative,
        default=0.75,
        metavar="USD",
        help="spend cap per run, passed to claude; 0 turns it off (default: 0.75)",
    )
    parser.add_argument(
        "--allow-regressions",
        action="store_true",
        help="report regressions without failing (exit 0 unless nothing could be compared)",
    )
    options.add_negatives(parser)
    parser.add_argument(
        "--warn",
        metavar="RULES",
        help="structural rules the gate before the run reports as warnings (the repo's "
        ".skillscope/baseline.json applies when present)",
    )
    options.add_reports(parser, junit=True)
    options.add_timeout(parser, default=1800)


def run(args: argparse.Namespace, ctx: Context) -> int:
    if args.reports:
        return run_reports(args, ctx)
    if args.mode == "behavioral":
        raise UsageError("--mode behavioral runs only from reports for now: use --reports OLD NEW.")
    return run_routing(args, ctx)


def run_reports(args: argparse.Namespace, ctx: Context) -> int:
    """The comparison of two reports already written: the candidate's cases decide what is compared."""
    deadline = Deadline(0)
    repo = options.resolve_repo(args, ctx)
    paths = [ctx.cwd / Path(name) for name in args.reports]
    old, new = (reports.load(path) for path in paths)
    cases = reports.compare(old, new, tuple(args.reports))
    gone = reports.dropped(old, new)
    notes = [f"{len(gone)} baseline case(s) not in the candidate report: {', '.join(gone)}"] if gone else []
    meta = CompareMeta(
        run=RunMeta.of("compare", repo, deadline),
        mode=new["command"],
        baseline=args.reports[0],
        candidate=args.reports[1],
        source="reports",
        repeat=max((len(c.candidate.runs) for c in cases), default=1),
        allow_regressions=args.allow_regressions,
        skills=sorted({c.skill for c in cases if c.skill}),
        notes=notes,
    )
    return conclude(CompareResult(meta=meta, cases=cases), ctx, args)


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


def run_routing(args: argparse.Namespace, ctx: Context) -> int:
    """Both versions in the same room on the candidate's cases, their runs interleaved on one pool."""
    deadline = Deadline(args.timeout)
    repo = options.resolve_repo(args, ctx)
    names = compared_skills(args, repo)
    room = resolve_room(args.routing_room, repo, names)
    with ExitStack() as stack:
        base = side_dirs(stack, args.baseline, "--baseline", repo, names, ctx)
        cand = side_dirs(stack, args.candidate, "--candidate", repo, names, ctx)
        candidate_repo = replace(repo, skill_dirs={**repo.skill_dirs, **cand})
        loaded = catalog.load(candidate_repo, room, options.negatives_from(args))
        adoption = options.Adoption(
            baseline_file.load(None, repo.root, ctx.cwd), tuple(parse_list("--warn", args.warn))
        )
        require_well_formed(loaded, ctx, "the skills this compare installs", adoption)
        pooled = loaded.cases(room, extended=args.extended) + loaded.negative_cases()
        cases = catalog.select_cases(pooled, parse_list("--only", args.only), names)
        if not cases:
            raise UsageError("no routing case selected; check --skill and --only.")
        ready = ready_agent(args, ctx)
        rooms = side_rooms(room, candidate_repo, base)
        ctx.err(
            f"[compare] {len(cases)} case(s) x {args.repeat} on each side, interleaved; baseline "
            f"{args.baseline}, candidate {args.candidate or versions.WORKING_TREE}; "
            f"{ready.runtime} {ready.version}"
        )
        runs = {
            side: RoutingRun(ready, rooms[side], routing_settings(args, ctx, side), deadline)
            for side in ("baseline", "candidate")
        }
        pairs = interleave.run_routing(
            runs["baseline"],
            runs["candidate"],
            cases,
            args.jobs,
            args.repeat,
            on_case_done=lambda b, c: ctx.err(progress_line(b, c)),
        )
    meta = CompareMeta(
        run=RunMeta.of("compare", repo, deadline),
        mode="routing",
        baseline=args.baseline,
        candidate=args.candidate or versions.WORKING_TREE,
        source="live",
        repeat=args.repeat,
        allow_regressions=args.allow_regressions,
        skills=names,
        agent=agent_meta(ready, args, room),
        notes=list(dict.fromkeys(runs["baseline"].notes + runs["candidate"].notes)),
    )
    if deadline.expired:
        meta.notes.append("The command's --timeout ran out: runs not finished are errors.")
    return conclude(CompareResult(meta=meta, cases=[comparison(b, c) for b, c in pairs]), ctx, args)


def side_dirs(
    stack: ExitStack, spec: str | None, flag: str, repo: Repo, names: list[str], ctx: Context
) -> dict[str, Path | None]:
    """Each compared skill's folder in the version `spec` names, kept until `stack` closes."""
    return {
        name: stack.enter_context(
            versions.materialised(spec, repo.skill_dirs[name], ctx.cwd, flag, ctx.environ)
        )
        for name in names
    }


def side_rooms(room: list[str], candidate_repo: Repo, baseline: dict[str, Path | None]) -> dict[str, dict]:
    """The same room on both sides but for the compared skills' versions (absent: --baseline none)."""
    candidate = {name: candidate_repo.skill_dirs[name] for name in room}
    swapped = {name: baseline.get(name, path) for name, path in candidate.items()}
    return {"candidate": candidate, "baseline": {n: p for n, p in swapped.items() if p is not None}}


def routing_settings(args: argparse.Namespace, ctx: Context, side: str) -> RoutingSettings:
    logs = (ctx.cwd / args.keep_logs / side).resolve() if args.keep_logs else None
    return RoutingSettings(
        model=args.model,
        effort=args.effort,
        jobs=args.jobs,
        case_timeout=args.case_timeout,
        max_tool_calls=args.max_tool_calls,
        max_inspection_calls=args.max_inspection_calls,
        max_budget_usd=args.max_budget_usd,
        repeat=args.repeat,
        keep_logs=logs,
    )


def agent_meta(ready, args: argparse.Namespace, room: list[str]) -> dict:
    return {
        "runtime": ready.runtime,
        "version": ready.version,
        "model": args.model,
        "effort": args.effort,
        "room": room,
        "isolation": ready.describe(),
    }


def comparison(base: CaseOutcome, cand: CaseOutcome) -> CaseComparison:
    case = cand.case
    return CaseComparison(
        id=case.id,
        skill=case.skill,
        source=case.source,
        line=case.line,
        prompt=case.prompt,
        expect=case.expected_skill,
        baseline=SideRecord(routing_runs(case_json(base))),
        candidate=SideRecord(routing_runs(case_json(cand))),
    )


def progress_line(base: CaseOutcome, cand: CaseOutcome) -> str:
    before, after = SideRecord(routing_runs(case_json(base))), SideRecord(routing_runs(case_json(cand)))
    found = label(before.side, after.side)
    return (
        f"  [{found}] {cand.case.id}: baseline {before.outcome or 'error'} -> "
        f"candidate {after.outcome or 'error'}"
    )


def conclude(result: CompareResult, ctx: Context, args: argparse.Namespace) -> int:
    code = finish(result, ctx, ReportOptions.from_args(args))
    if code:
        found = len(result.regressions)
        reason = (
            f"{found} regression(s); pass --allow-regressions to only report them"
            if found
            else "no case was graded on both sides, so nothing was compared"
        )
        ctx.err(f"[compare] failed: {reason}.")
    return code
