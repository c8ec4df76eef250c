"""`skillscope compare`: two versions of a skill, or with and without it, graded on the same cases."""

from __future__ import annotations

import argparse
from contextlib import ExitStack
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from harness.agent import Agent
from harness.behavioral import hooks as behavioral_hooks
from harness.behavioral.runner import BehavioralSettings, SkillUnderTest
from harness.behavioral.selection import behavioral_cases
from harness.cancel import Cancellation, on_signals
from harness.checks.gate import require_well_formed
from harness.cli import flags, resolve
from harness.cli.flags import Limit, parse_list
from harness.compare import reports, versions
from harness.compare.modes import SIDES, BehavioralCompare, RoutingCompare, Shared, with_logs
from harness.compare.result import BOTH, CompareMeta, CompareResult
from harness.context import Context
from harness.deadline import Deadline
from harness.errors import UsageError
from harness.model import baseline as baseline_file
from harness.model import catalog
from harness.model.catalog import Catalog
from harness.model.envelope import RunMeta
from harness.model.repo import Repo
from harness.paid import AgentNotReady, exit_code, halt_of, ready_agent
from harness.paid.cache import ResultCache
from harness.paid.spend import RunBudget
from harness.report import finish
from harness.routing.room import resolve_room
from harness.routing.runner import RoutingSettings

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
    flags.add_routing_room(
        parser, "skills installed side by side on both sides: a,b or all (default: --skill)"
    )
    flags.add_case_selection(parser)
    flags.add_agent(parser, choose=True)
    parser.add_argument(
        "--baseline-agent",
        choices=flags.AGENTS,
        help="run the baseline side on this agent instead, to compare two agents side by side (give "
        "--baseline the skill's folder to hold the version still) (default: --agent)",
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
    flags.add_paid_run(parser)
    flags.add_reports(parser)
    flags.add_timeout(parser, default=1800)


# Each mode's own defaults for the flags both share, as `skillscope routing` and `behavioral` have them.
DEFAULTS = {
    "routing": {"case_timeout": 240.0, "max_budget_usd": 0.75},
    "behavioral": {"case_timeout": 900.0, "max_budget_usd": 5.0},
}


def limit(args: argparse.Namespace, mode: str, key: str) -> float:
    """The flag's value, else `mode`'s own default (with --mode both each mode keeps its own)."""
    value = getattr(args, key)
    return DEFAULTS[mode][key] if value is None else value


def run(args: argparse.Namespace, ctx: Context) -> int:
    flags.report_options(args)  # a report flag that cannot work is a usage error before any token
    if args.reports:
        return run_reports(args, ctx)
    # A cancelling signal stops new runs and kills running ones; cases finished on both sides are reported.
    with on_signals(Cancellation()) as cancel:
        return run_live(args, ctx, cancel)


def run_reports(args: argparse.Namespace, ctx: Context) -> int:
    """The comparison of two reports already written: the candidate's cases decide what is compared."""
    deadline = Deadline(0)
    repo = resolve.resolve_repo(args, ctx)
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
        strict=args.strict,
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


def run_live(args: argparse.Namespace, ctx: Context, cancel: Cancellation) -> int:
    """Both versions on the candidate's cases, in each mode chosen, their runs interleaved on one pool."""
    deadline = Deadline(args.timeout)
    repo = resolve.resolve_repo(args, ctx)
    names = compared_skills(args, repo)
    room = resolve_room(parse_list("--routing-room", args.routing_room), repo, names)
    with ExitStack() as stack:
        base = side_dirs(stack, args.baseline, "--baseline", repo, names, ctx)
        cand = side_dirs(stack, args.candidate, "--candidate", repo, names, ctx)
        candidate = replace(repo, skill_dirs={**repo.skill_dirs, **cand})
        loaded = catalog.load(candidate, list(dict.fromkeys([*room, *names])), resolve.negatives_from(args))
        require_well_formed(loaded, ctx, "the skills this compare installs", adoption(args, repo, ctx))
        modes = chosen_modes(args, ctx, Versions(repo, candidate, base, cand), loaded, names, room)
        return run_modes(args, ctx, cancel, deadline, repo, names, room, modes)


@dataclass(frozen=True)
class Versions:
    """The repo as found, the repo with the candidate's folders, and each side's folder per skill."""

    repo: Repo
    candidate_repo: Repo
    baseline: dict[str, Path | None]
    candidate: dict[str, Path | None]


def chosen_modes(
    args: argparse.Namespace,
    ctx: Context,
    found: Versions,
    loaded: Catalog,
    names: list[str],
    room: list[str],
) -> list[RoutingCompare | BehavioralCompare]:
    """--mode's modes (by default: both when a selected case carries an expectation, else routing),
    each with its selected cases; a mode with none is a usage error before any token."""
    logs = (ctx.cwd / args.keep_logs).resolve() if args.keep_logs else None
    only = parse_list("--only", args.only)
    behavioral = None if args.mode == "routing" else behavioral_mode(args, found, loaded, names, only)
    mode = args.mode or (BOTH if behavioral and behavioral.cases else "routing")
    chosen = []
    if mode in ("routing", BOTH):
        routing = routing_mode(args, found, loaded, names, room, only, mode_logs(logs, mode, "routing"))
        if not routing.cases:
            raise UsageError("no routing case selected; check --skill and --only.")
        chosen.append(routing)
    if mode in ("behavioral", BOTH):
        if not behavioral.cases:
            raise UsageError(
                "no behavioral case selected: no `true` case of the --skill skills carries an expectation; "
                "check --skill and --only."
            )
        chosen.append(with_settings(behavioral, args, mode_logs(logs, mode, "behavioral")))
    return chosen


def mode_logs(folder: Path | None, mode: str, which: str) -> Path | None:
    """Where `which` mode keeps its transcripts: under the folder, in a folder of its own with --mode both."""
    if folder is None:
        return None
    return folder / which if mode == BOTH else folder


def routing_mode(
    args: argparse.Namespace,
    found: Versions,
    loaded: Catalog,
    names: list[str],
    room: list[str],
    only: list[str],
    logs: Path | None,
) -> RoutingCompare:
    pooled = loaded.cases(room, extended=args.extended) + loaded.negative_cases()
    cases = versions.at_home(catalog.select_cases(pooled, only, names), found.repo, found.candidate)
    settings = RoutingSettings(
        model=args.model,
        effort=args.effort,
        jobs=args.jobs,
        case_timeout=limit(args, "routing", "case_timeout"),
        max_tool_calls=args.max_tool_calls,
        max_inspection_calls=args.max_inspection_calls,
        max_budget_usd=limit(args, "routing", "max_budget_usd"),
        repeat=args.repeat,
    )
    return RoutingCompare(
        cases,
        side_rooms(room, found.candidate_repo, found.baseline),
        {side: with_logs(settings, logs, side) for side in SIDES},
    )


def behavioral_mode(
    args: argparse.Namespace, found: Versions, loaded: Catalog, names: list[str], only: list[str]
) -> BehavioralCompare:
    """The behavioral cases and each skill's two versions; settings come later (with_settings)."""
    base, cand, repo = found.baseline, found.candidate, found.repo
    hooks = {
        n: behavioral_hooks.load(n, cand[n], repo.rel(repo.skill_dirs[n] / behavioral_hooks.HOOKS_FILE))
        for n in names
    }
    chosen = catalog.select_cases(loaded.cases(names, extended=args.extended), only, names)
    skills = {
        n: (
            SkillUnderTest(n, cand[n], hooks[n], installed={n: base[n]} if base[n] else {}),
            SkillUnderTest(n, cand[n], hooks[n]),
        )
        for n in names
    }
    return BehavioralCompare(versions.at_home(behavioral_cases(chosen, hooks), repo, cand), skills, {})


def with_settings(mode: BehavioralCompare, args: argparse.Namespace, logs: Path | None) -> BehavioralCompare:
    settings = BehavioralSettings(
        model=args.model,
        effort=args.effort,
        judge_model=args.judge_model or args.model,
        jobs=args.jobs,
        case_timeout=limit(args, "behavioral", "case_timeout"),
        max_budget_usd=limit(args, "behavioral", "max_budget_usd"),
        strict_isolation=args.strict_isolation,
    )
    return replace(mode, settings={side: with_logs(settings, logs, side) for side in SIDES})


def run_modes(
    args: argparse.Namespace,
    ctx: Context,
    cancel: Cancellation,
    deadline: Deadline,
    repo: Repo,
    names: list[str],
    room: list[str],
    modes: list[RoutingCompare | BehavioralCompare],
) -> int:
    """Start the agent (a report says so when it cannot), then each mode in turn, or a dry run."""
    folder = resolve.cache_folder(args, repo, ctx)
    mode = modes[0].mode if len(modes) == 1 else BOTH
    selected = sum(len(m.cases) for m in modes)
    meta = partial(live_meta, args, repo, deadline, names, mode, cache=folder)
    try:
        agents = side_agents(args, ctx, deadline, cancel, judged=any(m.mode == "behavioral" for m in modes))
    except AgentNotReady as exc:
        # Still a report, for a CI step that uploads reports whatever happened.
        halted = meta({}, [])
        halted.halt = halt_of(cancel, selected, 0, str(exc))
        finish(CompareResult(meta=halted, cases=[]), ctx, flags.report_options(args))
        ctx.err(f"error: {exc}")
        return exit_code(False, cancel)
    results = ResultCache(folder) if folder else None
    judge = agents.pop("judge", None)
    budget = RunBudget(args.max_run_usd)
    shared = Shared(agents, deadline, cancel, results, budget, args.repeat, args.jobs, judge)
    if args.dry_run:
        return dry_run(ctx, args, shared, modes)
    on = " and ".join(dict.fromkeys(f"{a.runtime} {a.version}" for a in agents.values()))
    ctx.err(
        f"[compare] {' and '.join(f'{len(m.cases)} {m.mode}' for m in modes)} case(s) x {args.repeat} on "
        f"each side, interleaved; baseline {args.baseline}, candidate "
        f"{args.candidate or versions.WORKING_TREE}; {on}"
    )
    compared, notes = [], []
    for each in modes:
        found, said = each.compare(shared, on_case_done=ctx.err)
        compared += found
        notes += [n for n in said if n not in notes]
    if results is not None and results.write_error:
        notes.append(results.write_error)
    done = meta(agent_meta(shared, args, room if modes[0].mode == "routing" else names), notes)
    done.halt = halt_of(cancel, selected, len(compared))
    return conclude(CompareResult(meta=done, cases=compared), ctx, args, cancel)


def dry_run(
    ctx: Context, args: argparse.Namespace, shared: Shared, modes: list[RoutingCompare | BehavioralCompare]
) -> int:
    """Print what the compare would run and cost; nothing is sent (no preflight either), no report."""
    ctx.out("## Compare dry run: nothing was sent")
    ctx.out(
        f"Baseline {args.baseline}, candidate {args.candidate or versions.WORKING_TREE}; "
        f"{args.repeat} run(s) of each case on each side, interleaved."
    )
    for mode in modes:
        for line in mode.dry_run(shared):
            ctx.out(line)
    return 0


def adoption(args: argparse.Namespace, repo: Repo, ctx: Context) -> baseline_file.Adoption:
    """The repo's baseline file as found (here --baseline names a version) and --warn."""
    return baseline_file.Adoption(
        baseline_file.load(None, repo.root, ctx.cwd), tuple(parse_list("--warn", args.warn))
    )


def live_meta(
    args: argparse.Namespace,
    repo: Repo,
    deadline: Deadline,
    names: list[str],
    mode: str,
    agent: dict,
    notes: list[str],
    cache: Path | None = None,
) -> CompareMeta:
    if deadline.expired:
        notes = [*notes, "The command's --timeout ran out: runs not finished are errors."]
    return CompareMeta(
        run=RunMeta.of("compare", repo, deadline),
        mode=mode,
        baseline=args.baseline,
        candidate=args.candidate or versions.WORKING_TREE,
        source="live",
        repeat=args.repeat,
        allow_regressions=args.allow_regressions,
        skills=names,
        agent=agent,
        notes=notes,
        strict=args.strict,
        max_run_usd=args.max_run_usd,
        cache=str(cache) if cache else None,
    )


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


def side_agents(
    args: argparse.Namespace, ctx: Context, deadline: Deadline, cancel: Cancellation, judged: bool
) -> dict[str, Agent]:
    """Each side's agent (--agent; --baseline-agent for the baseline side), and with a behavioral mode
    the judge's (--judge-agent): each CLI located and checked once, however many roles it plays."""
    wanted = {
        "candidate": resolve.agents_of(args)[0],
        "baseline": args.baseline_agent or resolve.agents_of(args)[0],
        **({"judge": args.judge_agent} if judged else {}),
    }
    ready: dict[str, Agent] = {}
    for name in dict.fromkeys(wanted.values()):
        ready[name] = ready_agent(args, ctx, deadline, cancel, not args.dry_run, name)
    return {role: ready[name] for role, name in wanted.items()}


def agent_meta(shared: Shared, args: argparse.Namespace, room: list[str]) -> dict:
    """The candidate's agent, and the baseline's and the judge's when they are others."""
    cand, base = shared.agents["candidate"], shared.agents["baseline"]
    return {
        "runtime": cand.runtime,
        "version": cand.version,
        "model": args.model,
        "effort": args.effort,
        "room": room,
        "isolation": cand.describe(),
        **({"baseline": {"runtime": base.runtime, "version": base.version}} if base is not cand else {}),
        **(
            {"judge": {"runtime": shared.judge.runtime, "version": shared.judge.version}}
            if shared.judge
            else {}
        ),
    }


def conclude(
    result: CompareResult, ctx: Context, args: argparse.Namespace, cancel: Cancellation | None = None
) -> int:
    """Publish the reports; exit 130 or 143 after a cancelling signal, else 0 when the run passed."""
    finish(result, ctx, flags.report_options(args))
    code = exit_code(result.passed, cancel or Cancellation())
    if result.meta.halt.halted:
        ctx.err(f"[compare] {result.meta.halt.sentence()}")
    elif code:
        ctx.err(f"[compare] failed: {failure(result)}.")
    return code


def failure(result: CompareResult) -> str:
    if result.not_run:
        runs = [r for c in result.not_run for r in c.baseline.runs + c.candidate.runs if r.not_run]
        why = next((r.error for r in runs if r.error), "the run reached its --max-run-usd")
        return f"{len(result.not_run)} case(s) did not run on both sides: {why.removeprefix('not run: ')}"
    if result.failing:
        return f"{len(result.failing)} regression(s); pass --allow-regressions to only report them"
    return "no case was graded on both sides, so nothing was compared"
