"""`skillscope tune`: find a better description for one skill, with evidence, within a hard budget."""

from __future__ import annotations

import argparse
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from harness.cancel import Cancellation, on_signals
from harness.checks.gate import require_well_formed
from harness.cli import flags
from harness.cli.flags import Limit
from harness.cli.options import TuneOptions, tune_options
from harness.commands.tune_end import finish, print_plan
from harness.context import Context
from harness.deadline import Deadline
from harness.model import catalog
from harness.model.envelope import RunMeta
from harness.routing import limits
from harness.routing.room import EVERY, resolve_room
from harness.routing.room import HELP as ROOM_HELP
from harness.tune import candidates as cands
from harness.tune import split as splitting
from harness.tune.result import TuneMeta
from harness.tune.scoring import LexicalScorer
from harness.tune.tuning import Plan, Tuner

if TYPE_CHECKING:
    pass

HELP = "find a better description for a skill: candidates graded in the real room, chosen beyond noise"
AGENT, LEXICAL = flags.ENGINES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("skill", metavar="SKILL", help="the skill whose description is tuned")
    flags.add_skills_dir(parser)
    flags.add_routing_room(parser, f"{ROOM_HELP} (default: all, with SKILL in it)")
    parser.add_argument(
        "--engine",
        choices=(AGENT, LEXICAL),
        default=AGENT,
        help="agent: each candidate installed in the --agent CLI (costs tokens); lexical: ranked against "
        "the descriptions, offline and free, a pre-screen for --candidates (default: agent)",
    )
    parser.add_argument(
        "--candidates",
        metavar="FILE",
        help="a JSON list of description strings to try (relative to where the command runs)",
    )
    parser.add_argument(
        "--propose",
        type=flags.whole_count,
        default=0,
        metavar="N",
        help="each round, ask the agent for N descriptions in one call that sees the train failures "
        "and the neighbours' descriptions, never a validation or final case (default: 0)",
    )
    parser.add_argument(
        "--rounds", type=flags.positive_int, default=1, metavar="R", help="rounds of --propose (default: 1)"
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="N",
        help="the seed of the train/validation/final split (default: 0)",
    )
    parser.add_argument(
        "--confidence",
        type=flags.confidence,
        default=0.95,
        metavar="LEVEL",
        help="the family-wide confidence of the choice, split over the candidates tried (Bonferroni) "
        "(default: 0.95)",
    )
    parser.add_argument(
        "--apply",
        action="store_true",
        help="write the chosen description into SKILL.md (default: only print the diff)",
    )
    flags.add_repeat(
        parser, "samples per case, as for routing: N, or auto until each verdict is settled (default: 1)"
    )
    flags.add_agent(parser, matrix=True)
    flags.add_run_limits(
        parser,
        jobs=Limit(limits.JOBS, "cases run at once, each in its own workspace"),
        case_timeout=Limit(limits.CASE_TIMEOUT_S, "limit for one case (and for one proposal call)"),
        max_budget_usd=Limit(
            limits.MAX_BUDGET_USD, "spend cap per case, passed to the agent where it has one; 0 turns it off"
        ),
    )
    flags.add_routing_stops(parser)
    flags.add_negatives(parser)
    flags.add_adoption(parser)
    flags.add_no_canary(parser, "agent engine: skip the canary")
    flags.add_paid_run(parser)
    flags.add_reports(parser)
    flags.add_timeout(parser, default=3600)


def run(args: argparse.Namespace, ctx: Context) -> int:
    options = tune_options(args)  # every flag checked: a bad one is a usage error before any token
    with on_signals(Cancellation()) as cancel:
        return tune(options, ctx, cancel)


def tune(options: TuneOptions, ctx: Context, cancel: Cancellation) -> int:
    deadline = Deadline(options.timeout)
    repo = options.sources.repo_in(ctx)
    skill = options.skill
    listed = list(options.room) or [EVERY]
    room = resolve_room(listed, repo, [skill], command="tune")
    room = room if skill in room else [skill, *room]
    if skill not in repo.with_dataset():
        resolve_room([skill], repo, command="tune")  # the one sentence naming the skills there are
    loaded = catalog.load(repo, room, options.sources.negatives)
    given = options.candidates
    file_candidates = cands.read_file(ctx.cwd / given, given) if given else []
    require_well_formed(
        loaded, ctx, "the skills this run installs", options.sources.adoption(repo.root, ctx.cwd)
    )
    target = loaded.skills[skill]
    # A shared negative has no skill to rank, so the lexical engine pools only the skills' cases.
    pooled = loaded.cases(room) + (loaded.negative_cases() if options.engine == AGENT else [])
    dataset = loaded.dataset(skill)
    split = splitting.split(pooled, skill, options.seed, dataset.rel if dataset else "")
    neighbours = {name: loaded.skills[name].description for name in room if name != skill}
    plan = Plan(
        target, split, neighbours, file_candidates, options.propose, options.rounds, 1 - options.confidence
    )
    meta = partial(
        TuneMeta,
        skill=skill,
        skill_md=repo.rel(target.skill_md),
        room=room,
        engine=options.engine,
        confidence=options.confidence,
        repeat=options.stops.repeat,
        adaptive=options.stops.adaptive,
        rounds=options.rounds,
        propose=options.propose,
        candidates_file=given,
        max_run_usd=options.max_run_usd,
    )
    if options.engine == LEXICAL:
        scorer = LexicalScorer({name: loaded.skills[name].description for name in room}, skill)
        if options.dry_run:
            return print_plan(ctx, plan, None)
        meta_of = lambda: meta(  # noqa: E731 - read when the run ends
            RunMeta.of("tune", repo, deadline), agent=None, agent_version=None, model=None, cache=None
        )
        return finish(ctx, options, plan, Tuner(plan, scorer, Path(), lambda: None), meta_of, None)
    from harness.commands import tune_agent  # the agent machinery, which a lexical tuning never imports

    return tune_agent.run_agent(options, ctx, deadline, cancel, loaded, plan, meta)
