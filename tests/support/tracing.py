"""Traces built by hand for the offline tests: the graders read only Trace fields."""

from __future__ import annotations

from typing import Any

from harness.agent import EventReader, ToolCall, Trace
from harness.agent.claude_events import READ_TOOLS, SHELL_TOOLS, WRITE_TOOLS
from harness.agent.process import Streamed
from harness.agent.runtime import ended
from harness.agent.trace import normalise


def call(name: str, input: Any, result: str | None = None, *, is_error: bool = False) -> ToolCall:
    """A claude tool call, normalised as claude's event reader does (Bash -> command, ...)."""
    made = ToolCall(
        id=f"toolu_{name}",
        name=name,
        input=input,
        result_text=result,
        is_error=is_error,
        answered=result is not None,
    )
    return normalise(made, SHELL_TOOLS, WRITE_TOOLS, READ_TOOLS)


def trace(*calls: ToolCall, final: str | None = None, injected: tuple[str, ...] = ()) -> Trace:
    return Trace(
        tool_calls=list(calls), final_message=final, injected_skill_text=list(injected), result_seen=True
    )


def finished(
    reader: EventReader,
    *,
    exit_code: int | None = 0,
    stop_reason: str = "result",
    stderr_tail: str = "",
    runtime: str = "claude",
    timeout_s: float = 240.0,
) -> Trace:
    """The reader's trace completed as the drive loop completes it when the CLI's process ends."""
    return ended(runtime, reader, Streamed(stop_reason, exit_code, stderr_tail, 1.0), timeout_s)
