"""`skillscope compare`: two versions of a skill, or with and without it, graded on the same cases."""

from __future__ import annotations

import argparse
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

from harness import options
from harness.behavioral import hooks as behavioral_hooks
from harness.behavioral.result import CaseResult
from harness.behavioral.runner import BehavioralRun, BehavioralSettings, SkillUnderTest
from harness.behavioral.selection import behavioral_cases
from harness.cancel import Cancellation, on_signals
from harness.compare import interleave, reports, versions
from harness.compare.labels import label
from harness.compare.result import CaseComparison, CompareMeta, CompareResult
from harness.compare.sides import SideRecord, behavioral_run, routing_runs
from harness.context import Context
from harness.deadline import Deadline
from harness.envelope import RunMeta
from harness.errors import UsageError
from harness.model import baseline as baseline_file
from harness.model import catalog
from harness.model.dataset import Case
from harness.model.repo import Repo
from harness.options import ReportOptions, parse_list
from harness.paid import exit_code, halt_of, ready_agent, require_well_formed
from harness.report import finish
from harness.routing.metrics import CaseOutcome
from harness.routing.result import case_json
from harness.routing.room import resolve_room
from harness.routing.runner import RoutingRun, RoutingSettings

HELP = "compare two versions of a skill (or with and without it) case by case: regressions, improvements"
MODES = ("routing", "behavioral")
SIDES = ("baseline", "candidate")


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
        "--judge-model", metavar="MODEL", help="behavioral: the judge on both sides (default: --model)"
    )
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
        metavar="SECONDS",
        help="limit for one run (default: 240 routing, 900 behavioral)",
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
        metavar="USD",
        help="spend cap per run, passed to claude; 0 turns it off (default: 0.75 routing, 5 behavioral)",
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
    options.add_reports(parser)
    options.add_timeout(parser, default=1800)


# Each mode's own defaults for the flags both share, as `skillscope routing` and `behavioral` have them.
DEFAULTS = {
    "routing": {"case_timeout": 240.0, "max_budget_usd": 0.75},
    "behavioral": {"case_timeout": 900.0, "max_budget_usd": 5.0},
}


def run(args: argparse.Namespace, ctx: Context) -> int:
    ReportOptions.from_args(args)  # a report flag that cannot work is a usage error before any token
    for key, value in DEFAULTS[args.mode].items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if args.reports:
        return run_reports(args, ctx)
    # A cancelling signal stops new runs and kills running ones; cases finished on both sides are reported.
    with on_signals(Cancellation()) as cancel:
        if args.mode == "behavioral":
            return run_behavioral(args, ctx, cancel)
        return run_routing(args, ctx, cancel)


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


def run_routing(args: argparse.Namespace, ctx: Context, cancel: Cancellation) -> int:
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
        require_well_formed(loaded, ctx, "the skills this compare installs", adoption(args, repo, ctx))
        pooled = loaded.cases(room, extended=args.extended) + loaded.negative_cases()
        cases = at_home(catalog.select_cases(pooled, parse_list("--only", args.only), names), repo, cand)
        if not cases:
            raise UsageError("no routing case selected; check --skill and --only.")
        ready = ready_agent(args, ctx, deadline, cancel)
        rooms = side_rooms(room, candidate_repo, base)
        ctx.err(
            f"[compare] {len(cases)} case(s) x {args.repeat} on each side, interleaved; baseline "
            f"{args.baseline}, candidate {args.candidate or versions.WORKING_TREE}; "
            f"{ready.runtime} {ready.version}"
        )
        runs = {
            side: RoutingRun(ready, rooms[side], routing_settings(args, ctx, side), deadline, cancel=cancel)
            for side in SIDES
        }
        pairs = interleave.run_routing(
            runs["baseline"],
            runs["candidate"],
            cases,
            args.jobs,
            args.repeat,
            on_case_done=lambda b, c: ctx.err(progress_line(b, c)),
        )
    notes = list(dict.fromkeys(runs["baseline"].notes + runs["candidate"].notes))
    meta = live_meta(args, repo, deadline, names, agent_meta(ready, args, room), notes)
    meta.halt = halt_of(cancel, len(cases), len(pairs))
    return conclude(CompareResult(meta=meta, cases=[comparison(b, c) for b, c in pairs]), ctx, args, cancel)


