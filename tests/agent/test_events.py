"""The other runtimes' event readers on recorded lines: the exact-name rule, the Codex heuristic, and
the path each read tool call read, named the same way whatever the runtime calls its tools."""

from __future__ import annotations

import json

import pytest

from harness.agent.codex import CodexEvents, file_read_by, skill_read_by
from harness.agent.copilot import CopilotEvents
from harness.agent.gemini import GeminiEvents
from harness.agent.opencode import OpenCodeEvents

ROOM = {"pdf": "/ws/.agents/skills/pdf", "pdf-tools": "/ws/.agents/skills/pdf-tools"}


def test_a_command_naming_exactly_one_installed_skill_file_is_the_decision():
    installed = set(ROOM)
    assert (
        skill_read_by("/bin/bash -lc 'cat /ws/.agents/skills/pdf-tools/SKILL.md'", installed) == "pdf-tools"
    )
    assert skill_read_by("sed -n 1,40p .agents/skills/pdf/SKILL.md", installed) == "pdf"
    assert (
        skill_read_by("cat .agents/skills/pdf/SKILL.md .agents/skills/pdf-tools/SKILL.md", installed) is None
    )
    assert skill_read_by("cat .agents/skills/*/SKILL.md", installed) is None
    assert skill_read_by("cat .agents/skills/ghost/SKILL.md", installed) is None
    assert skill_read_by("cat notes-pdf/SKILL.md.bak", installed) is None


def test_codex_confirms_on_a_zero_exit_and_counts_an_unlisted_read_as_inspection():
    reader = CodexEvents(ROOM)
    started = {"id": "item_1", "type": "command_execution", "command": "cat /ws/.agents/skills/pdf/SKILL.md"}
    reader.feed(json.dumps({"type": "item.started", "item": started}))
    assert reader.trace.decision is None  # decided, not yet confirmed
    done = {**started, "aggregated_output": "---\nname: pdf", "exit_code": 0}
    reader.feed(json.dumps({"type": "item.completed", "item": done}))
    assert (reader.trace.decision.name, reader.trace.decision.confirmed) == ("pdf", True)
    assert reader.trace.tool_calls[0].command == started["command"]
    other = CodexEvents(ROOM)
    ghost = {"id": "item_2", "type": "command_execution", "command": "cat .agents/skills/ghost/SKILL.md"}
    other.feed(json.dumps({"type": "item.started", "item": ghost}))
    assert other.trace.activations == [] and other.trace.inspection_calls == 1


def test_opencode_credits_exact_names_only_and_reads_usage_and_the_end():
    reader = OpenCodeEvents(ROOM)
    part = {
        "tool": "skill",
        "callID": "c1",
        "state": {"status": "error", "input": {"name": "pdf-tool"}, "error": 'Skill "pdf-tool" not found'},
    }
    reader.feed(json.dumps({"type": "tool_use", "sessionID": "s", "part": part}))
    decision = reader.trace.decision
    assert (decision.name, decision.confirmed) == ("other:pdf-tool", False)
    finish = {
        "type": "step_finish",
        "part": {"reason": "stop", "tokens": {"input": 7, "output": 3}, "cost": 0},
    }
    assert reader.ends_run(finish)
    reader.feed(json.dumps(finish))
    assert reader.trace.usage.input_tokens == 7 and reader.trace.usage.output_tokens == 3


@pytest.mark.parametrize(
    ("command", "read"),
    [
        ("/bin/bash -lc 'cat /ws/.agents/skills/pdf/SKILL.md'", "/ws/.agents/skills/pdf/SKILL.md"),
        ("sed -n '1,200p' notes.md", "notes.md"),
        ("head -n 50 data.csv", "data.csv"),
        ("nl -ba main.py", "main.py"),
        ("cat a.md b.md", None),  # two files: no one path says what the output holds
        ("cat a.md | grep x", None),
        ("ls .agents/skills", None),
        ("bash -lc 'cat x > y'", None),
    ],
)
def test_codex_names_the_one_file_a_printing_command_shows(command, read):
    assert file_read_by(command) == read


def test_each_runtimes_read_tools_fill_the_same_field():
    skill_md = "/ws/.agents/skills/pdf/SKILL.md"
    copilot = CopilotEvents(ROOM)
    start = {"toolCallId": "c1", "toolName": "view", "arguments": {"path": skill_md}}
    copilot.feed(json.dumps({"type": "tool.execution_start", "data": start}))
    search = {"toolCallId": "c2", "toolName": "grep", "arguments": {"pattern": "x", "paths": ["/ws/src"]}}
    copilot.feed(json.dumps({"type": "tool.execution_start", "data": search}))
    gemini = GeminiEvents(ROOM)
    use = {"tool_name": "read_file", "tool_id": "g1", "parameters": {"file_path": skill_md}}
    gemini.feed(json.dumps({"type": "tool_use", **use}))
    opencode = OpenCodeEvents(ROOM)
    state = {"status": "completed", "input": {"filePath": skill_md}, "output": "---\nname: pdf"}
    opencode.feed(json.dumps({"type": "tool_use", "part": {"tool": "read", "callID": "o1", "state": state}}))
    assert [c.read for c in copilot.trace.tool_calls] == [skill_md, "/ws/src"]
    assert [c.read for c in gemini.trace.tool_calls + opencode.trace.tool_calls] == [skill_md, skill_md]


def test_opencodes_skill_tool_read_the_skill_it_returns():
    reader = OpenCodeEvents(ROOM)
    state = {
        "status": "completed",
        "input": {"name": "pdf"},
        "output": '<skill_content name="pdf">\n# Skill: pdf\n…',
        "metadata": {"name": "pdf", "dir": "/ws/.agents/skills/pdf"},
    }
    reader.feed(json.dumps({"type": "tool_use", "part": {"tool": "skill", "callID": "s1", "state": state}}))
    (call,) = reader.trace.tool_calls
    assert call.skill_call and call.read == "/ws/.agents/skills/pdf"
