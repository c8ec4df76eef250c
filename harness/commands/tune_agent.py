"""`skillscope tune --engine agent`: the candidates graded by the agent CLI, within --max-run-usd.

Imported only when an agent runs, so a lexical tuning starts without the agent machinery.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from harness.cancel import Cancellation
from harness.cli.options import TuneOptions
from harness.cli.paid import paid_run, routing_settings
from harness.commands.tune_end import finish, print_plan
from harness.context import Context
from harness.deadline import Deadline
from harness.model.catalog import Catalog
from harness.paid import AgentNotReady, dryrun
from harness.paid.command import PaidRun
from harness.paid.legs import Leg, leg_settings
from harness.paid.loop import open_legs
from harness.paid.spend import RunBudget
from harness.report import publish
from harness.routing import canary, outsiders
from harness.routing.room import EVERY
from harness.routing.runner import RoutingRun, RoutingSettings
from harness.tune.propose import AgentProposer
from harness.tune.scoring import AgentScorer, EveryAgent
from harness.tune.selection import LOOK_CASES
from harness.tune.split import FINAL, TRAIN, VALIDATION
from harness.tune.tuning import Plan, Tuner


def run_agent(
    options: TuneOptions,
    ctx: Context,
    deadline: Deadline,
    cancel: Cancellation,
    loaded: Catalog,
    plan: Plan,
    meta: Callable,
) -> int:
    assert options.paid is not None  # the agent engine's options carry the paid flags
    paid = paid_run(options.paid, ctx, loaded.repo, deadline, cancel, publish)
    agents = paid.settings.agents
    settings = routing_settings(paid, options.stops)
    plan.look_cases = max(LOOK_CASES, settings.jobs)
    budget = paid.budget()
    room = {name: loaded.repo.skill_dirs[name] for name in [plan.skill.name, *plan.neighbours]}
    listed = list(options.room) or [EVERY]  # as tune resolved the room
    widen = outsiders.fixer(listed, list(room), loaded.repo)

    def meta_of():
        versions = [paid.readied[name].version for name in agents if name in paid.readied]
        return meta(
            paid.run_meta(),
            agent=",".join(agents),
            agent_version=",".join(versions) or None,
            model=paid.settings.model,
            cache=str(paid.settings.cache) if paid.settings.cache else None,
        )

    try:  # every agent ready before any token is spent
        legs = open_legs(paid, Scoring(room, plan.skill.name, settings, budget, widen))
    except AgentNotReady as exc:  # still a report, saying no case ran
        ctx.err(f"error: {exc}")
        why = f"the agent could not start: {exc}"
        return finish(ctx, options, plan, Tuner(plan, NoScorer(), Path(), lambda: why), meta_of, paid)
    scorers: list[AgentScorer] = [leg.runner for leg in legs]
    readied = [scorer.agent for scorer in scorers]

    def plan_lines() -> list[str]:
        return [line for scorer in scorers for line in estimate(paid, scorer.agent, scorer, plan, settings)]

    def show(shown: Context) -> None:
        for line in plan_lines():
            shown.out(line)

    if paid.settings.dry_run:
        return print_plan(ctx, plan, plan_lines())
    if not paid.confirmed(show):
        return 1
    # Each agent's canary first, in the room with the current description: a candidate graded on an agent
    # whose activations cannot be seen would score 0 % for no fault of its own.
    checked = canary.check_each([scorer.run_of(_current(plan)) for scorer in scorers])
    for each in checked:
        paid.say(each.line())
    if (blocked := canary.blocking(checked)) is not None:
        why = f"a canary failed, so no candidate was graded: {blocked.sentence}"
        return finish(
            ctx, options, plan, Tuner(plan, NoScorer(), Path(), lambda: why), meta_of, paid, canaries=checked
        )
    ready = readied[0]  # the first agent writes the proposals
    proposer = AgentProposer(ready, settings, plan.skill.name, plan.neighbours, budget, cancel)

    def halted() -> str | None:
        if cancel.is_set():
            return f"{cancel.name} received"
        if budget.reached:
            return f"the run spent ${budget.spent:.4f}, reaching its --max-run-usd of ${budget.cap:g}"
        if deadline.expired:
            return f"the command's --timeout of {deadline.seconds:g} s ran out"
        return None

    on = ", ".join(f"{r.runtime} {r.version}" for r in readied)
    paid.say(f"tuning {plan.skill.name} in a room of {len(room)} on {on}; split seed {plan.split.seed}")
    scorer = scorers[0] if len(scorers) == 1 else EveryAgent(scorers)
    tuner = Tuner(plan, scorer, Path(), halted, proposer if plan.propose else None, paid.say)
    return finish(ctx, options, plan, tuner, meta_of, paid, lambda: proposer.cost_usd, canaries=checked)


@dataclass
class Scoring:
    """Tune's steps of the leg loop: each agent ready, and its scorer in the tuning room."""

    room: dict[str, Path]
    skill: str
    settings: RoutingSettings
    budget: RunBudget
    widen: Callable[[Sequence[str]], str] | None = None  # the flag that puts an owner into the room

    def ready(self, run: PaidRun, leg: Leg) -> None:
        run.ready(leg.agent)

    def runner(self, run: PaidRun, leg: Leg, label: str | None) -> AgentScorer:
        settings = leg_settings(self.settings, leg, label)  # several agents: each its own logs folder
        return AgentScorer(
            run.ready(leg.agent),
            self.room,
            self.skill,
            settings,
            run.deadline,
            run.cancel,
            run.cache(),
            self.budget,
            widen=self.widen,
        )


