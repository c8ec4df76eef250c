"""A kept agent log as text a person reads: the skills it called, each tool call and its answer, the
final message and what it spent. `skillscope show` prints it, under the case's head from the report."""

from __future__ import annotations

import json

from harness.agent.logs import KeptLog
from harness.agent.trace import ToolCall

PREVIEW_LINES = 3  # of a tool's answer, unless --full
PREVIEW_WIDTH = 160
NOT_ENDED = (
    "the log ends before the CLI's last event: skillscope stopped the run (at its routing decision, "
    "a timeout or an interrupt) or the CLI died; the run's report says which"
)


def render(log: KeptLog, label: str, *, full: bool = False) -> list[str]:
    """The lines of one transcript, headed by `label` (where the log lives)."""
    return heading(log, label) + call_lines(log, full=full) + closing(log, full=full)


def heading(log: KeptLog, label: str) -> list[str]:
    """Where the log lives, the runtime, its version and model, and the skills the agent was offered."""
    trace = log.trace
    init = trace.init
    about = [log.runtime]
    if init and init.claude_code_version:
        about.append(init.claude_code_version)
    if init and init.model:
        about.append(f"model {init.model}")
    lines = [f"== {label} ({', '.join(about)}; {trace.event_count} events)"]
    if init and init.skills:
        lines.append(f"skills offered: {', '.join(init.skills_without_builtins) or 'none'}")
    return lines


def call_lines(log: KeptLog, *, full: bool) -> list[str]:
    """Each tool call numbered, with its answer; a subagent's call names the call it ran inside."""
    trace = log.trace
    skill_calls = {activation.tool_use_id: activation.raw_input_name for activation in trace.activations}
    numbers = {call.id: number for number, call in enumerate(trace.tool_calls, 1)}
    lines: list[str] = []
    for number, call in enumerate(trace.tool_calls, 1):
        parent = numbers.get(call.parent_tool_use_id or "")  # a subagent's call: say whose
        lines += tool_lines(number, call, skill_calls.get(call.id), parent, full=full)
    if trace.dropped_tool_calls:
        lines.append(f"   ({trace.dropped_tool_calls} later tool calls not kept in memory)")
    if not trace.tool_calls:
        lines.append("no tool calls")
    return lines


def closing(log: KeptLog, *, full: bool) -> list[str]:
    """The final message, what the run spent, its error and stray lines, and how the log ended."""
    trace = log.trace
    lines: list[str] = []
    if trace.final_message:
        lines.append("final message:")
        lines += indented(trace.final_message, None if full else 12)
    lines.append(spent(log))
    if log.error:
        lines.append(f"error: {log.error}")
    if trace.non_json_lines:
        lines.append(
            f"{trace.non_json_lines} lines were not JSON, starting: {first_line(trace.non_json_sample)}"
        )
    lines.append("ended: the CLI's result event" if log.ended else f"ended: {NOT_ENDED}")
    return lines


def tool_lines(
    number: int, call: ToolCall, skill: str | None, parent: int | None, *, full: bool
) -> list[str]:
    asked = what(call, full=full)
    if skill is not None:  # a skill tool's call, or (codex) a command reading the skill's SKILL.md
        asked = f"{asked} (reads skill {skill})" if call.command is not None else skill
    head = f"{number:>3}. {call.name} {asked}".rstrip() + (f" (inside call {parent})" if parent else "")
    if not call.answered:
        return [head, "     -> no answer in the log"]
    answer = call.result_text or ""
    status = "error" if call.is_error else "ok"
    shown = answer.splitlines() if full else answer.splitlines()[:PREVIEW_LINES]
    lines = [head, f"     -> {status}" + ("" if answer.strip() else " (no output)")]
    lines += [f"        {line if full else line[:PREVIEW_WIDTH]}" for line in shown]
    hidden = len(answer.splitlines()) - len(shown)
    if hidden > 0:
        lines.append(f"        ... {hidden} more lines (--full shows them)")
    return lines


def what(call: ToolCall, *, full: bool) -> str:
    """What the call asked for, in the words a reader expects: the command, the file, else its input."""
    if call.command is not None:
        return "$ " + (call.command if full else first_line(call.command))
    if call.written is not None:
        return f"writes {call.written}"
    text = json.dumps(call.input, ensure_ascii=False, sort_keys=True)
    return text if full or len(text) <= PREVIEW_WIDTH else text[: PREVIEW_WIDTH - 1] + "…"


def spent(log: KeptLog) -> str:
    trace, usage = log.trace, log.trace.usage
    parts = [f"tokens: {usage.input_tokens} in, {usage.output_tokens} out"]
    if usage.cache_read_input_tokens or usage.cache_creation_input_tokens:
        parts.append(
            f"cache {usage.cache_read_input_tokens} read, {usage.cache_creation_input_tokens} written"
        )
    if trace.cost_usd is not None:
        parts.append(f"${trace.cost_usd:.4f}")
    if trace.turns is not None:
        parts.append(f"{trace.turns} turns")
    return "; ".join(parts)


def summary_cells(log: KeptLog) -> list[str]:
    """A log's row in the listing of a folder: its runtime, the skills it called, its tool calls, the
    tokens in and out, and how it ended."""
    trace = log.trace
    return [
        log.runtime,
        ", ".join(log.skill_calls) or "none",
        str(len(trace.tool_calls)),
        f"{trace.usage.input_tokens}/{trace.usage.output_tokens}",
        "error" if log.error else ("result" if log.ended else "cut short"),
    ]


def indented(text: str, keep: int | None) -> list[str]:
    lines = text.splitlines() or [""]
    shown = lines if keep is None else lines[:keep]
    more = (
        [f"  ... {len(lines) - len(shown)} more lines (--full shows them)"] if len(lines) > len(shown) else []
    )
    return [f"  {line}" for line in shown] + more


def first_line(text: str) -> str:
    lines = text.strip().splitlines()
    head = lines[0] if lines else ""
    return head[:PREVIEW_WIDTH] + (" …" if len(lines) > 1 or len(head) > PREVIEW_WIDTH else "")