def run_behavioral(args: argparse.Namespace, ctx: Context, cancel: Cancellation) -> int:
    """Both versions run each case to completion on the candidate's cases, fixtures and hooks."""
    deadline = Deadline(args.timeout)
    repo = options.resolve_repo(args, ctx)
    names = compared_skills(args, repo)
    with ExitStack() as stack:
        base = side_dirs(stack, args.baseline, "--baseline", repo, names, ctx)
        cand = side_dirs(stack, args.candidate, "--candidate", repo, names, ctx)
        candidate_repo = replace(repo, skill_dirs={**repo.skill_dirs, **cand})
        loaded = catalog.load(candidate_repo, names)
        require_well_formed(loaded, ctx, "the skills this compare grades", adoption(args, repo, ctx))
        hooks = {
            n: behavioral_hooks.load(n, cand[n], repo.rel(repo.skill_dirs[n] / behavioral_hooks.HOOKS_FILE))
            for n in names
        }
        chosen = catalog.select_cases(
            loaded.cases(names, extended=args.extended), parse_list("--only", args.only), names
        )
        cases = at_home(behavioral_cases(chosen, hooks), repo, cand)
        if not cases:
            raise UsageError(
                "no behavioral case selected: no `true` case of the --skill skills carries an expectation; "
                "check --skill and --only."
            )
        ready = ready_agent(args, ctx, deadline, cancel)
        ctx.err(
            f"[compare] {len(cases)} behavioral case(s) x {args.repeat} on each side, interleaved; "
            f"baseline {args.baseline}, candidate {args.candidate or versions.WORKING_TREE}; "
            f"{ready.runtime} {ready.version}"
        )
        sides = {
            n: (
                SkillUnderTest(n, cand[n], hooks[n], installed={n: base[n]} if base[n] else {}),
                SkillUnderTest(n, cand[n], hooks[n]),
            )
            for n in names
        }
        runs = {
            side: BehavioralRun(ready, {}, behavioral_settings(args, ctx, side), deadline, cancel=cancel)
            for side in SIDES
        }
        pairs = interleave.run_behavioral(
            runs["baseline"], runs["candidate"], sides, cases, args.jobs, args.repeat, ready.temp_parent
        )
    meta = live_meta(args, repo, deadline, names, agent_meta(ready, args, names), [])
    meta.halt = halt_of(cancel, len(cases), len(pairs))
    compared = [behavioral_comparison(case, b, c) for case, b, c in pairs]
    return conclude(CompareResult(meta=meta, cases=compared), ctx, args, cancel)


def adoption(args: argparse.Namespace, repo: Repo, ctx: Context) -> options.Adoption:
    """The repo's baseline file as found (here --baseline names a version) and --warn."""
    return options.Adoption(
        baseline_file.load(None, repo.root, ctx.cwd), tuple(parse_list("--warn", args.warn))
    )


def live_meta(
    args: argparse.Namespace, repo: Repo, deadline: Deadline, names: list[str], agent: dict, notes: list[str]
) -> CompareMeta:
    if deadline.expired:
        notes = [*notes, "The command's --timeout ran out: runs not finished are errors."]
    return CompareMeta(
        run=RunMeta.of("compare", repo, deadline),
        mode=args.mode,
        baseline=args.baseline,
        candidate=args.candidate or versions.WORKING_TREE,
        source="live",
        repeat=args.repeat,
        allow_regressions=args.allow_regressions,
        skills=names,
        agent=agent,
        notes=notes,
    )


def behavioral_settings(args: argparse.Namespace, ctx: Context, side: str) -> BehavioralSettings:
    return BehavioralSettings(
        model=args.model,
        effort=args.effort,
        judge_model=args.judge_model or args.model,
        jobs=args.jobs,
        case_timeout=args.case_timeout,
        max_budget_usd=args.max_budget_usd,
        keep_logs=(ctx.cwd / args.keep_logs / side).resolve() if args.keep_logs else None,
    )


def behavioral_comparison(case: Case, base: list[CaseResult], cand: list[CaseResult]) -> CaseComparison:
    return CaseComparison(
        id=case.id,
        skill=case.skill,
        source=case.source,
        line=case.line,
        prompt=case.prompt,
        baseline=SideRecord([behavioral_run(r.to_json()) for r in base]),
        candidate=SideRecord([behavioral_run(r.to_json()) for r in cand]),
    )


def at_home(cases: list[Case], repo: Repo, candidate: dict[str, Path | None]) -> list[Case]:
    """Cases read from a candidate outside the working tree (a ref, a folder), located at the working
    tree's dataset instead, where annotations and readers look for them."""
    moved = {
        repo.rel(path) + "/": repo.rel(repo.skill_dirs[name]) + "/"
        for name, path in candidate.items()
        if path is not None and path != repo.skill_dirs[name]
    }
    out = []
    for case in cases:
        there = next((prefix for prefix in moved if case.source.startswith(prefix)), None)
        out.append(case if there is None else replace(case, source=moved[there] + case.source[len(there) :]))
    return out


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


def conclude(
    result: CompareResult, ctx: Context, args: argparse.Namespace, cancel: Cancellation | None = None
) -> int:
    """Publish the reports; exit 130 or 143 after a cancelling signal, else 0 when the run passed."""
    finish(result, ctx, ReportOptions.from_args(args))
    code = exit_code(result.passed, cancel or Cancellation())
    if result.meta.halt.halted:
        ctx.err(f"[compare] {result.meta.halt.sentence()}")
    elif code:
        found = len(result.regressions)
        reason = (
            f"{found} regression(s); pass --allow-regressions to only report them"
            if found
            else "no case was graded on both sides, so nothing was compared"
        )
        ctx.err(f"[compare] failed: {reason}.")
    return code
