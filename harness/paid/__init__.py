"""What a paid command does around its agents: make them ready, say how a run ended early, exit."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from harness.cancel import Cancellation
from harness.context import Context
from harness.deadline import Deadline
from harness.errors import HarnessError
from harness.model.envelope import Halt

if TYPE_CHECKING:
    from harness import agent


class AgentNotReady(HarnessError):
    """The agent cannot run: its CLI is missing, failed its preflight, or was interrupted meanwhile."""


def ready_agent(
    args: argparse.Namespace,
    ctx: Context,
    deadline: Deadline,
    cancel: Cancellation,
    preflight: bool,
    runtime: str,
) -> agent.Agent:
    """The agent `runtime` located, isolated and (unless --skip-preflight, or not `preflight` for a dry
    run that must send nothing) proven able to reach its API, its probes bounded by the command's
    --timeout and ended by a cancelling signal."""
    from harness import agent  # here: the free runs that share paid/'s modules (lexical) never load it

    try:
        ready = agent.connect_runtime(
            runtime, getattr(args, runtime, None), ctx.environ, deadline=deadline, cancel=cancel
        )
        if preflight and not args.skip_preflight:
            ready.preflight(args.model, deadline=deadline, cancel=cancel)
    except agent.AgentUnavailable as exc:
        raise AgentNotReady(str(exc)) from None
    return ready


def halt_of(cancel: Cancellation, selected: int, reported: int, agent_error: str | None = None) -> Halt:
    """How a paid run ended early, if it did: a signal wins over the agent error it caused."""
    if cancel.is_set():
        return Halt(interrupted=cancel.name, unfinished=selected - reported)
    if agent_error is not None:
        return Halt(unfinished=selected - reported, agent_error=agent_error)
    return Halt()


def exit_code(passed: bool, cancel: Cancellation) -> int:
    """130 or 143 after a cancelling signal, whatever finished; else 0 when the run passed, 1 if not."""
    if cancel.is_set():
        return cancel.exit_code
    return 0 if passed else 1


def ready_agents(
    args: argparse.Namespace,
    ctx: Context,
    deadline: Deadline,
    cancel: Cancellation,
    preflight: bool,
    runtimes: list[str],
) -> list[agent.Agent]:
    """Every agent of `runtimes` (those --agent names), each ready as `ready_agent` makes it, in order."""
    return [ready_agent(args, ctx, deadline, cancel, preflight, name) for name in runtimes]
