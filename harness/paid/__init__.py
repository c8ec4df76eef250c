"""What only paid runs need: the PaidRun around a command's own work (command), the meta every agent
report shares (meta), spend and budget, the result cache, the dry run, progress and the sandbox.

Here: how a paid run says its agent could not start, how it ended early, and its exit code.
"""

from __future__ import annotations

from harness.cancel import Cancellation
from harness.errors import HarnessError
from harness.model.envelope import Halt


class AgentNotReady(HarnessError):
    """The agent cannot run: its CLI is missing, failed its preflight, or was interrupted meanwhile."""


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
