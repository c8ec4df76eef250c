"""`claude -p --output-format stream-json` lines -> a Trace: claude's EventReader.

Claude's own facts about its stream live here: the Skill tool's launch message and the base
directory it injects after it, the tools that run a command, write or read a file, the result
event with its cost, and a tool output saved aside to a file.
"""

from __future__ import annotations

import math
import os
import re
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .events import EventReader
from .failures import environment_failure
from .trace import RESULT_TEXT_KEEP, SKILL_TOOL, Activation, InitInfo, Trace, Usage, cut, normalise

BASE_DIR_PREFIX = "Base directory for this skill:"
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
INJECTED_KEEP = 1024 * 1024  # chars of injected skill bodies kept in total
MESSAGES_KEPT = 256  # message ids remembered to count each message's usage once


class ClaudeEvents(EventReader):
    """Feed stream-json lines in order; read `.trace` at any time."""

    def __init__(self, installed: Mapping[str, Path | str], qualified: Mapping[str, str] | None = None):
        super().__init__(installed, qualified)
        self.directories = {name: os.path.realpath(path) for name, path in installed.items()}
        self.awaiting_base_dir: Activation | None = None
        self.message_usage: OrderedDict[str, Usage] = OrderedDict()
        self.last_assistant_text: str | None = None
        self.injected_chars = 0

    def ends_run(self, event: dict[str, Any]) -> bool:
        return event.get("type") == "result"

    def result_reason(self) -> str:
        return "budget" if self.trace.result_subtype == "error_max_budget_usd" else "result"

    def finish(self) -> Trace:
        """A launch still waiting for its base directory is settled; without a result event the
        final message is the last assistant text."""
        self._settle_base_dir_wait()
        if self.trace.final_message is None:
            self.trace.final_message = self.last_assistant_text
        return self.trace

    # --- events ---------------------------------------------------------------------

    def on_event(self, event: dict[str, Any]) -> None:
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
            # a plugin's `<plugin>:<skill>` counts as the room skill it installs
            skills=[self.qualified.get(str(s).removeprefix("/"), str(s)) for s in _list(event.get("skills"))],
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
                self.last_assistant_text = _text(block.get("text"))
                if event.get("error") and self.trace.api_error_status is None:
                    self.trace.api_error_status = _status_in(_text(block.get("text")) or "")
            elif block.get("type") == "tool_use":
                self._on_tool_use(block, parent)

    def _on_tool_use(self, block: dict[str, Any], parent: str | None) -> None:
        name = str(block.get("name") or "")
        top_level_skill = name == SKILL_TOOL and parent is None
        made = self.call(
            str(block.get("id") or ""),
            name,
            block.get("input"),
            skill=_skill_name(block.get("input")) if top_level_skill else None,
            parent=parent,
        )
        made.skill_call = name == SKILL_TOOL  # a subagent's Skill call too, though never a decision
        normalise(made, SHELL_TOOLS, WRITE_TOOLS, READ_TOOLS)

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
        call = self.pending.pop(tool_use_id, None)
        if text and (saved := PERSISTED_OUTPUT.search(text[:PERSISTED_HEAD])) is not None:
            self.trace.cli_files.append(saved.group(1))
        if call is not None:
            call.result_text = cut(text, RESULT_TEXT_KEEP)
            call.is_error = is_error
            call.answered = True
            if is_error:
                call.environment_failure = environment_failure(text, self.environment_failures)
            call.denied_hosts = denied_hosts(text)
        activation = self.activation_by_call.pop(tool_use_id, None)
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
            self.awaiting_base_dir = activation
        else:
            self.awaiting_base_dir = activation  # an alias resolves through its base dir

    def _on_base_dir(self, text: str) -> None:
        activation = self.awaiting_base_dir
        self.awaiting_base_dir = None
        if activation is None:
            return
        base_dir = text[len(BASE_DIR_PREFIX) :].split("\n", 1)[0].strip()
        activation.base_dir = base_dir
        real = os.path.realpath(base_dir)
        for name, path in self.directories.items():
            if path == real:
                activation.name = name
                break
        activation.settled = True

    def _settle_base_dir_wait(self) -> None:
        if self.awaiting_base_dir is not None:
            self.awaiting_base_dir.settled = True
            self.awaiting_base_dir = None

    def _keep_injected(self, text: str) -> None:
        room = INJECTED_KEEP - self.injected_chars
        if room > 0:
            kept = text[:room]
            self.trace.injected_skill_text.append(kept)
            self.injected_chars += len(kept)

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
        previous = self.message_usage.pop(message_id, None)
        total = self.trace.usage
        if previous is not None:
            total = total.plus(previous, -1)
        self.trace.usage = total.plus(usage)
        self.message_usage[message_id] = usage
        if len(self.message_usage) > MESSAGES_KEPT:
            self.message_usage.popitem(last=False)


# Odd fields are read as absent, never trusted: one wrongly typed value from a CLI must not discard
# the run it reports on (a list where a count belongs, a number where text belongs).


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _amount(value: Any) -> float | None:
    """A cost: a finite non-negative number, else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        amount = float(value)
    except OverflowError:  # an int past float range
        return None
    return amount if math.isfinite(amount) and amount >= 0 else None


def _blocks(message: Any) -> list[dict[str, Any]]:
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    return ""


def _skill_name(raw_input: Any) -> str:
    name = raw_input.get("skill") if isinstance(raw_input, dict) else None
    return str(name or "")


def _status_in(text: str) -> int | None:
    # The CLI's synthetic error message reads "API Error: 529 ...".
    head = text.split("API Error:", 1)[-1].strip()[:3]
    return int(head) if head.isascii() and head.isdigit() else None


# How claude's sandbox logs a connection its network allowlist refused, in the command's result:
# `<sandbox_violations> deny network-outbound host:port ...`.
DENIED_CONNECTION = re.compile(r"deny network-outbound (\[[0-9a-fA-F:]+\]|[^\s:]+)(?::\d+)?")


def denied_hosts(text: str) -> list[str]:
    """The hosts claude's sandbox says it refused the command, in order, each once."""
    return list(dict.fromkeys(m.group(1).strip("[]") for m in DENIED_CONNECTION.finditer(text)))
