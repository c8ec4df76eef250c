"""`skillscope routing`: install the room side by side and grade which skill each prompt fires."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from functools import partial

from harness.cancel import Cancellation, on_signals
from harness.checks.gate import require_well_formed
from harness.cli import flags
from harness.cli.flags import Limit
from harness.cli.options import RoutingOptions, routing_options
from harness.context import Context
from harness.deadline import Deadline
from harness.errors import UsageError
from harness.model import catalog
from harness.model.dataset import Case
from harness.model.envelope import RunMeta
from harness.model.listing import listing_rule
from harness.report import finish, jsontext
from harness.report.jsontext import Laid
from harness.routing import lexical, lexical_result, limits, listed, outsiders
from harness.routing.lexical import LexicalEngine, LexicalOutcome
from harness.routing.lexical_result import LexicalMeta, LexicalResult
from harness.routing.room import HELP as ROOM_HELP
from harness.routing.room import left_out, resolve_room
from harness.secrets import Redactor
from harness.workers import Forked

HELP = "install the routing room in an agent and grade whether each prompt fires the right skill"
# Below this many case x skill scores, forking a child to grade part of the cases costs more than it saves.
FORKED_CELLS = 2_000_000
CALLER_SHARE = 0.37  # of the cases, for the caller, who also runs the structural gate
ROOM_NAMES_SHOWN = 12
AGENT, LEXICAL = flags.ENGINES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    flags.add_skills_dir(parser)
    flags.add_routing_room(parser, f"{ROOM_HELP} (blank: --skill, else the only skill with a dataset)")
    parser.add_argument(
        "--engine",
        choices=(AGENT, LEXICAL),
        default=AGENT,
        help="agent: the room installed in the --agent CLI (costs tokens); lexical: each prompt ranked "
        "against the names and descriptions, offline and free, an approximation of the agent "
        "(default: agent)",
    )
    flags.add_case_selection(parser)
    flags.add_agent(parser, matrix=True, models=True)
    flags.add_run_limits(
        parser,
        jobs=Limit(limits.JOBS, "cases run at once, each in its own workspace"),
        case_timeout=Limit(limits.CASE_TIMEOUT_S, "limit for one case"),
        max_budget_usd=Limit(
            limits.MAX_BUDGET_USD, "spend cap per case, passed to the agent where it has one; 0 turns it off"
        ),
    )
    flags.add_routing_stops(parser)
    # Off by default: a routing run stops at the decision, so the agent's only commands are a short
    # look around, and the probe and the sandbox would cost each run more than they guard.
    flags.add_sandbox(parser, default=False, commands="its inspection before it decides")
    flags.add_repeat(
        parser,
        "run each case N times, its verdict the majority; auto samples a case until its verdict is "
        f"settled, at most MAX times (default MAX: {flags.AUTO_REPEAT_MAX}) (default: 1)",
    )
    parser.add_argument(
        "--min-accuracy",
        default="1",
        metavar="RATIO",
        help="the bar: passed/graded must reach it, exactly; 0 only reports (default: 1)",
    )
    flags.add_negatives(parser)
    flags.add_adoption(parser)
    parser.add_argument(
        "--min-rank1",
        default="0",
        metavar="RATIO",
        help="lexical engine: the share of positives whose skill ranks first must reach it, exactly; "
        "0 only reports (default: 0)",
    )
    flags.add_strict(parser)
    flags.add_no_canary(parser, "agent engine: skip the canary")
    flags.add_install(parser)
    flags.add_paid_run(parser)
    flags.add_reports(parser)
    flags.add_timeout(parser)


def bounded(args: argparse.Namespace) -> bool:
    """The lexical engine reads the repo and ranks; the agent runs for as long as its cases take."""
    return args.engine == LEXICAL


def run(args: argparse.Namespace, ctx: Context) -> int:
    options = routing_options(args)  # every flag checked: a bad one is a usage error before any token
    # A cancelling signal stops new cases and kills running ones; the finished ones are reported.
    with on_signals(Cancellation()) as cancel:
        return route(options, ctx, cancel)


def route(options: RoutingOptions, ctx: Context, cancel: Cancellation) -> int:
    deadline = Deadline(options.timeout)
    repo = options.sources.repo_in(ctx)
    listed_room = list(options.room)
    room = resolve_room(listed_room, repo, options.skills)
    loaded = catalog.load(repo, room, options.sources.negatives)
    adoption = options.sources.adoption(repo.root, ctx.cwd)
    if options.engine == LEXICAL:
        gate = partial(
            require_well_formed, loaded, ctx, "the skills this run ranks", adoption, "ranking them"
        )
        return run_lexical(options, ctx, deadline, loaded, (listed_room, room), gate, cancel)
    from harness.commands import routing_agent  # the agent machinery, which a lexical run never imports

    return routing_agent.run_agents(options, ctx, deadline, cancel, loaded, (listed_room, room), adoption)


def run_lexical(
    options: RoutingOptions,
    ctx: Context,
    deadline: Deadline,
    loaded,
    rooms: tuple[list[str], list[str]],
    gate: Callable[[], None],
    cancel: Cancellation,
) -> int:
    """Rank every case of the room against its names and descriptions: no agent, no network, no tokens.
    The room is indexed once; in a large run a forked child then grades the first cases and lays out their
    report lines while the caller runs `gate` (the structural checks), then does the same for the rest.
    (Indexing in each process instead costs more: both run slower side by side than one alone.)
    `rooms` is --routing-room as given and the room it resolved to."""
    listed_room, room = rooms
    repo = loaded.repo
    # A shared negative has no skill whose rank to test.
    pooled = loaded.cases(room, extended=options.extended)
    cases = catalog.select_cases(pooled, list(options.only), list(options.skills))
    if not cases:
        gate()
        raise UsageError("no routing case selected; check --skill and --only.")
    redact = Redactor.of(ctx.environ)
    large = len(cases) * len(room) >= FORKED_CELLS
    share = len(cases) - int(len(cases) * CALLER_SHARE) if large else 0
    # Ranked over what the modelled agent's model is shown of the room; indexed before the fork, so the
    # child inherits the index.
    described = {name: loaded.skills[name].description for name in room}
    shown = listed.room_listing(listing_rule(options.modelled_agent), described, None)
    fix = outsiders.fixer(listed_room, room, repo)
    engine = LexicalEngine(listed.surviving(shown), shown, fix)
    with Forked(partial(graded_and_laid, engine, cases[:share], redact), start=large) as child:
        gate()
        rest = engine.grade_all(cases[share:])
        rest_lines = case_lines(rest, redact)
        plain, lines = child.answer()
        answered = zip(cases[:share], plain, strict=True)
        outcomes = [LexicalOutcome.of_plain(case, fields) for case, fields in answered] + rest
    lines += rest_lines
    outside = left_out(room, repo)
    if outside and outsiders.near_missed(outcomes):  # which one a skill outside would likely have taken
        whole = catalog.load(repo, outside, catalog.Negatives(builtin=False))
        outsiders.near_misses(outcomes, described_all(loaded), described_all(whole), fix)
        # A near miss an outside skill would likely have taken says so in its summary: laid out again.
        lines = [
            case_lines([o], redact)[0] if o.outside else text for o, text in zip(outcomes, lines, strict=True)
        ]
    ctx.err(f"[routing] {len(cases)} case(s) ranked lexically against {len(room)} skill(s): {named(room)}")
    # Said once, under the summary (the report's notes): a run of seconds needs no warning before it.
    said_outside = outsiders.notes(listed_room, room, repo, cases)
    bars = options.min_accuracy, options.min_rank1
    said = listed.sentence(shown)
    result = LexicalResult(
        meta=LexicalMeta(
            RunMeta.of("routing", loaded.repo, deadline),
            room,
            options.extended,
            *bars,
            listing=listed.to_json(shown),
            notes=([said] if said else []) + said_outside,
        ),
        outcomes=outcomes,
        gate=lexical_result.gate(outcomes, *bars),
        findings=lexical.vocabulary_gaps(outcomes),
        case_entries=[Laid(text) for text in lines],
    )
    code = finish(result, ctx, options.reports)
    if cancel.is_set():  # a run of seconds finishes and reports; its exit still says it was stopped
        ctx.err(f"[routing] {cancel.name} received: every case was ranked and reported.")
        return cancel.exit_code
    if code:
        ctx.err(f"[routing] failed: {result.gate.reason}.")
    return code


def described_all(loaded: catalog.Catalog) -> dict[str, str]:
    return {name: skill.description for name, skill in loaded.skills.items()}


def graded_and_laid(
    engine: LexicalEngine, cases: list[Case], redact: Redactor
) -> tuple[list[tuple], list[str]]:
    """A forked child's share: `cases` graded (as plain tuples) and their report lines laid out."""
    outcomes = engine.grade_all(cases)
    return [o.plain() for o in outcomes], case_lines(outcomes, redact)


def case_lines(outcomes: list[LexicalOutcome], redact: Redactor) -> list[str]:
    """Each case's line of the JSON report, redacted as the report is: made by the process that graded
    the cases, so a forked child lays out its share while the caller lays out its own."""
    return [jsontext.line(redact.data(lexical_result.case_json(o))) for o in outcomes]


def named(room: list[str]) -> str:
    """The room's names for a progress line; a large room's first few and how many more."""
    shown = ", ".join(room[:ROOM_NAMES_SHOWN])
    return shown if len(room) <= ROOM_NAMES_SHOWN else f"{shown} and {len(room) - ROOM_NAMES_SHOWN} more"
