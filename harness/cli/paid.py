"""The flags of a paid command read once into its PaidRun, so that nothing past the command sees them.
The command hands in what publishes its reports, so paid/ (and this module) never know a renderer."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness.cancel import Cancellation
from harness.cli import flags, resolve
from harness.context import Context
from harness.deadline import Deadline
from harness.model.repo import Repo
from harness.paid.command import PaidRun, PaidSettings
from harness.routing.runner import RoutingSettings

# harness.report.publish: writes every report of a result where the report flags say.
Publisher = Callable[[Any, Context, Any], "Path | None"]


def paid_run(
    args: argparse.Namespace,
    ctx: Context,
    repo: Repo,
    deadline: Deadline,
    cancel: Cancellation,
    publish: Publisher,
) -> PaidRun:
    """The PaidRun of the command `args` parsed; flags the command does not declare keep their defaults."""
    given = vars(args)
    keep_logs = given.get("keep_logs") or None
    agents = resolve.agents_of(args)
    legs = resolve.legs_of(args, agents)
    settings = PaidSettings(
        command=args.command,
        agents=tuple(agents),
        executables={name: given.get(name) for name in flags.AGENTS},
        pass_env=resolve.pass_env_of(args),
        model=legs[0].model,
        legs=tuple(legs),
        effort=args.effort,
        jobs=args.jobs,
        case_timeout=args.case_timeout,
        max_budget_usd=args.max_budget_usd,
        keep_logs=keep_logs,
        logs=(ctx.cwd / keep_logs).resolve() if keep_logs else None,
        skip_preflight=args.skip_preflight,
        dry_run=given.get("dry_run", False),
        cache=resolve.cache_folder(args, repo, ctx) if "no_cache" in given else None,
        max_run_usd=given.get("max_run_usd", 0.0),
        sandbox=given.get("sandbox", False),
        extended=given.get("extended", True),
        strict=given.get("strict", False),
        yes=given.get("yes", False),
    )
    reports = flags.report_options(args)
    return PaidRun(
        settings, ctx, repo, deadline, cancel, publish=lambda result: publish(result, ctx, reports)
    )


def routing_settings(paid: PaidRun, args: argparse.Namespace, **own: Any) -> RoutingSettings:
    """The settings of an agent routing run (routing, tune): the paid run's, the stop rules, --repeat and
    the canary; `own` adds the command's."""
    repeat, adaptive = args.repeat
    return paid.agent_settings(
        RoutingSettings,
        max_tool_calls=args.max_tool_calls,
        max_inspection_calls=args.max_inspection_calls,
        repeat=repeat,
        adaptive=adaptive,
        canary=not args.no_canary,
        **own,
    )
