"""The Trace the graders read: what one agent run did, whichever CLI ran it.

Graders never parse CLI output themselves: each runtime's reader (an `events.EventReader`) fills
a Trace with everything they need (activations, tool calls, final message, usage, errors).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

SKILL_TOOL = "Skill"
# Planning/progress tools: they do not act on the task, so budgets ignore them.
BOOKKEEPING_TOOLS = frozenset(
    {
        "TodoWrite",
        "TodoRead",
        "ExitPlanMode",
        "EnterPlanMode",
        "TaskCreate",
        "TaskUpdate",
        "TaskList",
        "TaskGet",
        "ToolSearch",
        # The other runtimes' planning tools.
        "todowrite",
        "update_topic",
        "enter_plan_mode",
        "get_goal",
        "create_goal",
        "update_goal",
    }
)
# Listed in init.skills by the CLI itself even with bundled skills disabled; never a room member.
CLI_BUILTIN_SKILLS = frozenset({"doctor"})
STOP_REASONS = (
    "activation",
    "result",
    "tool_budget",
    "budget",
    "timeout",
    "completed",
    "killed",
    "cancelled",
    "unreadable",
)
POLICY_STOPS = ("activation", "tool_budget")  # what a stop policy returns: the caller asked for it
# Memory bounds: a 64 MB stream must not become 64 MB of Python objects.
LARGE_LINE = 32 * 1024  # events above this are kept with long strings cut
STRING_KEEP = 2048  # chars kept of each long string in a cut event
RESULT_TEXT_KEEP = 8192  # chars kept of each tool result
TOOL_CALLS_KEEP = 5000  # tool calls kept in order; beyond that only counted
NON_JSON_KEEP = 2048  # chars kept of stdout lines that were not JSON
MAX_EVENT_DEPTH = 64  # deeper parts of an event are cut: walking them would exhaust the stack


@dataclass
class Activation:
    """A top-level `Skill` tool call and what it resolved to."""

    name: str  # an installed skill id, or "other:<name>"
    raw_input_name: str  # `input.skill` as the model wrote it
    tool_use_id: str
    confirmed: bool = False  # the CLI answered with a successful launch
    base_dir: str | None = None  # from the injected "Base directory for this skill:" text
    parent_tool_use_id: str | None = None
    settled: bool = False  # no later event can change name or confirmation
    error_text: str | None = None  # the tool_result text when the launch failed
    by_file: bool = False  # the decision is a tool call naming the skill's SKILL.md, not a skill tool

    @property
    def installed(self) -> bool:
        return not self.name.startswith("other:")

    @property
    def read_failed(self) -> str | None:
        """Why the read of SKILL.md that decided failed (the decision stands), or None."""
        if self.by_file and self.settled and self.installed and not self.confirmed:
            return self.error_text or "the read failed and said nothing"
        return None


@dataclass
class ToolCall:
    id: str
    name: str
    input: Any
    result_text: str | None = None  # bounded copy
    is_error: bool = False
    parent_tool_use_id: str | None = None
    answered: bool = False
    # Normalised across runtimes, so graders need no CLI's tool names:
    command: str | None = None  # the shell command this call ran
    written: str | None = None  # the file this call wrote or edited, as the agent named it
    read: str | None = None  # the file (or folder) this call read, listed or searched, as named
    skill_call: bool = False  # a call of the runtime's skill tool
    # It failed for a reason of the agent's own environment (its sandbox, a missing helper), in its words.
    environment_failure: str | None = None
    # Hosts the CLI's own shell sandbox refused this call a connection to, as its result logged them.
    denied_hosts: list[str] = field(default_factory=list)

    @property
    def is_bookkeeping(self) -> bool:
        return self.name in BOOKKEEPING_TOOLS

    @property
    def is_skill_inspection(self) -> bool:
        """Reads the installed skills' files instead of calling the Skill tool."""
        if self.name == SKILL_TOOL or self.skill_call:
            return False
        text = json.dumps(self.input, ensure_ascii=False).replace("\\\\", "/").lower()
        return ".claude/skills" in text or ".agents/skills" in text or "skill.md" in text

    @property
    def counts_against_budget(self) -> bool:
        skill = self.name == SKILL_TOOL or self.skill_call
        return not (skill or self.is_bookkeeping or self.is_skill_inspection)


