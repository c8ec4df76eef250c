"""Traces built by hand for the offline tests: the graders read only Trace fields."""

from __future__ import annotations

from typing import Any

from harness.agent import ToolCall, Trace
from harness.agent.trace import READ_TOOLS, SHELL_TOOLS, WRITE_TOOLS, normalise


def call(name: str, input: Any, result: str | None = None, *, is_error: bool = False) -> ToolCall:
    """A claude tool call, normalised as the claude trace builder does (Bash -> command, ...)."""
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
