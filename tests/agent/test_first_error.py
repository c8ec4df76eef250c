"""An error once set on a trace is the run's error: no later step (another event, the end of the stream,
a success result, the process's exit) clears or rewords it, so a broken run is never graded."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.agent import ClaudeEvents
from harness.agent.process import Streamed
from harness.agent.runtime import ended
from harness.agent.trace import Trace
from tests.agent.test_trace import INSTALLED, WS, assistant, base_dir, result_event, tool_use
from tests.support.examples import examples

SUCCESS = json.dumps({"type": "result", "subtype": "success", "is_error": False, "result": "done"})
NOT_GRADED = "the run was not graded"


def alias_with_a_nul_base_dir() -> list[str]:
    """A Skill call by an alias whose base directory holds a NUL: resolving it raises in the reader."""
    return [
        assistant(tool_use("t1", "Skill", {"skill": "front"})),
        result_event("t1", "Launching skill: front", structured={"success": True}),
        base_dir(str(WS / ".claude/skills/dirname") + "\x00x"),
    ]


def read(lines: list[str]) -> ClaudeEvents:
    reader = ClaudeEvents(INSTALLED)
    for line in lines:
        reader.feed(line)
    return reader


def test_a_malformed_event_then_a_success_result_is_not_graded():
    reader = read([*alias_with_a_nul_base_dir(), SUCCESS])
    first = reader.trace.error
    assert first is not None and NOT_GRADED in first
    trace = ended("claude", reader, Streamed("result", 0, "", 1.0), 60)
    assert trace.result_seen and not trace.is_error
    assert trace.error == first and trace.failure == first


# Every way the end of a run words an error of its own: each comes after the reader's, and loses to it.
ENDINGS = {
    "success": Streamed("result", 0, "", 1.0),
    "timeout": Streamed("timeout", -9, "", 1.0),
    "cancelled": Streamed("cancelled", -15, "", 1.0),
    "killed": Streamed("killed", -9, "boom", 1.0),
    "crashed": Streamed("completed", 3, "stack trace", 1.0),
    "unreadable output": Streamed("unreadable", None, "", 1.0, unreadable="a line of 9 GB"),
}


@pytest.mark.parametrize("how", ENDINGS)
def test_no_ending_of_the_run_replaces_the_readers_error(how: str):
    reader = read(alias_with_a_nul_base_dir())
    first = reader.trace.error
    assert first is not None
    assert ended("claude", reader, ENDINGS[how], 60).failure == first


def test_a_second_malformed_event_keeps_the_first_ones_error():
    reader = read(alias_with_a_nul_base_dir())
    first = reader.trace.error
    reader.feed(json.dumps({"type": "assistant", "message": {"content": 7}}))
    assert reader.trace.event_count == 4 and reader.trace.error == first


errors = st.one_of(st.none(), st.text(min_size=1, max_size=20))


@settings(max_examples=examples(300), derandomize=True)
@given(st.lists(errors, max_size=8))
def test_a_traces_error_is_the_first_one_set_whatever_is_set_after(sets: list[str | None]):
    trace = Trace()
    for value in sets:
        trace.error = value
    assert trace.error == next((v for v in sets if v is not None), None)


def test_a_trace_built_with_an_error_keeps_it():
    trace = Trace(error="claude produced no JSON output")
    trace.error = None
    trace.error = "something later"
    assert trace.failure == "claude produced no JSON output"
