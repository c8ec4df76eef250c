"""`skillscope tune --engine agent`: the candidates graded by the agent CLI, within --max-run-usd.

Imported only when an agent runs, so a lexical tuning starts without the agent machinery.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from harness.cancel import Cancellation
from harness.cli.options import TuneOptions
from harness.cli.paid import paid_run, routing_settings
from harness.commands.tune_end import finish, print_plan
from harness.context import Context
from harness.deadline import Deadline
from harness.model.catalog import Catalog
from harness.paid import AgentNotReady
from harness.paid.loop import open_legs
from harness.report import publish
from harness.routing import canary, outsiders
from harness.routing.room import EVERY
from harness.tune.legs import NoScorer, Scoring, estimate, halted
from harness.tune.propose import AgentProposer
from harness.tune.scoring import AgentScorer, EveryAgent
from harness.tune.selection import LOOK_CASES
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
        legs = open_legs(paid, Scoring(room, plan.skill.name, settings, widen))
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
    checked = canary.check_each([scorer.run_of(plan.current()) for scorer in scorers])
    for each in checked:
        paid.say(each.line())
    if (blocked := canary.blocking(checked)) is not None:
        why = f"a canary failed, so no candidate was graded: {blocked.sentence}"
        return finish(
            ctx, options, plan, Tuner(plan, NoScorer(), Path(), lambda: why), meta_of, paid, canaries=checked
        )
    ready = readied[0]  # the first agent writes the proposals
    proposer = AgentProposer(ready, settings, plan.skill.name, plan.neighbours, budget, cancel)

    on = ", ".join(f"{r.runtime} {r.version}" for r in readied)
    paid.say(f"tuning {plan.skill.name} in a room of {len(room)} on {on}; split seed {plan.split.seed}")
    scorer = scorers[0] if len(scorers) == 1 else EveryAgent(scorers)
    tuner = Tuner(
        plan,
        scorer,
        Path(),
        partial(halted, cancel, budget, deadline),
        proposer if plan.propose else None,
        paid.say,
    )
    return finish(ctx, options, plan, tuner, meta_of, paid, lambda: proposer.cost_usd, canaries=checked)
