"""The paid flags, read once at the command's edge (cli.options), made into its PaidRun once the repo is
known, so that nothing past the command sees them. The command hands in what publishes its reports, so
paid/ (and this module) never know a renderer."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.cancel import Cancellation
from harness.cli import resolve
from harness.cli.options import PaidFlags, RoutingStops
from harness.context import Context
from harness.deadline import Deadline
from harness.model.repo import Repo
from harness.paid.command import PaidRun, PaidSettings

if TYPE_CHECKING:
    from harness.routing.runner import RoutingSettings

# harness.report.publish: writes every report of a result where the report flags say.
Publisher = Callable[[Any, Context, Any], "Path | None"]


def paid_run(
    given: PaidFlags,
    ctx: Context,
    repo: Repo,
    deadline: Deadline,
    cancel: Cancellation,
    publish: Publisher,
) -> PaidRun:
    """The PaidRun of the paid flags `given`: the logs folder resolved from where the command ran and
    the result cache's folder for `repo`."""
    cached = given.no_cache is not None  # the command keeps a result cache
    settings = PaidSettings(
        command=given.command,
        agents=given.agents,
        executables=given.executables,
        pass_env=given.pass_env,
        model=given.legs[0].model,
        legs=given.legs,
        effort=given.effort,
        jobs=given.jobs,
        case_timeout=given.case_timeout,
        max_budget_usd=given.max_budget_usd,
        keep_logs=given.keep_logs,
        logs=(ctx.cwd / given.keep_logs).resolve() if given.keep_logs else None,
        skip_preflight=given.skip_preflight,
        dry_run=given.dry_run,
        cache=resolve.cache_folder(given.cache, bool(given.no_cache), repo, ctx) if cached else None,
        max_run_usd=given.max_run_usd,
        sandbox=given.sandbox,
        extended=given.extended,
        strict=given.strict,
        yes=given.yes,
    )
    reports = given.reports
    return PaidRun(
        settings, ctx, repo, deadline, cancel, publish=lambda result: publish(result, ctx, reports)
    )


def routing_settings(paid: PaidRun, stops: RoutingStops, **own: Any) -> RoutingSettings:
    """The settings of an agent routing run (routing, tune): the paid run's, the stop rules, --repeat and
    the canary; `own` adds the command's."""
    from harness.routing.runner import RoutingSettings  # routing's and tune's, not behavioral's

    return paid.agent_settings(
        RoutingSettings,
        max_tool_calls=stops.max_tool_calls,
        max_inspection_calls=stops.max_inspection_calls,
        repeat=stops.repeat,
        adaptive=stops.adaptive,
        canary=stops.canary,
        **own,
    )