class NoScorer:
    """The scorer of a run whose agent never started: it grades nothing."""

    engine = "agent"

    def __init__(self) -> None:
        self.agents: list[str] = []
        self.notes: list[str] = []

    def grade(self, candidate, cases):
        return []


def estimate(paid: PaidRun, ready, scorer: AgentScorer, plan: Plan, settings: RoutingSettings) -> list[str]:
    """The plan's fewest and most samples and model requests, and a cost range from the cache's figures."""
    parts = plan.split.parts
    train, validation, final = (len(parts[p]) for p in (TRAIN, VALIDATION, FINAL))
    samples = settings.repeat
    fewest_each = 1 if settings.adaptive else samples
    candidates = len(plan.file_candidates) + plan.propose * plan.rounds
    # Fewest: the current description on train, every candidate stopped at its first look.
    fewest = (train + min(plan.look_cases, train) * candidates) * fewest_each
    # Most: the current description on every part, every candidate on train and validation, one final.
    most = (
        (train + validation + final) + candidates * (train + validation) + (final if candidates else 0)
    ) * samples
    runner = RoutingRun(
        ready, scorer.installed(_current(plan)), settings, paid.deadline, results=paid.cache()
    )
    said, _ = canary.dry_run_line(runner)
    # The canary is one more sample before any candidate, once per agent (its replay is not counted free).
    fewest, most = fewest + int(settings.canary), most + int(settings.canary)
    cached = [
        hit
        for case in parts[TRAIN] + parts[VALIDATION] + parts[FINAL]
        for n in range(samples)
        if (hit := runner.cached(case, n)) is not None
    ]
    deciding = ready.requests_to_decision
    named = f"{ready.runtime}: " if len(paid.settings.agents) > 1 else ""
    lines = [
        f"{named}{said}",
        f"{named}Samples: {fewest} at fewest (every candidate stopped at its first look), {most} at most; "
        f"{len(cached)} of the current description's from the result cache, free.",
        f"Proposal calls: {plan.propose and plan.rounds} (one per round).",
        f"Model requests: about {math.ceil(fewest * deciding)} to {math.ceil(most * deciding)} "
        f"(plus up to {settings.max_tool_calls + settings.max_inspection_calls} more for a sample that "
        "inspects before it decides).",
    ]
    priced = [h.cost_usd for h in cached if h.cost_usd is not None]
    if priced:
        mean = sum(priced) / len(priced)
        lines.append(
            f"Cost: about ${max(0, fewest - len(cached)) * mean:.4f} to "
            f"${max(0, most - len(cached)) * mean:.4f} "
            f"(the mean of {len(priced)} cached sample(s)), plus the proposal calls."
        )
    else:
        lines.append(
            "Cost: unknown until a sample has run (the cache holds none of this room yet); "
            "cap it with --max-run-usd."
        )
    cap = settings.max_budget_usd if ready.caps_run_spend() else None
    if ceiling := dryrun.ceiling_line(max(0, most - len(cached)), cap):
        lines.append(f"{ceiling} The proposal calls come on top.")
    argv, env = ready.invocation(runner.spec(parts[TRAIN][0], Path("<workspace>")))
    lines += [
        "Command (one fresh workspace per sample, the case's prompt on stdin):",
        f"  {dryrun.command_text(argv, env)}",
    ]
    return lines


def _current(plan: Plan):
    from harness.tune.candidates import CURRENT, Candidate

    return Candidate("current", plan.skill.description, CURRENT)
