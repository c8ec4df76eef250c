"""`skillscope sweep`: routing at growing catalog sizes, the catalog plus ballast, listed as each agent
lists that many skills and graded by the lexical engine (offline, free, the default) or by the agents
themselves (`--engine agent`, paid: see sweep_agent): where each skill and the catalog degrade beyond
noise."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from harness.cancel import Cancellation, on_signals
from harness.checks.gate import require_well_formed
from harness.cli import flags, resolve
from harness.cli.flags import parse_list
from harness.context import Context
from harness.deadline import Deadline
from harness.errors import UsageError
from harness.model import catalog
from harness.model.ballast import Ballast, built_in, declared
from harness.model.dataset import Case
from harness.model.envelope import RunMeta
from harness.model.repo import Repo
from harness.model.usage import UsageProfile
from harness.report import finish
from harness.sweep import result as sweep_result
from harness.sweep import separate
from harness.sweep.runner import FLOOR, SIZES_AUTO, Leg, sizes_of, sweep

HELP = "route the catalog's cases at growing catalog sizes (catalog plus ballast) as each agent lists them"
AGENT, LEXICAL = flags.ENGINES
DEFAULT_AGENTS = ("claude", "codex")  # the two hosts whose listing budgets cut catalogs users ship


def add_arguments(parser: argparse.ArgumentParser) -> None:
    flags.add_skills_dir(parser)
    flags.add_case_selection(parser)
    parser.add_argument(
        "--engine",
        choices=(LEXICAL, AGENT),
        default=LEXICAL,
        help="lexical: each size's listing, as each agent renders it, ranked offline and free; agent: "
        "each size's skills installed in each --agent CLI, which lists them itself, and every case "
        "routed there (costs tokens: one agent start per case, size and ordering; see --dry-run) "
        "(default: lexical)",
    )
    parser.add_argument(
        "--agent",
        metavar="AGENTS",
        help=f"the agents whose listing each size is rendered with (agent engine: whose CLI routes), a comma "
        f"list of {'|'.join(flags.AGENTS)} (default: {','.join(DEFAULT_AGENTS)}; agent engine: claude)",
    )
    parser.add_argument(
        "--model",
        type=flags.blank_is_unset,
        metavar="MODELS",
        help="the models whose listing budget is used (claude's follows the model): a comma list, "
        "agent=model for one agent only (default, or blank: each CLI's own)",
    )
    parser.add_argument(
        "--sizes",
        metavar="SIZES",
        help=f"catalog sizes to route at, a comma list of whole numbers, the first at least the catalog's "
        f"own (default: {SIZES_AUTO} sizes from the catalog's to ten times it, at least {FLOOR}, as far "
        "as the ballast reaches)",
    )
    parser.add_argument(
        "--ballast",
        metavar="GLOBS",
        help="the skills added to reach each size: root-relative globs naming skill folders users have "
        "beside the catalog (default: the built-in ballast, 1,200 skills across many trades)",
    )
    parser.add_argument(
        "--repeat",
        type=flags.positive_int,
        default=5,
        metavar="N",
        help="orderings of the ballast, each seeded, so a knee can be told from the choice of ballast "
        "(default: 5)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, metavar="N", help="the seed of the ballast orderings (default: 0)"
    )
    parser.add_argument(
        "--min-knee",
        type=int,
        default=0,
        metavar="SIZE",
        help="the bar: a knee at or below SIZE skills fails the run; 0 only reports (default: 0)",
    )
    parser.add_argument(
        "--confusion",
        metavar="REPORTS",
        help="JSON reports of agent routing runs, a comma list: from their confusion, which skills take each "
        "other's prompts and belong in separate plugins or subagents (default: none)",
    )
    flags.add_usage(parser)
    flags.add_adoption(parser)
    add_agent_engine(parser)
    flags.add_reports(parser)


def add_agent_engine(parser: argparse.ArgumentParser) -> None:
    """The flags of `--engine agent`, as every paid routing run has them."""
    flags.add_executables(parser)
    flags.add_agent_run(parser)
    flags.add_run_limits(
        parser,
        jobs=flags.Limit(4, "agent engine: cases run at once, each in its own workspace"),
        case_timeout=flags.Limit(240.0, "agent engine: limit for one case"),
        max_budget_usd=flags.Limit(
            0.75, "agent engine: spend cap per case, passed to the agent where it has one; 0 turns it off"
        ),
    )
    flags.add_routing_stops(parser)
    flags.add_no_canary(parser, "agent engine: skip the canary")
    flags.add_paid_run(parser)
    flags.add_timeout(parser)


def bounded(args: argparse.Namespace) -> bool:
    """The lexical sweep's work ends with the repo it reads and the sizes it was given (see
    harness.cli.collector); the agents run for as long as their cases take."""
    return args.engine == LEXICAL


def run(args: argparse.Namespace, ctx: Context) -> int:
    reports = flags.report_options(args)  # a report flag that cannot work is a usage error before any work
    if args.engine == LEXICAL:
        clock = Deadline(0)  # no limit: the clock only times the run for its report
        return sweep_lexical(args, ctx, prepare(args, ctx, clock), clock, reports)
    deadline = Deadline(args.timeout)
    resolve.legs_of(args, agents_of(args))  # a bad --model list is a usage error before any token
    # A cancelling signal stops new cases and kills running ones; what finished is reported.
    with on_signals(Cancellation()) as cancel:
        swept = prepare(args, ctx, deadline)
        from harness.commands import sweep_agent  # the agent machinery, which a lexical sweep never imports

        plan = sweep_agent.Plan(
            catalog={name: swept.repo.skill_dirs[name] for name in swept.described},
            described=swept.described,
            cases=swept.cases,
            ballast=swept.ballast,
            sizes=swept.sizes,
            repeats=args.repeat,
            seed=args.seed,
            usage=swept.usage,
            report=partial(report_of, args, swept, deadline, AGENT),
        )
        return sweep_agent.run_agents(args, ctx, deadline, cancel, plan, swept.repo)


@dataclass(frozen=True)
class Swept:
    """What either engine sweeps: the catalog, its cases, the ballast, the sizes and the usage profile."""

    repo: Repo
    described: dict[str, str]
    cases: list[Case]
    ballast: Ballast
    sizes: list[int]
    usage: UsageProfile
    places: dict[str, tuple[str, int | None]]
    separated: dict | None


def agents_of(args: argparse.Namespace) -> list[str]:
    """--agent as given; else both hosts whose budgets cut catalogs users ship (lexical), or claude."""
    if parse_list("--agent", args.agent):
        return resolve.agents_of(args)
    return list(DEFAULT_AGENTS) if args.engine == LEXICAL else ["claude"]


def prepare(args: argparse.Namespace, ctx: Context, deadline: Deadline) -> Swept:
    """The repo read, checked and narrowed, and everything the sweep routes; usage errors before any
    work."""
    repo = resolve.resolve_repo(args, ctx)
    loaded = resolve.narrow(catalog.load(repo), args) if args.only or args.skill else catalog.load(repo)
    if not loaded.skills:
        raise UsageError(f"no skill found to sweep; {repo.where_to_look()}.")
    adoption = resolve.adoption(args, repo.root, ctx.cwd)
    reports = parse_list("--confusion", args.confusion)
    separated = separate.hint([(ctx.cwd / given, given) for given in reports]) if reports else None
    usage = resolve.usage_of(args, repo)
    require_well_formed(loaded, ctx, "the skills this sweep routes", adoption, "sweeping them")
    described = {name: skill.description for name, skill in loaded.skills.items()}
    pooled = [case for case in loaded.cases(list(loaded.skills), extended=args.extended) if case.skill]
    cases = catalog.select_cases(pooled, parse_list("--only", args.only), []) if pooled else pooled
    if not cases:
        raise UsageError("no routing case to sweep: the selected skills have no case in evals/evals.json.")
    ballast = ballast_of(args, repo.root, described)
    sizes = sizes_of(parse_list("--sizes", args.sizes), len(described), len(ballast.skills))
    places = {
        name: (repo.rel(skill.skill_md), skill.line_of("description"))
        for name, skill in loaded.skills.items()
    }
    return Swept(repo, described, cases, ballast, sizes, usage, places, separated)


def sweep_lexical(
    args: argparse.Namespace, ctx: Context, swept: Swept, clock: Deadline, reports: flags.ReportOptions
) -> int:
    legs = [Leg(leg.agent, leg.model) for leg in resolve.legs_of(args, agents_of(args))]
    ctx.err(
        f"[sweep] {len(swept.cases)} case(s) of {len(swept.described)} skill(s) at {len(swept.sizes)} sizes "
        f"({', '.join(map(str, swept.sizes))}) x {args.repeat} repeat(s), on "
        f"{', '.join(leg.label for leg in legs)}"
    )
    data = sweep(
        swept.described,
        swept.cases,
        swept.ballast,
        swept.sizes,
        args.repeat,
        args.seed,
        legs,
        say=partial(progress, ctx),
        usage=swept.usage,
    )
    legs_done, _ = sweep_result.build(data, args.seed, swept.places)
    outcome = report_of(args, swept, clock, LEXICAL, legs_done, None, gradings=data.gradings)
    code = finish(outcome, ctx, reports)
    for line in outcome.failures():
        ctx.err(f"[sweep] {line}")
    return code


def report_of(
    args: argparse.Namespace,
    swept: Swept,
    deadline: Deadline,
    engine: str,
    legs: list[sweep_result.LegResult],
    run: dict | None,
    gradings: int = 0,
) -> sweep_result.SweepResult:
    """The sweep's report of `legs`, graded by `engine`; `run`: what the agents started and spent."""
    return sweep_result.SweepResult(
        meta=RunMeta.of("sweep", swept.repo, deadline),
        catalog=sorted(swept.described),
        sizes=swept.sizes,
        repeats=args.repeat,
        seed=args.seed,
        ballast={"source": swept.ballast.source, "available": len(swept.ballast.skills)},
        cases=len(swept.cases),
        legs=legs,
        min_knee=args.min_knee,
        findings=sweep_result.degradations(legs, swept.places),
        gradings=gradings,
        separate=swept.separated,
        engine=engine,
        usage=swept.usage.source or None,
        run=run,
        places=swept.places,
    )


def progress(ctx: Context, line: str) -> None:
    ctx.err(f"[sweep] {line}")


def ballast_of(args: argparse.Namespace, root: Path, described: dict[str, str]) -> Ballast:
    globs = parse_list("--ballast", args.ballast)
    chosen = declared(root, globs, "--ballast") if globs else built_in()
    return chosen.beside(described)
