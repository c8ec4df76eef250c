"""Traces built by hand for the offline tests: the graders read only Trace fields."""

from __future__ import annotations

from typing import Any

from harness.agent import ToolCall, Trace


def call(name: str, input: Any, result: str | None = None, *, is_error: bool = False) -> ToolCall:
    return ToolCall(
        id=f"toolu_{name}",
        name=name,
        input=input,
        result_text=result,
        is_error=is_error,
        answered=result is not None,
    )


def trace(*calls: ToolCall, final: str | None = None, injected: tuple[str, ...] = ()) -> Trace:
    return Trace(
        tool_calls=list(calls), final_message=final, injected_skill_text=list(injected), result_seen=True
    )
