"""`skillscope sweep --engine agent`: at each size the catalog and that size's ballast installed as real
skills in each agent CLI, which renders its own listing of them, and every case routed there; the same
curves, intervals and knees as the lexical sweep, graded from the agents' choices.

Imported only when an agent runs, so the free lexical sweep starts without the agent machinery. Through
the one leg loop: every leg readied first, the dry run (agent starts and estimated cost), the spend
caps, the person's yes, then each leg in turn, one report.
"""

from __future__ import annotations

import argparse

from harness.cancel import Cancellation
from harness.cli.options import paid_flags
from harness.cli.paid import paid_run
from harness.context import Context
from harness.deadline import Deadline
from harness.paid.loop import run_legs
from harness.report import publish
from harness.routing.runner import RoutingSettings
from harness.sweep.legs import SweepLegs
from harness.sweep.plan import Plan


def run_agents(
    args: argparse.Namespace, ctx: Context, deadline: Deadline, cancel: Cancellation, plan: Plan
) -> int:
    """Route the plan on every agent --agent names, through the leg loop; its exit code."""
    paid = paid_run(paid_flags(args), ctx, plan.repo, deadline, cancel, publish)
    settings = paid.agent_settings(
        RoutingSettings,
        max_tool_calls=args.max_tool_calls,
        max_inspection_calls=args.max_inspection_calls,
        repeat=1,  # a sweep repeats over orderings of the ballast: one sample per case and room
        canary=not args.no_canary,
        skill_usage=plan.usage.pairs(),
    )
    return run_legs(paid, SweepLegs(paid, settings, plan))
