"""`claude -p --output-format stream-json` lines -> a Trace the graders read.

Graders never parse CLI output themselves: everything they need (activations,
tool calls, final message, usage, errors) is extracted here, once.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness import nesting

SKILL_TOOL = "Skill"
BASE_DIR_PREFIX = "Base directory for this skill:"
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
# Claude's tools that run a shell command, write a file or read one (or search a folder), and the
# input key naming it.
SHELL_TOOLS = {"Bash": "command"}
WRITE_TOOLS = {
    "Write": "file_path",
    "Edit": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
}
READ_TOOLS = {"Read": "file_path", "NotebookRead": "notebook_path", "Glob": "path", "Grep": "path"}
# claude saves a tool output too long for the context to a file and names it at the result's head.
PERSISTED_OUTPUT = re.compile(r"<persisted-output>\s*[^\n]*?saved to:\s*(/\S+)")
PERSISTED_HEAD = 1024
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
API_STATUS_MEANING = {
    400: "bad request",
    401: "authentication failed",
    403: "permission denied",
    404: "not found",
    413: "request too large",
    429: "rate limited",
    500: "internal server error",
    502: "bad gateway",
    503: "unavailable",
    504: "gateway timeout",
    529: "overloaded",
}

# Memory bounds: a 64 MB stream must not become 64 MB of Python objects.
LARGE_LINE = 32 * 1024  # events above this are kept with long strings cut
STRING_KEEP = 2048  # chars kept of each long string in a cut event
RESULT_TEXT_KEEP = 8192  # chars kept of each tool result
TOOL_CALLS_KEEP = 5000  # tool calls kept in order; beyond that only counted
INJECTED_KEEP = 1024 * 1024  # chars of injected skill bodies kept in total
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

    @property
    def installed(self) -> bool:
        return not self.name.startswith("other:")


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
    error: str | None = None  # one sentence when the agent run failed
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
    # Counters stay exact even when kept lists are capped.
    event_count: int = 0
    dropped_tool_calls: int = 0
    budget_tool_calls: int = 0  # tool calls that count against --max-tool-calls
    inspection_calls: int = 0  # calls that read the installed skills' files
    non_json_lines: int = 0
    non_json_sample: str = ""

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


class TraceBuilder:
    """Feed stream-json lines in order; read `.trace` at any time."""

    def __init__(self, installed: Mapping[str, Path | str]):
        self.trace = Trace()
        self._installed = {name: os.path.realpath(path) for name, path in installed.items()}
        self._pending: dict[str, ToolCall] = {}  # tool calls awaiting their result
        self._activation_by_id: dict[str, Activation] = {}
        self._awaiting_base_dir: Activation | None = None
        self._message_usage: OrderedDict[str, Usage] = OrderedDict()
        self._last_assistant_text: str | None = None
        self._injected_chars = 0

    # --- input ----------------------------------------------------------------

    def feed(self, line: str) -> dict[str, Any] | None:
        """Parse one stdout line; returns the event, or None for a non-JSON line."""
        stripped = line.strip()
        if not stripped:
            return None
        try:
            event = json.loads(stripped)
        except (ValueError, RecursionError):  # RecursionError: nested past what json can read
            event = None
        if not isinstance(event, dict):
            self._note_non_json(stripped)
            return None
        if nesting.deeper_than(event, MAX_EVENT_DEPTH):
            event = clip_depth(event, MAX_EVENT_DEPTH)
        self.trace.event_count += 1
        self._dispatch(event)
        return event

    def ends_run(self, event: dict[str, Any]) -> bool:
        """This event is the CLI's last word: its result (as EventReader.ends_run for the others)."""
        return event.get("type") == "result"

    def finish(
        self,
        *,
        exit_code: int | None,
        stop_reason: str,
        stderr_tail: str,
        elapsed_s: float,
        error: str | None = None,
    ) -> Trace:
        """Record how the process ended and explain a failure in one sentence."""
        self._settle_base_dir_wait()
        trace = self.trace
        trace.exit_code = exit_code
        trace.stop_reason = stop_reason
        trace.stderr_tail = stderr_tail
        trace.elapsed_s = elapsed_s
        if trace.final_message is None:
            trace.final_message = self._last_assistant_text
        trace.error = error or explain_failure(trace)
        return trace

    # --- storage ------------------------------------------------------------------

    def _note_non_json(self, line: str) -> None:
        trace = self.trace
        trace.non_json_lines += 1
        room = NON_JSON_KEEP - len(trace.non_json_sample)
        if room > 0:
            trace.non_json_sample += line[:room] + "\n"

    # --- events ---------------------------------------------------------------------

    def _dispatch(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "user":
            self._on_user(event)
            return
        self._settle_base_dir_wait()  # the injected text comes right after the launch
        if kind == "system" and event.get("subtype") == "init":
            self._on_init(event)
        elif kind == "system" and event.get("subtype") == "permission_denied":
            if not self.trace.result_seen:
                self.trace.permission_denials.append(
                    {"tool_name": event.get("tool_name"), "tool_use_id": event.get("tool_use_id")}
                )
        elif kind == "assistant":
            self._on_assistant(event)
        elif kind == "result":
            self._on_result(event)

    def _on_init(self, event: dict[str, Any]) -> None:
        self.trace.init = InitInfo(
            skills=[str(s) for s in _list(event.get("skills"))],
            tools=[str(t) for t in _list(event.get("tools"))],
            model=_text(event.get("model")),
            claude_code_version=_text(event.get("claude_code_version")),
            permission_mode=_text(event.get("permissionMode")),
            api_key_source=_text(event.get("apiKeySource")),
            session_id=_text(event.get("session_id")),
            cwd=_text(event.get("cwd")),
            sandbox_enabled=sandbox if isinstance(sandbox := event.get("sandbox_enabled"), bool) else None,
        )

    def _on_assistant(self, event: dict[str, Any]) -> None:
        message = _dict(event.get("message"))
        parent = _text(event.get("parent_tool_use_id"))
        self._count_usage(message)
        for block in _blocks(message):
            if block.get("type") == "text" and parent is None:
                self._last_assistant_text = _text(block.get("text"))
                if event.get("error") and self.trace.api_error_status is None:
                    self.trace.api_error_status = _status_in(_text(block.get("text")) or "")
            elif block.get("type") == "tool_use":
                self._on_tool_use(block, parent)

    def _on_tool_use(self, block: dict[str, Any], parent: str | None) -> None:
        trace = self.trace
        call = ToolCall(
            id=str(block.get("id") or ""),
            name=str(block.get("name") or ""),
            input=bounded_input(block.get("input")),
            parent_tool_use_id=parent,
            skill_call=block.get("name") == SKILL_TOOL,
        )
        normalise(call, SHELL_TOOLS, WRITE_TOOLS, READ_TOOLS)
        self._pending[call.id] = call
        if call.is_skill_inspection:
            trace.inspection_calls += 1
        elif call.counts_against_budget:
            trace.budget_tool_calls += 1
        if len(trace.tool_calls) < TOOL_CALLS_KEEP:
            trace.tool_calls.append(call)
        else:
            trace.dropped_tool_calls += 1
        if call.name == SKILL_TOOL and parent is None:
            raw = _skill_name(block.get("input"))
            activation = Activation(
                name=raw if raw in self._installed else f"other:{raw}",
                raw_input_name=raw,
                tool_use_id=call.id,
            )
            trace.activations.append(activation)
            self._activation_by_id[call.id] = activation

    def _on_user(self, event: dict[str, Any]) -> None:
        blocks = _blocks(event.get("message"))
        results = [b for b in blocks if b.get("type") == "tool_result"]
        for block in results:
            structured = event.get("tool_use_result") if len(results) == 1 else None
            self._on_tool_result(block, structured)
        top_level = event.get("parent_tool_use_id") is None
        texts = [_text(b.get("text")) or "" for b in blocks if b.get("type") == "text"]
        base_dir_texts = [t for t in texts if t.startswith(BASE_DIR_PREFIX)]
        for text in base_dir_texts:
            self._keep_injected(text)
            if top_level:
                self._on_base_dir(text)
        if not results and not base_dir_texts:
            self._settle_base_dir_wait()

    def _on_tool_result(self, block: dict[str, Any], structured: Any) -> None:
        tool_use_id = str(block.get("tool_use_id") or "")
        text = _text_of(block.get("content"))
        is_error = bool(block.get("is_error"))
        call = self._pending.pop(tool_use_id, None)
        if text and (saved := PERSISTED_OUTPUT.search(text[:PERSISTED_HEAD])) is not None:
            self.trace.cli_files.append(saved.group(1))
        if call is not None:
            call.result_text = cut(text, RESULT_TEXT_KEEP)
            call.is_error = is_error
            call.answered = True
        activation = self._activation_by_id.pop(tool_use_id, None)
        if activation is None:
            return
        if isinstance(structured, dict):
            launched = structured.get("success") is True
        else:  # several results in one event: fall back to the CLI's launch message
            launched = structured is None and text.startswith("Launching skill:")
        activation.confirmed = launched and not is_error
        if not activation.confirmed:
            activation.error_text = cut(text, 500)
            activation.settled = True
        elif activation.installed:
            activation.settled = True  # the base dir may still refine it; the decision stands
            self._awaiting_base_dir = activation
        else:
            self._awaiting_base_dir = activation  # an alias resolves through its base dir

    def _on_base_dir(self, text: str) -> None:
        activation = self._awaiting_base_dir
        self._awaiting_base_dir = None
        if activation is None:
            return
        base_dir = text[len(BASE_DIR_PREFIX) :].split("\n", 1)[0].strip()
        activation.base_dir = base_dir
        real = os.path.realpath(base_dir)
        for name, path in self._installed.items():
            if path == real:
                activation.name = name
                break
        activation.settled = True

    def _settle_base_dir_wait(self) -> None:
        if self._awaiting_base_dir is not None:
            self._awaiting_base_dir.settled = True
            self._awaiting_base_dir = None

    def _keep_injected(self, text: str) -> None:
        room = INJECTED_KEEP - self._injected_chars
        if room > 0:
            kept = text[:room]
            self.trace.injected_skill_text.append(kept)
            self._injected_chars += len(kept)

    def _on_result(self, event: dict[str, Any]) -> None:
        trace = self.trace
        trace.result_seen = True
        trace.result_subtype = _text(event.get("subtype"))
        trace.terminal_reason = _text(event.get("terminal_reason"))
        trace.is_error = event.get("is_error") is True
        if isinstance(event.get("result"), str):
            trace.final_message = event["result"]
        status = event.get("api_error_status")
        if isinstance(status, int) and not isinstance(status, bool) and 100 <= status <= 599:
            trace.api_error_status = status
        cost = _amount(event.get("total_cost_usd"))
        if cost is not None:
            trace.cost_usd = cost
        turns = event.get("num_turns")
        if isinstance(turns, int) and not isinstance(turns, bool) and turns >= 0:
            trace.turns = turns
        if isinstance(event.get("usage"), dict):
            trace.usage = Usage.of(event["usage"])
        if isinstance(event.get("permission_denials"), list):
            trace.permission_denials = [d for d in event["permission_denials"] if isinstance(d, dict)]
        trace.result_errors = [str(e)[:RESULT_TEXT_KEEP] for e in _list(event.get("errors"))]

    def _count_usage(self, message: dict[str, Any]) -> None:
        # Every content block is its own event repeating the message usage: count each message once.
        if self.trace.result_seen or not isinstance(message.get("usage"), dict):
            return
        message_id = str(message.get("id") or id(message))
        usage = Usage.of(message["usage"])
        previous = self._message_usage.pop(message_id, None)
        total = self.trace.usage
        if previous is not None:
            total = total.plus(previous, -1)
        self.trace.usage = total.plus(usage)
        self._message_usage[message_id] = usage
        if len(self._message_usage) > 256:
            self._message_usage.popitem(last=False)


def unreadable_output(runtime: str, detail: str) -> str:
    """The error of a run whose output the harness's reader could not take: our bug, not the skill's."""
    return (
        f"skillscope could not read {runtime}'s output ({detail}); this is a bug in skillscope, "
        "please report it"
    )


def explain_failure(trace: Trace) -> str | None:
    """One sentence saying why the run failed, or None when it did not."""
    if trace.api_error_status is not None:
        meaning = API_STATUS_MEANING.get(trace.api_error_status, "an error")
        return f"the API answered {trace.api_error_status} ({meaning})"
    if trace.result_seen and trace.is_error and trace.result_subtype == "success":
        detail = trace.final_message or "; ".join(trace.result_errors) or "no detail"
        return f"claude reported an error: {one_line(detail)}"
    if trace.result_seen or trace.stop_reason not in ("completed", "killed"):
        return None  # finished, or stopped on purpose by a policy
    stderr = one_line(trace.stderr_tail, tail=True)
    if trace.event_count == 0:
        if trace.exit_code:
            return f"claude exited {trace.exit_code} without any output: {stderr or 'no stderr'}"
        sample = one_line(trace.non_json_sample)
        return "claude produced no stream-json output" + (f": {sample}" if sample else "")
    how = "was killed" if trace.stop_reason == "killed" else f"exited {trace.exit_code}"
    return f"claude {how} before reporting a result" + (f": {stderr}" if stderr else "")


# --- small helpers -----------------------------------------------------------------


# Odd fields are read as absent, never trusted: one wrongly typed value from a CLI must not discard
# the run it reports on (a list where a count belongs, a number where text belongs).


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _count(value: Any) -> int:
    """A token count: a non-negative whole number, else 0 (a list, text, a bool, inf or NaN)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0
    if isinstance(value, float) and not math.isfinite(value):
        return 0
    return max(int(value), 0)


def _amount(value: Any) -> float | None:
    """A cost: a finite non-negative number, else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        amount = float(value)
    except OverflowError:  # an int past float range
        return None
    return amount if math.isfinite(amount) and amount >= 0 else None


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


def _blocks(message: Any) -> list[dict[str, Any]]:
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content or [] if isinstance(b, dict)]


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    return ""


def _skill_name(raw_input: Any) -> str:
    name = raw_input.get("skill") if isinstance(raw_input, dict) else None
    return str(name or "").strip().removeprefix("/")


def _status_in(text: str) -> int | None:
    # The CLI's synthetic error message reads "API Error: 529 ...".
    head = text.split("API Error:", 1)[-1].strip()[:3]
    return int(head) if head.isascii() and head.isdigit() else None


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
