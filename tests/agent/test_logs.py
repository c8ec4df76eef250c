"""Kept agent logs read back (harness.agent.logs): for each of the five agent CLIs, driven for real
against the fake model API, the log a run keeps reads back into the trace the run itself produced (the
session's shared run of each runtime, tests/support/agent_runs.py)."""

from __future__ import annotations

import json

import pytest

from harness.agent import log_path
from harness.agent.logs import OPENERS, READERS, UnreadableLog, log_file, read_log, runtime_of
from tests.support.agent_runs import FINAL, SharedAgents


def calls(trace) -> list[tuple]:
    return [(c.name, c.input, c.result_text, c.is_error, c.command, c.written) for c in trace.tool_calls]


# A runtime's test shares the worker that makes its runs (nox runs --dist loadgroup).
@pytest.mark.parametrize(
    "runtime", [pytest.param(r, marks=pytest.mark.xdist_group(f"agent-{r}")) for r in sorted(READERS)]
)
def test_a_kept_log_reads_back_into_the_trace_of_its_run(shared: SharedAgents, runtime, tmp_path):
    # The shared run that calls an invented skill, then a real one, then answers on two lines.
    run = shared.run(runtime, "invented")
    live = run.trace
    assert live.failure is None, (live.failure, live.stderr_tail[-2000:])

    first = json.loads(run.log.read_text(encoding="utf-8").splitlines()[0])
    assert runtime_of(first) == runtime  # exactly one runtime's stream opens this way
    kept = read_log(run.log)
    assert kept.runtime == runtime and kept.ended == live.result_seen is True
    assert calls(kept.trace) == calls(live) and len(live.tool_calls) == 2
    assert kept.skill_calls == ["ghost-skill", "csv-report"]  # by the names the model gave
    # Codex has no skill tool: its live run knew the room and took the read of a SKILL.md it does not
    # hold for no activation; its log alone cannot tell, as it reads every SKILL.md read as one.
    live_calls = [a.raw_input_name for a in live.activations]
    assert live_calls == (["csv-report"] if runtime == "codex" else kept.skill_calls)
    assert kept.trace.final_message == live.final_message == FINAL
    assert kept.trace.usage == live.usage and kept.trace.cost_usd == live.cost_usd
    assert kept.trace.event_count == live.event_count and kept.error is None
    if runtime != "claude":  # the agent's own reader is the one the log is read with
        assert type(shared.agent(runtime).reader({})) is type(READERS[runtime]({}))

    log = tmp_path / "stopped.jsonl"  # a run stopped early
    log.write_text(
        "".join(run.log.read_text(encoding="utf-8").splitlines(keepends=True)[:2]), encoding="utf-8"
    )
    assert read_log(log).ended is False


OPENING_EVENTS = {  # the first event of each CLI's stream, as the pinned versions print it
    "claude": {"type": "system", "subtype": "init", "session_id": "s"},
    "copilot": {"type": "session.skills_loaded", "data": {"skills": []}},
    "codex": {"type": "thread.started", "thread_id": "t"},
    "gemini": {"type": "init", "session_id": "s", "model": "m"},
    "opencode": {"type": "step_start", "sessionID": "s", "part": {"type": "step-start"}},
}
OTHER_EVENTS = [  # later events of one stream that must not be taken for another's opening
    {"type": "assistant", "message": {}},
    {"type": "user", "message": {}},
    {"type": "result", "subtype": "success"},
    {"type": "message", "role": "assistant", "content": "x"},
    {"type": "tool_use", "tool_name": "x"},
    {"type": "text", "part": {"text": "x"}},
    {"type": "error"},
]


def test_each_stream_opening_names_exactly_one_runtime():
    assert set(OPENERS) == set(READERS) == set(OPENING_EVENTS)
    for runtime, event in OPENING_EVENTS.items():
        assert [name for name, opens in OPENERS.items() if opens(event)] == [runtime]
    for event in OTHER_EVENTS:
        assert sum(opens(event) for opens in OPENERS.values()) <= 1, event


def test_a_log_no_runtime_wrote_names_the_file_and_the_flag(tmp_path):
    log = tmp_path / "case.jsonl"
    log.write_text("Traceback (most recent call last):\n" + json.dumps({"type": "assistant"}) + "\n")
    with pytest.raises(UnreadableLog) as raised:
        read_log(log)
    assert str(raised.value).startswith(f"{log}: no agent CLI's stream opens this way")
    assert "--agent (claude, copilot, codex, gemini, opencode)" in str(raised.value)
    forced = read_log(log, "claude")
    assert forced.trace.non_json_lines == 1 and forced.ended is False
    hinted = tmp_path / "codex" / "case.jsonl"  # a multi-agent run keeps each agent's logs in its folder
    hinted.parent.mkdir()
    hinted.write_text(json.dumps({"type": "item.completed", "item": {}}) + "\n")
    assert read_log(hinted).runtime == "codex"


def test_undecodable_bytes_and_missing_files(tmp_path):
    log = tmp_path / "case.jsonl"
    log.write_bytes(b'{"type":"thread.started"}\n\xff\xfe not text\n')
    assert read_log(log).runtime == "codex"
    with pytest.raises(UnreadableLog, match="cannot be read"):
        read_log(tmp_path / "gone.jsonl")


@pytest.mark.parametrize("case_id", ["alpha-pos-1", "odd id/../x", ".hidden", "a" * 150])
def test_each_file_a_run_keeps_is_named_back_to_its_case(case_id, tmp_path):
    stem = log_path(tmp_path, case_id, "").name
    made = {  # the suffixes the routing and behavioral runners and the judge give log_path
        "jsonl": "run",
        "agent.jsonl": "agent",
        "attempt-2.agent.jsonl": "agent attempt 2",
        "judge.txt": "judge exchange",
    }
    for suffix, role in made.items():
        found = log_file(log_path(tmp_path, case_id, suffix))
        assert (found.stem, found.role) == (stem, role)
    judge = log_path(tmp_path, case_id, "")
    found = log_file(judge.with_name(f"{judge.name}.judge-1.jsonl"))
    assert (found.stem, found.role) == (stem, "judge attempt 1")
    assert log_file(tmp_path / "notes.md") is None


@pytest.mark.parametrize("runtime", sorted(READERS))
def test_every_reader_survives_a_line_nested_past_what_json_reads(runtime):
    reader = READERS[runtime]({})
    reader.feed("[" * 100_000)  # json itself gives up: the line is not JSON to the trace
    arguments = "[" * 500 + "]" * 500  # json reads it; the reader keeps 64 levels of it
    for event in (
        {"type": "tool.execution_start", "data": {"toolName": "bash", "toolCallId": "1", "arguments": 0}},
        {"type": "item.started", "item": {"type": "command_execution", "id": "1", "command": 0}},
        {"type": "tool_use", "tool_name": "bash", "tool_id": "1", "parameters": 0},
        {"type": "tool_use", "part": {"tool": "bash", "callID": "1", "state": {"input": 0}}},
        {
            "type": "assistant",
            "message": {"content": [{"type": "tool_use", "id": "1", "name": "x", "input": 0}]},
        },
    ):
        reader.feed(json.dumps(event).replace(": 0}", f": {arguments}}}", 1))
    assert reader.trace.non_json_lines == 1 and reader.trace.event_count == 5
