"""What a transcript reads of a kept agent log, as protocols: the log itself (harness.agent.logs.KeptLog)
belongs to the agent layer, which renderers may not import, so the command reads it and hands it here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class Usage(Protocol):
    input_tokens: int
    output_tokens: int
    cache_creation_input_tokens: int
    cache_read_input_tokens: int


class Init(Protocol):
    skills: list[str]
    model: str | None
    claude_code_version: str | None

    @property
    def skills_without_builtins(self) -> list[str]: ...


class Activation(Protocol):
    raw_input_name: str
    tool_use_id: str


class ToolCall(Protocol):
    id: str
    name: str
    input: Any
    result_text: str | None
    is_error: bool
    parent_tool_use_id: str | None
    answered: bool
    command: str | None
    written: str | None


class Trace(Protocol):
    final_message: str | None
    cost_usd: float | None
    turns: int | None
    event_count: int
    dropped_tool_calls: int
    non_json_lines: int
    non_json_sample: str

    # Read-only, so the agent's own (more exact) types fit.
    @property
    def init(self) -> Init | None: ...

    @property
    def activations(self) -> Sequence[Activation]: ...

    @property
    def tool_calls(self) -> Sequence[ToolCall]: ...

    @property
    def usage(self) -> Usage: ...


class KeptLog(Protocol):
    @property
    def runtime(self) -> str: ...

    @property
    def trace(self) -> Trace: ...

    @property
    def ended(self) -> bool: ...

    @property
    def skill_calls(self) -> list[str]: ...

    @property
    def error(self) -> str | None: ...
