"""The other runtimes' event readers on recorded lines: the exact-name rule and the Codex heuristic."""

from __future__ import annotations

import json

from harness.agent.codex import CodexEvents, skill_read_by
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
