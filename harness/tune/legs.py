"""The agent tuning's steps of the paid leg loop: each agent readied with its scorer in the tuning room,
the scorer of a run whose agent never started, and the dry run's estimate of the plan."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from harness.cancel import Cancellation
from harness.deadline import Deadline
from harness.paid import dryrun
from harness.paid.command import PaidRun
from harness.paid.controls import RunControls
from harness.paid.legs import Leg, leg_settings
from harness.paid.spend import RunBudget
from harness.routing import canary
from harness.routing.runner import RoutingRun, RoutingSettings
from harness.tune.scoring import AgentScorer
from harness.tune.split import FINAL, TRAIN, VALIDATION
from harness.tune.tuning import Plan


@dataclass
class Scoring:
    """Tune's steps of the leg loop: each agent ready, and its scorer in the tuning room."""

    room: dict[str, Path]
    skill: str
    settings: RoutingSettings
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
            run.controls(),
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
    controls = RunControls(paid.deadline, results=paid.cache())  # a dry run: nothing to cancel or spend
    runner = RoutingRun(ready, scorer.installed(plan.current()), settings, controls)
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
        f"{named}Samples: {fewest} at fewest (every candidate stopped at its first look), {most} at most"
        f"{', the canary among them' if settings.canary else ''}; "
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


def halted(cancel: Cancellation, budget: RunBudget, deadline: Deadline) -> str | None:
    """Why the tuning loop must stop now (a cancelling signal, the spend cap, the --timeout), or None."""
    if cancel.is_set():
        return f"{cancel.name} received"
    if budget.reached:
        return f"the run spent ${budget.spent:.4f}, reaching its --max-run-usd of ${budget.cap:g}"
    if deadline.expired:
        return f"the command's --timeout of {deadline.seconds:g} s ran out"
    return None
