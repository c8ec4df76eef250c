"""`skillscope sweep`: routing at growing catalog sizes, the catalog plus ballast, listed as each agent
lists that many skills and graded by the lexical engine (offline, free, the default) or by the agents
themselves (`--engine agent`, paid: see sweep_agent): where each skill and the catalog degrade beyond
noise."""

from __future__ import annotations

import argparse

from harness.cancel import Cancellation, on_signals
from harness.checks.gate import require_well_formed
from harness.cli import flags, resolve
from harness.cli.flags import parse_list
from harness.context import Context
from harness.deadline import Deadline
from harness.errors import UsageError
from harness.model import catalog
from harness.report import finish
from harness.sweep import separate
from harness.sweep.plan import Plan, routed_cases
from harness.sweep.runner import FLOOR, SIZES_AUTO, Leg

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
        return sweep_lexical(args, ctx, prepare(args, ctx), clock, reports)
    deadline = Deadline(args.timeout)
    resolve.legs_of(args, agents_of(args))  # a bad --model list is a usage error before any token
    # A cancelling signal stops new cases and kills running ones; what finished is reported.
    with on_signals(Cancellation()) as cancel:
        plan = prepare(args, ctx)
        from harness.commands import sweep_agent  # the agent machinery, which a lexical sweep never imports

        return sweep_agent.run_agents(args, ctx, deadline, cancel, plan)


def agents_of(args: argparse.Namespace) -> list[str]:
    """--agent as given; else both hosts whose budgets cut catalogs users ship (lexical), or claude."""
    if parse_list("--agent", args.agent):
        return resolve.agents_of(args)
    return list(DEFAULT_AGENTS) if args.engine == LEXICAL else ["claude"]


def prepare(args: argparse.Namespace, ctx: Context) -> Plan:
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
    return Plan.of(
        loaded,
        routed_cases(loaded, parse_list("--only", args.only), args.extended),
        ballast_globs=parse_list("--ballast", args.ballast),
        sizes=parse_list("--sizes", args.sizes),
        repeats=args.repeat,
        seed=args.seed,
        usage=usage,
        min_knee=args.min_knee,
        separated=separated,
        engine=args.engine,
    )


def sweep_lexical(
    args: argparse.Namespace, ctx: Context, plan: Plan, clock: Deadline, reports: flags.ReportOptions
) -> int:
    legs = [Leg(leg.agent, leg.model) for leg in resolve.legs_of(args, agents_of(args))]
    ctx.err(
        f"[sweep] {len(plan.cases)} case(s) of {len(plan.described)} skill(s) at {len(plan.sizes)} sizes "
        f"({', '.join(map(str, plan.sizes))}) x {plan.repeats} repeat(s), on "
        f"{', '.join(leg.label for leg in legs)}"
    )
    outcome = plan.lexical(legs, clock, say=lambda line: ctx.err(f"[sweep] {line}"))
    code = finish(outcome, ctx, reports)
    for line in outcome.failures():
        ctx.err(f"[sweep] {line}")
    return code
