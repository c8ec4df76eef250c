"""What the agent did, as text: tool inputs, tool outputs and its final message, never the skill's own text.

Shared by `logs_contain`, the hooks' `run` helpers and isolation evidence. The init event and the
skill text the CLI injects on activation are not actions; neither are the outputs of the agent's
reads of the installed skill, which repeat that same text.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.agent import ToolCall, Trace
from harness.files import within


@dataclass(frozen=True)
class Passage:
    where: str  # e.g. "Bash input (call 3)", "final message"
    text: str
    call: int | None = None  # the tool call's number, from 1


def flatten(value: Any) -> str:
    """A tool input's values as plain text (no JSON escaping, so quotes and backslashes stay literal)."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "\n".join(flatten(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return "\n".join(flatten(v) for v in value)
    return "" if value is None else str(value)


def resolve(path: str, base: Path) -> Path:
    """`path` made absolute against `base`, normalised without touching the disk."""
    expanded = os.path.expanduser(path)
    joined = expanded if os.path.isabs(expanded) else os.path.join(base, expanded)
    return Path(os.path.normpath(joined))


def reads_installed_skill(call: ToolCall, workspace: Path, skills_folder: str) -> bool:
    """The call read (listed, searched) the installed skills' own files, in the runtime's skills
    folder of the workspace: its output repeats the skill's text."""
    return call.read is not None and within(resolve(call.read, workspace), workspace / skills_folder)


def passages(trace: Trace, workspace: Path, skills_folder: str) -> list[Passage]:
    """Everything the agent did, in order, as searchable passages; `skills_folder` is where its
    runtime installed the skills (`Agent.skills_folder`)."""
    out = []
    for number, call in enumerate(trace.tool_calls, start=1):
        out.append(Passage(f"{call.name} input (call {number})", flatten(call.input), number))
        if call.result_text and not reads_installed_skill(call, workspace, skills_folder):
            out.append(Passage(f"{call.name} output (call {number})", call.result_text, number))
    if trace.final_message:
        out.append(Passage("final message", trace.final_message))
    return out


def find(needle: str, found_in: list[Passage]) -> Passage | None:
    """The first passage holding `needle`, case-insensitively."""
    wanted = needle.casefold()
    return next((p for p in found_in if wanted in p.text.casefold()), None)
