"""One agent CLI's JSON lines, read in order into a Trace: the base every runtime's reader fills.

The line rules (blank, not JSON, nested too deep) and what every runtime records the same way (a
tool call, the exact-name rule for a skill, its confirmation, usage, a reported error) live here;
each runtime's subclass maps its own events onto them.
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harness import nesting

from .failures import environment_failure
from .trace import (
    MAX_EVENT_DEPTH,
    NON_JSON_KEEP,
    RESULT_TEXT_KEEP,
    TOOL_CALLS_KEEP,
    Activation,
    ToolCall,
    Trace,
    Usage,
    bounded_input,
    clip_depth,
    cut,
    one_line,
)


class EventReader(ABC):
    """Feed one run's stdout lines in order; read `.trace` at any time, and `finish()` at the end.

    A runtime whose listing points the model at each skill's SKILL.md says `skill_file_decides`: there
    the first tool call naming exactly one installed `<name>/SKILL.md` is the decision, whether or not
    the read succeeded (a failed one is kept beside it, `Activation.read_failed`). Its
    `environment_failures` are the patterns, besides failures.ENVIRONMENT_FAILURES, by which its
    tools' output says the agent's own environment failed them.
    """

    skill_file_decides = False
    environment_failures: tuple[str, ...] = ()

    def __init__(self, installed: Mapping[str, Path | str], qualified: Mapping[str, str] | None = None):
        self.trace = Trace()
        self.installed = set(installed)
        # A plugin's skill is called `<plugin>:<skill>`: each such name of the room, with its skill.
        self.qualified = dict(qualified or {})
        self.pending: dict[str, ToolCall] = {}  # tool calls awaiting their result
        self.activation_by_call: dict[str, Activation] = {}

    def feed(self, line: str) -> dict[str, Any] | None:
        """Read one stdout line; returns its event, or None for a blank or non-JSON line."""
        stripped = line.strip()
        if not stripped:
            return None
        try:
            event = json.loads(stripped)
        except (ValueError, RecursionError):  # RecursionError: nested past what json can read
            event = None
        if not isinstance(event, dict):
            self.note_non_json(stripped)
            return None
        found: dict[str, Any] = event
        if nesting.deeper_than(found, MAX_EVENT_DEPTH):
            found = clip_depth(found, MAX_EVENT_DEPTH)  # a dict still: the limit is above one level
        self.trace.event_count += 1
        try:
            self.on_event(found)
        except (TypeError, AttributeError, ValueError, KeyError, IndexError) as exc:
            # Any field of an agent's event may have the wrong type: the run is an error, never a crash.
            kind = found.get("type") if isinstance(found.get("type"), str) else "untyped"
            self.trace.error = (  # kept only when it is the run's first error
                f"the agent's event {self.trace.event_count} ({kind}) "
                f"held a field of a type skillscope does not read ({type(exc).__name__}: {exc}); "
                "the run was not graded: rerun it, and report the CLI version if it recurs"
            )
        return found

    @abstractmethod
    def on_event(self, event: dict[str, Any]) -> None:
        """Record one event of the runtime's stream on the trace."""

    def ends_run(self, event: dict[str, Any]) -> bool:
        """This event is the runtime's last word: the run is over."""
        return False

    def result_reason(self) -> str:
        """The stop reason of a run that reached its last event ("budget" where a spend cap ended it)."""
        return "result"

    def finish(self) -> Trace:
        """The stream is over (or the run was stopped): settle what waited on a later event."""
        return self.trace

    def note_non_json(self, line: str) -> None:
        trace = self.trace
        trace.non_json_lines += 1
        room = NON_JSON_KEEP - len(trace.non_json_sample)
        if room > 0:
            trace.non_json_sample += line[:room] + "\n"

    # --- what subclasses record -------------------------------------------------------

    def call(
        self,
        call_id: str,
        name: str,
        input: Any,
        *,
        skill: str | None = None,
        parent: str | None = None,
        by_file: bool = False,
    ) -> ToolCall:
        """A tool call (`parent`: the subagent's call it runs inside); `skill` is the name it asks
        the skill tool for, when it is a top-level one (`by_file`: the name of the one SKILL.md it
        reads, where that is the decision)."""
        trace = self.trace
        made = ToolCall(
            id=call_id,
            name=name,
            input=bounded_input(input),
            parent_tool_use_id=parent,
            skill_call=skill is not None,
        )
        self.pending[call_id] = made
        if made.is_skill_inspection:
            trace.inspection_calls += 1
        elif made.counts_against_budget:
            trace.budget_tool_calls += 1
        if len(trace.tool_calls) < TOOL_CALLS_KEEP:
            trace.tool_calls.append(made)
        else:
            trace.dropped_tool_calls += 1
        if skill is not None:
            self.decide(call_id, skill).by_file = by_file
        return made

    def decide(self, call_id: str, raw_name: str) -> Activation:
        """The model picked a skill by name: installed names match exactly, anything else is other:."""
        called = raw_name.strip().removeprefix("/")
        name = self.qualified.get(called, called)
        known = name if name in self.installed else f"other:{name}"
        activation = Activation(name=known, raw_input_name=called, tool_use_id=call_id)
        self.trace.activations.append(activation)
        self.activation_by_call[call_id] = activation
        return activation

    def answer(self, call_id: str, text: str, *, ok: bool) -> None:
        """A tool call's result; for a skill call it confirms (or refutes) the activation."""
        made = self.pending.pop(call_id, None)
        if made is not None:
            made.result_text = cut(text, RESULT_TEXT_KEEP)
            made.is_error = not ok
            made.answered = True
            if not ok:
                made.environment_failure = environment_failure(text, self.environment_failures)
            self.read_decides(made)
        activation = self.activation_by_call.pop(call_id, None)
        if activation is not None:
            activation.confirmed = ok and activation.installed
            activation.error_text = None if ok else cut(text, 500)
            activation.settled = True

    def read_decides(self, made: ToolCall) -> None:
        """Where `skill_file_decides`: a call naming one installed SKILL.md, before any decision, is it."""
        if not self.skill_file_decides or made.skill_call or self.trace.activations:
            return
        named = skill_read_by(made.read or made.command or "", self.installed)
        if named is not None:
            self.decide(made.id, named).by_file = True

    def add_usage(self, input_tokens: int = 0, output_tokens: int = 0, cache_read: int = 0) -> None:
        self.trace.usage = self.trace.usage.plus(
            Usage(input_tokens=input_tokens, output_tokens=output_tokens, cache_read_input_tokens=cache_read)
        )

    def fail(self, message: str, status: int | None = None) -> None:
        """The runtime reported an error (usually the model API's)."""
        trace = self.trace
        trace.is_error = True
        trace.result_errors.append(one_line(message))
        if status is not None and trace.api_error_status is None:
            trace.api_error_status = status


def status_in(text: str) -> int | None:
    """An HTTP status an error message carries (`"code": 429`, `status 503`), if any."""
    match = re.search(r"(?:\"code\"|status(?:Code)?)\W{0,3}([45]\d\d)\b", text)
    return int(match.group(1)) if match else None


def skill_read_by(text: str, installed: set[str]) -> str | None:
    """The one installed skill whose `<name>/SKILL.md` a command or path names, else None."""
    named = [n for n in installed if re.search(rf"(?:^|[/\s'\"]){re.escape(n)}/SKILL\.md", text)]
    return named[0] if len(named) == 1 else None
