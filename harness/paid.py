"""The structural gate a paid command passes before it spends its first token."""

from __future__ import annotations

import argparse

from harness import agent
from harness.checks import CheckOptions
from harness.checks import structural as structural_checks
from harness.context import Context
from harness.errors import HarnessError
from harness.model.catalog import Catalog
from harness.model.findings import errors_in
from harness.options import Adoption


def require_well_formed(loaded: Catalog, ctx: Context, subject: str, adoption: Adoption) -> None:
    """Print every structural error of `loaded` and stop; `subject` says which skills they are. The
    repo's baseline and --warn apply as they do in `skillscope structural`."""
    problems = errors_in(adoption.apply(structural_checks.check(loaded, CheckOptions())).findings)
    if problems:
        for finding in problems:
            ctx.err(f"  {finding.location}: {finding.message}")
        raise HarnessError(
            f"{len(problems)} structural error(s) in {subject}; fix them (see "
            "`skillscope structural`) before spending tokens."
        )


def ready_agent(args: argparse.Namespace, ctx: Context) -> agent.Agent:
    """The agent located, isolated and (unless --skip-preflight) proven able to reach its API."""
    try:
        ready = agent.connect(args.claude, ctx.environ)
        if not args.skip_preflight:
            ready.preflight(args.model)
    except agent.AgentUnavailable as exc:
        raise HarnessError(str(exc)) from None
    return ready