@dataclass
class InitInfo:
    skills: list[str]
    tools: list[str]
    model: str | None
    claude_code_version: str | None
    permission_mode: str | None
    api_key_source: str | None
    session_id: str | None
    cwd: str | None
    sandbox_enabled: bool | None = None  # whether the CLI's shell sandbox is on; None: it does not say

    @property
    def skills_without_builtins(self) -> list[str]:
        """init.skills as names (no leading `/`), minus the CLI's own commands such as `doctor`,
        which the CLI lists there but never shows the model as a skill."""
        names = (name.removeprefix("/") for name in self.skills)
        return [name for name in dict.fromkeys(names) if name not in CLI_BUILTIN_SKILLS]


@dataclass
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0

    @classmethod
    def of(cls, raw: Mapping[str, Any] | None) -> Usage:
        raw = raw or {}
        return cls(*(_count(raw.get(k)) for k in cls.__dataclass_fields__))

    def plus(self, other: Usage, sign: int = 1) -> Usage:
        return Usage(*(getattr(self, k) + sign * getattr(other, k) for k in self.__dataclass_fields__))

    def as_dict(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass
class Trace:
    init: InitInfo | None = None
    activations: list[Activation] = field(default_factory=list)
    tool_calls: list[ToolCall] = field(default_factory=list)
    final_message: str | None = None
    usage: Usage = field(default_factory=Usage)
    cost_usd: float | None = None
    result_subtype: str | None = None
    terminal_reason: str | None = None  # why the CLI says it ended, e.g. "hook_stopped"
    is_error: bool = False
    api_error_status: int | None = None
    exit_code: int | None = None
    stop_reason: str | None = None  # one of STOP_REASONS, or what a stop policy returned
    stderr_tail: str = ""
    elapsed_s: float = 0.0
    turns: int | None = None  # model turns, as the CLI's result event counts them
    error: str | None = None  # one sentence when the agent run failed; once set, kept (see __setattr__)
    injected_skill_text: list[str] = field(default_factory=list)
    permission_denials: list[dict[str, Any]] = field(default_factory=list)
    result_seen: bool = False
    result_errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # options the CLI could not honour
    # With the shell sandbox asked for: whether the CLI said it was on (None: it did not say), and why not.
    sandbox_applied: bool | None = None
    sandbox_reason: str | None = None
    # Files the CLI itself wrote for the agent and named in a tool result (a long output saved aside,
    # under its config dir): the agent reading one is not leaving its workspace.
    cli_files: list[str] = field(default_factory=list)
    pid: int | None = None  # of the CLI, which led its own process group
    # The run ended in a failure its runtime declares its own (a RetryRule): why a fresh run may do better.
    retryable: str | None = None
    retried: str | None = None  # this is that fresh run: why the first one was retried
    # Counters stay exact even when kept lists are capped.
    event_count: int = 0
    dropped_tool_calls: int = 0
    budget_tool_calls: int = 0  # tool calls that count against --max-tool-calls
    inspection_calls: int = 0  # calls that read the installed skills' files
    non_json_lines: int = 0
    non_json_sample: str = ""

    def __setattr__(self, name: str, value: Any) -> None:
        # The first error is why the run failed: a later step (the end of the stream, a success result,
        # the process's exit) explains less, and must never clear it so that a broken run gets graded.
        if name == "error" and getattr(self, "error", None) is not None:
            return
        super().__setattr__(name, value)

    @property
    def decision(self) -> Activation | None:
        """The first top-level activation once it is settled."""
        first = self.activations[0] if self.activations else None
        return first if first is not None and first.settled else None

    @property
    def activated(self) -> list[str]:
        """Names of confirmed activations, in order."""
        return [a.name for a in self.activations if a.confirmed]

    @property
    def environment_failure(self) -> str | None:
        """The first tool call that failed for a reason of the agent's own environment, in its words."""
        return next((c.environment_failure for c in self.tool_calls if c.environment_failure), None)

    @property
    def failure(self) -> str | None:
        """Why this run failed as a run, or None: the one answer every grader takes. The CLI or the
        API failed (`error`), the run ended on an error result, or it ended with no result although
        no stop policy stopped it. A stop the caller's policy asked for is not a failure."""
        if self.error:
            return self.error
        if self.result_seen and self.is_error:
            detail = "; ".join(self.result_errors) or self.result_subtype or "no detail"
            return f"the agent ended the run with an error ({one_line(detail)})"
        if not self.result_seen and self.stop_reason not in POLICY_STOPS:
            return f"the agent ended without reporting a result (stopped: {self.stop_reason})"
        return None


StopPolicy = Callable[[Trace], "str | None"]


def stop_at_decision(
    max_tool_calls: int | None = None, max_inspection_calls: int | None = None
) -> StopPolicy:
    """Routing's policy: stop at the first settled activation or when a tool budget is spent."""

    def policy(trace: Trace) -> str | None:
        if trace.decision is not None:
            return "activation"
        if max_tool_calls is not None and trace.budget_tool_calls >= max_tool_calls:
            return "tool_budget"
        if max_inspection_calls is not None and trace.inspection_calls >= max_inspection_calls:
            return "tool_budget"
        return None

    return policy


def _count(value: Any) -> int:
    """A token count: a non-negative whole number, else 0 (a list, text, a bool, inf or NaN)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0
    if isinstance(value, float) and not math.isfinite(value):
        return 0
    return max(int(value), 0)


def clip_depth(value: Any, limit: int) -> Any:
    """`value` with whatever nests deeper than `limit` replaced by a marker; recursion stays within
    `limit`, so an event nested a thousand levels deep costs no more stack than one nested `limit`."""
    if not isinstance(value, (dict, list)):
        return value
    if limit <= 1:
        return "…[nested too deep]"
    if isinstance(value, dict):
        return {k: clip_depth(v, limit - 1) for k, v in value.items()}
    return [clip_depth(v, limit - 1) for v in value]


def normalise(
    call: ToolCall,
    shell_tools: Mapping[str, str],
    write_tools: Mapping[str, str],
    read_tools: Mapping[str, str],
) -> ToolCall:
    """Fill the call's runtime-neutral `command`, `written` and `read` from its tool's own input key."""
    value = call.input if isinstance(call.input, dict) else {}
    if call.name in shell_tools and isinstance(value.get(shell_tools[call.name]), str):
        call.command = value[shell_tools[call.name]]
    if call.name in write_tools and isinstance(value.get(write_tools[call.name]), str):
        call.written = value[write_tools[call.name]]
    if call.name in read_tools:
        named = value.get(read_tools[call.name])
        if isinstance(named, list) and len(named) == 1:  # a search over one path given as a list
            named = named[0]
        if isinstance(named, str):
            call.read = named
    return call


def cut(text: str, keep: int) -> str:
    if len(text) <= keep:
        return text
    return f"{text[:keep]}…[{len(text) - keep} more chars]"


def _shrink(value: Any) -> Any:
    if isinstance(value, str):
        return cut(value, STRING_KEEP)
    if isinstance(value, dict):
        return {k: _shrink(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shrink(v) for v in value]
    return value


def bounded_input(value: Any) -> Any:
    if len(json.dumps(value, ensure_ascii=False)) <= LARGE_LINE:
        return value
    return _shrink(value)


def one_line(text: str, keep: int = 300, *, tail: bool = False) -> str:
    """Whitespace-collapsed, cut to `keep` chars (the end of it for stderr tails)."""
    flat = " ".join(text.split())
    if len(flat) <= keep:
        return flat
    return "…" + flat[-keep:] if tail else flat[:keep] + "…"
