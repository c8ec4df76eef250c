"""Any field of any agent's event may arrive with the wrong type: each runtime's reader turns such a
run into an error naming the event, never an internal error (exit 3), and never a graded verdict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.agent.claude_events import ClaudeEvents
from harness.agent.codex import CodexEvents
from harness.agent.copilot import CopilotEvents
from harness.agent.gemini import GeminiEvents
from harness.agent.opencode import OpenCodeEvents
from tests.support.examples import examples

READERS = [ClaudeEvents, CodexEvents, CopilotEvents, GeminiEvents, OpenCodeEvents]
INSTALLED = {"alpha": Path("/ws/.agents/skills/alpha")}
# The event and field names the five runtimes' streams use, so that the generated events reach the
# readers' branches rather than being skipped as unknown.
TYPES = [
    "system",
    "assistant",
    "user",
    "result",
    "item.started",
    "item.completed",
    "turn.completed",
    "thread.started",
    "error",
    "message",
    "tool_use",
    "tool_result",
    "init",
    "step_start",
    "step_finish",
    "text",
    "session.start",
    "assistant.message",
    "tool.execution_start",
    "tool.execution_complete",
]
KEYS = [
    "type",
    "subtype",
    "message",
    "content",
    "item",
    "usage",
    "part",
    "data",
    "tool",
    "name",
    "input",
    "id",
    "tool_use_id",
    "result",
    "is_error",
    "total_cost_usd",
    "skills",
    "tools",
    "model",
    "text",
    "command",
    "status",
    "output",
    "arguments",
    "state",
    "session_id",
    "parameters",
    "call_id",
]
ANY = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=4),
    max_leaves=6,
)
EVENT = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES)}, optional={k: ANY for k in KEYS if k != "type"}
)


# Every reader reads each drawn list: drawing the events is the test's cost, and each reader still
# meets 25 lists a run, as when each had a case (and a draw) of its own.
@settings(max_examples=examples(25), deadline=None)
@given(events=st.lists(EVENT, min_size=1, max_size=6))
def test_no_event_crashes_a_reader(events):
    lines = [json.dumps(event) for event in events]
    for reader in READERS:
        made = reader(INSTALLED)
        for line in lines:
            made.feed(line)
        trace = made.finish()
        assert trace.failure is None or isinstance(trace.failure, str), reader.__name__


@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.__name__)
@pytest.mark.parametrize("kind", ["assistant", "user"])
def test_a_message_whose_content_is_a_number_is_read_as_no_content(reader, kind):
    """The audit's case: `{"type":"assistant","message":{"content":1}}` crashed the trace builder."""
    made = reader(INSTALLED)
    made.feed(json.dumps({"type": kind, "message": {"content": 1}}))
    assert made.finish().activations == []
